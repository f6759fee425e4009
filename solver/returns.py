"""The results of a round: every net result with its exact count (the return table).

A bet settles against every dealer hand and, where the player buys the dealer a game, every
draw of the buy (RULES §5–§7). Its counts (``deal.bet_counts``, ``_dealer.situation``) are in
dealer hands (win, tie, lose, nq, the hands bought) and in draws over ``den`` (the bought
hands' draws the player wins, ties, loses): a dealer hand is ``den`` *rounds*, a draw one, so
every result of a round is a whole number of rounds. ``bet_results`` turns the counts into
(net result, rounds) pairs; ``Returns`` holds the table of one option of a deal or of a whole
strategy (``report.Strategy``) with its EV, standard deviation and rates.

>>> from solver.cards import parse_cards, parse_card
>>> from solver.action import Action
>>> from solver.deal import option_returns
>>> r = option_returns(parse_cards("Ah Ad Kc 8s 9d"), parse_card("Kh"), Action("bet"))
>>> sorted(r.results)                    # lose, tie, no game, win (a pair with AK: P = 2)
[-3, 0, 1, 4]
>>> sum(r.results.values()) == r.rounds, round(float(r.probability(r.results[4])), 6)
(True, 0.513564)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ._kernel._settle import KernelRules
from .counts import BET, RESULT_COLUMNS, RESULT_ROW


def bet_results(counts: np.ndarray, p: np.ndarray, size: np.ndarray, unit: int, kernel: KernelRules,
                buy_fee: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(net result, rounds) of every way a bet ends, by row of ``counts``.

    ``counts``: rows (win, tie, lose, nq, buys, buy_win, buy_tie, buy_lose), dealer hands and
    draws as above; ``p`` the final hand's payout multiple, ``size`` its insurance (0: none);
    ``unit`` the rounds of a dealer hand (the draws' ``den``, or 1 when no row buys). What a box
    is paid in one round, bet and insurance together, is at most the table's maximum
    (``kernel.max_payout``, RULES §6). The option's own fee (exchange, sixth card) is not
    included.
    """
    win, tie, lose, nq, buys, buy_win, buy_tie, buy_lose = (counts[:, i] for i in range(len(RESULT_ROW)))
    cap = kernel.max_payout
    pays = 2 * p + kernel.win_extra
    insured = np.minimum(size, cap)
    return [
        (np.minimum(pays, cap) - size, win * unit),          # insurance lost
        (-size * int(kernel.tie_loses), tie * unit),      # lost, or returned on a tie
        (np.full(len(p), -3), lose * unit),                  # insurance returned
        (np.minimum(1 + size, cap), (nq - buys) * unit),     # no game: the ante paid, insurance paid
        (np.minimum(pays + size, cap) - buy_fee, buy_win),   # a game bought: the fee lost, ...
        (insured - buy_fee, buy_tie),
        (insured - buy_fee - 3, buy_lose),
        (insured - buy_fee, buys * unit - buy_win - buy_tie - buy_lose),  # ... still no game
    ]


