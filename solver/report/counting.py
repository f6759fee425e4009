"""Exact counts over every class of deal: each class's bet counts, the strategies that bet
from them, the bonus side bet."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

from .._kernel._settle import KernelRules
from ..category import (
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
)
from ..classes import N_DEALS, enumerate_classes, rank_order
from ..counts import BET
from ..deal import bet_counts
from ..hand import STRENGTH_CATEGORY, all_hands, strengths
from ..kernel_rules import kernel_rules, payout_by_strength
from ..returns import Returns, bets_returns
from ..rules import Rules

COMPLETIONS = comb(46, 4)            # the dealer's hidden cards for a deal without dead cards
CYCLE = N_DEALS * COMPLETIONS         # 19,933,230,517,200
CHUNK = 200_000


@dataclass(frozen=True)
class Counts:
    """Per class: weight, strength of the dealt hand, P, the bet counts of ``bet_counts``, up rank,
    and the kernel's rules they were counted with."""

    weight: np.ndarray
    strength: np.ndarray
    p: np.ndarray
    counts: np.ndarray  # int64 [N, 12]: as ``deal.bet_counts``
    up_rank: np.ndarray
    kernel: KernelRules


def class_counts(rules: Rules, jobs: int = 1, progress: Callable[[int, int], None] | None = None) -> Counts:
    """The bet counts of every class, ordered by ranks (the kernel shares work between them)."""
    import joblib

    hands, ups, weights = enumerate_classes()
    order = rank_order(hands, ups)
    hands, ups, weights = hands[order], ups[order], weights[order]
    p5 = payout_by_strength(rules)
    if rules.draws:
        # only bets without options are figured here (closed box, fixed strategies): no
        # insurance, no buy, so the kernel skips them
        rules = rules.replace(buy_game=False, insurance=False)
    starts = list(range(0, len(hands), CHUNK))
    parts: list[np.ndarray] = []
    tasks = (joblib.delayed(bet_counts)(hands[s:s + CHUNK], ups[s:s + CHUNK], rules) for s in starts)
    done = 0
    for part in joblib.Parallel(n_jobs=jobs, return_as="generator")(tasks):
        parts.append(part)
        done += len(part)
        if progress is not None:
            progress(done, len(hands))
    strength = strengths(hands, checked=False).astype(np.int64)
    return Counts(weights, strength, p5[strength].astype(np.int64), np.concatenate(parts), ups >> 2,
                  kernel_rules(rules))


@dataclass(frozen=True)
class Strategy(Returns):
    """A first-action strategy's returns over the (deal, dealer completion) pairs of its
    classes (the full cycle in a report): each pair is ``unit`` rounds (with buys of a game,
    the buy's draws; with the draws of exchanges and sixth cards, their common multiple)."""

    name: str = ""
    unit: int = 1

    @classmethod
    def of(cls, name: str, r: Returns, pairs: int) -> Strategy:
        """The returns ``r`` of ``pairs`` (deal, dealer completion) pairs, named."""
        return cls(**vars(r), name=name, unit=r.rounds // pairs)

    @property
    def total(self) -> Fraction:
        """The net result summed over the pairs (an integer without buys)."""
        return Fraction(sum(r * k for r, k in self.results.items()), self.unit)


def strategy(name: str, c: Counts, rules: Rules, bet: np.ndarray, closed: bool = False) -> Strategy:
    """Totals of betting the classes where ``bet`` is true and folding the others.

    ``closed``: the bet without insurance or buying a game (a closed box); otherwise the bet
    takes its best insurance (as the kernel chooses it) and buys where buying beats the ante.
    """
    if not (c.counts[:, BET["n"]] == COMPLETIONS).all():
        raise AssertionError("every class of a full deck has the same denominators")
    r = bets_returns(c.counts[bet], c.p[bet], c.weight[bet], c.kernel, rules.buy_game_fee,
                     int(c.weight[~bet].sum()), closed)
    return Strategy.of(name, r, int(c.weight.sum()) * COMPLETIONS)


def optimal_bet(c: Counts) -> np.ndarray:
    """Bet where the bet (with its best insurance and buy) is worth folding at least (a tie is a
    bet: ``Action.simplicity``)."""
    n, den, value = c.counts[:, BET["n"]], c.counts[:, BET["den"]], c.counts[:, BET["value"]]
    bet: np.ndarray = value >= -n * den
    return bet


@dataclass(frozen=True)
class Bonus:
    """The bonus side bet: how many of the dealt hands win each line of its paytable, and its
    EV per unit staked."""

    counts: dict[str, int]
    hands: int
    ev: Fraction

    @property
    def total_return(self) -> Fraction:
        """What a unit staked returns, the stake included."""
        return 1 + self.ev


def bonus_return(rules: Rules) -> Bonus:
    """The bonus side bet (RULES §8) per unit staked, over the 2,598,960 dealt hands."""
    hands = all_hands(5)
    category = STRENGTH_CATEGORY[strengths(hands, checked=False)]
    sevens = ((hands >> 2) == 5).sum(axis=1)
    kinds = {"royal_flush": category == ROYAL_FLUSH, "straight_flush": category == STRAIGHT_FLUSH,
             "four_of_a_kind": category == FOUR_OF_A_KIND, "full_house": category == FULL_HOUSE,
             "flush": category == FLUSH, "straight": category == STRAIGHT,
             "three_sevens": (category == THREE_OF_A_KIND) & (sevens == 3),
             "sevens_two_pair": (category == TWO_PAIR) & (sevens == 2)}
    counts = {k: int(v.sum()) for k, v in kinds.items()}
    total = len(hands)
    paid = sum(counts[k] * m for k, m in zip(kinds, rules.bonus_paytable))
    ev = Fraction(paid - (total - sum(counts.values())), total)
    return Bonus(counts, total, ev)
