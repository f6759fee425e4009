"""Strategy tables: classes solved per second per core, the projected full build, query times.

Builds a few small shards spread over the whole table (default rules) into a temporary
directory, first with one worker, then with one worker per core, and projects the time of a
full build (5,649,150 classes) on this machine. Then times queries from the built table: the
median warm query in process and the ``rpoker tables query`` command end to end. Targets
(issue 4): full build <= 12 h (hard bar), <= 2 h (goal) on 2 cores; query median <= 50 ms
warm, CLI <= 1 s; peak memory of the build <= 8 GB.

    python benchmarks/bench_tables.py [--shards 4] [--shard-rows 48] [--jobs 2]
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

from solver import rules, tables
from solver.cards import format_cards
from solver.classes import N_CLASSES, PERM_CARD, enumerate_classes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shards", type=int, default=4, help="shards per timed build")
    parser.add_argument("--shard-rows", type=int, default=48)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    n_shards = -(-N_CLASSES // args.shard_rows)
    picked = rng.sample(range(n_shards), 2 * args.shards)
    hands, ups, _ = enumerate_classes()
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp) / "table"
        rates = {}
        for jobs, shards in ((1, picked[: args.shards]), (args.jobs, picked[args.shards:])):
            report = tables.build(rules.DEFAULT, directory, jobs=jobs, shard_rows=args.shard_rows, shards=shards)
            rates[jobs] = report.classes / report.seconds
            print(f"{jobs} worker(s): {report.classes} classes in {report.seconds:.1f} s = "
                  f"{rates[jobs]:.2f} classes/s ({rates[jobs] / jobs:.2f} per core)", flush=True)
        full = N_CLASSES / rates[args.jobs]
        print(f"projected full build with {args.jobs} workers: {full / 3600:.1f} h ({full / 86400:.1f} days)")
        # queries: random classes of the built shards, in random suits
        table = tables.Table(directory)
        rows = [r for s in picked for r in range(s * args.shard_rows, min(N_CLASSES, (s + 1) * args.shard_rows))]
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
