"""A trainer session in a terminal-like front end (``rpoker train``): the deal and the question
shown, the answer read, its score and the card's action said."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path

from ..cards import RANKS, format_cards
from ..category import PAIR
from ..errors import InputError
from ..hand import evaluate
from ..rules import Rules
from ..rules import load as load_rules
from ..strategy import StrategyCard, load_for
from .round import AFTER_DRAW, FIRST, INSURANCE, QUESTIONS, QUIT, Decision, Round, deals, hand_group
from .score import History, Score, focus_groups, read_history, session_name


def antes(x: Fraction) -> str:
    """An EV in antes for people: six decimals, more where a nonzero value would show as zero."""
    if x != 0 and abs(x) < Fraction(1, 2_000_000):
        return f"{float(x):+.3e}"
    return f"{float(x):+.6f}"


def _said(d: Decision) -> list[str]:
    lines = [f"  you:  {d.choice:<40} EV {antes(d.ev)}", f"  best: {d.best:<40} EV {antes(d.best_ev)}",
             "  right" if d.right else f"  you gave up {antes(d.lost)[1:]} antes"]
    if d.card is not None and d.card_ev is not None:
        lines.append(f"  card: {d.card:<40} EV {antes(d.card_ev)}")
    return lines


def _asked(r: Round) -> str:
    """What the player sees before the question ``r`` asks next."""
    if r.question == FIRST:
        hand, up = format_cards(r.deal.hand), format_cards([r.deal.up_card])
        return f"hand {r.deal.index}: {hand}   up-card {up}   ({hand_group(r.deal.hand, r.rules)})"
    if r.question == AFTER_DRAW:
        value = evaluate(r.final, r.rules)
        made = f"pair of {RANKS[value.main[0] >> 2]}s" if value.category == PAIR else value.category_label
        return f"drawn {format_cards(r.drawn)}: your hand {format_cards(sorted(r.final, reverse=True))} ({made})"
    if r.question == INSURANCE:
        return f"insure against the dealer not qualifying? the most: {r.insurance_size()} antes"
    return f"the dealer: {format_cards(r.deal.dealer)}, no game"


def play(ask: Callable[[str], str], say: Callable[[str], None], rules: Rules, seed: int, hands: int | None = None,
         card: StrategyCard | None = None, history: History | None = None, focus: Sequence[str] = ()) -> Score:
    """A session in a terminal-like front end: ``ask`` prompts and returns the answer (EOFError or
    KeyboardInterrupt end the session), ``say`` shows a line. Plays ``hands`` deals (None: until
    the player quits), scores each answer, appends it to ``history`` and ends with the summary."""
    score = Score()
    name = card.name if card is not None else None
    if name is not None:
        say(f"card: {name}")
    try:
        for deal in deals(seed, rules, focus):
            if hands is not None and score.hands >= hands:
                break
            r = Round(deal, rules, card)
            while r.question is not None:
                say(_asked(r))
                text = ask(f"{QUESTIONS[r.question]}> ")
                if text.strip().lower() in QUIT:
                    raise EOFError
                try:
                    d = r.answer(text)
                except InputError as e:
                    say(f"  {e}")
                    continue
                for line in _said(d):
                    say(line)
                score.add(d, deal.up_card)
                if history is not None:
                    history.add(d, r, seed, name)
            score.end_round(r)
            say(f"the dealer: {format_cards(deal.dealer)}; {r.outcome}: {r.result:+d} antes")
            say(f"  {score.line()}")
            say("")
    except (EOFError, KeyboardInterrupt):
        say("")
    say(score.summary().rstrip("\n"))
    return score


def train(ask: Callable[[str], str], say: Callable[[str], None], history: Path, rules: str | None = None,
          card: str | None = None, seed: int | None = None, hands: int | None = None, focus: bool = False) -> Score:
    """``rpoker train``: the session :func:`play` plays, set up from what the player named.

    ``rules`` (a preset or a file; None: the card's own, else russian), ``card`` (a file or an
    installed name; it must be for those rules), ``seed`` (None: a new one, said so that the player
    can deal the same hands again), ``focus`` (deal more of the groups where ``history`` lost most)."""
    r = load_rules(rules) if rules else None
    found = load_for(card, r) if card else None
    r = r or load_rules(found.rules if found is not None else "russian")
    groups = focus_groups(read_history(history)) if focus else []
    if focus:
        say(f"focus: {', '.join(groups)}" if groups else "focus: no mistakes in the history yet, dealing at random")
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    say(f"rules {r.name}, seed {seed} (--seed {seed} deals these again); history {history}")
    log = History(history, session_name())
    try:
        return play(ask, say, r, seed, hands, found, log, groups)
    finally:
        log.close()
