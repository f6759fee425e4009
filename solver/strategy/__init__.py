"""Strategies people can play: a strategy card (ordered rules a person follows at the table, a
TOML file: docs/strategy.md) and its exact cost against optimal play.

- ``card``: the file format, its conditions and actions (``load``, ``parse``, ``StrategyCard``);
- ``hands``: what a person sees of every deal at once (``Seen``);
- ``keep``: an exchange stated by what it keeps, resolved to each deal's cards (``Keep``);
- ``check``: the card played over the full cycle, exactly (``check``, ``CardCheck``);
- ``departing``: under rules with draws, the deals a card plays otherwise than the table's best,
  played out both ways;
- ``derive``: a card of at most N lines derived from optimal play (``derive``, ``write_derived``);
- ``vocabulary``: the conditions a derived card may state and its lines (``atoms``, ``Line``);
- ``at_once``: a checked card's repairs where betting or folding at once loses less than its own
  later rules make of a draw (``whole_lines``, ``split_lines``);
- ``rendering``: a check as text and as JSON.
"""

from .card import FIRST_ACTIONS, Rule, StrategyCard, load, parse, shipped
from .check import CardCheck, Departure, LineCost, check
from .derive import CURVE, Derived, derive
from .derive import write as write_derived
from .hands import Seen
from .rendering import to_json, to_text

__all__ = ["CURVE", "FIRST_ACTIONS", "CardCheck", "Departure", "Derived", "LineCost", "Rule", "Seen", "StrategyCard",
           "check", "derive", "load", "parse", "shipped", "to_json", "to_text", "write_derived"]
