"""The exact cost of a strategy card against optimal play, over the full cycle of deals.

Every class of (hand, up-card) is decided by the card's first matching rule; the bet of each
class is counted exactly by the kernel (``report.class_counts``: its best insurance and buys
included), so the card's EV, its return table and its cost against optimal play are exact
fractions, and the cost is the sum of what each class loses (checked against the difference of
the two EVs). So far for rules without an exchange or a sixth card, where the first decision is
the only one a person makes (Caribbean Stud and its kind).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from ..cards import RANK_NAMES, format_cards
from ..category import LABELS
from ..classes import enumerate_classes, rank_order
from ..counts import BET
from ..errors import InputError
from ..report.counting import Counts, Strategy, class_counts, optimal_bet, strategy
from ..returns import exact_total
from ..rules import Rules
from .card import Rule, StrategyCard
from .hands import Seen

DEPARTURES = 10
"""How many of the costliest departures a check lists."""


@dataclass(frozen=True)
class LineCost:
    """What one rule of the card decides: deals, those where its action is not the best, and
    the EV per ante they lose against optimal play (over every deal of the cycle)."""

    rule: Rule
    deals: int
    departures: int
    cost: Fraction


@dataclass(frozen=True)
class Departure:
    """Deals of one hand (ranks, category) against one up-card rank where the card's first action
    is not the best: how many, what each loses (per ante), and its share of the card's cost."""

    hand: str
    up: str
    action: str
    best: str
    deals: int
    loss: Fraction
    cost: Fraction


@dataclass(frozen=True)
class CardCheck:
    """A strategy card played over the full cycle, next to optimal play."""

    card: StrategyCard
    rules: Rules
    played: Strategy
    optimal: Strategy
    differ: int                          # deals whose first action is not the best
    lines: tuple[LineCost, ...]
    departures: tuple[Departure, ...]

    @property
    def cost(self) -> Fraction:
        """EV per ante lost against optimal play."""
        return self.optimal.ev - self.played.ev


def check(card: StrategyCard, rules: Rules, jobs: int = 1, progress: Callable[[int, int], None] | None = None,
          counts: Counts | None = None) -> CardCheck:
    """Play ``card`` under ``rules`` over every deal, exactly (``counts``: the classes' bet counts
    of these rules, ``report.class_counts``, when they are at hand)."""
    if rules.draws:
        raise InputError(f"the rules {rules.name!r} offer an exchange or a sixth card: rpoker strategy check counts "
                         "strategies for rules without them so far (Caribbean Stud and its kind)")
    c = counts if counts is not None else class_counts(rules, jobs, progress)
    hands, ups, seen = _classes()
    line = card.decide(seen)
    if (line < 0).any():
        k = int(np.argmax(line < 0))
        raise InputError(f"strategy file {card.path}: no rule decides {format_cards(hands[k].tolist())} against "
                         f"the up-card {RANK_NAMES[int(ups[k]) >> 2]}: end the card with a rule without conditions")
    best = optimal_bet(c)
    action = np.asarray([r.action for r in card.first])[line]
    bet = np.where(action == "optimal", best, action == "bet")
    played = strategy(card.name, c, rules, bet)
    optimal = strategy("optimal", c, rules, best)
    # what each class loses: values over n * den, the same for every class of a full deck
    n, den, value = (c.counts[:, BET[k]] for k in ("n", "den", "value"))
    unit = int(n[0]) * int(den[0])
    loss = np.maximum(value, -n * den) - np.where(bet, value, -n * den)
    total = int(c.weight.sum())
    cost = Fraction(exact_total(c.weight, loss), total * unit)
    if cost != optimal.ev - played.ev:
        raise AssertionError("the losses of the classes do not add up to the difference of the EVs")
    differ = bet != best
    lines = tuple(LineCost(rule, int(c.weight[line == i].sum()), int(c.weight[(line == i) & differ].sum()),
                           Fraction(exact_total(c.weight[line == i], loss[line == i]), total * unit))
                  for i, rule in enumerate(card.first))
    return CardCheck(card, rules, played, optimal, int(c.weight[differ].sum()), lines,
                     _departures(seen, c.weight, loss, bet, total, unit, cost))


@cache
def _classes() -> tuple[np.ndarray, np.ndarray, Seen]:
    """Every class in the order of ``report.class_counts``, and what a person sees of it."""
    hands, ups, _ = enumerate_classes()
    order = rank_order(hands, ups)
    hands, ups = hands[order], ups[order]
    return hands, ups, Seen.of(hands, ups)


def _departures(seen: Seen, weight: np.ndarray, loss: np.ndarray, bet: np.ndarray, total: int, unit: int,
                cost: Fraction) -> tuple[Departure, ...]:
    """The costliest departures, by hand (ranks and category) and up-card rank (``seen``: of
    every class, as ``_classes``)."""
    lost = np.flatnonzero(loss > 0)
    if not len(lost):
        return ()
    ranks, category, up = seen.ranks[lost], seen.category[lost], seen.up[lost]
    key = ((ranks @ (13 ** np.arange(4, -1, -1))) * 11 + category) * 13 + up
    keys, group = np.unique(key, return_inverse=True)
    weighted = weight[lost].astype(np.float64) * loss[lost]
    rough = np.bincount(group, weighted)
    out = []
    for g in np.argsort(-rough, kind="stable")[:DEPARTURES]:
        members = lost[group == g]
        first = int(np.flatnonzero(group == g)[0])
        deals = int(weight[members].sum())
        lost_total = exact_total(weight[members], loss[members])
        named = " ".join(RANK_NAMES[r] for r in ranks[first])
        action = "bet" if bet[members[0]] else "fold"
        out.append(Departure(f"{named} ({LABELS[int(category[first])]})", RANK_NAMES[int(up[first])],
                             action, "fold" if action == "bet" else "bet", deals, Fraction(lost_total, deals * unit),
                             Fraction(lost_total, total * unit) / cost if cost else Fraction(0)))
    return tuple(out)

