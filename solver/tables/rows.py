"""Solving classes of deals into the columns of a table."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import numpy as np

from .. import _eval
from ..action import Action
from ..cards import format_cards
from ..classes import rank_order
from ..deal import BetValue, Option, bet_counts, payout_by_strength, ranked, solve
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
    for i, (bet, options) in enumerate(_solutions(hands, up_cards, rules, 2 if compact else None)):
        hand = tuple(int(c) for c in hands[i])
        best, second = options[0], options[1]
        out["best"][i] = best.action.code(hand)
        out["best_ev"][i] = float(best.ev)
        num, den = best.ev.numerator, best.ev.denominator
        if max(abs(num), den) >= 2**63:
            raise InputError(f"EV {best.ev} of class {format_cards(hand)} | {format_cards([int(up_cards[i])])} "
                             "does not fit 64-bit integers")
        out["best_num"][i], out["best_den"][i] = num, den
        out["second"][i] = second.action.code(hand)
        out["second_ev"][i] = float(second.ev)
        out["insurance"][i] = bet.insurance_size
        for o in options:
            if o.action.kind == "bet":
                out["bet"][i] = float(o.ev)
            elif o.action.kind == "sixth_card":
                out["sixth"][i] = float(o.ev)
            elif o.action.kind == "exchange":
                out[EXCHANGE_COLUMNS[o.action.code(hand) - 3]][i] = float(o.ev)
    return {name: out[name] for name in COMPACT_COLUMNS if name in out} if compact else out


def _solutions(hands: np.ndarray, up_cards: np.ndarray, rules: Rules,
               leading: int | None) -> Iterator[tuple[BetValue, list[Option]]]:
    """Each class's bet and options, best first. Without exchanges and sixth cards the only
    choice is to bet or fold: the bets of the whole chunk are counted at once by the kernel."""
    if rules.draws:
        # deals of the same ranks one after the other share the kernel's rank-level work
        solved: dict[int, tuple[BetValue, list[Option]]] = {}
        for k in rank_order(hands, up_cards):
            s = solve(tuple(int(c) for c in hands[k]), int(up_cards[k]), rules, leading=leading)
            solved[int(k)] = (s.bet, list(s.options))
        for k in range(len(hands)):
            yield solved.pop(k)
        return
    p5 = payout_by_strength(rules)
    counts = bet_counts(hands, up_cards, rules)
    strength = _eval.evaluate(np.ascontiguousarray(hands), False)
    for k in range(len(hands)):
        p = int(p5[strength[k]])
        bet = BetValue.from_row(counts[k], p, rules)
        yield bet, list(ranked([Option(Action("fold"), Fraction(-1)), Option(Action("bet"), bet.ev)]))