@dataclass(frozen=True)
class Returns:
    """Every net result of a round (antes, fees included) -> rounds, out of ``rounds``, and
    what was staked: rounds bet, rounds insured, insurance staked and fees paid (in antes
    times rounds), games bought (rounds)."""

    results: dict[int, int]
    rounds: int
    bets: int
    insured: int
    insurance: int
    fees: int
    bought: int

    @classmethod
    def collect(cls, rounds: int, folded: int, weight: np.ndarray, bet_counts: np.ndarray, p: np.ndarray,
                size: np.ndarray, unit: int, kernel: KernelRules, buy_fee: int, fee: int = 0) -> Returns:
        """The returns of ``folded`` rounds folded and the bets of rows ``bet_counts`` (as
        ``bet_results``), each row ``weight`` times; ``fee``: the option's, paid in every round."""
        weight = np.asarray(weight, np.int64)
        results: dict[int, int] = {-1 - fee: folded} if folded else {}
        small = len(weight) <= SMALL       # one deal's final hands: summed as Python ints at once
        for result, count in bet_results(bet_counts, p, size, unit, kernel, buy_fee):
            if small:
                for r, k, w in zip(result.tolist(), count.tolist(), weight.tolist()):
                    if k:
                        results[r - fee] = results.get(r - fee, 0) + k * w
                continue
            sel = count != 0
            for r in np.unique(result[sel]).tolist():
                at = sel & (result == r)
                results[r - fee] = results.get(r - fee, 0) + exact_total(weight[at], count[at])
        hands = bet_counts[:, :4].sum(axis=1)           # win + tie + lose + nq: every dealer hand
        bought = exact_total(weight, bet_counts[:, 4]) * unit
        return cls({r: k for r, k in sorted(results.items()) if k}, rounds, exact_total(weight, hands) * unit,
                   exact_total(weight, np.where(size > 0, hands, 0)) * unit, exact_total(weight, hands * size) * unit,
                   fee * rounds + buy_fee * bought, bought)

    @property
    def ev(self) -> Fraction:
        return Fraction(sum(r * k for r, k in self.results.items()), self.rounds)

    def probability(self, rounds: int) -> Fraction:
        return Fraction(rounds, self.rounds)

    def std(self) -> float:
        second = Fraction(sum(r * r * k for r, k in self.results.items()), self.rounds)
        return math.sqrt(float(second - self.ev ** 2))

    @property
    def average_wager(self) -> Fraction:
        """Ante, bet, insurance and fees, per round."""
        return 1 + Fraction(2 * self.bets + self.insurance + self.fees, self.rounds)

    @property
    def element_of_risk(self) -> Fraction:
        return -self.ev / self.average_wager

    @property
    def bet_rate(self) -> Fraction:
        return Fraction(self.bets, self.rounds)

    @property
    def insured_rate(self) -> Fraction:
        return Fraction(self.insured, self.rounds)

    @property
    def buy_rate(self) -> Fraction:
        return Fraction(self.bought, self.rounds)


def bets_returns(counts: np.ndarray, p: np.ndarray, weight: np.ndarray, kernel: KernelRules, buy_fee: int,
                 folded: int = 0, closed: bool = False) -> Returns:
    """The returns of betting dealt hands at once (rows of ``deal.bet_counts``, at least one,
    each ``weight`` times, with the insurance and buys the kernel takes: its columns) and of
    ``folded`` deals folded. ``closed``: no insurance and no buys (a closed box). A dealer hand is den rounds when
    some hand buys a game, else one. The results must add up to the kernel's values."""
    n, den, value = counts[:, BET["n"]], counts[:, BET["den"]], counts[:, BET["value"]]
    if not ((n == n[0]).all() and (den == den[0]).all()):
        raise AssertionError("the dealt hands' counts are not over the same deck")
    n0, den0 = int(n[0]), int(den[0])
    rows = counts[:, RESULT_COLUMNS]
    if closed:
        rows = rows.copy()
        rows[:, RESULT_ROW.index("buys"):] = 0   # nothing bought
        size = np.zeros(len(rows), np.int64)
    else:
        size = counts[:, BET["insurance"]]
    unit = den0 if rows[:, RESULT_ROW.index("buys")].any() else 1
    rounds = (int(np.asarray(weight, np.int64).sum()) + folded) * n0 * unit
    r = Returns.collect(rounds, folded * n0 * unit, weight, rows, p, size, unit, kernel, buy_fee)
    if not closed and sum(x * k for x, k in r.results.items()) * den0 != unit * (
            exact_total(weight, value) - folded * n0 * den0):
        raise AssertionError("the return table does not add up to the kernel's values of the bets")
    return r


SMALL = 256
"""Up to this many rows, sums are taken as Python ints directly (faster than numpy's checks)."""


def exact_total(weight: np.ndarray, values: np.ndarray) -> int:
    """Exact sum of weight * value: 64-bit products (checked), summed in blocks as Python ints."""
    weight, values = np.asarray(weight, np.int64), np.asarray(values, np.int64)
    if len(values) <= SMALL:
        return sum(w * v for w, v in zip(weight.tolist(), values.tolist()))
    if int(np.abs(values).max()) * int(weight.max()) * 4096 >= 2**63:
        return sum(int(w) * int(v) for w, v in zip(weight.tolist(), values.tolist()))
    products = weight * values
    return sum(int(products[i:i + 4096].sum()) for i in range(0, len(products), 4096))
