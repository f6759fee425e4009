"""The exact cost of a strategy card against optimal play, over the full cycle of deals.

Every class of (hand, up-card) is decided by the card's first matching rule, whose action is
resolved to the class's cards (``StrategyCard.codes``). Under rules without an exchange or a
sixth card the bet of each class is counted exactly by the kernel (``report.class_counts``: its
best insurance and buys included). Under rules with them, the rules' strategy table gives the
best action of each class and optimal play's results, and the classes the card plays otherwise
are played out both ways (``departing``); the later decisions (the bet or fold after the draw,
the insurance, buying a game) are the solver's unless the card states them (``[[after_draw]]``,
``insurance``, ``buy_game``): a card that states the bet or fold after the draw plays out every
class where it draws, one that states its insurance or buys every class it does not fold. Either
way the card's EV, its return table and its cost are exact, and the cost is the sum of what
each class loses (checked against the difference of the two EVs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np

from ..action import Action
from ..cards import RANK_NAMES, format_cards
from ..category import LABELS
from ..classes import N_DEALS, enumerate_classes, rank_order
from ..counts import BET
from ..errors import InputError
from ..report.counting import COMPLETIONS, Counts, Strategy, class_counts, optimal_bet, strategy
from ..returns import exact_total
from ..rules import Rules
from ..tables.played import unit as rounds_unit
from .card import Rule, StrategyCard
from .departing import TableCodes, departures, optimal_returns, played_returns
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
    """Deals of one hand (ranks, category, the most cards of one suit) against one up-card rank
    where the card's first action is not the best: how many, what each loses (per ante), and its
    share of the card's cost; the actions are those of its costliest class."""

    hand: str
    up: str
    action: str
    best: str
    deals: int
    loss: Fraction
    cost: Fraction


@dataclass(frozen=True)
class CardCheck:
    """A strategy card played over the full cycle, next to optimal play: its exact EV per ante,
    and its results (``played``) unless the check was asked for the EV alone."""

    card: StrategyCard
    rules: Rules
    ev: Fraction
    played: Strategy | None
    optimal: Strategy
    differ: int                          # deals whose first action is not the best
    lines: tuple[LineCost, ...]
    departures: tuple[Departure, ...]
    after_draw_cost: Fraction            # lost where the first action is the best: by the bet or fold after the draw
    losses: np.ndarray                   # each class's loss per deal, over ``unit`` (with draws: the table's rows)
    unit: int

    @property
    def cost(self) -> Fraction:
        """EV per ante lost against optimal play."""
        return self.optimal.ev - self.ev


def check(card: StrategyCard, rules: Rules, jobs: int = 1, progress: Callable[[int, int], None] | None = None,
          counts: Counts | None = None, table: str | Path | None = None, work: Path | None = None,
          returns: bool = True) -> CardCheck:
    """Play ``card`` under ``rules`` over every deal, exactly. Without draws: ``counts``, the
    classes' bet counts of these rules (``report.class_counts``) when they are at hand. With
    draws: the rules' complete ``table`` (default: found as ``tables.locate`` finds it) with the
    results of optimal play counted, ``work`` the folder that keeps the departures' counts
    (``departing.work_root``), and ``returns=False`` for the EV alone (the departures' losses
    without their results: no return table, up to 3 times faster)."""
    card.check_play(rules)
    if rules.draws:
        return _check_drawing(card, rules, jobs, progress, table, work, returns)
    if not card.play.best:
        raise InputError(f"strategy file {card.path}, line {max(card.play_lines)}: a card's own insurance or "
                         "buying a game is counted under rules with an exchange or a sixth card; the rules "
                         f"{rules.name!r} have neither (leave them optimal)")
    c = counts if counts is not None else class_counts(rules, jobs, progress)
    hands, ups, seen = ranked_classes()
    line = _decided(card, seen, hands, ups)
    best = optimal_bet(c).astype(np.int64)
    played = card.codes(seen, line, rules, best)
    optimal = strategy("optimal", c, rules, best == 1)
    losses, unit = bet_fold_losses(c)
    loss = np.where(played == 1, losses[:, 0], losses[:, 1])
    return _assemble(card, rules, seen, line, c.weight, played, best, loss, unit,
                     strategy(card.name, c, rules, played == 1), optimal)


def bet_fold_losses(counts: Counts) -> tuple[np.ndarray, int]:
    """What betting and folding lose in each class under rules without draws, exactly: integers
    (classes, 2: bet, fold) over the unit returned, n * den, the same for every class of a full
    deck."""
    n, den, value = (counts.counts[:, BET[k]] for k in ("n", "den", "value"))
    folded = -n * den
    best = np.maximum(value, folded)
    return np.stack([best - value, best - folded], axis=1), int(n[0]) * int(den[0])


def _check_drawing(card: StrategyCard, rules: Rules, jobs: int, progress: Callable[[int, int], None] | None,
                   table: str | Path | None, work: Path | None, returns: bool) -> CardCheck:
    codes = TableCodes.read(rules, table)
    optimal = optimal_returns(rules, codes.table)
    hands, ups, _ = enumerate_classes()       # in key order: the order of the table's rows
    seen = Seen.of(hands, ups)
    line = _decided(card, seen, hands, ups)
    played = card.codes(seen, line, rules, codes.best, codes.second)
    moved = departures(rules, codes, played, jobs, progress, work, returns, card.after_table, card.play)
    loss = np.zeros(len(played), np.int64)
    loss[moved.rows] = moved.loss
    pairs = N_DEALS * COMPLETIONS
    mine = Strategy.of(card.name, played_returns(optimal, moved), pairs) if returns else None
    return _assemble(card, rules, seen, line, codes.weight, played, codes.best, loss, rounds_unit(rules),
                     mine, Strategy.of("optimal", optimal, pairs))


