"""Hand evaluation speed: the kernel's bulk interface over every hand, and the reference.

Prints evaluations per second (median of several runs, one core) and the kernel/reference
ratio. Target (issue 2): >= 50 M five-card evaluations per second per core.

    python benchmarks/bench_eval.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from solver import rules
from solver._kernel import _eval
from solver.hand import paytable_array
from solver.reference import hand as ref


def rate(fn, n: int, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return n / statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sample", type=int, default=20_000, help="hands given to the reference")
    args = parser.parse_args()
    pay = paytable_array(rules.DEFAULT)
    five, six = _eval.all_hands(5), _eval.all_hands(6)
    rng = np.random.default_rng(1)
    sample5 = [tuple(int(c) for c in h) for h in five[rng.integers(0, len(five), args.sample)]]
    sample6 = [tuple(int(c) for c in h) for h in six[rng.integers(0, len(six), args.sample // 10)]]
    rows = [
        ("5-card strength", rate(lambda: _eval.evaluate(five, False), len(five), args.repeat),
         rate(lambda: [ref.strength(h) for h in sample5], len(sample5), 3)),
        ("6-card main strength", rate(lambda: _eval.evaluate(six, False), len(six), args.repeat),
         rate(lambda: [ref.best_strength(h) for h in sample6], len(sample6), 3)),
        ("5-card payout P", rate(lambda: _eval.payout(five, pay, True, False, False), len(five), args.repeat),
         rate(lambda: [ref.payout(h, rules.DEFAULT) for h in sample5], len(sample5), 3)),
        ("6-card payout P", rate(lambda: _eval.payout(six, pay, True, False, False), len(six), 1),
         rate(lambda: [ref.payout(h, rules.DEFAULT) for h in sample6], len(sample6), 1)),
    ]
    print(f"{'workload':<22}{'kernel /s':>16}{'reference /s':>16}{'ratio':>10}")
    for name, fast, slow in rows:
        print(f"{name:<22}{fast:>16,.0f}{slow:>16,.0f}{fast / slow:>10,.0f}")
    print("target: >= 50,000,000 five-card evaluations per second per core")


if __name__ == "__main__":
    main()
