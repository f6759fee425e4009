"""The trainer's core (``rpoker train``): seeded deals, one round's decisions each scored
exactly, the running score, the history of sessions and the deals that focus on a player's
mistakes. Front ends (the terminal's ``play``, a page) ask the questions and show the answers.

A round asks, in the order of the game: the first decision (fold, bet, a sixth card or the cards
to keep), after a draw the bet or fold, the insurance where the final hand may insure, and buying
the dealer a game where the dealer does not qualify (``round``); ``score`` keeps the score and
the history; ``session`` plays a session in a terminal (``train`` sets one up from
what the player named).
"""

from .round import (
           AFTER_DRAW,
           BUY,
           FIRST,
           HINTS,
           INSURANCE,
           QUESTIONS,
           Deal,
           Decision,
           Round,
           deals,
           hand_group,
           parse_first,
)
from .score import History, Score, focus_groups, history_path, read_history, session_name, stats
from .session import antes, play, train

__all__ = ["AFTER_DRAW", "BUY", "FIRST", "HINTS", "INSURANCE", "QUESTIONS", "Deal", "Decision", "History", "Round",
           "Score", "antes", "deals", "focus_groups", "hand_group", "history_path", "parse_first", "play",
           "read_history", "session_name", "stats", "train"]
