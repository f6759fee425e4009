"""Optimal play read from a complete strategy table: its EV, its first actions, its results."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..action import GROUPS, group_of_codes
from ..classes import N_DEALS, enumerate_classes
from ..errors import InputError
from ..hand import STRENGTH_CATEGORY, strengths
from ..returns import Returns
from ..rules import Rules
from ..tables import Table, played
from .groups import hand_group


@dataclass(frozen=True)
class TablePlay:
    """Optimal play read from a complete strategy table (rules with exchanges or a sixth card)."""

    table: str
    total: Fraction                 # sum over the classes of weight * best EV (as stored)
    error: float                    # |total / N_DEALS - the exact EV| is at most this
    first_action: dict[str, int]    # deals by best first action: fold, bet, sixth card, exchange k
    insured: int                    # deals whose best action is to bet the dealt hand insured
    results: Returns | None = None  # every result of optimal play (``optimal``), once counted
    results_shards: int = 0         # the shards whose results are counted

    @property
    def ev(self) -> Fraction:
        return self.total / N_DEALS


def exact_float_total(weight: np.ndarray, values: np.ndarray) -> Fraction:
    """The exact sum of weight * value over float64 values (each the binary fraction it is)."""
    mantissa, exponent = np.frexp(values)
    m = (mantissa * 2.0**53).astype(np.int64)   # exact: values = m * 2**(exponent - 53)
    hi, lo = m >> 26, m & ((1 << 26) - 1)        # halves, so that the int64 sums cannot overflow
    w = weight.astype(np.int64)
    total = Fraction(0)
    for e in np.unique(exponent).tolist():
        sel = exponent == e
        part = (int((w[sel] * hi[sel]).sum()) << 26) + int((w[sel] * lo[sel]).sum())
        total += part * Fraction(2) ** (e - 53)
    return total


def table_play(table: Table, rules: Rules | None = None) -> TablePlay:
    """The optimal play of a complete table: its EV and its first actions, weighted by deals;
    with the ``rules``, its results where they are counted (``optimal``, ``rpoker tables results``)."""
    if not table.complete:
        raise InputError(f"the table in {table.directory} is not complete: {len(table.manifest.shards)} of "
                         f"{table.manifest.shards_total} shards")
    total, largest, insured = Fraction(0), 0.0, 0
    first = np.zeros(len(GROUPS), np.int64)
    for s in range(table.manifest.shards_total):
        data = table.read_shard(s, ["weight", "best", "best_ev", "insurance"])
        weight, best, ev = (data.column(n).to_numpy() for n in ("weight", "best", "best_ev"))
        total += exact_float_total(weight, ev)
        largest = max(largest, float(np.abs(ev).max()))
        first += np.bincount(group_of_codes(best), weights=weight, minlength=len(GROUPS)).astype(np.int64)
        insured += int(weight[(best == 1) & (data.column("insurance").to_numpy() > 0)].sum())
    results, shards = played.table_results(table, rules) if rules is not None else (None, 0)
    if results is not None and abs(float(results.ev - total / N_DEALS)) > largest * 2.0**-52:
        raise InputError(f"the results counted beside the table in {table.directory} give the EV "
                         f"{float(results.ev):+.12f}, not the table's {float(total / N_DEALS):+.12f}: "
                         "remove the shard-*.results.json files and run `rpoker tables results` again")
    return TablePlay(str(table.directory), total, largest * 2.0**-52,
                     {name: int(d) for name, d in zip(GROUPS, first)}, insured, results, shards)


def table_first_actions(table: Table) -> tuple[list[str], np.ndarray]:
    """Deals by hand group (rows, as ``hand_group``), up-card rank and best first action
    (``GROUPS``), from a complete table: weights int64[groups, 13, 8]."""
    hands, ups, weights = enumerate_classes()   # in key order: the order of the table's rows
    strength = strengths(hands, checked=False)
    groups = [hand_group(s) for s in range(len(STRENGTH_CATEGORY))]
    labels = list(dict.fromkeys(groups))
    row_of = np.asarray([labels.index(g) for g in groups])[strength]
    action = group_of_codes(np.concatenate([table.read_shard(s, ["best"]).column("best").to_numpy()
                                          for s in range(table.manifest.shards_total)]))
    out = np.zeros((len(labels), 13, len(GROUPS)), np.int64)
    np.add.at(out, (row_of, ups >> 2, action), weights)
    return labels, out
