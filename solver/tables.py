"""Strategy tables: every suit class of (hand, up-card) solved, stored as Parquet shards.

A table is a directory: ``manifest.json`` (the rules, their fingerprint, the solver version,
the shard size and, for every finished shard, its rows, key range and SHA-256) and one file
``shard-NNNNN.parquet`` per shard of ``shard_rows`` consecutive classes (one row group each).
Shards are written to a temporary name and renamed, then the manifest is rewritten the same
way, so a build killed at any moment leaves finished shards intact and is resumed by running
it again; a shard whose file does not match the manifest is solved again.

Columns, one row per class, sorted by ``key``:

============  =========  ===================================================================
key           int64      the class (``classes.class_keys``): its rank-level deal, then the
                         representative hand (sorted, base 52), then the up-card
weight        int32      deals in the class (the weights sum to 122,151,120)
best          uint8      the best first action (code: see ``action_label``)
best_ev       float64    its EV per ante
best_num      int64      its EV as an exact fraction ``best_num / best_den`` (reduced)
best_den      int64
second        uint8      the runner-up action and its EV
second_ev     float64
insurance     uint8      the insurance to take when betting the dealt hand, in antes
bet           float64    EV of betting the dealt hand (best insurance)
sixth         float32    EV of buying a sixth card (NaN when the rules do not allow it)
x01 ... x31   float32    EV of exchanging the cards of the representative hand at the set
                         bits of the mask (NaN when not allowed); float32 keeps 7 digits,
                         enough to rank the options; the best and the runner-up are float64
============  =========  ===================================================================

Action codes: 0 fold, 1 bet, 2 sixth card, 2 + mask for an exchange (mask 1..31 over the
representative hand's five cards in sorted order).

A *compact* table (``compact``; ``"compact": true`` in its manifest) keeps only the columns
``COMPACT_COLUMNS`` — key, weight, best, best_ev, second, second_ev (float32), insurance — in the
same shards: the table to ship (about 0.38 MB a shard, 33 MB for all 87 of the default rules).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from . import __version__, _eval
from .cards import Card, check_disjoint, format_cards
from .classes import N_CLASSES, N_DEALS, canonical, class_keys, enumerate_classes, rank_keys, rank_order
from .deal import BetValue, Option, bet_counts, kernel_settings, payout_by_strength, solve
from .errors import InputError, shown
from .manifest import (
    CHECKSUM,
    FORMAT,
    MANIFEST,
    MAX_SHARD_ROWS,
    file_entry,
    matches,
    sha256,
    writable_directory,
    write_atomic,
    write_manifest,
    writing,
)
from .manifest import read_manifest as _read_manifest
from .rules import PRESETS, Rules

SCHEMA_VERSION = 1
SHARD_ROWS = 65_536
CHUNK_ROWS = 512
CHUNKS = ".chunks"  # finished chunks of an unfinished build, so that a killed build loses little
EXCHANGE_COLUMNS = tuple(f"x{mask:02d}" for mask in range(1, 32))
#: the compact table (``compact``): the best action and the runner-up with their EVs
COMPACT_COLUMNS = ("key", "weight", "best", "best_ev", "second", "second_ev", "insurance")
_INT_COLUMNS = {"key": np.int64, "weight": np.int32, "best": np.uint8, "best_num": np.int64,
                "best_den": np.int64, "second": np.uint8, "insurance": np.uint8}


def action_code(option: Option, hand: Sequence[Card]) -> int:
    """The code of a first action of the (representative) hand."""
    if option.action == "exchange":
        return 2 + sum(1 << hand.index(c) for c in option.throw)
    return {"fold": 0, "bet": 1, "sixth_card": 2}[option.action]


def action_option(code: int, hand: Sequence[Card]) -> Option:
    """The first action of a code (its EV left at 0), exchanges throwing cards of ``hand``."""
    if code >= 3:
        return Option("exchange", Fraction(0), tuple(c for i, c in enumerate(hand) if (code - 2) >> i & 1))
    return Option(("fold", "bet", "sixth_card")[code], Fraction(0))


def action_label(code: int, hand: Sequence[Card]) -> str:
    """The action of a code in words, exchanges naming the cards of ``hand`` to throw."""
    return action_option(code, hand).label


def _schema(metadata: dict[bytes, bytes], compact: bool = False) -> Any:
    import pyarrow as pa

    if compact:
        # the runner-up's EV only ranks it: float32 (7 digits) halves the largest column
        return pa.schema([pa.field(name, pa.float32() if name == "second_ev" else
                                   pa.from_numpy_dtype(np.dtype(_INT_COLUMNS.get(name, np.float64))))
                          for name in COMPACT_COLUMNS], metadata={**metadata, b"rpoker.compact": b"true"})
    fields = [pa.field(name, pa.from_numpy_dtype(np.dtype(_INT_COLUMNS.get(name, np.float64))))
              for name in ("key", "weight", "best", "best_ev", "best_num", "best_den", "second",
                           "second_ev", "insurance", "bet")]
    fields += [pa.field(name, pa.float32()) for name in ("sixth", *EXCHANGE_COLUMNS)]
    return pa.schema(fields, metadata=metadata)


def _metadata(rules: Rules) -> dict[bytes, bytes]:
    return {b"rpoker.rules": json.dumps({"name": rules.name, **rules.to_dict()}, sort_keys=True).encode(),
            b"rpoker.fingerprint": rules.fingerprint.encode(),
            b"rpoker.solver_version": __version__.encode(),
            b"rpoker.schema_version": str(SCHEMA_VERSION).encode()}


def solve_rows(hands: np.ndarray, up_cards: np.ndarray, rules: Rules, compact: bool = False) -> dict[str, np.ndarray]:
    """Solve classes (representative hands and up-cards) into table columns (weights aside).

    ``compact``: only ``COMPACT_COLUMNS``, which need the best two options alone (``solve`` with
    ``leading=2`` leaves out the exchanges that provably cannot be among them).
    """
    n = len(hands)
    out: dict[str, np.ndarray] = {name: np.zeros(n, _INT_COLUMNS.get(name, np.float64))
                                  for name in ("best", "best_ev", "best_num", "best_den", "second",
                                               "second_ev", "insurance", "bet")}
    for name in ("sixth", *EXCHANGE_COLUMNS):
        out[name] = np.full(n, np.nan, np.float32)
    for i, (bet, options) in enumerate(_solutions(hands, up_cards, rules, 2 if compact else None)):
        hand = tuple(int(c) for c in hands[i])
        best, second = options[0], options[1]
        out["best"][i] = action_code(best, hand)
        out["best_ev"][i] = float(best.ev)
        num, den = best.ev.numerator, best.ev.denominator
        if max(abs(num), den) >= 2**63:
            raise InputError(f"EV {best.ev} of class {format_cards(hand)} | {format_cards([int(up_cards[i])])} "
                             "does not fit 64-bit integers")
        out["best_num"][i], out["best_den"][i] = num, den
        out["second"][i] = action_code(second, hand)
        out["second_ev"][i] = float(second.ev)
        out["insurance"][i] = bet.insurance_size
        for o in options:
            if o.action == "bet":
                out["bet"][i] = float(o.ev)
            elif o.action == "sixth_card":
                out["sixth"][i] = float(o.ev)
            elif o.action == "exchange":
                out[EXCHANGE_COLUMNS[action_code(o, hand) - 3]][i] = float(o.ev)
    return {name: out[name] for name in COMPACT_COLUMNS if name in out} if compact else out


def _solutions(hands: np.ndarray, up_cards: np.ndarray, rules: Rules,
               leading: int | None) -> Iterator[tuple[BetValue, list[Option]]]:
    """Each class's bet and options, best first. Without exchanges and sixth cards the only
    choice is to bet or fold: the bets of the whole chunk are counted at once by the kernel."""
    if rules.exchange or rules.sixth_card:
        # deals of the same ranks one after the other share the kernel's rank-level work
        solved: dict[int, tuple[BetValue, list[Option]]] = {}
        for k in rank_order(hands, up_cards):
            s = solve(tuple(int(c) for c in hands[k]), int(up_cards[k]), rules, leading=leading)
            solved[int(k)] = (s.bet, list(s.options))
        for k in range(len(hands)):
            yield solved.pop(k)
        return
    p5 = payout_by_strength(rules)
    counts = bet_counts(hands, up_cards, kernel_settings(rules), p5)
    strength = _eval.evaluate(np.ascontiguousarray(hands), False)
    for k in range(len(hands)):
        p = int(p5[strength[k]])
        bet = BetValue.from_row(counts[k], p, rules)
        fold = Option("fold", Fraction(-1))
        # the order of solve(): best first, fold before bet on a tie
        yield bet, ([Option("bet", bet.ev), fold] if bet.ev > -1 else [fold, Option("bet", bet.ev)])


# ---------------------------------------------------------------------------------------------
# building


@dataclass(frozen=True)
class Plan:
    """What a build covers: the shard size and the shards to solve."""

    shard_rows: int
    shards: tuple[int, ...]

    @property
    def n_shards(self) -> int:
        return -(-N_CLASSES // self.shard_rows)

    def rows(self, shard: int) -> range:
        return range(shard * self.shard_rows, min(N_CLASSES, (shard + 1) * self.shard_rows))


def shard_path(directory: Path, shard: int) -> Path:
    return directory / f"shard-{shard:05d}.parquet"


def _new_manifest(rules: Rules, shard_rows: int) -> dict[str, Any]:
    return {"format": FORMAT, "schema_version": SCHEMA_VERSION,
            "solver_version": __version__, "rules": {"name": rules.name, **rules.to_dict()},
            "fingerprint": rules.fingerprint, "classes": N_CLASSES, "shard_rows": shard_rows,
            "shards_total": Plan(shard_rows, ()).n_shards, "shards": {}}


def read_manifest(directory: Path) -> dict[str, Any]:
    """The verified manifest of a table directory (``manifest.read_manifest``)."""
    return _read_manifest(directory, SCHEMA_VERSION)


def _write_shard(directory: Path, shard: int, metadata: dict[bytes, bytes], columns: dict[str, np.ndarray],
                 compact: bool = False) -> dict[str, Any]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = _schema(metadata, compact)
    table = pa.table([pa.array(columns[f.name], type=f.type) for f in schema], schema=schema)
    path = shard_path(directory, shard)
    if compact:
        # made to be shipped: sorted keys as deltas, the float32 EVs split by byte (zstd finds
        # more in them), the strongest zstd level (read speed is the same)
        options: dict[str, Any] = {"use_dictionary": ["weight", "best", "second", "insurance"],
                                   "column_encoding": {"key": "DELTA_BINARY_PACKED", "second_ev": "BYTE_STREAM_SPLIT"},
                                   "compression_level": 19}
    else:
        options = {"use_dictionary": ["best", "second", "insurance"]}
    write_atomic(path, lambda p: pq.write_table(
        table, p, compression="zstd", row_group_size=len(table), write_statistics=["key"], **options))
    keys = columns["key"]
    return {"rows": len(keys), "first_key": int(keys[0]), "last_key": int(keys[-1]), **file_entry(path)}


def _chunk_path(directory: Path, start: int) -> Path:
    return directory / CHUNKS / f"rows-{start:07d}.npz"


def _arrays_digest(arrays: dict[str, np.ndarray]) -> np.ndarray:
    """SHA-256 of a chunk's arrays (names, types and bytes), as stored beside them."""
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
        h.update(a.tobytes())
    return np.frombuffer(h.digest(), np.uint8)


