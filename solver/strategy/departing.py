"""A strategy card played under rules with an exchange or a sixth card, exactly, from the rules'
strategy table.

Optimal play's results over the full cycle are counted beside the table (``optimal``: every
class's best action played out). Where the card takes the best action it plays as optimal play
does; a class where it takes another action (a *departure*) is played out both ways
(``deal.option_returns``: every card drawn, every dealer hand, every buy draw, each final hand
bet or folded as the solver decides, its best insurance, the games it buys) and its results move
from the best action's to the card's. So every figure is an exact integer count, and the work is
in the departures alone. Without the return table (``returns=False``) only the two actions' exact
EVs are counted (``deal.option_values``, one kernel call for both, without the results' rows:
up to 3 times faster), which is all the EV and the cost need.

Each shard's departures are counted in one task and kept in a work folder, named by what they
depend on (the table and the SHA-256 of the shard's file, the shard, the departing classes and both
actions of each, the card's later decisions): a check stopped and started again, or another card
that departs in the same classes, reads them back. One check at a time writes a work folder (its
lock). A kept file is sealed by its SHA-256, which finds damage; it is not signed: a check from an
empty work folder (``--work``) counts everything afresh.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ..action import FOLD, SIXTH_CARD, Action
from ..classes import enumerate_classes, rank_order
from ..deal import option_returns, option_values
from ..errors import InputError
from ..manifest import cache_root, writable_directory, write_atomic, writing
from ..play import BEST, Play
from ..returns import Returns
from ..rules import Rules
from ..tables import Plan, Table, required
from ..tables.played import FIELDS, table_results, unit
from ..version import __version__
from . import after_draw
from .kept import Shard, count_shards

T = TypeVar("T")

FORMAT = "rpoker strategy departures"
VALUES = "rpoker strategy departures, values"
"""The format of a shard's departures counted without results (their losses alone)."""


def work_root() -> Path:
    """Where the departures' counts are kept: ``strategy`` under ``manifest.cache_root()``."""
    return cache_root() / "strategy"


def work_folder(table: Table, work: Path | None = None) -> Path:
    """The folder, made if missing, where what a check or a derive counts from ``table`` is kept:
    under ``work`` (default ``work_root()``), one folder per table fingerprint."""
    return writable_directory((work or work_root()) / table.fingerprint, "strategy work")


@dataclass(frozen=True)
class TableCodes:
    """The rules' complete table as a check reads it: per class (rows in key order), its weight,
    the codes of its best action and runner-up, and their EVs as stored."""

    table: Table
    weight: np.ndarray
    best: np.ndarray
    second: np.ndarray
    best_ev: np.ndarray
    second_ev: np.ndarray

    @classmethod
    def read(cls, rules: Rules, table: str | Path | None = None) -> TableCodes:
        found = required(rules, table)
        if not found.complete:
            raise InputError(f"the table in {found.directory} is not complete: {len(found.manifest.shards)} of "
                             f"{found.manifest.shards_total} shards; {found.rebuild_command()}")
        columns = (("weight", np.int64), ("best", np.int64), ("second", np.int64), ("best_ev", np.float64),
                   ("second_ev", np.float64))
        parts = [found.read_shard(s, [c for c, _ in columns]) for s in range(found.manifest.shards_total)]
        return cls(found, *(np.concatenate([p.column(c).to_numpy() for p in parts]).astype(t) for c, t in columns))


@dataclass(frozen=True)
class Departures:
    """What the departures change: the results of the card minus optimal play's (rounds scaled
    to ``unit`` per class; None when counted without results), and what each departing class
    loses, over ``unit`` (per deal)."""

    results: dict[int, int] | None
    fields: dict[str, int] | None
    rows: np.ndarray
    loss: np.ndarray


def _digest(fingerprint: str, shard: int, rows: np.ndarray, played: np.ndarray, best: np.ndarray,
            kind: str = FORMAT, after: np.ndarray | None = None, play: Play = BEST) -> str:
    h = hashlib.sha256(f"{kind} {__version__} {fingerprint} {shard}".encode())
    for a in (rows, played, best):
        h.update(np.ascontiguousarray(a, np.int64).tobytes())
    if after is not None:
        h.update(b"after the draw" + np.ascontiguousarray(after, np.uint8).tobytes())
    h.update(play.key)
    return h.hexdigest()[:24]


