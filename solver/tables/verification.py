"""Checking a table: what its seals say, and whether its answers are the solver's.

The SHA-256 seals of the manifest and of every file find damage; they are not a signature, so a
file edited and sealed again passes them. What finds such a forgery is counting again: ``check``
solves ``spot`` random classes of every shard again (a shard that is not the solver's is found at
once) and, asked, counts the results of random shards again (``recount_results``: a forged results
file among n is found with chance recount / n); ``rebuilt`` builds everything again and compares.
The tables released with rpoker are known by their manifest's SHA-256, recorded in the code
(``reader.RELEASED``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..cards import format_cards
from ..classes import N_CLASSES, N_DEALS, class_keys, enumerate_classes
from ..deal import solve
from ..errors import InputError
from ..manifest import cache_root, writable_directory
from ..rules import Rules
from . import played
from .reader import Table
from .schema import Plan

SPOT = 2
"""Classes of each shard a check solves again by default (174 of the default rules' compact table;
its time: docs/cost-model.md): a shard whose answers are not the solver's — damaged and re-sealed,
or of other rules — is found at once; a forgery of a fraction f of the classes with chance
1 - (1 - f)^n."""


@dataclass(frozen=True)
class CheckReport:
    """What ``check`` verified of a table: its shards, classes and their weight, the results
    files read, the classes solved again (``spot_checked``, drawn with ``seed``) and the shards
    whose results were counted again (``recounted``)."""

    shards: int
    rows: int
    weight: int
    spot_checked: int
    results: int                # shards whose results file is there and verified
    seed: int = 0
    recounted: tuple[int, ...] = ()


def check(table: Table, rules: Rules, spot: int = SPOT, seed: int | None = None, recount: int = 0,
          progress: Callable[[int, int], None] | None = None) -> CheckReport:
    """Verify a complete table: every shard's checksum, the class keys and weights against the
    enumeration of the classes, every results file listed in the manifest; ``spot`` random classes
    of every shard solved again and compared, and the results of ``recount`` random shards counted
    again and compared (drawn with ``seed``; None: a new seed, which the report gives)."""
    import random
    import secrets


    table.check_rules(rules)
    manifest = table.manifest
    if not table.complete:
        raise InputError(f"the table in {table.directory} is not complete: {len(manifest.shards)} of "
                         f"{manifest.shards_total} shards")
    shard_rows = int(manifest.shard_rows)
    if not 0 <= spot <= shard_rows:
        raise InputError(f"--spot {spot}: a shard of this table has {shard_rows:,} classes to solve again")
    if not 0 <= recount <= len(manifest.results):
        raise InputError(f"--recount {recount}: the table has the results of {len(manifest.results)} shards")
    hands, ups, weights = enumerate_classes()
    keys = class_keys(hands, ups)
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
    counted = played.verify_results(table, rules)
    seed = secrets.randbits(32) if seed is None else seed
    rng = random.Random(seed)
    plan = Plan(shard_rows, ())
    chosen = [k for s in range(manifest.shards_total)
              for k in rng.sample(plan.rows(s), min(spot, len(plan.rows(s))))]
    for k in chosen:
        hand, up = tuple(int(c) for c in hands[k]), int(ups[k])
        answer, solved = table.lookup(hand, up), solve(hand, up, rules)
        stored = answer.best.ev if table.compact else answer.best.ev_exact
        if stored != (float(solved.best.ev) if table.compact else solved.best.ev) \
                or answer.best.label != solved.best.label:
            raise InputError(f"class {format_cards(hand)} | {format_cards([up])}: the table says {answer.best.label} "
                             f"{stored}, the solver {solved.best.label} {solved.best.ev} (seed {seed})")
    again = tuple(sorted(rng.sample(sorted(int(s) for s in manifest.results), recount)))
    recount_results(table, rules, again, f" (seed {seed})")
    return CheckReport(manifest.shards_total, rows, total_weight, len(chosen), counted, seed, again)


def recount_results(table: Table, rules: Rules, shards: Sequence[int], drawn: str = "") -> None:
    """Count the results of ``shards`` again from the table's best actions and compare them with
    the results files (an error names the first that differs; ``drawn`` says how they were drawn)."""

    for s in shards:
        counted_again = played.shard_results(table, rules, s)
        if _without_version(counted_again) != _without_version(played.stored(table, rules, s)):
            raise InputError(f"the results of shard {s} of {table.directory} are not what its classes' best actions "
                             f"give, counted again{drawn}: the results file was forged, or the table is not the "
                             "solver's")


def _without_version(results: dict[str, Any] | None) -> dict[str, Any]:
    """A results file's contents less the version of the solver that wrote it."""
    return {k: v for k, v in (results or {}).items() if k != "solver_version"}


def rebuild_folder(table: Table, work: str | None = None) -> Path:
    """Where ``rebuilt`` builds ``table`` again, made and checked writable: under ``work`` (default
    ``rebuilt`` under ``manifest.cache_root()``), one folder per table (its manifest's SHA-256), so
    that a stopped check resumes."""
    if work is not None and not work.strip():
        raise InputError("--work is empty: name a directory")
    root = Path(work) if work else cache_root() / "rebuilt"
    return writable_directory(root / table.checksum[:16], "rebuild")


def rebuilt(table: Table, rules: Rules, directory: Path, jobs: int = 1,
            progress: Callable[[int, int], None] | None = None) -> int:
    """Build every shard of ``table`` again into ``directory`` (resumable: a build), with its results
    where the table has them, and compare each shard's data and each results file with the table's;
    how many shards were compared. What an auditor runs: it trusts nothing of the table."""
    from .builder import build

    table.check_rules(rules)
    shards = sorted(int(s) for s in table.manifest.shards)
    if Path(directory).resolve() == table.directory.resolve():
        raise InputError("--work must be another folder than the table's")
    build(rules, Path(directory), jobs, shard_rows=int(table.manifest.shard_rows), shards=shards,
          progress=progress, compact=table.compact, results=bool(table.manifest.results))
    fresh = Table(directory)
    for s in shards:
        mine, theirs = (t.read_shard(s).replace_schema_metadata(None) for t in (table, fresh))
        if not mine.equals(theirs):
            raise InputError(f"shard {s} of {table.directory} differs from the same shard built again in {directory}: "
                             "the table is not the solver's")
        if str(s) in table.manifest.results and \
                _without_version(played.stored(table, rules, s)) != _without_version(played.stored(fresh, rules, s)):
            raise InputError(f"the results of shard {s} of {table.directory} differ from those counted again in "
                             f"{directory}: the results file is not the solver's")
    return len(shards)
