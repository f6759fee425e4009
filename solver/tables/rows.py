"""Solving classes of deals into the columns of a table."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import numpy as np

from ..action import BET, FOLD, SIXTH_CARD, mask_of_code
from ..cards import format_cards
from ..classes import rank_order
from ..counts import BET as BET_COUNTS
from ..deal import Valued, bet_counts, ranked_values, solve_values
from ..errors import InputError
from ..rules import Rules
from .schema import COMPACT_COLUMNS, EXCHANGE_COLUMNS, INTEGER_COLUMNS


def solve_rows(hands: np.ndarray, up_cards: np.ndarray, rules: Rules, compact: bool = False) -> dict[str, np.ndarray]:
    """Solve classes (representative hands and up-cards) into table columns (weights aside).

    ``compact``: only ``COMPACT_COLUMNS``, which need the best two options alone (``solve`` with
    ``leading=2`` leaves out the exchanges that provably cannot be among them).
    """
    n = len(hands)
    out: dict[str, np.ndarray] = {name: np.zeros(n, INTEGER_COLUMNS.get(name, np.float64))
                                  for name in ("best", "best_ev", "best_num", "best_den", "second",
                                               "second_ev", "insurance", "bet")}
    for name in ("sixth", *EXCHANGE_COLUMNS):
        out[name] = np.full(n, np.nan, np.float32)
    for i, (insurance, values) in enumerate(_solutions(hands, up_cards, rules, 2 if compact else None)):
        (best, num, den), (second, second_num, second_den) = values[0], values[1]
        out["best"][i], out["second"][i], out["insurance"][i] = best, second, insurance
        # int / int is the exact quotient rounded once, as float(Fraction) is
        out["best_ev"][i], out["second_ev"][i] = num / den, second_num / second_den
        if compact:
            continue    # a compact table keeps no exact EV: no gcd for it
        ev = Fraction(num, den)
        if max(abs(ev.numerator), ev.denominator) >= 2**63:
            raise InputError(f"EV {ev} of class {format_cards(hands[i].tolist())} | "
                             f"{format_cards([int(up_cards[i])])} does not fit 64-bit integers")
        out["best_num"][i], out["best_den"][i] = ev.numerator, ev.denominator
        for code, num, den in values:
            if code == BET:
                out["bet"][i] = num / den
            elif code == SIXTH_CARD:
                out["sixth"][i] = num / den
            elif code > SIXTH_CARD:
                out[EXCHANGE_COLUMNS[mask_of_code(code) - 1]][i] = num / den
    return {name: out[name] for name in COMPACT_COLUMNS if name in out} if compact else out


def _solutions(hands: np.ndarray, up_cards: np.ndarray, rules: Rules,
               leading: int | None) -> Iterator[tuple[int, list[Valued]]]:
    """Each class's insurance size and options (``Valued``), best first. Without exchanges and
    sixth cards the only choice is to bet or fold: the bets of the whole chunk are counted at
    once by the kernel."""
    if rules.draws:
        # deals of the same ranks one after the other share the kernel's rank-level work
        solved: dict[int, tuple[int, list[Valued]]] = {}
        for k in rank_order(hands, up_cards):
            hand = tuple(int(c) for c in hands[k])
            raw, values = solve_values(hand, int(up_cards[k]), rules, leading=leading)
            solved[int(k)] = (raw.bet.counts.insurance, values)
        for k in range(len(hands)):
            yield solved.pop(k)
        return
    counts = bet_counts(hands, up_cards, rules)
    for k in range(len(hands)):
        row = counts[k]
        n, den = int(row[BET_COUNTS["n"]]), int(row[BET_COUNTS["den"]])
        bet_or_fold: list[Valued] = [(FOLD, -1, 1), (BET, int(row[BET_COUNTS["value"]]), n * den)]
        yield int(row[BET_COUNTS["insurance"]]), ranked_values(tuple(int(c) for c in hands[k]), bet_or_fold)
