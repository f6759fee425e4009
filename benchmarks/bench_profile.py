"""Where a class's time goes: the kernel's work by option, timed as a table build runs it.

The cost model of issue 18. Windows of consecutive rows in the build's order
(``classes.rank_order``) at random places, default rules, one core. Each part is timed over
every window alone, class after class as a build takes them (so each part shares its own work
between the suit classes of a rank-level deal, as it does in a build): the bet (with its
insurance and buys), the sixth card, the exchanges of each size k (values of all C(5, k)
discards, as the full table needs them; the bounds of the 3- to 5-card ones, as the compact
build first takes them), the compact solve (``solve(leading=2)``) and the full one, and the
results of the best option (``option_returns``, the results pass and each departure of a
strategy check). The parts other than the bet print net of it (each kernel call counts the bet).
Prints, for each part, the median over ``--repeats`` runs of ms per class and the hours that
would take over the 5,649,150 classes on one core.

With ``--perf`` it tells instead where each main part's time goes inside the kernel: it runs the
part over the windows in a child process sampled by ``perf record -e cpu-clock`` (attached after
the child's set-up), and sums the samples by the kernel's functions grouped as ``KERNEL_PARTS``
(the buy of a game, the exchange's outcomes, the dealer's counts, ...). Needs Linux ``perf``.

    python benchmarks/bench_profile.py [--windows 4] [--rows 256] [--repeats 3] [--perf]
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from solver import rules
from solver.action import Action
from solver.classes import N_CLASSES, enumerate_classes, rank_order
from solver.deal import _kernel, option_returns, solve

Part = Callable[[tuple[int, ...], int], object]
R = rules.DEFAULT


def _exchanges(k: int) -> Part:
    wanted = sum(1 << mask for mask in range(32) if mask.bit_count() == k)
    return lambda hand, up: _kernel(hand, up, (), R, (k,), False, wanted=wanted)


def _bounds(k: int) -> Part:
    return lambda hand, up: _kernel(hand, up, (), R, (), False, (k,))


def _results(k: int) -> Part:
    """The results of the k-card exchange of the lowest cards in the class's order, or of the
    sixth card (k = 0)."""
    return lambda hand, up: option_returns(hand, up, Action("exchange", hand[5 - k:]) if k else Action("sixth_card"), R)


PARTS: dict[str, Part] = {
    "bet": lambda hand, up: _kernel(hand, up, (), R, (), False),
    "sixth card": lambda hand, up: _kernel(hand, up, (), R, (), True),
    **{f"exchange {k}, every discard": _exchanges(k) for k in range(1, 6)},
    **{f"exchange {k}, bounds": _bounds(k) for k in (3, 4, 5)},
    "compact solve (leading=2)": lambda hand, up: solve(hand, up, R, leading=2),
    "full solve": lambda hand, up: solve(hand, up, R),
    "results: sixth card": _results(0),
    **{f"results: exchange {k}": _results(k) for k in (2, 3, 4, 5)},
}
GROSS = ("compact solve (leading=2)", "full solve")
"""Parts printed as timed (the others net of the bet, which every kernel call counts)."""
PROFILED = ("full solve", "compact solve (leading=2)", "exchange 3, every discard", "exchange 4, every discard",
            "exchange 5, every discard", "results: exchange 3", "results: exchange 4", "results: exchange 5")
"""The parts ``--perf`` samples."""
KERNEL_PARTS = (
    ("buying a game", r"_buy_|store_memo|store_plan|other_total|group_deltas|group_parts|group_weights|other_suits"
                      r"|results_part|plan_of|new_plan|excess_of"),
    ("exchange outcomes", r"_exchange_|_multiset_|outcome_results|add_results|final_strength|outcome_value"
                          r"|flush_value"),
    ("dealer counts", r"_deck_|dealer_flushes|up_suit_value"),
    ("bet, insurance", r"_bet_|_settle_|fold_floor"),
    ("bounds", r"_bound_"),
    ("hand evaluation", r"_eval_"),
    ("memory", r"clear_page|page_fault|memcg|alloc_pages|memset|memmove|malloc|free"),
)
"""The kernel's functions by what they count (regular expressions over perf's symbols; the first
that matches a symbol takes it; the rest is Python, numpy and the interpreter)."""


def _windows(args: argparse.Namespace, rng: random.Random) -> list[list[tuple[tuple[int, ...], int]]]:
    """Windows of consecutive classes in the build's order, as deals."""
    hands, ups, _ = enumerate_classes()
    order = rank_order(hands, ups)
    windows = [order[s:s + args.rows] for s in rng.sample(range(N_CLASSES - args.rows), args.windows)]
    return [[(tuple(int(c) for c in hands[i]), int(ups[i])) for i in w] for w in windows]


