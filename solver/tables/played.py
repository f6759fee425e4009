"""The best actions of classes played out: the exact results of optimal play, summed by shard.

Each class's best first action is played out exactly (``deal.option_returns``: every card
drawn, every dealer hand, every buy draw; each final hand bet or folded by its EV, the best
insurance, a game bought where it pays) and its results are summed over the classes, weighted
by deals. Every count is an exact integer: an option's results are over its own number of rounds
(the cards drawn, the dealer's hand, a buy's draws), scaled to ``unit``, the least common
multiple of the rounds of every option of the rules, so that each class counts ``weight * unit``
rounds.

That gives what the EVs alone cannot: the return table of optimal play, its variance, element of
risk, average wager and how often it bets, insures and buys a game, for rules with exchanges and a
sixth card. A shard's sums are kept in ``shard-NNNNN.results.json`` beside it (written
atomically: a run killed and started again does only the shards without one), listed with its
checksum and its shard's in the table's manifest. They are counted by a build that plays out as
it solves (``build(..., results=True)``, one pass) or afterwards from the table (``compute``),
and read back verified (``stored``, ``table_results``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from math import comb, lcm, perm
from pathlib import Path
from typing import Any

import numpy as np

from ..action import Action
from ..classes import N_CLASSES, enumerate_classes, rank_order
from ..deal import bet_counts, option_returns
from ..errors import InputError
from ..hand import strengths
from ..kernel_rules import kernel_rules, payout_by_strength
from ..manifest import file_entry, writable_directory, write_atomic, writing
from ..returns import Returns, bets_returns
from ..rules import Rules
from ..version import __version__
from .reader import Table
from .schema import Manifest, Plan, read_manifest

SUFFIX = ".results.json"
FORMAT = "rpoker optimal results"
FIELDS = ("bets", "insured", "insurance", "fees", "bought")

Sums = dict[str, Any]   # "results": {net result: count}, "rounds" and each of FIELDS: int


def unit(rules: Rules) -> int:
    """The least common multiple of the rounds of every option of the rules (no dead cards):
    C(46 - k, 4) dealer hands of falling(42 - k, redraws + 1) buy draws each, after k new cards
    from 46 (a bet: k = 0; a sixth card: one of 46; an exchange: C(46, k))."""
    def rounds(k: int, outcomes: int) -> int:
        return outcomes * comb(46 - k, 4) * perm(42 - k, rules.buy_redraws + 1)

    options = [rounds(0, 1)] + ([rounds(1, 46)] if rules.sixth_card else [])
    options += [rounds(k, comb(46, k)) for k in rules.exchange_counts]
    return lcm(*options)


def no_sums() -> Sums:
    return {"results": {}, "rounds": 0, **dict.fromkeys(FIELDS, 0)}


def add_sums(into: Sums, more: Sums) -> None:
    """Add ``more`` into ``into``."""
    for x, k in more["results"].items():
        into["results"][x] = into["results"].get(x, 0) + k
    for f in ("rounds", *FIELDS):
        into[f] += more[f]


def played_out(hands: np.ndarray, up_cards: np.ndarray, weight: np.ndarray, best: np.ndarray,
               best_ev: np.ndarray, rules: Rules, groups: np.ndarray | None = None) -> dict[int, Sums]:
    """The summed results of playing the ``best`` action (its code) of every class, scaled to
    ``unit``, by group (``groups``: a number per class, e.g. its shard; one group 0 without).
    An action whose EV is not ``best_ev`` (as a float) is an error naming its row."""
    big = unit(rules)
    group = np.zeros(len(hands), np.int64) if groups is None else np.asarray(groups)
    sums = {int(g): no_sums() for g in np.unique(group)}

    def add(g: int, r: Returns, times: int, per: int) -> None:
        # ``times`` copies of ``r``, whose classes have ``per`` rounds each: scaled to ``big``
        scale, rest = divmod(big, per)
        if rest:
            raise AssertionError("an option's rounds do not divide the unit")
        add_sums(sums[g], {"results": {x: k * scale * times for x, k in r.results.items()},
                           **{f: getattr(r, f) * scale * times for f in ("rounds", *FIELDS)}})

    p5 = payout_by_strength(rules)
    for g in sums:
        mine = group == g
        add(g, Returns({-1: 1}, 1, 0, 0, 0, 0, 0), int(weight[mine & (best == 0)].sum()), 1)
        bet = np.flatnonzero(mine & (best == 1))
        if len(bet):
            # dealt hands bet at once: counted in one batch
            strength = strengths(np.ascontiguousarray(hands[bet]), checked=False).astype(np.int64)
            played = bets_returns(bet_counts(hands[bet], up_cards[bet], rules), p5[strength].astype(np.int64),
                                  weight[bet], kernel_rules(rules), rules.buy_game_fee)
            add(g, played, 1, played.rounds // int(weight[bet].sum()))
    others = np.flatnonzero(best >= 2)
    # classes of the same ranks one after the other share the kernel's rank-level work
    for i in others[rank_order(hands[others], up_cards[others])]:
        hand = tuple(int(c) for c in hands[i])
        r = option_returns(hand, int(up_cards[i]), Action.from_code(int(best[i]), hand), rules)
        if abs(float(r.ev) - float(best_ev[i])) > 1e-9:
            raise InputError(f"row {int(i)}: the best EV {best_ev[i]} is not that of playing its action "
                             f"({float(r.ev)})")
        add(int(group[i]), r, int(weight[i]), r.rounds)
    return sums


def results_data(fingerprint: str, shard: int, rows: int, weight: int, big: int, sums: Sums) -> dict[str, Any]:
    """A shard's results file, as stored (JSON: the net results' keys as strings)."""
    return {"format": FORMAT, "fingerprint": fingerprint, "solver_version": __version__,
            "shard": shard, "rows": rows, "weight": weight, "unit": big,
            "results": {str(x): k for x, k in sorted(sums["results"].items()) if k},
            **{f: sums[f] for f in ("rounds", *FIELDS)}}


def results_path(directory: Path, shard: int) -> Path:
    return directory / f"shard-{shard:05d}{SUFFIX}"


def write_results(directory: Path, manifest: Manifest, data: dict[str, Any]) -> None:
    """Write a shard's results file and list it, with its checksum and its shard's, in the
    manifest, written at once (the caller holds the table's lock)."""
    s = data["shard"]
    text = json.dumps(data, indent=1) + "\n"
    path = results_path(directory, s)
    write_atomic(path, lambda p: p.write_text(text))
    manifest.results[str(s)] = {**file_entry(path), "shard_sha256": manifest.shards[str(s)]["sha256"]}
    manifest.write(directory)


def shard_results(table: Table, rules: Rules, shard: int) -> dict[str, Any]:
    """Play out the best action of every class of one shard: the summed results (as stored)."""
    rows = Plan(table.manifest.shard_rows, ()).rows(shard)
    hands, ups, weights = (a[rows.start:rows.stop] for a in enumerate_classes())
    data = table.read_shard(shard, ["weight", "best", "best_ev"])
    weight, best, best_ev = (data.column(c).to_numpy() for c in ("weight", "best", "best_ev"))
    if not np.array_equal(weight, weights):
        raise InputError(f"shard {shard} of {table.directory} does not hold the classes of its rows")
    try:
        sums = played_out(hands, ups, weight, best, best_ev, rules)[0]
    except InputError as e:
        raise InputError(f"shard {shard}, {e}: a table of other rules or a damaged one") from None
    return results_data(table.fingerprint, shard, len(rows), int(weight.sum()), unit(rules), sums)


def _read(table: Table, shard: int, big: int) -> dict[str, Any] | None:
    """A shard's results, verified: None when the manifest lists none for it (not counted yet);
    an error when its file is damaged, of another shard's contents or not this table's."""
    entry = table.manifest.results.get(str(shard))
    if entry is None:
        return None
    path = results_path(table.directory, shard)
    remedy = f"`rpoker tables results --table {table.directory}` counts them again"
    data = json.loads(table.verified_bytes(path, entry, remedy))
    shard_entry = table.manifest.shards[str(shard)]
    if not (entry["shard_sha256"] == shard_entry["sha256"] and data.get("format") == FORMAT
            and data["fingerprint"] == table.fingerprint and data["shard"] == shard
            and data["rows"] == shard_entry["rows"] and data["unit"] == big
            and data["rounds"] == data["weight"] * big and sum(data["results"].values()) == data["rounds"]):
        raise InputError(f"{path} does not hold the results of this shard of the table in {table.directory}; "
                         + remedy)
    checked: dict[str, Any] = data
    return checked


def stored(table: Table, rules: Rules, shard: int) -> dict[str, Any] | None:
    """A shard's results as the table stores them, verified (None: not counted yet)."""
    return _read(table, shard, unit(rules))


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
    """Write a shard's results file and list it in the table's manifest (the caller holds the
    table's lock)."""
    write_results(table.directory, table.manifest, data)


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
