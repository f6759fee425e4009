"""Strategy tables: classes solved per second per core, the projected full build, query times.

The build solves the classes in rank order (``classes.rank_order``: by rank-level deal, then by
the hand's cards in the up-card's suit), in chunks of about 512 that workers take, so that the
suit classes of one rank-level deal are solved one after the other and share the kernel's
rank-level work. The compact table (the one shipped: best action and runner-up) needs only the
leading options, so its build bounds the 3- to 5-card exchanges first (``solve(leading=2)``);
the full table needs every option's EV (``--full``). This benchmark times that workload: windows of
consecutive rows of that order at random places (default rules), first one window at a time on
one worker, then with one worker per core, and projects a full build (5,649,150 classes) on
this machine. Then it builds two tiny shards to time queries: the median warm query in process and
``rpoker tables query`` end to end. Targets (issue 4): full build <= 12 h (hard bar), <= 2 h
(goal) on 2 cores; query median <= 50 ms warm, CLI <= 1 s; peak memory of the build <= 8 GB.

    python benchmarks/bench_tables.py [--windows 8] [--rows 512] [--jobs 2] [--full]
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import joblib
import numpy as np

from solver import rules, tables
from solver.cards import format_cards
from solver.classes import N_CLASSES, PERM_CARD, enumerate_classes, rank_order


def _solve_window(hands: np.ndarray, up_cards: np.ndarray, compact: bool) -> float:
    t = time.perf_counter()
    tables.solve_rows(hands, up_cards, rules.DEFAULT, compact)
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--windows", type=int, default=8, help="windows per timed run")
    parser.add_argument("--rows", type=int, default=tables.CHUNK_ROWS, help="rank-ordered rows per window")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--full", action="store_true", help="time the full table (every option's EV), not the compact one")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    hands, ups, _ = enumerate_classes()
    order = rank_order(hands, ups)
    windows = [order[start:start + args.rows] for start in rng.sample(range(len(order) - args.rows), 2 * args.windows)]
    rates = {}
    for jobs, part in ((1, windows[: args.windows]), (args.jobs, windows[args.windows:])):
        # the workers started and warm (imports, the evaluator's tables) before the clock starts,
        # as in a long build
        joblib.Parallel(n_jobs=jobs)(joblib.delayed(_solve_window)(hands[w[:4]], ups[w[:4]], not args.full)
                                     for w in part[:jobs])
        t = time.perf_counter()
        per_window = joblib.Parallel(n_jobs=jobs)(joblib.delayed(_solve_window)(hands[w], ups[w], not args.full)
                                                  for w in part)
        wall = time.perf_counter() - t
        n = sum(len(w) for w in part)
        rates[jobs] = n / wall
        per_class = sorted(1e3 * sec / len(w) for sec, w in zip(per_window, part))
        print(f"{jobs} worker(s): {n} classes in {wall:.1f} s = {rates[jobs]:.2f} classes/s "
              f"({rates[jobs] / jobs:.2f} per core); ms per class by window {', '.join(f'{x:.0f}' for x in per_class)}",
              flush=True)
    full = N_CLASSES / rates[args.jobs]
    kind = "full" if args.full else "compact"
    print(f"projected build of the whole {kind} table with {args.jobs} workers: {full / 3600:.1f} h ({full / 86400:.2f} days)")
    shard_rows = 48
    n_shards = -(-N_CLASSES // shard_rows)
    picked = rng.sample(range(n_shards), 2)
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp) / "table"
        tables.build(rules.DEFAULT, directory, jobs=args.jobs, shard_rows=shard_rows, shards=picked, compact=not args.full)
        # queries: random classes of the built shards, in random suits
        table = tables.Table(directory)
        rows = [r for s in picked for r in range(s * shard_rows, min(N_CLASSES, (s + 1) * shard_rows))]
        deals = []
        for r in rng.sample(rows, min(50, len(rows))):
            perm = rng.randrange(24)
            deals.append(([int(PERM_CARD[perm][c]) for c in hands[r]], int(PERM_CARD[perm][ups[r]])))
        table.lookup(*deals[0])
        times = []
        for hand, up in deals:
            t = time.perf_counter()
            table.lookup(hand, up)
            times.append(time.perf_counter() - t)
        print(f"query (warm, in process): median {statistics.median(times) * 1e3:.2f} ms over {len(times)} deals")
        cli = []
        for hand, up in deals[:5]:
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "solver", "tables", "query", format_cards(hand), "--up",
                            format_cards([up]), "--table", str(directory)], check=True, capture_output=True)
            cli.append(time.perf_counter() - t)
        print(f"rpoker tables query end to end: median {statistics.median(cli):.2f} s")
    peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    print(f"peak memory {peak / 1024:.0f} MB (largest process)")
    print("targets: full build <= 12 h (hard bar), <= 2 h (goal); query <= 50 ms warm, CLI <= 1 s; memory <= 8 GB")


if __name__ == "__main__":
    main()