def _child(args: argparse.Namespace) -> None:
    """``--one PART``: set up, say so, wait for the profiler, then run the part over the windows."""
    deals = _windows(args, random.Random(args.seed))
    solve(deals[0][0][0], deals[0][0][1], R)
    print("ready", flush=True)
    sys.stdin.readline()
    for window in deals:
        for hand, up in window:
            PARTS[args.one](hand, up)


def _sampled(name: str, args: argparse.Namespace) -> dict[str, float]:
    """The share (%) of each kernel part in the samples of one part's run."""
    child = subprocess.Popen([sys.executable, __file__, "--one", name, "--windows", str(args.windows), "--rows",
                              str(args.rows), "--seed", str(args.seed)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdin is not None and child.stdout is not None
    child.stdout.readline()
    with tempfile.TemporaryDirectory() as tmp:
        data = f"{tmp}/perf.data"
        perf = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-F", "999", "-o", data, "-p",
                                 str(child.pid)], stderr=subprocess.DEVNULL)
        time.sleep(1)
        child.stdin.write("\n")
        child.stdin.flush()
        child.wait()
        perf.wait()
        report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "symbol",
                                 "--percent-limit", "0.01"], capture_output=True, text=True, check=True).stdout
    shares: dict[str, float] = {}
    for line in report.splitlines():
        m = re.match(r"\s+([\d.]+)%\s+\[.\]\s+(\S+)", line)
        if m:
            part = next((p for p, rx in KERNEL_PARTS if re.search(rx, m.group(2))), "Python, numpy, the rest")
            shares[part] = shares.get(part, 0.0) + float(m.group(1))
    return shares


def _perf(args: argparse.Namespace) -> None:
    columns = [p for p, _ in KERNEL_PARTS] + ["Python, numpy, the rest"]
    print(f"{'part':28s} " + " ".join(f"{c[:14]:>14s}" for c in columns) + "   (% of the samples)")
    for name in PROFILED:
        shares = _sampled(name, args)
        print(f"{name:28s} " + " ".join(f"{shares.get(c, 0.0):14.1f}" for c in columns), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--windows", type=int, default=4)
    parser.add_argument("--rows", type=int, default=256, help="rank-ordered rows per window")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs (new windows each time)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", nargs="*", default=None, help="the parts to time (default: all)")
    parser.add_argument("--perf", action="store_true", help="where the main parts' time goes in the kernel")
    parser.add_argument("--one", choices=sorted(PARTS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        return _child(args)
    if args.perf:
        return _perf(args)
    rng = random.Random(args.seed)
    names = [n for n in PARTS if args.only is None or n in args.only or n == "bet"]
    runs: dict[str, list[float]] = {n: [] for n in names}
    solve((0, 1, 2, 3, 4), 5, R)      # the evaluator's tables, before the clock
    for run in range(args.repeats):
        deals = _windows(args, rng)
        for name in names:
            t = time.perf_counter()
            for window in deals:
                for hand, up in window:
                    PARTS[name](hand, up)
            runs[name].append((time.perf_counter() - t) / sum(map(len, deals)))
        print(f"run {run + 1}: " + ", ".join(f"{n} {runs[n][-1] * 1e3:.2f}" for n in names) + " ms", flush=True)
    bet = statistics.median(runs["bet"])
    print(f"\n{'part':32s} {'ms per class':>12s} {'h per table, 1 core':>20s}")
    for name in names:
        ms = statistics.median(runs[name]) - (0 if name in GROSS or name == "bet" else bet)
        print(f"{name:32s} {ms * 1e3:12.3f} {ms * N_CLASSES / 3600:20.2f}")
    print(f"(medians of {args.repeats} runs of {args.windows} windows of {args.rows} classes; parts other than the "
          "bet and the solves net of the bet)")


if __name__ == "__main__":
    main()