def _save_chunk(directory: Path, start: int, rows: np.ndarray, columns: dict[str, np.ndarray]) -> None:
    arrays = {"rows": rows, **columns}

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as f:
            np.savez(f, sha256=_arrays_digest(arrays), **arrays)  # type: ignore[arg-type]  # numpy's stub

    path = _chunk_path(directory, start)
    path.parent.mkdir(exist_ok=True)
    write_atomic(path, write)


def _load_chunk(directory: Path, start: int, rows: np.ndarray) -> dict[str, np.ndarray] | None:
    """A chunk saved by an earlier build, if it is there, whole (its checksum), and holds these
    rows (and maybe rows of shards finished since), in the same order; else None."""
    path = _chunk_path(directory, start)
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files if name != "sha256"}
            whole = np.array_equal(data["sha256"], _arrays_digest(arrays))
        saved = arrays.pop("rows")
        wanted = np.isin(saved, rows)
        if whole and np.array_equal(saved[wanted], rows) and all(len(c) == len(saved) for c in arrays.values()):
            return {name: c[wanted] for name, c in arrays.items()}
    except Exception:  # a damaged file is solved again, whatever numpy makes of it
        pass
    path.unlink()
    return None


def _check_shard(directory: Path, shard: int, entry: dict[str, Any]) -> bool:
    return matches(shard_path(directory, shard), entry)


