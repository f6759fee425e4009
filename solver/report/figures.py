"""Every figure of the report of one set of rules, exact."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..category import (
    AK,
    CATEGORIES,
    PAIR,
)
from ..hand import STRENGTH_CATEGORY
from ..rules import Rules
from ..tables import Table
from .counting import CYCLE, Bonus, Counts, Strategy, bonus_return, class_counts, optimal_bet, strategy
from .from_table import TablePlay, table_play


@dataclass(frozen=True)
class Figures:
    """Every figure of the report of one set of rules, exact (fractions and integers), over the
    full cycle of ``CYCLE`` (deal, dealer completion) pairs."""

    rules: Rules
    closed_box: Strategy                       # bet at once, no options
    fixed: tuple[Strategy, ...]                # raise on everything, on a pair or better, on AK or better
    optimal: Strategy | None                   # counted, or played out from the table; None: not computed
    bonus: Bonus
    table_play: TablePlay | None = None        # the optimal play from a strategy table (rules with draws)
    bet_by_category: dict[str, Fraction] = field(default_factory=dict)  # rules without draws
    cycle: int = CYCLE


def figures(rules: Rules, c: Counts, table: TablePlay | None = None) -> Figures:
    """Every figure of the report for these rules; ``table``: the optimal play of rules with
    exchanges or a sixth card, from their strategy table."""
    strength_cat = STRENGTH_CATEGORY[c.strength]
    closed_box = strategy("closed box (bet at once, no options)", c, rules, np.ones(len(c.weight), bool), closed=True)
    fixed = [("raise on everything", strength_cat >= 0), ("raise on a pair or better", strength_cat >= PAIR),
             ("raise on AK or better", strength_cat >= AK)]
    optimal = None
    by_category = {}
    if not rules.draws:
        bet = optimal_bet(c)
        optimal = strategy("optimal", c, rules, bet)
        by_category = {CATEGORIES[k]: Fraction(int(c.weight[bet & (strength_cat == k)].sum()),
                                               int(c.weight[strength_cat == k].sum()))
                       for k in range(len(CATEGORIES)) if (strength_cat == k).any()}
    if table is not None and table.results is not None:
        optimal = Strategy.of("optimal (played out from the table)", table.results, CYCLE)
    return Figures(rules, closed_box, tuple(strategy(name, c, rules, bet) for name, bet in fixed), optimal,
                   bonus_return(rules), table, by_category)


def report_figures(rules: Rules, table: Table | None = None, jobs: int = 1,
                   progress: Callable[[int, int], None] | None = None) -> Figures:
    """Every figure of the report of ``rules`` (as ``figures``): counted over every class, and
    for rules with exchanges or a sixth card the optimal play of their complete ``table``
    (``tables.locate`` finds it; without one those figures are left out)."""
    play = None
    if table is not None and rules.draws:
        table.check_rules(rules)
        play = table_play(table, rules)
    return figures(rules, class_counts(rules, jobs, progress), play)
