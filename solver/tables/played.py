"""The best actions of classes played out: the exact results of optimal play, summed by shard.

Each class's best first action is played out exactly (``deal.option_returns``: every card
drawn, every dealer hand, every buy draw; each final hand bet or folded by its EV, the best
insurance, a game bought where it pays) and its results are summed over the classes, weighted
by deals. Every count is an exact integer: an option's results are over its own number of rounds
(the cards drawn, the dealer's hand, a buy's draws), scaled to ``unit``, the least common
multiple of the rounds of every option of the rules, so that each class counts ``weight * unit``
rounds.

A shard's sums are kept in ``shard-NNNNN.results.json`` beside it, listed with its checksum and
its shard's in the table's manifest. They are counted by a build that plays out as it solves
(``build(..., results=True)``, one pass) or afterwards from the table (``optimal.compute``).
"""

from __future__ import annotations

import json
from math import comb, lcm, perm
from pathlib import Path
from typing import Any

import numpy as np

from .. import __version__, _eval
from ..action import Action
from ..classes import rank_order
from ..deal import bet_counts, kernel_rules, option_returns, payout_by_strength
from ..errors import InputError
from ..manifest import file_entry, write_atomic
from ..returns import Returns, bets_returns
from ..rules import Rules
from .schema import Manifest

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
            strength = _eval.evaluate(np.ascontiguousarray(hands[bet]), False).astype(np.int64)
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
