"""Building a table: its shards solved in chunks by joblib workers (loky, or Dask), resumable;
with ``results``, the best actions played out in the same pass."""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..classes import N_CLASSES, class_keys, enumerate_classes, rank_keys, rank_order
from ..errors import InputError, shown
from ..manifest import MANIFEST, MAX_SHARD_ROWS, writable_directory, write_atomic, writing
from ..rules import Rules
from ..version import __version__
from .played import Sums, add_sums, no_sums, played_out, results_data, unit, write_results
from .rows import solve_rows
from .schema import (
    Manifest,
    Plan,
    read_manifest,
    shard_matches,
    shard_metadata,
    write_shard,
)

SHARD_ROWS = 65_536
CHUNK_ROWS = 512
CHUNKS = ".chunks"  # finished chunks of an unfinished build, so that a killed build loses little
PLAYED = "played"   # a chunk's played-out sums by shard (a build with results)


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


def _save_chunk(directory: Path, start: int, rows: np.ndarray, columns: dict[str, np.ndarray],
                played: dict[int, Sums] | None) -> None:
    arrays = {"rows": rows, **columns}
    if played is not None:
        # the played-out sums by shard, as JSON bytes (exact integers of any size)
        text = json.dumps({str(s): {**p, "results": {str(x): k for x, k in p["results"].items()}}
                           for s, p in played.items()})
        arrays[PLAYED] = np.frombuffer(text.encode(), np.uint8)

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as f:
            np.savez(f, sha256=_arrays_digest(arrays), **arrays)  # type: ignore[arg-type]  # numpy's stub

    path = _chunk_path(directory, start)
    path.parent.mkdir(exist_ok=True)
    write_atomic(path, write)