@dataclass(frozen=True)
class BuildReport:
    """What a build did."""

    directory: Path
    solved: tuple[int, ...]     # shards solved now
    kept: tuple[int, ...]       # shards already finished
    redone: tuple[int, ...]     # shards whose file did not match the manifest
    classes: int                # classes solved now
    seconds: float
    reused: int = 0             # classes of unfinished shards taken from an earlier build's chunks


def build(rules: Rules, directory: Path, jobs: int = 1, backend: str = "loky", scheduler: str | None = None,
          shard_rows: int = SHARD_ROWS, shards: Sequence[int] | None = None,
          progress: Callable[[int, int], None] | None = None, chunk_rows: int = CHUNK_ROWS,
          compact: bool = False) -> BuildReport:
    """Solve the shards (all by default) of the table of ``rules`` in ``directory``; resumable.
    With ``compact`` the shards hold only ``COMPACT_COLUMNS``, byte for byte as ``compact``
    writes them from a full table.

    The classes to solve are taken in rank order (``rank_order``, shard after shard: the suit
    classes of a rank-level deal, solved one after the other, share the solver's rank-level
    work), in chunks of about ``chunk_rows`` that end where a rank-level deal does, which
    workers take. Each finished chunk is saved (under ``.chunks``, named by its place in the
    rank order of all the classes), a shard is written when all of its rows are in, and the
    chunks are removed when every shard is: a build killed and started again, with the same or
    other shards finished, solves only the chunks it had not finished.
    ``progress(done, total)`` is called with the classes solved as work completes (``total``:
    the classes left to solve).
    """
    if backend not in ("loky", "dask"):
        raise InputError(f"unknown backend {backend!r} (loky or dask)")
    if scheduler is not None and backend != "dask":
        raise InputError("a Dask scheduler is used only with --backend dask")
    if not 1 <= shard_rows <= MAX_SHARD_ROWS:
        raise InputError(f"shard rows must be between 1 and {MAX_SHARD_ROWS}")
    n_shards = Plan(shard_rows, ()).n_shards
    plan = Plan(shard_rows, tuple(range(n_shards)) if shards is None else tuple(shards))
    for s in plan.shards:
        if not 0 <= s < plan.n_shards:
            raise InputError(f"no shard {s}: the table has shards 0..{plan.n_shards - 1}")
    if not plan.shards:
        raise InputError("no shards to build")
    directory = writable_directory(Path(directory), "table")
    with writing(directory), _backend(backend, scheduler, jobs):   # a scheduler is reached before any write
        return _build(rules, directory, jobs, backend, plan, progress, chunk_rows, compact)