BEST_VALUES = "rpoker strategy best values"
"""The format of a shard's best actions' exact EVs, kept for the cards that state the bet or
fold after a draw (each such class needs its best action counted apart)."""


def _best_file(folder: Path, shard: int) -> Path:
    return folder / f"best-{shard:05d}.json"


def _read_best(path: Path | None, fingerprint: str, shard: int) -> dict[int, Fraction]:
    """The best actions' exact EVs kept for a shard (none if the file is missing, damaged or of
    another table)."""
    if path is None:
        return {}
    try:
        data: dict[str, Any] = json.loads(path.read_text())
        sealed = data.pop("sha256")
        if (data.get("format") != BEST_VALUES or data.get("fingerprint") != fingerprint or data.get("shard") != shard
                or _sealed(data) != sealed):
            return {}
        return {int(row): Fraction(ev) for row, ev in data["values"].items()}
    except (OSError, ValueError, KeyError, AttributeError, TypeError, ZeroDivisionError):
        return {}


def _write_best(path: Path, fingerprint: str, shard: int, values: dict[int, Fraction]) -> None:
    payload = {"format": BEST_VALUES, "version": __version__, "fingerprint": fingerprint, "shard": shard,
               "values": {str(row): str(ev) for row, ev in sorted(values.items())}}
    write_atomic(path, _writer(json.dumps({**payload, "sha256": _sealed(payload)}) + "\n"))


def _in_rank_order(rows: np.ndarray, order: list[int], count: Callable[[int, tuple[int, ...], int], T]) -> dict[int, T]:
    """``count`` of each class ``rows[i]`` (called with i, its hand, its up-card) in rank
    ``order``. The kernel keeps what the suit classes of a rank-level deal share only while its
    settings stay the same, and a card's own insurance or buys are other settings than the
    best's: the two are counted in a pass each, not in turn for each class (7.5 times faster,
    measured on 300 classes)."""
    hands, ups, _ = enumerate_classes()
    return {i: count(i, tuple(int(c) for c in hands[int(rows[i])]), int(ups[int(rows[i])])) for i in order}


def _card_action(played: np.ndarray, after: np.ndarray | None,
                 count: Callable[[tuple[int, ...], int, Action, np.ndarray | None], T]
                 ) -> Callable[[int, tuple[int, ...], int], T]:
    """``count`` of the card's action in class i (its ``played`` code resolved to the hand), with
    the card's bet or fold after that action's draw (its row of ``after``; None: the solver's)."""
    def mine(i: int, hand: tuple[int, ...], up: int) -> T:
        action = Action.from_code(int(played[i]), hand)
        return count(hand, up, action, after_draw.row(after, up, action) if after is not None else None)
    return mine


