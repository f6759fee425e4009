"""The results of optimal play over every class of deal, from a strategy table.

Each class's best first action, as its table stores it, is played out exactly and its results
summed shard by shard (``tables.played``). That gives what the EVs alone cannot: the return
table of optimal play, its variance, element of risk, average wager and how often it bets,
insures and buys a game, for rules with exchanges and a sixth card.

The sums are kept shard by shard in ``shard-NNNNN.results.json`` beside the table's shards
(written atomically: a run killed and started again does only the shards without one); a build
with ``results`` writes them as it writes its shards, in the same pass.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .classes import N_CLASSES, enumerate_classes
from .errors import InputError
from .manifest import writable_directory, writing
from .returns import Returns
from .rules import Rules
from .tables import Plan, Table, read_manifest
from .tables.played import FIELDS, FORMAT, played_out, results_data, unit, write_results
from .tables.played import results_path as _results_path

__all__ = ["FIELDS", "compute", "record", "results_path", "shard_results", "stored", "table_results", "unit",
           "verify_results"]


def results_path(table: Table, shard: int) -> Path:
    return _results_path(table.directory, shard)


def shard_results(table: Table, rules: Rules, shard: int) -> dict[str, Any]:
    """Play out the best action of every class of one shard: the summed results (as stored)."""
    rows = Plan(table.manifest.shard_rows, ()).rows(shard)
    hands, ups, weights = (a[rows.start:rows.stop] for a in enumerate_classes())
    data = table.read_shard(shard, ["weight", "best", "best_ev"])
    weight, best, best_ev = (data.column(c).to_numpy() for c in ("weight", "best", "best_ev"))
    if not np.array_equal(weight, weights):
        raise InputError(f"shard {shard} of {table.directory} does not hold the classes of its rows")
    try:
        sums = played_out(hands, ups, weight, best, best_ev, rules)[0]
    except InputError as e:
        raise InputError(f"shard {shard}, {e}: a table of other rules or a damaged one") from None
    return results_data(table.fingerprint, shard, len(rows), int(weight.sum()), unit(rules), sums)


def _read(table: Table, shard: int, big: int) -> dict[str, Any] | None:
    """A shard's results, verified: None when the manifest lists none for it (not counted yet);
    an error when its file is damaged, of another shard's contents or not this table's."""
    entry = table.manifest.results.get(str(shard))
    if entry is None:
        return None
    path = results_path(table, shard)
    remedy = f"`rpoker tables results --table {table.directory}` counts them again"
    data = json.loads(table.verified_bytes(path, entry, remedy))
    shard_entry = table.manifest.shards[str(shard)]
    if not (entry["shard_sha256"] == shard_entry["sha256"] and data.get("format") == FORMAT
            and data["fingerprint"] == table.fingerprint and data["shard"] == shard
            and data["rows"] == shard_entry["rows"] and data["unit"] == big
            and data["rounds"] == data["weight"] * big and sum(data["results"].values()) == data["rounds"]):
        raise InputError(f"{path} does not hold the results of this shard of the table in {table.directory}; "
                         + remedy)
    checked: dict[str, Any] = data
    return checked


def stored(table: Table, rules: Rules, shard: int) -> dict[str, Any] | None:
    """A shard's results as the table stores them, verified (None: not counted yet)."""
    return _read(table, shard, unit(rules))


def _counted(table: Table, shard: int, big: int) -> bool:
    """Whether a shard's results are counted (a damaged file is counted again)."""
    try:
        return _read(table, shard, big) is not None
    except InputError:
        return False


def compute(table: Table, rules: Rules, jobs: int = 1,
            progress: Callable[[int, int], None] | None = None) -> list[int]:
    """Write the results of every shard of a complete table that lacks them (or whose file is
    damaged), each file recorded in the table's manifest as it is written; the shards done now."""
    import joblib

    table.check_rules(rules)
    if not table.complete:
        raise InputError(f"the table in {table.directory} is not complete: {len(table.manifest.shards)} of "
                         f"{table.manifest.shards_total} shards")
    big = unit(rules)
    todo = [s for s in range(table.manifest.shards_total) if not _counted(table, s, big)]
    done: list[int] = []
    if not todo:
        return done   # nothing to write (the table may be read-only: the one installed with rpoker)
    writable_directory(table.directory, "table")
    with writing(table.directory):
        if read_manifest(table.directory) != table.manifest:   # as it is now, under the lock
            raise InputError(f"the table in {table.directory} changed since it was opened; run the command again")
        if progress is not None:
            progress(0, len(todo))
        # workers may have another working folder: they open the table by its absolute path
        source = Table(table.directory.resolve())
        tasks = (joblib.delayed(shard_results)(source, rules, s) for s in todo)
        for data in joblib.Parallel(n_jobs=jobs, return_as="generator")(tasks):
            record(table, data)
            done.append(data["shard"])
            if progress is not None:
                progress(len(done), len(todo))
    return done


def record(table: Table, data: dict[str, Any]) -> None:
    """Write a shard's results file and list it in the table's manifest (the caller holds the
    table's lock)."""
    write_results(table.directory, table.manifest, data)


def verify_results(table: Table, rules: Rules) -> int:
    """Check every results file the manifest lists (an error names a damaged one); how many."""
    big = unit(rules)
    return sum(_read(table, s, big) is not None for s in range(table.manifest.shards_total))


def table_results(table: Table, rules: Rules) -> tuple[Returns | None, int]:
    """The results of optimal play over every class (None unless every shard has its file),
    and how many shards have theirs; a damaged file is an error."""
    big = unit(rules)
    read = [_read(table, s, big) for s in range(table.manifest.shards_total)]
    parts = [p for p in read if p is not None]
    have = len(parts)
    if have < len(read) or sum(p["rows"] for p in parts) != N_CLASSES:
        return None, have
    results: dict[int, int] = {}
    for p in parts:
        for x, k in p["results"].items():
            results[int(x)] = results.get(int(x), 0) + k
    return Returns(dict(sorted(results.items())), sum(p["rounds"] for p in parts),
                   *(sum(p[f] for p in parts) for f in FIELDS)), have
