"""Scaling a table build out: a build on a local Dask cluster measured, and projected to bigger ones.

Starts a local Dask cluster of ``--workers`` single-threaded worker processes and builds a table
through it as ``rpoker tables build --backend dask --scheduler ADDR`` does (the scheduler's
address passed to ``tables.build``). It measures what scaling out depends on:

- the workers' compute time of every task (the scheduler's task stream) and how much of the
  workers' wall time that fills (``efficiency``);
- the client's serial work during the build: saving each finished chunk (``.chunks/``) and
  writing each shard and the manifest, timed inside the build;
- the client's set-up (every class enumerated, ordered and cut into chunks), before any task;
- what a task costs the scheduler: a burst of no-op tasks through the same joblib backend;
- the bytes a task returns, and the workers' peak memory.

From those it projects the build of a whole table (every class; ``--project`` rules, by default
the full table of the default rules, from ``--project-ms`` per class) on W cores:

    T(W) = set-up + max(compute / W, client's serial work, tasks x scheduler cost) + the longest task

The compute and the serial work per chunk and per shard are measured on the shards built, not
assumed. ``--rules caribbean`` builds its whole table (about 4 minutes of two cores);
``--rules russian --shards 40`` builds one shard of the default rules' full table (about 6
minutes of two cores).

    python benchmarks/bench_scale.py [--rules caribbean] [--shards all] [--workers 2] [--compact]
"""

from __future__ import annotations

import argparse
import contextlib
import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import joblib

from solver import rules as rules_module
from solver.classes import N_CLASSES, enumerate_classes, rank_keys, rank_order
from solver.tables import builder, schema

CORES = (2, 16, 128)
"""This machine, a 16-core machine, and a cluster of 8 such machines."""


@contextlib.contextmanager
def _timed(module: Any, name: str, spent: list[float]) -> Iterator[None]:
    """Time every call of ``module.name`` made during the block (the client's own work)."""
    original: Callable[..., Any] = getattr(module, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - t)

    setattr(module, name, wrapper)
    try:
        yield
    finally:
        setattr(module, name, original)


def _noop(i: int) -> int:
    return i


def _peak_memory() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _set_up_seconds(chunk_rows: int) -> tuple[float, int]:
    """What the client does before the first task (the classes, their order, the chunks), and
    how many chunks the whole table has."""
    t = time.perf_counter()
    hands, ups, _ = enumerate_classes()
    order = rank_order(hands, ups)
    ends = builder._chunk_ends(rank_keys(hands[order], ups[order]), chunk_rows)
    return time.perf_counter() - t, len(ends)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="caribbean")
    parser.add_argument("--shards", default="all", help="'all' or shard numbers, e.g. 40 or 3,40")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--compact", action="store_true")
    parser.add_argument("--noop", type=int, default=2000, help="no-op tasks timed through the backend")
    parser.add_argument("--project-ms", type=float, default=None,
                        help="ms of one core per class of the table projected (default: as measured here)")
    args = parser.parse_args()
    from dask.distributed import Client, LocalCluster, get_task_stream

    r = rules_module.load(args.rules)
    shards = None if args.shards == "all" else [int(s) for s in args.shards.split(",")]
    set_up, n_chunks = _set_up_seconds(builder.CHUNK_ROWS)
    print(f"client set-up (classes, order, chunks): {set_up:.1f} s; the whole table has {n_chunks:,} chunks "
          f"of about {builder.CHUNK_ROWS} classes", flush=True)
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True) as cluster, \
            Client(cluster) as client, tempfile.TemporaryDirectory() as tmp:
        # what a task costs the scheduler and the backend, with nothing to compute
        with joblib.parallel_config(backend="dask"):
            joblib.Parallel(n_jobs=-1)(joblib.delayed(_noop)(i) for i in range(100))  # warm
            t = time.perf_counter()
            joblib.Parallel(n_jobs=-1, batch_size=1)(joblib.delayed(_noop)(i) for i in range(args.noop))
            per_task = (time.perf_counter() - t) / args.noop
        print(f"scheduler and backend, one no-op task: {per_task * 1e3:.2f} ms ({args.noop} tasks, "
              f"{args.workers} workers)", flush=True)
        saves: list[float] = []
        writes: list[float] = []
        manifests: list[float] = []
        with get_task_stream(client=client) as stream, _timed(builder, "_save_chunk", saves), \
                _timed(builder, "write_shard", writes), _timed(schema.Manifest, "write", manifests):
            t = time.perf_counter()
            report = builder.build(r, Path(tmp) / "table", backend="dask", scheduler=cluster.scheduler_address,
                                   shards=shards, compact=args.compact)
            wall = time.perf_counter() - t
        tasks = [task for task in stream.data if task.get("status") == "OK"]
        computes = [sum(s["stop"] - s["start"] for s in task["startstops"] if s["action"] == "compute")
                    for task in tasks]
        returned = [task.get("nbytes", 0) for task in tasks]
        memory = client.run(_peak_memory)
    compute = sum(computes)
    classes = report.classes
    print(f"\nbuild of {classes:,} classes ({len(report.solved)} shards, {'compact' if args.compact else 'full'}, "
          f"rules {r.name}) on {args.workers} Dask workers: {wall:.1f} s wall")
    print(f"  tasks: {len(tasks)}, compute {compute:.1f} s in all ({1e3 * compute / classes:.3f} ms a class; "
          f"a task: median {statistics.median(computes):.2f} s, longest {max(computes):.2f} s)")
    print(f"  efficiency: {compute / (wall * args.workers):.1%} of the workers' wall time is compute")
    print(f"  client, serial: chunks saved {sum(saves):.2f} s ({1e3 * statistics.median(saves or [0]):.1f} ms each), "
          f"shards written {sum(writes):.2f} s ({statistics.median(writes or [0]):.2f} s each), "
          f"manifest {sum(manifests):.2f} s")
    print(f"  a task returns {statistics.median(returned) / 1e3:.0f} kB (median); peak memory of a worker "
          f"{max(memory.values()) / 2**30:.2f} GB")
    ms = args.project_ms if args.project_ms is not None else 1e3 * compute / classes
    total = N_CLASSES * ms / 1e3
    per_chunk = sum(saves) / len(saves) if saves else 0.0
    per_shard = (sum(writes) + sum(manifests)) / max(1, len(writes))
    whole_serial = n_chunks * per_chunk + builder.Plan(builder.SHARD_ROWS, ()).n_shards * per_shard
    longest = max(computes) * (ms / (1e3 * compute / classes))
    print(f"\nprojection for the whole table ({N_CLASSES:,} classes, {ms:.3f} ms of one core a class: "
          f"{total / 3600:.2f} h of one core; client's serial work {whole_serial / 60:.1f} min; "
          f"{n_chunks:,} tasks x {per_task * 1e3:.2f} ms = {n_chunks * per_task / 60:.1f} min of scheduler):")
    for cores in CORES:
        parts = {"compute": total / cores, "client": whole_serial, "scheduler": n_chunks * per_task}
        limit = max(parts, key=lambda k: parts[k])
        hours = (set_up + parts[limit] + longest) / 3600
        print(f"  {cores:4d} cores: {hours:6.2f} h  (limited by {limit}: {parts[limit] / 60:.1f} min; "
              f"set-up {set_up:.0f} s, last task {longest:.0f} s)")


if __name__ == "__main__":
    main()
