"""Strategy cards: wall time of ``rpoker strategy check`` as a user runs it, and of the counting
of the deals a card plays otherwise than the best (rules with draws).

Each run starts from an empty work folder (nothing counted before), so the time is that of a
first check. Prints the median of the runs, the classes played otherwise and their rate.
Targets (issue 17): Caribbean Stud <= 60 s on one core; Russian Poker <= 30 min on two cores
for a card whose first action differs from the best in <= 20 % of the deals.

    python benchmarks/bench_strategy.py [--runs 3] [--jobs 2] [--card NAME ...] [--no-returns]

``--no-returns`` times the checks that count the EV alone (``rpoker strategy check --no-returns``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time

DEFAULT_CARDS = ("caribbean-published", "russian-tip-pair-ak-sixth-card")


def _run(card: str, jobs: int, returns: bool) -> tuple[float, dict[str, object]]:
    with tempfile.TemporaryDirectory() as work:
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "solver", "strategy", "check", card, "--json", "--jobs",
                               str(jobs), "--work", work, "--returns" if returns else "--no-returns"],
                              capture_output=True, text=True)
        seconds = time.perf_counter() - t
    if done.returncode != 0:
        raise SystemExit(f"rpoker strategy check {card} failed:\n{done.stderr}")
    data: dict[str, object] = json.loads(done.stdout)
    return seconds, data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--card", nargs="*", default=list(DEFAULT_CARDS))
    parser.add_argument("--no-returns", dest="returns", action="store_false", help="the EV alone")
    args = parser.parse_args()
    for card in args.card:
        times: list[float] = []
        data: dict[str, object] = {}
        for _ in range(args.runs):
            seconds, data = _run(card, args.jobs, args.returns)
            times.append(seconds)
        differ = data["differ"]
        assert isinstance(differ, dict)
        share = differ["deals"] / differ["of"]
        mode = "" if args.returns else ", EV alone"
        print(f"{card} ({data['rules']}, {args.jobs} jobs{mode}): median {statistics.median(times):.1f} s of "
              f"{', '.join(f'{t:.1f}' for t in times)}; first action not the best in {share * 100:.2f} % of the deals")


if __name__ == "__main__":
    main()
