"""Every figure of the report of one set of rules, exact."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from ..category import (
    AK,
    CATEGORIES,
    PAIR,
)
from ..hand import STRENGTH_CATEGORY
from ..rules import Rules
from ..tables import Table
from .counting import CYCLE, Counts, Strategy, bonus_return, class_counts, optimal_bet, strategy
from .play import TablePlay, table_play


def figures(rules: Rules, c: Counts, table: TablePlay | None = None) -> dict[str, Any]:
    """Every figure of the report for these rules, exact (fractions and integers); ``table``:
    the optimal play of rules with exchanges or a sixth card, from their strategy table."""
    strength_cat = STRENGTH_CATEGORY[c.strength]
    out: dict[str, Any] = {"rules": rules, "cycle": CYCLE}
    out["closed_box"] = strategy("closed box (bet at once, no options)", c, rules, np.ones(len(c.weight), bool),
                                 closed=True)
    fixed = [("raise on everything", strength_cat >= 0), ("raise on a pair or better", strength_cat >= PAIR),
             ("raise on AK or better", strength_cat >= AK)]
    out["fixed"] = [strategy(name, c, rules, bet) for name, bet in fixed]
    out["optimal"] = None
    if not rules.draws:
        bet = optimal_bet(c)
        out["optimal"] = strategy("optimal", c, rules, bet)
        out["bet_by_category"] = {CATEGORIES[k]: Fraction(int(c.weight[bet & (strength_cat == k)].sum()),
                                                          int(c.weight[strength_cat == k].sum()))
                                  for k in range(len(CATEGORIES)) if (strength_cat == k).any()}
    if table is not None and table.results is not None:
        out["optimal"] = Strategy.of("optimal (played out from the table)", table.results, CYCLE)
    out["table_play"] = table
    out["bonus"] = bonus_return(rules)
    return out


def report_figures(rules: Rules, table: Table | None = None, jobs: int = 1,
                   progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Every figure of the report of ``rules`` (as ``figures``): counted over every class, and
    for rules with exchanges or a sixth card the optimal play of their complete ``table``
    (``tables.locate`` finds it; without one those figures are left out)."""
    play = None
    if table is not None and rules.draws:
        table.check_rules(rules)
        play = table_play(table, rules)
    return figures(rules, class_counts(rules, jobs, progress), play)
