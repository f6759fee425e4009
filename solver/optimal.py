"""The results of optimal play over every class of deal, from a strategy table.

Each class's best first action, as its table stores it, is played out exactly
(``deal.option_returns``: every card drawn, every dealer hand, every buy draw; each final hand
bet or folded by its EV, the best insurance, a game bought where it pays) and its results are
summed over the classes, weighted by deals. That gives what the EVs alone cannot: the return
table of optimal play, its variance, element of risk, average wager and how often it bets,
insures and buys a game, for rules with exchanges and a sixth card.

The sums are kept shard by shard in ``shard-NNNNN.results.json`` beside the table's shards
(written atomically: a run killed and started again does only the shards without one). Every
count is an exact integer: an option's results are over its own number of rounds (the cards
drawn, the dealer's hand, a buy's draws), scaled to ``unit``, the least common multiple of the
rounds of every option of the rules, so that each class counts ``weight * unit`` rounds.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from math import comb, lcm, perm
from pathlib import Path
from typing import Any

import numpy as np

from . import __version__, _eval
from .classes import N_CLASSES, enumerate_classes, rank_order
from .deal import bet_counts, kernel_settings, option_returns, payout_by_strength
from .errors import InputError
from .returns import Returns, bets_returns
from .rules import Rules
from .tables import Plan, Table, _write_atomic, action_option

SUFFIX = ".results.json"
FIELDS = ("bets", "insured", "insurance", "fees", "bought")


def unit(rules: Rules) -> int:
    """The least common multiple of the rounds of every option of the rules (no dead cards):
    C(46 - k, 4) dealer hands of falling(42 - k, redraws + 1) buy draws each, after k new cards
    from 46 (a bet: k = 0; a sixth card: one of 46; an exchange: C(46, k))."""
    def rounds(k: int, outcomes: int) -> int:
        return outcomes * comb(46 - k, 4) * perm(42 - k, rules.buy_redraws + 1)

    options = [rounds(0, 1)] + ([rounds(1, 46)] if rules.sixth_card else [])
    options += [rounds(k, comb(46, k)) for k in rules.exchange_counts]
    return lcm(*options)


def results_path(table: Table, shard: int) -> Path:
    return table.directory / f"shard-{shard:05d}{SUFFIX}"


def shard_results(table: Table, rules: Rules, shard: int) -> dict[str, Any]:
    """Play out the best action of every class of one shard: the summed results (as stored)."""
    rows = Plan(table.manifest["shard_rows"], ()).rows(shard)
    hands, ups, weights = (a[rows.start:rows.stop] for a in enumerate_classes())
    data = table._read(shard, ["weight", "best", "best_ev"])
    weight, best, best_ev = (data.column(c).to_numpy() for c in ("weight", "best", "best_ev"))
    if not np.array_equal(weight, weights):
        raise InputError(f"shard {shard} of {table.directory} does not hold the classes of its rows")
    big = unit(rules)
    results: dict[int, int] = {}
    sums = dict.fromkeys(("rounds", *FIELDS), 0)

    def add(r: Returns, times: int, per: int) -> None:
        # ``times`` copies of ``r``, whose classes have ``per`` rounds each: scaled to ``big``
        scale, rest = divmod(big, per)
        if rest:
            raise AssertionError("an option's rounds do not divide the unit")
        for x, k in r.results.items():
            results[x] = results.get(x, 0) + k * scale * times
        for f in sums:
            sums[f] += getattr(r, f) * scale * times

    fold = best == 0
    add(Returns({-1: 1}, 1, 0, 0, 0, 0, 0), int(weight[fold].sum()), 1)
    bet = np.flatnonzero(best == 1)
    if len(bet):
        # dealt hands bet at once: counted in one batch
        p5, settings = payout_by_strength(rules), kernel_settings(rules)
        strength = _eval.evaluate(np.ascontiguousarray(hands[bet]), False).astype(np.int64)
        played = bets_returns(bet_counts(hands[bet], ups[bet], settings, p5), strength,
                              p5[strength].astype(np.int64), weight[bet], settings, rules.buy_game_fee)
        add(played, 1, played.rounds // int(weight[bet].sum()))
    others = np.flatnonzero(best >= 2)
    for i in others[rank_order(hands[others], ups[others])]:
        hand = tuple(int(c) for c in hands[i])
        r = option_returns(hand, int(ups[i]), action_option(int(best[i]), hand), rules)
        if abs(float(r.ev) - float(best_ev[i])) > 1e-9:
            raise InputError(f"shard {shard}, row {rows.start + i}: the table's best EV {best_ev[i]} is not that "
                             f"of playing its action ({float(r.ev)}): a table of other rules or a damaged one")
        add(r, int(weight[i]), r.rounds)
    return {"format": "rpoker optimal results", "fingerprint": table.fingerprint, "solver_version": __version__,
            "shard": shard, "rows": len(rows), "weight": int(weight.sum()), "unit": big,
            "results": {str(x): k for x, k in sorted(results.items()) if k}, **sums}


def _read(table: Table, shard: int, big: int) -> dict[str, Any] | None:
    """A shard's results file, or None when it is missing or is not this table's."""
    path = results_path(table, shard)
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text())
        entry = table.manifest["shards"][str(shard)]
        ok = (data.get("format") == "rpoker optimal results" and data["fingerprint"] == table.fingerprint
              and data["shard"] == shard and data["rows"] == entry["rows"] and data["unit"] == big
              and data["rounds"] == data["weight"] * big
              and sum(data["results"].values()) == data["rounds"])
    except (ValueError, KeyError, TypeError):
        ok = False
    return data if ok else None


def compute(table: Table, rules: Rules, jobs: int = 1,
            progress: Callable[[int, int], None] | None = None) -> list[int]:
    """Write the results of every shard of a complete table that lacks them (or whose file is
    damaged or another table's); the shards done now."""
    import joblib

    table.check_rules(rules)
    if not table.complete:
        raise InputError(f"the table in {table.directory} is not complete: {len(table.manifest['shards'])} of "
                         f"{table.manifest['shards_total']} shards")
    big = unit(rules)
    todo = [s for s in range(table.manifest["shards_total"]) if _read(table, s, big) is None]
    done: list[int] = []
    if progress is not None:
        progress(0, len(todo))
    # workers may have another working folder: they open the table by its absolute path
    source = Table(table.directory.resolve())
    tasks = (joblib.delayed(shard_results)(source, rules, s) for s in todo)
    for data in joblib.Parallel(n_jobs=jobs, return_as="generator")(tasks):
        text = json.dumps(data, indent=1) + "\n"
        _write_atomic(results_path(table, data["shard"]), lambda p: p.write_text(text))
        done.append(data["shard"])
        if progress is not None:
            progress(len(done), len(todo))
    return done


def table_results(table: Table, rules: Rules) -> tuple[Returns | None, int]:
    """The results of optimal play over every class (None unless every shard has its file),
    and how many shards have theirs."""
    big = unit(rules)
    parts = [_read(table, s, big) for s in range(table.manifest["shards_total"])]
    have = sum(p is not None for p in parts)
    if have < len(parts) or sum(p["rows"] for p in parts if p) != N_CLASSES:
        return None, have
    results: dict[int, int] = {}
    for p in parts:
        for x, k in p["results"].items():
            results[int(x)] = results.get(int(x), 0) + k
    return Returns(dict(sorted(results.items())), sum(p["rounds"] for p in parts),
                   *(sum(p[f] for p in parts) for f in FIELDS)), have
