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
from .action import Action
from .classes import N_CLASSES, enumerate_classes, rank_order
from .deal import bet_counts, kernel_rules, option_returns, payout_by_strength
from .errors import InputError
from .manifest import file_entry, writable_directory, write_atomic, writing
from .returns import Returns, bets_returns
from .rules import Rules
from .tables import Plan, Table, read_manifest

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
    rows = Plan(table.manifest.shard_rows, ()).rows(shard)
    hands, ups, weights = (a[rows.start:rows.stop] for a in enumerate_classes())
    data = table.read_shard(shard, ["weight", "best", "best_ev"])
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
        p5 = payout_by_strength(rules)
        strength = _eval.evaluate(np.ascontiguousarray(hands[bet]), False).astype(np.int64)
        played = bets_returns(bet_counts(hands[bet], ups[bet], rules), p5[strength].astype(np.int64),
                              weight[bet], kernel_rules(rules), rules.buy_game_fee)
        add(played, 1, played.rounds // int(weight[bet].sum()))
    others = np.flatnonzero(best >= 2)
    for i in others[rank_order(hands[others], ups[others])]:
        hand = tuple(int(c) for c in hands[i])
        r = option_returns(hand, int(ups[i]), Action.from_code(int(best[i]), hand), rules)
        if abs(float(r.ev) - float(best_ev[i])) > 1e-9:
            raise InputError(f"shard {shard}, row {rows.start + i}: the table's best EV {best_ev[i]} is not that "
                             f"of playing its action ({float(r.ev)}): a table of other rules or a damaged one")
        add(r, int(weight[i]), r.rounds)
    return {"format": "rpoker optimal results", "fingerprint": table.fingerprint, "solver_version": __version__,
            "shard": shard, "rows": len(rows), "weight": int(weight.sum()), "unit": big,
            "results": {str(x): k for x, k in sorted(results.items()) if k}, **sums}


def _read(table: Table, shard: int, big: int) -> dict[str, Any] | None:
    """A shard's results, verified: None when the manifest lists none for it (not counted yet);
    an error when its file is damaged, of another shard's contents or not this table's."""
    entry = table.manifest.results.get(str(shard))
    if entry is None:
        return None
    path = results_path(table, shard)
    remedy = f"`rpoker tables results --table {table.directory}` counts them again"
    data = json.loads(table.verified_bytes(path, entry, remedy))
    shard_entry = table.manifest.shards[str(shard)]
    if not (entry["shard_sha256"] == shard_entry["sha256"] and data.get("format") == "rpoker optimal results"
            and data["fingerprint"] == table.fingerprint and data["shard"] == shard
            and data["rows"] == shard_entry["rows"] and data["unit"] == big
            and data["rounds"] == data["weight"] * big and sum(data["results"].values()) == data["rounds"]):
        raise InputError(f"{path} does not hold the results of this shard of the table in {table.directory}; "
                         + remedy)
    checked: dict[str, Any] = data
    return checked


def _counted(table: Table, shard: int, big: int) -> bool:
    """Whether a shard's results are counted (a damaged file is counted again)."""
    try:
        return _read(table, shard, big) is not None
    except InputError:
        return False


def compute(table: Table, rules: Rules, jobs: int = 1,
            progress: Callable[[int, int], None] | None = None) -> list[int]:
    """Write the results of every shard of a complete table that lacks them (or whose file is
    damaged), each file recorded in the table's manifest as it is written; the shards done now."""
    import joblib

    table.check_rules(rules)
    if not table.complete:
        raise InputError(f"the table in {table.directory} is not complete: {len(table.manifest.shards)} of "
                         f"{table.manifest.shards_total} shards")
    big = unit(rules)
    todo = [s for s in range(table.manifest.shards_total) if not _counted(table, s, big)]
    done: list[int] = []
    if not todo:
        return done   # nothing to write (the table may be read-only: the one installed with rpoker)
    writable_directory(table.directory, "table")
    with writing(table.directory):
        if read_manifest(table.directory) != table.manifest:   # as it is now, under the lock
            raise InputError(f"the table in {table.directory} changed since it was opened; run the command again")
        if progress is not None:
            progress(0, len(todo))
        # workers may have another working folder: they open the table by its absolute path
        source = Table(table.directory.resolve())
        tasks = (joblib.delayed(shard_results)(source, rules, s) for s in todo)
        for data in joblib.Parallel(n_jobs=jobs, return_as="generator")(tasks):
            record(table, data)
            done.append(data["shard"])
            if progress is not None:
                progress(len(done), len(todo))
    return done


def record(table: Table, data: dict[str, Any]) -> None:
    """Write a shard's results file and list it, with its checksum, in the table's manifest
    (the caller holds the table's lock)."""
    s = data["shard"]
    text = json.dumps(data, indent=1) + "\n"
    path = results_path(table, s)
    write_atomic(path, lambda p: p.write_text(text))
    table.manifest.results[str(s)] = {**file_entry(path), "shard_sha256": table.manifest.shards[str(s)]["sha256"]}
    table.manifest.write(table.directory)


def verify_results(table: Table, rules: Rules) -> int:
    """Check every results file the manifest lists (an error names a damaged one); how many."""
    big = unit(rules)
    return sum(_read(table, s, big) is not None for s in range(table.manifest.shards_total))


def table_results(table: Table, rules: Rules) -> tuple[Returns | None, int]:
    """The results of optimal play over every class (None unless every shard has its file),
    and how many shards have theirs; a damaged file is an error."""
    big = unit(rules)
    read = [_read(table, s, big) for s in range(table.manifest.shards_total)]
    parts = [p for p in read if p is not None]
    have = len(parts)
    if have < len(read) or sum(p["rows"] for p in parts) != N_CLASSES:
        return None, have
    results: dict[int, int] = {}
    for p in parts:
        for x, k in p["results"].items():
            results[int(x)] = results.get(int(x), 0) + k
    return Returns(dict(sorted(results.items())), sum(p["rounds"] for p in parts),
                   *(sum(p[f] for p in parts) for f in FIELDS)), have