def _load_chunk(directory: Path, start: int, rows: np.ndarray,
                results: bool) -> tuple[dict[str, np.ndarray], dict[int, Sums] | None] | None:
    """A chunk saved by an earlier build, if it is there, whole (its checksum), holds these
    rows (and maybe rows of shards finished since), in the same order, and (with ``results``)
    their played-out sums: its columns and its sums by shard; else None."""
    path = _chunk_path(directory, start)
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files if name != "sha256"}
            whole = np.array_equal(data["sha256"], _arrays_digest(arrays))
        saved, text = arrays.pop("rows"), arrays.pop(PLAYED, None)
        wanted = np.isin(saved, rows)
        if whole and np.array_equal(saved[wanted], rows) and all(len(c) == len(saved) for c in arrays.values()):
            played = None if text is None else \
                {int(s): {**p, "results": {int(x): k for x, k in p["results"].items()}}
                 for s, p in json.loads(text.tobytes()).items()}
            if played is not None or not results:
                return {name: c[wanted] for name, c in arrays.items()}, played
            return None   # solved without playing out: solved again
    except Exception:  # a damaged file is solved again, whatever numpy makes of it
        pass
    path.unlink()
    return None


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
          compact: bool = False, results: bool = False) -> BuildReport:
    """Solve the shards (all by default) of the table of ``rules`` in ``directory``; resumable.
    With ``compact`` the shards hold only ``COMPACT_COLUMNS``, byte for byte as ``compact``
    writes them from a full table. With ``results`` the workers also play out the best action
    of each class they solve (``played``), and each shard's results file is written with it,
    as ``played.compute`` writes it from the finished table.

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
    with writing(directory), workers(backend, scheduler, jobs):   # a scheduler is reached before any write
        return solve_chunks(rules, directory, jobs, backend, plan, progress, chunk_rows, compact, results)


def solve_chunks(rules: Rules, directory: Path, jobs: int, backend: str, plan: Plan,
                 progress: Callable[[int, int], None] | None, chunk_rows: int, compact: bool,
                 results: bool) -> BuildReport:
    """``build`` of a checked plan, the directory locked."""
    import joblib

    shard_rows = plan.shard_rows
    for stray in [*directory.glob(".*.tmp-*"), *(directory / CHUNKS).glob(".*.tmp-*")]:
        stray.unlink()  # left by a build that was killed while writing
    if (directory / MANIFEST).exists():
        manifest = read_manifest(directory)
        if manifest.fingerprint != rules.fingerprint:
            raise InputError(f"{directory} holds the table of other rules ({manifest.name}, "
                             f"fingerprint {manifest.fingerprint}); choose another --out")
        if manifest.shard_rows != shard_rows:
            raise InputError(f"{directory} was built with {manifest.shard_rows} rows per shard, not {shard_rows}")
        if manifest.compact != compact:
            raise InputError(f"{directory} holds a {'compact' if manifest.compact else 'full'} table; "
                             f"build it {'with' if manifest.compact else 'without'} --compact "
                             "or into another directory")
        if manifest.solver_version != __version__:
            raise InputError(f"{directory} was built by rpoker {manifest.solver_version}, this is {__version__}: "
                             "build into a new directory")
    else:
        manifest = Manifest.new(rules, shard_rows, compact)
        manifest.write(directory)
    kept, redone, todo = [], [], []
    for s in plan.shards:
        entry = manifest.shard(s)
        if entry is not None and shard_matches(directory, s, entry):
            kept.append(s)
            continue
        if entry is not None:
            redone.append(s)
            del manifest.shards[str(s)]
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
    columns_of: dict[int, dict[str, np.ndarray]] = {}   # the columns of each shard, filled as chunks come in
    played: dict[int, Sums] = {s: no_sums() for s in todo} if results else {}   # their played-out sums
    filled = dict.fromkeys(todo, 0)

    def chunk(start: int) -> np.ndarray:
        rows: np.ndarray = chunks[start]
        return rows

    def take(rows: np.ndarray, columns: dict[str, np.ndarray], sums: dict[int, Sums] | None) -> None:
        shard_of = rows // shard_rows
        for s in np.unique(shard_of).tolist():
            mine = shard_of == s
            local = rows[mine] - plan.rows(s).start
            if s not in columns_of:
                columns_of[s] = {name: np.empty(len(plan.rows(s)), col.dtype) for name, col in columns.items()}
            into = columns_of[s]
            for name, col in columns.items():
                into[name][local] = col[mine]
            filled[s] += int(mine.sum())
            if results:
                assert sums is not None
                add_sums(played[s], sums[s])

    tasks, reused = [], 0
    for start in chunks:
        saved = _load_chunk(directory, start, chunk(start), results)
        if saved is None:
            tasks.append(start)
        else:
            take(chunk(start), *saved)
            reused += len(chunk(start))
    total = sum(len(chunk(start)) for start in tasks)
    done = 0
    t0 = time.perf_counter()

    def finish(s: int) -> None:
        # write the shard once all of its rows are in
        rows = plan.rows(s)
        if filled[s] != len(rows) or s not in columns_of:
            return
        merged = columns_of.pop(s)
        merged["key"] = keys[rows.start:rows.stop]
        merged["weight"] = weights[rows.start:rows.stop].astype(np.int32)
        manifest.shards[str(s)] = write_shard(directory, s, shard_metadata(rules), merged, compact)
        manifest.write(directory)
        if results:
            write_results(directory, manifest, results_data(rules.fingerprint, s, len(rows),
                                                            int(merged["weight"].sum()), unit(rules), played.pop(s)))

    def run() -> Iterator[tuple[int, dict[str, np.ndarray], dict[int, Sums] | None]]:
        calls = (joblib.delayed(_tagged)(start, hands[chunk(start)], up_cards[chunk(start)], rules, compact,
                                         (weights[chunk(start)], chunk(start) // shard_rows) if results else None)
                 for start in tasks)
        n_jobs = jobs if backend == "loky" else -1
        yield from joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered")(calls)

    for s in todo:
        finish(s)  # shards whose every row was saved by an earlier build
    for start, columns, sums in run() if tasks else ():
        _save_chunk(directory, start, chunk(start), columns, sums)
        take(chunk(start), columns, sums)
        done += len(chunk(start))
        if progress is not None:
            progress(done, total)
        for s in np.unique(chunk(start) // shard_rows).tolist():
            finish(s)
    # the chunks whose every row is in a finished shard (of this build or of older ones) are
    # not needed any more
    finished = np.zeros(N_CLASSES, bool)
    for number in manifest.shards:
        finished[plan.rows(int(number)).start:plan.rows(int(number)).stop] = True
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


def _tagged(start: int, hands: np.ndarray, up_cards: np.ndarray, rules: Rules, compact: bool,
            play: tuple[np.ndarray, np.ndarray] | None) -> tuple[int, dict[str, np.ndarray], dict[int, Sums] | None]:
    """A chunk solved (its start, its columns) and, given the classes' weights and shards
    (``play``), its best actions played out, summed by shard."""
    columns = solve_rows(hands, up_cards, rules, compact)
    if play is None:
        return start, columns, None
    weight, shard_of = play
    return start, columns, played_out(hands, up_cards, weight, columns["best"], columns["best_ev"], rules, shard_of)


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
def workers(backend: str, scheduler: str | None, jobs: int) -> Iterator[None]:
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
