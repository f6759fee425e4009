"""Solving whole deals: median wall time for all options of one deal, and the reference ratio.

A fixed seeded sample of random deals under the default rules, one core. Prints the median,
quartiles and maximum time to solve every option of a deal (fold, bet with insurance, 31
exchanges, sixth card), the time of the bet and sixth-card options alone against the literal
brute-force reference on a few deals, and the peak memory. Targets (issue 18): median <= 40 ms
(bar), goal <= 20 ms; peak memory <= 2 GB.

    python benchmarks/bench_deal.py [--deals 200] [--reference-deals 5]
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import time

from solver import rules
from solver.deal import solve
from solver.reference import deal as ref


def sample(n: int, seed: int) -> list[tuple[tuple[int, ...], int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = rng.sample(range(52), 6)
        out.append((tuple(cards[:5]), cards[5]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--reference-deals", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    r = rules.DEFAULT
    deals = sample(args.deals, args.seed)
    times = []
    for i, (hand, up) in enumerate(deals, 1):
        t = time.perf_counter()
        solve(hand, up, r)
        times.append(time.perf_counter() - t)
        if i % 10 == 0:
            print(f"  {i}/{len(deals)} deals, median so far {statistics.median(times) * 1e3:.0f} ms", flush=True)
    q1, med, q3 = statistics.quantiles(times, n=4)
    print(f"all options of one deal ({len(deals)} deals): median {med * 1e3:.0f} ms "
          f"(quartiles {q1 * 1e3:.0f}-{q3 * 1e3:.0f} ms, max {max(times) * 1e3:.0f} ms)")
    only = r.replace(exchange=False)
    fast, slow = [], []
    for hand, up in deals[: args.reference_deals]:
        t = time.perf_counter()
        solve(hand, up, only)
        fast.append(time.perf_counter() - t)
        t = time.perf_counter()
        ref.bet(hand, up, r)
        ref.sixth_card(hand, up, r)
        slow.append(time.perf_counter() - t)
    if fast:  # --reference-deals 0 leaves the reference out
        print(f"bet + sixth card: solver median {statistics.median(fast) * 1e3:.1f} ms, brute force "
              f"{statistics.median(slow) * 1e3:.0f} ms, ratio {statistics.median(slow) / statistics.median(fast):.0f}x")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MB")
    print("targets: median <= 40 ms (bar), <= 20 ms (goal); peak memory <= 2048 MB")


if __name__ == "__main__":
    main()