def _build(rules: Rules, directory: Path, jobs: int, backend: str, plan: Plan,
           progress: Callable[[int, int], None] | None, chunk_rows: int, compact: bool) -> BuildReport:
    """``build`` of a checked plan, the directory locked."""
    import joblib

    shard_rows = plan.shard_rows
    for stray in [*directory.glob(".*.tmp-*"), *(directory / CHUNKS).glob(".*.tmp-*")]:
        stray.unlink()  # left by a build that was killed while writing
    if (directory / MANIFEST).exists():
        manifest = read_manifest(directory)
        if manifest["fingerprint"] != rules.fingerprint:
            raise InputError(f"{directory} holds the table of other rules ({manifest['rules'].get('name')}, "
                             f"fingerprint {manifest['fingerprint']}); choose another --out")
        if manifest["shard_rows"] != shard_rows:
            raise InputError(f"{directory} was built with {manifest['shard_rows']} rows per shard, not {shard_rows}")
        if bool(manifest.get("compact")) != compact:
            raise InputError(f"{directory} holds a {'compact' if manifest.get('compact') else 'full'} table; "
                             f"build it {'with' if manifest.get('compact') else 'without'} --compact "
                             "or into another directory")
        if manifest["solver_version"] != __version__:
            raise InputError(f"{directory} was built by rpoker {manifest['solver_version']}, this is {__version__}: "
                             "build into a new directory")
    else:
        manifest = {**_new_manifest(rules, shard_rows), **({"compact": True} if compact else {})}
        write_manifest(directory, manifest)
    kept, redone, todo = [], [], []
    for s in plan.shards:
        entry = manifest["shards"].get(str(s))
        if entry is not None and _check_shard(directory, s, entry):
            kept.append(s)
            continue
        if entry is not None:
            redone.append(s)
            del manifest["shards"][str(s)]
        todo.append(s)
    hands, up_cards, weights = enumerate_classes()
    keys = class_keys(hands, up_cards)
    # the chunks of all the classes, named by their place in rank order (the same whatever is
    # left to build, so that a resumed build finds them), less the rows of shards not to build
    in_todo = np.zeros(N_CLASSES, bool)
    for s in todo:
        in_todo[plan.rows(s).start:plan.rows(s).stop] = True
    order = rank_order(hands, up_cards)
    chunks = {}
    for start, end in _chunk_ends(rank_keys(hands[order], up_cards[order]), chunk_rows).items():
        rows = order[start:end]
        if in_todo[rows].any():
            chunks[start] = rows[in_todo[rows]]
    results: dict[int, dict[str, np.ndarray]] = {}   # the columns of each shard, filled as chunks come in
    filled = dict.fromkeys(todo, 0)

    def chunk(start: int) -> np.ndarray:
        rows: np.ndarray = chunks[start]
        return rows

    def take(rows: np.ndarray, columns: dict[str, np.ndarray]) -> None:
        shard_of = rows // shard_rows
        for s in np.unique(shard_of).tolist():
            mine = shard_of == s
            local = rows[mine] - plan.rows(s).start
            if s not in results:
                results[s] = {name: np.empty(len(plan.rows(s)), col.dtype) for name, col in columns.items()}
            into = results[s]
            for name, col in columns.items():
                into[name][local] = col[mine]
            filled[s] += int(mine.sum())

    tasks, reused = [], 0
    for start in chunks:
        saved = _load_chunk(directory, start, chunk(start))
        if saved is None:
            tasks.append(start)
        else:
            take(chunk(start), saved)
            reused += len(chunk(start))
    total = sum(len(chunk(start)) for start in tasks)
    done = 0
    t0 = time.perf_counter()

    def finish(s: int) -> None:
        # write the shard once all of its rows are in
        rows = plan.rows(s)
        if filled[s] != len(rows) or s not in results:
            return
        merged = results.pop(s)
        merged["key"] = keys[rows.start:rows.stop]
        merged["weight"] = weights[rows.start:rows.stop].astype(np.int32)
        manifest["shards"][str(s)] = _write_shard(directory, s, _metadata(rules), merged, compact)
        write_manifest(directory, manifest)

    def run() -> Iterator[tuple[int, dict[str, np.ndarray]]]:
        calls = (joblib.delayed(_tagged)(start, hands[chunk(start)], up_cards[chunk(start)], rules, compact)
                 for start in tasks)
        n_jobs = jobs if backend == "loky" else -1
        yield from joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered")(calls)

    for s in todo:
        finish(s)  # shards whose every row was saved by an earlier build
    for start, columns in run() if tasks else ():
        _save_chunk(directory, start, chunk(start), columns)
        take(chunk(start), columns)
        done += len(chunk(start))
        if progress is not None:
            progress(done, total)
        for s in np.unique(chunk(start) // shard_rows).tolist():
            finish(s)
    # the chunks whose every row is in a finished shard (of this build or of older ones) are
    # not needed any more
    finished = np.zeros(N_CLASSES, bool)
    for s in manifest["shards"]:
        finished[plan.rows(int(s)).start:plan.rows(int(s)).stop] = True
    for path in (directory / CHUNKS).glob("*.npz"):
        try:
            with np.load(path, allow_pickle=False) as data:
                needed = not finished[data["rows"]].all()
        except Exception:  # damaged: of no use
            needed = False
        if not needed:
            path.unlink()
    with contextlib.suppress(OSError):
        (directory / CHUNKS).rmdir()  # when empty
    return BuildReport(directory, tuple(todo), tuple(kept), tuple(redone), total, time.perf_counter() - t0, reused)


@dataclass(frozen=True)
class CompactReport:
    """What ``compact`` did."""

    directory: Path
    written: tuple[int, ...]    # shards compacted now
    kept: tuple[int, ...]       # shards compacted before from the same source file
    shards_total: int
    bytes: int                  # size of the compact table's shards


def compact(source: Table, directory: Path, progress: Callable[[int, int], None] | None = None) -> CompactReport:
    """Write the compact table of the full table ``source`` into ``directory``: per class its
    best action and EV (float64), the runner-up and its EV (float32) and the insurance size,
    in shards and a manifest like the full table's (``"compact": true``). Shards compacted
    before from the same source file are kept, so it resumes like a build; the shards missing
    from the source are missing from the compact table too. ``progress(done, total)`` per shard.
    """
    if source.compact:
        raise InputError(f"{source.directory} is already a compact table")
    if Path(directory).resolve() == source.directory.resolve():
        raise InputError("the compact table needs its own directory (--out)")
    directory = writable_directory(Path(directory), "compact table")
    with writing(directory):
        if (directory / MANIFEST).exists():
            manifest = read_manifest(directory)
            if not manifest.get("compact") or manifest["fingerprint"] != source.fingerprint \
                    or manifest["shard_rows"] != source.manifest["shard_rows"]:
                raise InputError(f"{directory} holds another table; choose another --out")
        else:
            manifest = {**{k: v for k, v in source.manifest.items() if k not in ("shards", "results", CHECKSUM)},
                        "compact": True, "shards": {}}
            write_manifest(directory, manifest)
        for stray in directory.glob(".*.tmp-*"):
            stray.unlink()
        shards = sorted(int(s) for s in source.manifest["shards"])
        written, kept = [], []
        for i, s in enumerate(shards):
            entry = source.manifest["shards"][str(s)]
            done = manifest["shards"].get(str(s))
            if done is not None and done.get("source_sha256") == entry["sha256"] and _check_shard(directory, s, done):
                kept.append(s)
            else:
                data = source.read_shard(s, COMPACT_COLUMNS)   # verified: a damaged source is refused
                columns = {name: data.column(name).to_numpy() for name in COMPACT_COLUMNS}
                metadata = {k: v for k, v in data.schema.metadata.items() if k.startswith(b"rpoker.")}
                manifest["shards"][str(s)] = {**_write_shard(directory, s, metadata, columns, compact=True),
                                              "source_sha256": entry["sha256"]}
                write_manifest(directory, manifest)
                written.append(s)
            if progress is not None:
                progress(i + 1, len(shards))
    size = sum(int(manifest["shards"][str(s)]["bytes"]) for s in shards)
    return CompactReport(directory, tuple(written), tuple(kept), int(manifest["shards_total"]), size)


def _tagged(start: int, hands: np.ndarray, up_cards: np.ndarray, rules: Rules,
            compact: bool) -> tuple[int, dict[str, np.ndarray]]:
    return start, solve_rows(hands, up_cards, rules, compact)


def _chunk_ends(rank: np.ndarray, chunk_rows: int) -> dict[int, int]:
    """Chunks of rows in rank order, ``start -> end``: about ``chunk_rows`` rows each, cut only
    where a rank-level deal ends (its classes share work in one worker)."""
    cuts = np.flatnonzero(np.diff(rank)) + 1
    ends: dict[int, int] = {}
    start = 0
    while start < len(rank):
        i = int(np.searchsorted(cuts, start + chunk_rows))
        ends[start] = int(cuts[i]) if i < len(cuts) else len(rank)
        start = ends[start]
    return ends


@contextlib.contextmanager
def _backend(backend: str, scheduler: str | None, jobs: int) -> Iterator[None]:
    """joblib's backend for the build: loky as is, or dask on the scheduler given or, without
    one, on a local cluster of ``jobs`` worker processes."""
    import joblib

    if backend == "loky":
        yield
        return
    try:
        from dask.distributed import Client as _Client
    except ImportError:
        raise InputError("the dask backend needs dask.distributed: pip install 'dask[distributed]'") from None
    Client: Any = _Client   # untyped
    try:
        client = Client(scheduler, timeout="20s") if scheduler else \
            Client(processes=True, n_workers=jobs, threads_per_worker=1)
    except (OSError, ValueError, TypeError, TimeoutError) as exc:  # unreachable, or not an address
        raise InputError(f"cannot reach the Dask scheduler {shown(scheduler)}: {str(exc)[:120]}") from None
    with client, joblib.parallel_config(backend="dask"):
        yield


# ---------------------------------------------------------------------------------------------
# reading


@dataclass(frozen=True)
class Choice:
    """A first action as a table lists it, in the user's cards: its EV as stored (float64 for
    the best and the runner-up, float32 for the others) and, for the best action of a full
    table, the exact fraction."""

    action: str                         # fold, bet, sixth_card, exchange
    throw: tuple[Card, ...]
    ev: float
    ev_exact: Fraction | None = None

    @property
    def label(self) -> str:
        return Option(self.action, Fraction(0), self.throw).label


@dataclass(frozen=True)
class Answer:
    """One class read from a table, in the user's own cards."""

    hand: tuple[Card, ...]
    up_card: Card
    key: int
    weight: int
    options: tuple[Choice, ...]   # best first: every option (a full table) or the best two (compact)
    insurance: int                # the insurance to take when betting the dealt hand, antes
    bet_ev: float | None          # EV of betting the dealt hand (full tables)

    @property
    def best(self) -> Choice:
        return self.options[0]

    @property
    def second(self) -> Choice:
        return self.options[1]


class MissingShard(InputError):
    """The shard of a deal's class is not built yet (an unfinished table)."""


class Table:
    """A strategy table directory, opened lazily: the manifest is read (and verified) when the
    table is opened, a shard when it is first needed — every file checked against the
    manifest's SHA-256 as it is read, so that a damaged table is refused, never read."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self.manifest = read_manifest(self.directory)
        self._first = sorted((entry["first_key"], int(s)) for s, entry in self.manifest["shards"].items())
        self._shards: dict[int, tuple[Any, np.ndarray]] = {}
        self.compact = bool(self.manifest.get("compact", False))

    @property
    def fingerprint(self) -> str:
        return str(self.manifest["fingerprint"])

    @property
    def rules_name(self) -> str:
        return str(self.manifest["rules"].get("name"))

    @property
    def complete(self) -> bool:
        return bool(len(self.manifest["shards"]) == self.manifest["shards_total"])

    def check_rules(self, rules: Rules) -> None:
        if rules.fingerprint != self.fingerprint:
            raise InputError(f"the table in {self.directory} was built for other rules "
                             f"({self.rules_name}, fingerprint {self.fingerprint}), "
                             f"not {rules.name} ({rules.fingerprint})")

    def rebuild_command(self) -> str:
        """How to solve a damaged shard again (the shipped table: reinstall the package)."""
        shipped = shipped_root()
        if shipped is not None and self.directory.resolve().parent == shipped.resolve():
            return ("reinstall rpoker from its source (pip install --force-reinstall .): this is the table "
                    "installed with it")
        name = self.rules_name if self.rules_name in PRESETS else f"<the rules file of fingerprint {self.fingerprint}>"
        return (f"`rpoker tables build{' --compact' if self.compact else ''} --rules {name} --out {self.directory}` "
                "solves damaged shards again")

    def verified_bytes(self, path: Path, entry: dict[str, Any], remedy: str) -> bytes:
        """A file of the table, read whole and checked against its manifest ``entry``."""
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise InputError(f"{path} is missing from the table in {self.directory}; {remedy}") from None
        except OSError as exc:
            raise InputError(f"cannot read {path}: {exc.strerror}") from None
        if len(data) != entry["bytes"] or sha256(data) != entry["sha256"]:
            raise InputError(f"{path} does not match its SHA-256 in the manifest: the file is damaged, and "
                             f"nothing is read from it; {remedy}")
        return data

    def read_shard(self, shard: int, columns: Sequence[str] | None = None) -> Any:
        """A shard as a pyarrow table (some ``columns``, or all), verified."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        path = shard_path(self.directory, shard)
        entry = self.manifest["shards"].get(str(shard))
        if entry is None:
            raise MissingShard(f"shard {shard} is not in the table in {self.directory} "
                               f"({len(self.manifest['shards'])} of {self.manifest['shards_total']} shards built); "
                               "run `rpoker tables build` to finish it")
        raw = self.verified_bytes(path, entry, self.rebuild_command())
        try:
            # read by ParquetFile on this thread (read_table starts Arrow's thread pools, whose threads
            # can abort the process at exit: apache/arrow#34314); a 0.4 MB shard reads as fast so
            data = pq.ParquetFile(pa.BufferReader(raw)).read(list(columns) if columns else None, use_threads=False)
        except Exception as exc:  # pyarrow raises several types; the checksum matched, so it was written so
            raise InputError(f"{path} cannot be read ({str(exc)[:80]}); {self.rebuild_command()}") from None
        meta = data.schema.metadata or {}
        if (meta.get(b"rpoker.fingerprint", b"").decode() != self.fingerprint or data.num_rows != entry["rows"]
                or (meta.get(b"rpoker.compact") == b"true") != self.compact):
            raise InputError(f"{path} does not belong to the table in {self.directory}; {self.rebuild_command()}")
        return data

    def _shard_of(self, key: int) -> int:
        for first, s in reversed(self._first):
            if key >= first:
                if key <= self.manifest["shards"][str(s)]["last_key"]:
                    return int(s)
                break
        raise MissingShard(f"the shard of this deal's class is missing from the table in {self.directory} "
                           f"({len(self.manifest['shards'])} of {self.manifest['shards_total']} shards built); "
                           "run `rpoker tables build` to finish it")

    def lookup(self, hand: Sequence[Card], up_card: Card) -> Answer:
        """The table's row of a deal, translated into the user's suits."""
        if len(hand) != 5:
            raise InputError(f"the hand must have 5 cards, not {len(hand)}")
        check_disjoint([("hand", hand), ("up-card", [up_card])])
        c = canonical(hand, up_card)
        key = int(class_keys(np.asarray([c.hand], np.uint8), np.asarray([c.up_card]))[0])
        shard = self._shard_of(key)
        if shard not in self._shards:  # read once: its key column finds the row
            data = self.read_shard(shard)
            self._shards[shard] = (data, data.column("key").to_numpy())
        table, keys = self._shards[shard]
        row = int(np.searchsorted(keys, key))
        if row >= len(keys) or keys[row] != key:
            raise InputError(f"class {key} is not in {shard_path(self.directory, shard)}, whose key range holds it: "
                             f"the table is not a table of every class; {self.rebuild_command()}")
        data = table.slice(row, 1).to_pylist()[0]
        rep = c.hand

        def choice(code: int, ev: float, exact: Fraction | None = None) -> Choice:
            o = action_option(code, rep)
            thrown = set(c.to_user(list(o.throw)))
            return Choice(o.action, tuple(x for x in hand if x in thrown), float(ev), exact)  # in the hand's order

        best_exact = None if self.compact else Fraction(data["best_num"], data["best_den"])
        options = [choice(data["best"], data["best_ev"], best_exact), choice(data["second"], data["second_ev"])]
        if not self.compact:
            others = [(1, data["bet"])] + ([(2, data["sixth"])] if data["sixth"] is not None else [])
            others += [(2 + mask, data[EXCHANGE_COLUMNS[mask - 1]]) for mask in range(1, 32)]
            rest = [(code, ev) for code, ev in [(0, -1.0), *others]
                    if ev is not None and not np.isnan(ev) and code not in (data["best"], data["second"])]
            options += [choice(code, ev) for code, ev in sorted(rest, key=lambda o: -o[1])]
        return Answer(tuple(hand), up_card, key, data["weight"], tuple(options), data["insurance"],
                      None if self.compact else float(data["bet"]))


def shipped_root() -> Path | None:
    """The folder of the tables installed with the package (``tables/`` of the source)."""
    from importlib.resources import files

    try:
        root = Path(str(files("solver.shipped")))
    except (ModuleNotFoundError, TypeError):  # pragma: no cover - not installed with its tables
        return None
    return root if root.is_dir() else None


def default_roots() -> list[Path]:
    """Where tables are looked for when none is named: ./tables, then the tables installed
    with the package."""
    shipped = shipped_root()
    return [Path("tables"), *([shipped] if shipped is not None else [])]


def _candidates(root: Path) -> list[Path]:
    if (root / MANIFEST).is_file():
        return [root]
    return sorted(p.parent for p in root.glob(f"*/{MANIFEST}")) if root.is_dir() else []


def locate(rules: Rules, table: Path | str | None = None, missing_ok: bool = False) -> Table | None:
    """The strategy table of ``rules``.

    Named by ``table`` (else ``$RPOKER_TABLES``): that directory must exist and hold it (a table
    directory, or a directory of tables), else an error says what it holds (``missing_ok``: a
    directory of tables without it gives None, for a build to fill). Not named: the
    first of ``default_roots`` that holds it, or None. A damaged table is an error as soon as
    its manifest is read; a damaged candidate that might have been it is named when none is
    found.
    """
    named, option = (table, "--table") if table is not None else (os.environ.get("RPOKER_TABLES") or None,
                                                                  "$RPOKER_TABLES")
    if named is not None:
        root = Path(named)
        if str(named) == "" or not root.exists():
            raise InputError(f"{option} {str(named)!r}: no such directory")
        if (root / MANIFEST).is_file():
            found = Table(root)
            found.check_rules(rules)
            return found
        others = []
        for directory in _candidates(root):
            t = Table(directory)     # damage is an error: the table was named
            if t.fingerprint == rules.fingerprint:
                return t
            others.append(f"{directory.name} ({t.rules_name})")
        if missing_ok:
            return None
        raise InputError(f"no table of the rules {rules.name} ({rules.fingerprint}) in {root}"
                         + (f": it holds {', '.join(others)}" if others else ""))
    damaged: list[str] = []
    for root in default_roots():
        for directory in _candidates(root):
            try:
                t = Table(directory)
            except InputError as exc:
                damaged.append(str(exc))
                continue
            if t.fingerprint == rules.fingerprint:
                return t
    if damaged:
        raise InputError(f"no table of the rules {rules.name} could be read: {damaged[0]}")
    return None


def where() -> str:
    """Where ``locate`` looks when no table is named, in words."""
    return ", ".join(str(p) for p in default_roots())


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

    from . import optimal

    table.check_rules(rules)
    manifest = table.manifest
    if not table.complete:
        raise InputError(f"the table in {table.directory} is not complete: {len(manifest['shards'])} of "
                         f"{manifest['shards_total']} shards")
    if not 0 <= spot <= N_CLASSES:
        raise InputError(f"--spot {spot}: a table has {N_CLASSES:,} classes to spot-check")
    hands, ups, weights = enumerate_classes()
    keys = class_keys(hands, ups)
    shard_rows = int(manifest["shard_rows"])
    total_weight = rows = 0
    for s in range(manifest["shards_total"]):
        data = table.read_shard(s, ["key", "weight"])
        lo, hi = s * shard_rows, min(N_CLASSES, (s + 1) * shard_rows)
        if not (np.array_equal(data.column("key").to_numpy(), keys[lo:hi])
                and np.array_equal(data.column("weight").to_numpy(), weights[lo:hi])):
            raise InputError(f"shard {s} of {table.directory} does not hold classes {lo}..{hi - 1}")
        rows += data.num_rows
        total_weight += int(data.column("weight").to_numpy().sum())
        if progress is not None:
            progress(s + 1, manifest["shards_total"])
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
    return CheckReport(manifest["shards_total"], rows, total_weight, spot, counted)