def _decided(card: StrategyCard, seen: Seen, hands: np.ndarray, ups: np.ndarray) -> np.ndarray:
    """The rule deciding each class; an error names a class no rule decides."""
    line = card.decide(seen)
    if (line < 0).any():
        k = int(np.argmax(line < 0))
        raise InputError(f"strategy file {card.path}: no rule decides {format_cards(hands[k].tolist())} against "
                         f"the up-card {RANK_NAMES[int(ups[k]) >> 2]}: end the card with a rule without conditions")
    return line


def _assemble(card: StrategyCard, rules: Rules, seen: Seen, line: np.ndarray, weight: np.ndarray,
              played: np.ndarray, best: np.ndarray, loss: np.ndarray, unit: int, mine: Strategy | None,
              optimal: Strategy) -> CardCheck:
    """The check from each class's rule, action codes (the card's, the best) and loss (over
    ``unit`` per deal), and the two strategies' totals (the card's when counted); the losses
    must add up to the cost."""
    total = int(weight.sum())
    cost = Fraction(exact_total(weight, loss), total * unit)
    if mine is not None and cost != optimal.ev - mine.ev:
        raise AssertionError("the losses of the classes do not add up to the difference of the EVs")
    differ = played != best
    after_draw_cost = Fraction(exact_total(weight[~differ], loss[~differ]), total * unit)
    lines = tuple(LineCost(rule, int(weight[line == i].sum()), int(weight[(line == i) & differ].sum()),
                           Fraction(exact_total(weight[line == i], loss[line == i]), total * unit))
                  for i, rule in enumerate(card.first))
    return CardCheck(card, rules, optimal.ev - cost, mine, optimal, int(weight[differ].sum()), lines,
                     _departures(seen, weight, loss, played, best, total, unit, cost), after_draw_cost, loss, unit)


@cache
def ranked_classes() -> tuple[np.ndarray, np.ndarray, Seen]:
    """Every class in the order of ``report.class_counts``, and what a person sees of it."""
    hands, ups, _ = enumerate_classes()
    order = rank_order(hands, ups)
    hands, ups = hands[order], ups[order]
    return hands, ups, Seen.of(hands, ups)


def action_words(code: int, hand: np.ndarray) -> str:
    """A table code's action in a person's words: an exchange by the ranks it keeps.

    >>> from solver.cards import parse_cards
    >>> hand = np.asarray(parse_cards("8c 8d Ah Kh 3s"))
    >>> action_words(1, hand), action_words(2, hand), action_words(2 + 0b11100, hand), action_words(2 + 31, hand)
    ('bet', 'sixth card', 'keep 8 8', 'exchange all five')
    """
    action = Action.from_code(code, hand.tolist())
    if action.kind != "exchange":
        return action.label
    kept = sorted((c >> 2 for c in hand.tolist() if c not in action.throw), reverse=True)
    return f"keep {' '.join(RANK_NAMES[r] for r in kept)}" if kept else "exchange all five"


def _departures(seen: Seen, weight: np.ndarray, loss: np.ndarray, played: np.ndarray, best: np.ndarray,
                total: int, unit: int, cost: Fraction) -> tuple[Departure, ...]:
    """The costliest departures, by hand (ranks, category, most cards of one suit) and up-card rank;
    a class whose first action is the best loses by the card's bet or fold after the draw."""
    lost = np.flatnonzero(loss > 0)
    if not len(lost):
        return ()
    ranks, category, up = seen.ranks[lost], seen.category[lost], seen.up[lost]
    suited = seen.take(lost).to_flush
    key = (((ranks @ (13 ** np.arange(4, -1, -1))) * 11 + category) * 13 + up) * 6 + suited
    keys, group = np.unique(key, return_inverse=True)
    weighted = weight[lost].astype(np.float64) * loss[lost]
    rough = np.bincount(group, weighted)
    out = []
    for g in np.argsort(-rough, kind="stable")[:DEPARTURES]:
        members = lost[group == g]
        at = int(np.flatnonzero(group == g)[np.argmax(weighted[group == g])])
        worst = int(lost[at])
        deals = int(weight[members].sum())
        lost_total = exact_total(weight[members], loss[members])
        hand = seen.hands[worst]
        named = " ".join(RANK_NAMES[r] for r in seen.ranks[worst])
        held = f", {int(suited[at])} of a suit" if suited[at] >= 3 else ""
        action = action_words(int(played[worst]), hand)
        if played[worst] == best[worst]:
            action += " (the card's bet or fold after it)"
        out.append(Departure(f"{named} ({LABELS[int(seen.category[worst])]}{held})", RANK_NAMES[int(seen.up[worst])],
                             action, action_words(int(best[worst]), hand), deals,
                             Fraction(lost_total, deals * unit), Fraction(lost_total, total * unit) / cost
                             if cost else Fraction(0)))
    return tuple(out)
