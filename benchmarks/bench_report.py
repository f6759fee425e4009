"""Audit report: wall time of ``rpoker report`` from nothing (Caribbean Stud) and from a table.

Runs the command line as a user would, in a temporary output directory, and prints the median
of the runs. The Caribbean Stud report counts every class exactly (no table needed); the
Russian Poker report reads its optimal play from the complete compact strategy table when one
is found (``--table``, ``$RPOKER_TABLES``, ``./tables``) — without one it is timed anyway and
says that its optimal play was left out. Targets (issue 5): each <= 60 s on this machine.

    python benchmarks/bench_report.py [--runs 3] [--jobs 2] [--table DIR]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time


def _time(args: list[str]) -> tuple[float, str]:
    with tempfile.TemporaryDirectory() as out:
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "solver", "report", *args, "--out", out],
                              capture_output=True, text=True)
        seconds = time.perf_counter() - t
    if done.returncode != 0:
        raise SystemExit(f"rpoker report {' '.join(args)} failed:\n{done.stderr}")
    return seconds, done.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--table", default=None, help="where the Russian Poker table is")
    args = parser.parse_args()
    table = ["--table", args.table] if args.table else []
    for label, cli in (("caribbean, from nothing", ["--rules", "caribbean"]),
                       ("russian, optimal play from its table", ["--rules", "russian", *table])):
        runs = [_time([*cli, "--jobs", str(args.jobs)]) for _ in range(args.runs)]
        seconds = [r[0] for r in runs]
        note = " (no complete table found: optimal play left out)" if "left out" in runs[0][1] else ""
        print(f"{label}: median {statistics.median(seconds):.1f} s over {args.runs} runs "
              f"({', '.join(f'{x:.1f}' for x in seconds)}){note}; target <= 60 s", flush=True)


if __name__ == "__main__":
    main()
