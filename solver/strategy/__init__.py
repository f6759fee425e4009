"""Strategies people can play: a strategy card (ordered rules a person follows at the table, a
TOML file: docs/strategy.md) and its exact cost against optimal play. Its modules (the map of
the whole package: docs/design.md §11):

- ``card``: the file format, its conditions and actions (``load``, ``load_for``, ``parse``,
  ``StrategyCard``);
- ``hands``: what a person sees of every deal at once (``Seen``);
- ``keep``: an exchange stated by what it keeps, resolved to each deal's cards (``Keep``);
- ``after_draw``: the bet or fold after a draw, as a table by final strength and up-card rank;
- ``check``: the card played over the full cycle, exactly (``check``, ``CardCheck``);
- ``departing``: under rules with draws, the deals a card plays otherwise than the table's best,
  played out both ways;
- ``draw_gains``: what betting each final strength of a card's draws gains over folding it;
- ``later_play``: the insurance and buying a game a card states, as a person plays them;
- ``at_once``: a checked card's repairs where betting or folding at once loses less than its own
  later rules make of a draw (``whole_lines``, ``split_lines``);
- ``kept``: the work files of a check or a derive, sealed and read back;
- ``vocabulary``: the conditions a derived card may state and its lines (``atoms``, ``Line``);
- ``derive`` (a package): a card of at most N lines derived from optimal play (``derive_card``,
  ``write_derived``, ``parse_sizes``);
- ``rendering``: a check as text and as JSON;
- ``advice``: what a card says on one deal beside the best play, exactly (``first``,
  ``final_after_draw``, ``buy``).
"""

from .card import FIRST_ACTIONS, Rule, StrategyCard, load, load_for, parse, shipped
from .check import CardCheck, Departure, LineCost, check
from .derive import CURVE, Derived, parse_sizes
from .derive import derive as derive_card
from .derive import write as write_derived
from .derive.charting import write_chart as derive_chart
from .hands import Seen
from .rendering import to_json, to_text

__all__ = ["CURVE", "FIRST_ACTIONS", "CardCheck", "Departure", "Derived", "LineCost", "Rule", "Seen", "StrategyCard",
           "check", "derive_card", "derive_chart", "load", "load_for", "parse", "parse_sizes",
           "shipped", "to_json", "to_text", "write_derived"]
