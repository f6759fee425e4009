"""Strategies people can play: a strategy card (ordered rules a person follows at the table, a
TOML file: docs/strategy.md) and its exact cost against optimal play.

- ``card``: the file format, its conditions and actions (``load``, ``parse``, ``StrategyCard``);
- ``hands``: what a person sees of every deal at once (``Seen``);
- ``check``: the card played over the full cycle, exactly (``check``, ``CardCheck``);
- ``rendering``: a check as text and as JSON.
"""

from .card import FIRST_ACTIONS, Rule, StrategyCard, load, parse, shipped
from .check import CardCheck, Departure, LineCost, check
from .hands import Seen
from .rendering import to_json, to_text

__all__ = ["FIRST_ACTIONS", "CardCheck", "Departure", "LineCost", "Rule", "Seen", "StrategyCard", "check", "load",
           "parse", "shipped", "to_json", "to_text"]
