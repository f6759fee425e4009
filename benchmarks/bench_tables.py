"""Strategy tables: classes solved per second per core, the projected full build, query times.

The build solves the classes in rank order (``classes.rank_order``: by rank-level deal, then by
the hand's cards in the up-card's suit), in chunks of about 512 that workers take, so that the
suit classes of one rank-level deal are solved one after the other and share the kernel's
rank-level work. The compact table (the one shipped: best action and runner-up) needs only the
leading options, so its build bounds the 3- to 5-card exchanges first (``solve(leading=2)``);
the full table needs every option's EV (``--full``); a build with ``--results`` also plays out
each class's best action (the results of optimal play for the report, in the same pass). This
benchmark times that workload: windows of consecutive rows of that order at random places
(default rules), solved one window at a time on one worker, then the same windows with one
worker per core (workers started and warm, as in a long build), ``--repeats`` times; it prints
each run and projects a whole build (5,649,150 classes) on this machine from the median. Then
it times queries of the shipped table (``tables/russian-compact``): a deal whose shard is
already read (warm, in process), the first deal of a shard (which reads it), and ``rpoker
tables query`` end to end. Targets on 2 cores:
the full table <= 4 h (bar), <= 2 h (goal); the compact table with its results in one pass
<= 1.5 h (bar), <= 45 min (goal) (issue 18); query median <= 50 ms warm, CLI <= 1 s;
peak memory of a build worker <= 2 GB (each worker's own peak, as it reports it).

    python benchmarks/bench_tables.py [--windows 8] [--rows 512] [--jobs 2] [--repeats 3] [--full | --results]
    python benchmarks/bench_tables.py --shards 0,11,22,33,44,55,66,77 --results [--repeats 3]

With ``--shards`` it builds those whole shards instead (the build itself, chunk files and
shard files included, in a temporary folder) and projects the whole table from their classes.
Shards differ widely: in the whole one-pass build a shard took 21 to 132 s,
and 8 shards project the whole build only to about +-20 % (docs/cost-model.md, "The whole one
pass"); the target's figure is a whole build's. The largest peak memory of a worker is then read from
``/proc`` (each living worker's VmHWM, sampled every second). ``--windows``, ``--rows`` and
``--seed`` choose random windows and are refused with ``--shards``.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import joblib
import numpy as np

from solver import rules, tables
from solver.cards import format_cards
from solver.classes import N_CLASSES, PERM_CARD, enumerate_classes, rank_order
from solver.manifest import MANIFEST
from solver.tables.played import played_out

TARGETS = ("targets (2 cores): full table <= 4 h (bar), <= 2 h (goal); compact table and its results in one pass "
           "<= 1.5 h (bar), <= 45 min (goal); query <= 50 ms warm, CLI <= 1 s; worker memory <= 2 GB")
WINDOWS, SEED = 8, 2026
"""The random windows' defaults (``--windows``, ``--seed``)."""
SHIPPED = Path(__file__).resolve().parent.parent / "tables" / "russian-compact"


def _solve_window(hands: np.ndarray, up_cards: np.ndarray, weights: np.ndarray, compact: bool,
                  results: bool) -> tuple[float, int]:
    """Seconds to solve a window (and play it out, with ``results``, as a build does), and this
    process's peak resident memory (bytes)."""
    t = time.perf_counter()
    columns = tables.solve_rows(hands, up_cards, rules.DEFAULT, compact)
    if results:
        played_out(hands, up_cards, weights, columns["best"], columns["best_ev"], rules.DEFAULT)
    return time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _time_build(hands: np.ndarray, ups: np.ndarray, weights: np.ndarray, windows: list[np.ndarray], jobs: int,
                compact: bool, results: bool) -> tuple[float, list[float], int]:
    """Classes per second of solving the windows on ``jobs`` workers, ms per class of each
    window, the largest peak memory of a worker."""
    with joblib.Parallel(n_jobs=jobs) as parallel:
        # start and warm the workers (imports, the evaluator's tables) before the clock starts
        parallel(joblib.delayed(_solve_window)(hands[w[:4]], ups[w[:4]], weights[w[:4]], compact, results)
                 for w in windows[:jobs])
        t = time.perf_counter()
        done = parallel(joblib.delayed(_solve_window)(hands[w], ups[w], weights[w], compact, results)
                        for w in windows)
        wall = time.perf_counter() - t
    n = sum(len(w) for w in windows)
    return n / wall, sorted(1e3 * sec / len(w) for (sec, _), w in zip(done, windows)), max(m for _, m in done)


def _peak_of_children() -> int:
    """The largest peak resident memory (bytes, VmHWM) of this process's living descendants:
    the build's workers, which joblib keeps alive between builds (Linux /proc; 0 elsewhere)."""
    parent_of = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
        except OSError:  # the process ended while read
            continue
        parent_of[int(status.parent.name)] = (int(fields["PPid"]), int(fields.get("VmHWM", "0 kB").split()[0]) * 1024)
    ours, peak, grew = {os.getpid()}, 0, True
    while grew:
        grew = False
        for pid, (parent, hwm) in parent_of.items():
            if parent in ours and pid not in ours:
                ours.add(pid)
                peak, grew = max(peak, hwm), True
    return peak


def _time_shards(shards: list[int], jobs: int, compact: bool, results: bool) -> tuple[float, int, int]:
    """Seconds to build whole shards of the table (the build itself: chunks saved, workers,
    shard and results files written) in a temporary folder, their classes, and the largest peak
    memory of a worker (sampled every second: a worker that ends takes its peak with it)."""
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.wait(1.0):
            peak = max(peak, _peak_of_children())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    with tempfile.TemporaryDirectory() as folder:
        t = time.perf_counter()
        built = tables.build(rules.DEFAULT, Path(folder), jobs=jobs, shards=shards, compact=compact, results=results)
        seconds = time.perf_counter() - t
    done.set()
    sampler.join()  # before the last sample: the thread no longer writes ``peak``
    return seconds, built.classes, max(peak, _peak_of_children())