def _sealed(payload: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def _check_best(row: int, stored: float, counted: Fraction) -> None:
    """Refuse a table whose best EV of class ``row`` is not what its action counts."""
    if abs(float(counted) - stored) > 1e-9:
        raise InputError(f"class {row}: the table's best EV {stored} is not that of playing its action "
                         f"({float(counted)}): a table of other rules or a damaged one")


def shard_losses(rules: Rules, fingerprint: str, shard: int, rows: np.ndarray, played: np.ndarray,
                 best: np.ndarray, best_ev: np.ndarray, after: np.ndarray | None = None,
                 best_file: Path | None = None, play: Play = BEST) -> dict[str, Any]:
    """As ``shard_departures`` without the results: each departing class's loss alone, from the
    exact EVs of both actions. With ``after`` or a player's ``play``, the best actions' EVs are
    read from and added to ``best_file`` (when given): another card's check counts only its own
    actions."""
    hands, ups, _ = enumerate_classes()
    big = unit(rules)
    apart = after is not None or not play.best      # the card's action counted apart from the best
    known = _read_best(best_file, fingerprint, shard) if apart else {}
    counted = len(known)
    order = rank_order(hands[rows], ups[rows]).tolist()
    taken: dict[int, Fraction]
    skipped: dict[int, Fraction]
    if apart:
        mine = _card_action(played, after, lambda hand, up, action, row: option_values(
            hand, up, [action], rules, after=row, play=play)[0])

        def best_of(i: int, hand: tuple[int, ...], up: int) -> Fraction:
            row = int(rows[i])
            return known[row] if row in known else option_values(hand, up, [Action.from_code(int(best[i]), hand)],
                                                                  rules)[0]

        taken, skipped = _in_rank_order(rows, order, mine), _in_rank_order(rows, order, best_of)
    else:                                           # one kernel call counts both
        both = _in_rank_order(rows, order, lambda i, hand, up: option_values(
            hand, up, [Action.from_code(int(played[i]), hand), Action.from_code(int(best[i]), hand)], rules))
        taken, skipped = ({i: v[k] for i, v in both.items()} for k in (0, 1))
    loss = []
    for i in order:
        row = int(rows[i])
        _check_best(row, float(best_ev[i]), skipped[i])
        if apart:
            known[row] = skipped[i]
        lost = (skipped[i] - taken[i]) * big
        if lost.denominator != 1:
            raise AssertionError("an option's EV is not a whole number over the unit")
        loss.append((i, int(lost)))
    if best_file is not None and len(known) > counted:
        _write_best(best_file, fingerprint, shard, known)
    payload = {"format": VALUES, "fingerprint": fingerprint, "shard": shard, "unit": big,
               "digest": _digest(fingerprint, shard, rows, played, best, VALUES, after, play), "rows": rows.tolist(),
               "loss": [x for _, x in sorted(loss)]}
    return {**payload, "sha256": _sealed(payload)}


def shard_departures(rules: Rules, fingerprint: str, shard: int, rows: np.ndarray, played: np.ndarray,
                     best: np.ndarray, best_ev: np.ndarray, after: np.ndarray | None = None,
                     play: Play = BEST) -> dict[str, Any]:
    """Play out the departing classes ``rows`` of one shard both ways: the card's action
    (``played`` codes; then its bet or fold after a draw, ``after``, if it states it, and its
    insurance and buys, ``play``) and the best
    (``best``, whose stored EV ``best_ev`` must be what it counts): the change of the results and
    each class's loss, as stored. ``fingerprint`` names the counts: the table's (with the SHA-256 of
    the shard's file when a check counts them)."""
    hands, ups, weights = enumerate_classes()
    big = unit(rules)
    results: dict[int, int] = {}
    fields = dict.fromkeys(FIELDS, 0)
    loss = np.zeros(len(rows), np.int64)

    def scaled(r: Returns) -> tuple[int, int]:
        scale, rest = divmod(big, r.rounds)
        if rest:
            raise AssertionError("an option's rounds do not divide the unit")
        return scale, sum(x * k for x, k in r.results.items()) * scale

    order = rank_order(hands[rows], ups[rows]).tolist()
    taken = _in_rank_order(rows, order, _card_action(played, after, lambda hand, up, action, row: option_returns(
        hand, up, action, rules, after=row, play=play)))
    skipped = _in_rank_order(rows, order, lambda i, hand, up: option_returns(
        hand, up, Action.from_code(int(best[i]), hand), rules))
    for i in order:
        weight = int(weights[int(rows[i])])
        _check_best(int(rows[i]), float(best_ev[i]), skipped[i].ev)
        (scale_t, total_t), (scale_s, total_s) = scaled(taken[i]), scaled(skipped[i])
        loss[i] = total_s - total_t
        for r, scale in ((taken[i], scale_t * weight), (skipped[i], -scale_s * weight)):
            for x, k in r.results.items():
                results[x] = results.get(x, 0) + k * scale
            for f in FIELDS:
                fields[f] += getattr(r, f) * scale
    payload = {"format": FORMAT, "fingerprint": fingerprint, "shard": shard, "unit": big,
               "digest": _digest(fingerprint, shard, rows, played, best, FORMAT, after, play), "rows": rows.tolist(),
               "loss": loss.tolist(), "results": {str(x): k for x, k in sorted(results.items()) if k},
               "fields": fields}
    return {**payload, "sha256": _sealed(payload)}


def _cached(path: Path, digest: str, kind: str) -> dict[str, Any] | None:
    """A shard's departures as kept, if the file is whole and of these classes and actions."""
    try:
        data: dict[str, Any] = json.loads(path.read_text())
        sealed = data.pop("sha256")
    except (OSError, ValueError, KeyError, AttributeError):
        return None
    if data.get("format") != kind or data.get("digest") != digest or _sealed(data) != sealed:
        return None
    return data


def _writer(text: str) -> Callable[[Path], object]:
    return lambda path: path.write_text(text)


def _keep(path: Path, data: dict[str, Any]) -> None:
    write_atomic(path, _writer(json.dumps(data) + "\n"))


def departing(played: np.ndarray, best: np.ndarray, after_draw: bool, play: Play = BEST) -> np.ndarray:
    """The classes a check plays out: where the card's first action is not the best; where it
    draws (a sixth card or an exchange) when it states the bet or fold after the draw; and where
    it bets at all (at once or after a draw: every class it does not fold) when it states its
    insurance or buying a game."""
    out: np.ndarray = played != best
    if after_draw:
        out |= played >= SIXTH_CARD
    if not play.best:
        out |= played != FOLD
    return out


def departures(rules: Rules, codes: TableCodes, played: np.ndarray, jobs: int = 1,
               progress: Callable[[int, int], None] | None = None, work: Path | None = None,
               returns: bool = True, after: np.ndarray | None = None, play: Play = BEST) -> Departures:
    """Play out every class whose ``played`` code is not the best, with ``after`` (the card's
    bet or fold after a draw: ``after_draw.bet_table``) every class where the card draws, and
    with a player's ``play`` (insurance, buying a game) every class it does not fold (``departing``),
    shard by shard (``jobs`` workers), with the results when ``returns``, else their losses alone;
    the shards' counts are kept in ``work`` (default ``work_root()``) as they finish."""
    import joblib

    table = codes.table
    folder = work_folder(table, work)
    plan = Plan(table.manifest.shard_rows, ())
    differ = departing(played, codes.best, after is not None, play)
    kind, count = (FORMAT, shard_departures) if returns else (VALUES, shard_losses)
    shards: list[Shard[dict[str, Any]]] = []
    for s in range(plan.n_shards):
        span = plan.rows(s)
        rows = span.start + np.flatnonzero(differ[span.start:span.stop])
        if not len(rows):
            continue
        # named by the shard's bytes too: another table of the same rules counts afresh
        source = f"{table.fingerprint} {table.manifest.shards[str(s)]['sha256']}"
        digest = _digest(source, s, rows, played[rows], codes.best[rows], kind, after, play)
        path = folder / f"shard-{s:05d}-{digest}.json"
        # the EV alone of a card with its own later decisions: the best actions' EVs kept
        kept_best = _best_file(folder, s) if not returns and (after is not None or not play.best) else None
        task = joblib.delayed(count)(rules, source, s, rows, played[rows], codes.best[rows],
                                     codes.best_ev[rows], after, **({"best_file": kept_best} if kept_best else {}),
                                     play=play)
        shards.append(Shard(len(rows), partial(_cached, path, digest, kind), task, partial(_keep, path)))
    with writing(folder, "a strategy check or derive"):
        done = count_shards(shards, jobs, progress)
    rows = np.asarray([r for d in done for r in d["rows"]], np.int64)
    loss = np.asarray([x for d in done for x in d["loss"]], np.int64)
    order = np.argsort(rows)
    if not returns:
        return Departures(None, None, rows[order], loss[order])
    results: dict[int, int] = {}
    fields = dict.fromkeys(FIELDS, 0)
    for d in done:
        for x, k in d["results"].items():
            results[int(x)] = results.get(int(x), 0) + k
        for f in FIELDS:
            fields[f] += d["fields"][f]
    return Departures(results, fields, rows[order], loss[order])


def played_returns(optimal: Returns, moved: Departures) -> Returns:
    """The card's results: optimal play's with the departures' change."""
    if moved.results is None or moved.fields is None:
        raise AssertionError("the departures were counted without their results")
    fields = moved.fields
    results = dict(optimal.results)
    for x, k in moved.results.items():
        results[x] = results.get(x, 0) + k
    if any(k < 0 for k in results.values()):
        raise AssertionError("a result counted fewer than zero times")
    return Returns({x: k for x, k in sorted(results.items()) if k}, optimal.rounds,
                   *(getattr(optimal, f) + fields[f] for f in FIELDS))


def optimal_returns(rules: Rules, table: Table) -> Returns:
    """Optimal play's results, counted beside the table (``rpoker tables results``)."""
    found, have = table_results(table, rules)
    if found is None:
        raise InputError(f"the results of optimal play are counted for {have} of {table.manifest.shards_total} "
                         f"shards of the table in {table.directory}: run `rpoker tables results --rules "
                         f"{rules.name}` first")
    return found
