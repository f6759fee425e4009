"""Checking a complete table: checksums, classes and weights, results, spot checks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..cards import format_cards
from ..classes import N_CLASSES, N_DEALS, class_keys, enumerate_classes
from ..deal import solve
from ..errors import InputError
from ..rules import Rules
from .reader import Table


@dataclass(frozen=True)
class CheckReport:
    """What ``check`` verified of a table."""

    shards: int
    rows: int
    weight: int
    spot_checked: int
    results: int                # shards whose results file is there and verified


def check(table: Table, rules: Rules, spot: int = 20, seed: int = 0,
          progress: Callable[[int, int], None] | None = None) -> CheckReport:
    """Verify a complete table: every shard's checksum, the class keys and weights against the
    enumeration of the classes, every results file listed in the manifest, and ``spot``
    random classes against the deal solver."""
    import random

    from .. import optimal

    table.check_rules(rules)
    manifest = table.manifest
    if not table.complete:
        raise InputError(f"the table in {table.directory} is not complete: {len(manifest.shards)} of "
                         f"{manifest.shards_total} shards")
    if not 0 <= spot <= N_CLASSES:
        raise InputError(f"--spot {spot}: a table has {N_CLASSES:,} classes to spot-check")
    hands, ups, weights = enumerate_classes()
    keys = class_keys(hands, ups)
    shard_rows = int(manifest.shard_rows)
    total_weight = rows = 0
    for s in range(manifest.shards_total):
        data = table.read_shard(s, ["key", "weight"])
        lo, hi = s * shard_rows, min(N_CLASSES, (s + 1) * shard_rows)
        if not (np.array_equal(data.column("key").to_numpy(), keys[lo:hi])
                and np.array_equal(data.column("weight").to_numpy(), weights[lo:hi])):
            raise InputError(f"shard {s} of {table.directory} does not hold classes {lo}..{hi - 1}")
        rows += data.num_rows
        total_weight += int(data.column("weight").to_numpy().sum())
        if progress is not None:
            progress(s + 1, manifest.shards_total)
    if rows != N_CLASSES or total_weight != N_DEALS:
        raise InputError(f"the table has {rows} rows of weight {total_weight}, not {N_CLASSES} of {N_DEALS:,}")
    counted = optimal.verify_results(table, rules)
    rng = random.Random(seed)
    for k in rng.sample(range(N_CLASSES), spot):
        hand, up = tuple(int(c) for c in hands[k]), int(ups[k])
        answer, solved = table.lookup(hand, up), solve(hand, up, rules)
        stored = answer.best.ev if table.compact else answer.best.ev_exact
        if stored != (float(solved.best.ev) if table.compact else solved.best.ev) \
                or answer.best.label != solved.best.label:
            raise InputError(f"class {format_cards(hand)} | {format_cards([up])}: the table says {answer.best.label} "
                             f"{stored}, the solver {solved.best.label} {solved.best.ev}")
    return CheckReport(manifest.shards_total, rows, total_weight, spot, counted)