def _time_queries(rng: random.Random, hands: np.ndarray, ups: np.ndarray) -> None:
    if not (SHIPPED / MANIFEST).is_file():
        print(f"no shipped table at {SHIPPED}: queries not timed")
        return
    table = tables.Table(SHIPPED)

    def deal_of(row: int) -> tuple[list[int], int]:  # the class's deal in random suits
        perm = rng.randrange(24)
        return [int(PERM_CARD[perm][c]) for c in hands[row]], int(PERM_CARD[perm][ups[row]])

    shards = rng.sample(range(table.manifest.shards_total), 5)
    first, warm = [], []
    for shard in shards:
        rows = [rng.randrange(shard * tables.SHARD_ROWS, min(N_CLASSES, (shard + 1) * tables.SHARD_ROWS))
                for _ in range(11)]
        for i, row in enumerate(rows):
            hand, up = deal_of(row)
            t = time.perf_counter()
            table.lookup(hand, up)
            (first if i == 0 else warm).append(time.perf_counter() - t)
    print(f"query of the shipped table, in process: warm (shard read before) median "
          f"{statistics.median(warm) * 1e3:.2f} ms over {len(warm)} deals; first deal of a shard (reads it) "
          f"median {statistics.median(first) * 1e3:.1f} ms over {len(first)}")
    cli = []
    for _ in range(5):
        hand, up = deal_of(rng.randrange(N_CLASSES))
        t = time.perf_counter()
        # from another folder: the installed package, not the source folder of the same name
        subprocess.run([sys.executable, "-m", "solver", "tables", "query", format_cards(hand), "--up",
                        format_cards([up]), "--table", str(SHIPPED)], check=True, capture_output=True,
                       cwd=tempfile.gettempdir())
        cli.append(time.perf_counter() - t)
    print(f"rpoker tables query end to end: median {statistics.median(cli):.2f} s "
          f"({', '.join(f'{x:.2f}' for x in cli)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # None where the whole shards of --shards take their place (refused with it)
    parser.add_argument("--windows", type=int, help=f"windows per timed run (default {WINDOWS})")
    parser.add_argument("--rows", type=int, help=f"rank-ordered rows per window (default {tables.CHUNK_ROWS})")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3, help="timed runs (new windows each time)")
    parser.add_argument("--seed", type=int, help=f"of the windows (default {SEED})")
    kind_of = parser.add_mutually_exclusive_group()
    kind_of.add_argument("--full", action="store_true",
                         help="time the full table (every option's EV), not the compact one")
    kind_of.add_argument("--results", action="store_true",
                         help="time the compact table with its results played out in the same pass")
    parser.add_argument("--shards", type=lambda text: [int(s) for s in text.split(",")],
                        help="build these whole shards (e.g. 0,11,22,33,44,55,66,77: every 11th of the rank "
                             "order) instead of timing windows, and project the whole table from them")
    args = parser.parse_args()
    kind = "full table" if args.full else "compact table and its results" if args.results else "compact table"
    if args.shards:
        windows_named = [name for name in ("windows", "rows", "seed") if getattr(args, name) is not None]
        if windows_named:
            parser.error(f"--{windows_named[0]} chooses random windows; --shards builds the whole shards named instead")
        hours, peak = [], 0
        for run in range(args.repeats):
            seconds, classes, memory = _time_shards(args.shards, args.jobs, not args.full, args.results)
            hours.append(seconds / classes * N_CLASSES / 3600)
            peak = max(peak, memory)
            print(f"run {run + 1}: shards {','.join(map(str, args.shards))} ({classes:,} classes) in {seconds:.0f} s "
                  f"on {args.jobs} worker(s): the whole {kind} projected at {hours[-1]:.2f} h", flush=True)
        print(f"projected build of the whole {kind} with {args.jobs} workers from whole shards: "
              f"median {statistics.median(hours):.2f} h over {args.repeats} runs")
        print(f"peak memory of a build worker {peak / 2**20:.0f} MB")
        print(TARGETS)
        return
    n_windows = WINDOWS if args.windows is None else args.windows
    n_rows = tables.CHUNK_ROWS if args.rows is None else args.rows
    rng = random.Random(SEED if args.seed is None else args.seed)
    hands, ups, weights = enumerate_classes()
    order = rank_order(hands, ups)
    hours, peak = [], 0
    for run in range(args.repeats):
        windows = [order[start:start + n_rows] for start in rng.sample(range(len(order) - n_rows), n_windows)]
        rates = {}
        for jobs in sorted({1, args.jobs}):
            rates[jobs], per_class, memory = _time_build(hands, ups, weights, windows, jobs, not args.full,
                                                         args.results)
            peak = max(peak, memory)
            print(f"run {run + 1}, {jobs} worker(s): {rates[jobs]:.1f} classes/s ({rates[jobs] / jobs:.1f} per core); "
                  f"ms per class by window {', '.join(f'{x:.1f}' for x in per_class)}", flush=True)
        hours.append(N_CLASSES / rates[args.jobs] / 3600)
    print(f"projected build of the whole {kind} with {args.jobs} workers: "
          f"median {statistics.median(hours):.2f} h "
          f"over {args.repeats} runs ({', '.join(f'{h:.2f}' for h in hours)})")
    print(f"peak memory of a build worker {peak / 2**20:.0f} MB")
    _time_queries(rng, hands, ups)
    print(TARGETS)


if __name__ == "__main__":
    main()
