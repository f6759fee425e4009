"""A chart card derived from optimal play: rows of hand groups, a cell per up-card rank (and
whether that rank is in the hand), each cell the action that loses least over its deals.

The rows grow from one, every hand. Each step splits the row, by the condition of the vocabulary
that gains most: the row's hands that hold it become a row of their own, just above it. The
conditions are those of the hand and of the up-card against its cards (``up_below``,
``up_above``), not the up-card's rank, which is the columns; two "at least" conditions narrow to
the higher. The search works on the derive's cells (the classes every condition sees alike, each
action's loss summed over their deals: ``pipeline.cell_losses``) and sums floats. Without draws a
cell's action is then chosen from the classes' losses summed exactly; with draws the losses of
actions the table does not hold are the representatives' estimates. Either way the chart is then
checked exactly. The chart states the first decision; under rules with draws the bet or fold
after a draw is the solver's, its insurance and buys are a line each (``later_play``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...cards import RANK_NAMES
from ...errors import InputError
from ...manifest import write_atomic
from ...report.counting import Counts
from ...returns import exact_total
from ...rules import Rules
from .. import later_play
from ..card import parse
from ..chart import CODES, COLUMNS
from ..check import CardCheck, bet_fold_losses, check
from ..conditions import condition
from ..hands import Seen
from ..vocabulary import atoms, narrowing
from .cells import actions, cell_of
from .pipeline import cell_losses, deriving
from .writing import toml_value

#: conditions of the up-card's rank: the chart's columns, not its rows
UP_KEYS = ("up", "up_matches")
#: a cell's column: the up-card's rank, and 13 more where its rank is in the hand
N_COLUMNS = 2 * len(COLUMNS)
#: the games of the presets, as a chart's name says them
GAMES = {"russian": "Russian Poker", "caribbean": "Caribbean Stud", "oasis": "Oasis Poker"}
#: the short codes of what a keep keeps (ranks stand for themselves)
KEEP_CODES = {"pair": "P", "two_pair": "PP", "trips": "T", "quads": "Q4", "flush": "FL", "straight": "ST",
              "straight_flush": "SF", "royal": "R", "highest": "H", "highest_suited": "HS", "nothing": "X"}
#: conditions evaluated at once in the search (a block of floats: cells x this)
BLOCK = 64


@dataclass
class _Row:
    path: tuple[int, ...]              # its conditions, as indices of the vocabulary
    members: np.ndarray                # its cells
    split: tuple[float, int] | None = None     # the best split's gain and condition, once searched


def _narrowing(vocabulary: list[tuple[str, Any]]) -> Callable[[tuple[int, ...], int], tuple[int, ...] | None]:
    """The vocabulary's ``narrowing``, and one more: of two "at least" conditions, both hold where the
    higher does (they compare the same ranks in order), so a row's "at least" gives way to a higher one."""
    narrow = narrowing(vocabulary)

    def floor(i: int) -> tuple[int, ...]:
        ranks = tuple(RANK_NAMES.index(t) for t in str(vocabulary[i][1]).split())
        return ranks + (0,) * (5 - len(ranks))

    def narrowed(path: tuple[int, ...], i: int) -> tuple[int, ...] | None:
        if vocabulary[i][0] != "at_least":
            return narrow(path, i)
        same = [n for n, j in enumerate(path) if vocabulary[j][0] == "at_least"]
        if not same:
            return narrow(path, i)
        n = same[0]
        return (*path[:n], i, *path[n + 1:]) if floor(i) > floor(path[n]) else None
    return narrowed


def _least(sums: np.ndarray) -> float:
    """What cells lose, each taking its action of least loss: ``sums`` (..., actions)."""
    return float(sums.min(axis=-1).sum())


def grow(cells: Seen, summed: np.ndarray, vocabulary: list[tuple[str, Any]], most: int, deals: float,
         note: Callable[[str], None] | None = None) -> list[tuple[tuple[tuple[str, Any], ...], np.ndarray]]:
    """The rows of at most ``most``, in order (the last for every hand): each its conditions and
    its cells, split greedily as the module says (``summed``: each cell's losses over its deals,
    of ``deals`` in all)."""
    column = cells.up + len(COLUMNS) * cells.matches.astype(np.int64)
    narrow = _narrowing(vocabulary)

    def best_split(row: _Row) -> tuple[float, int]:
        part = cells.take(row.members)
        loss = summed[row.members]
        by_column = [np.flatnonzero(column[row.members] == c) for c in range(N_COLUMNS)]
        totals = np.stack([loss[at].sum(axis=0) for at in by_column])          # (columns, actions)
        alone = _least(totals)
        usable = [i for i in range(len(vocabulary)) if narrow(row.path, i) is not None]
        found = (0.0, -1)
        for start in range(0, len(usable), BLOCK):
            block = usable[start:start + BLOCK]
            holds = np.stack([condition(*vocabulary[i])[0](part) for i in block], axis=1).astype(np.float64)
            held = np.zeros((len(block), N_COLUMNS, summed.shape[1]))
            for c, at in enumerate(by_column):
                if len(at):
                    held[:, c] = holds[at].T @ loss[at]
            count = holds.sum(axis=0)
            gains = alone - held.min(axis=2).sum(axis=1) - (totals[None] - held).min(axis=2).sum(axis=1)
            gains[(count == 0) | (count == len(row.members))] = 0.0
            k = int(np.argmax(gains))
            if gains[k] > found[0]:
                found = (float(gains[k]), block[k])
        return found

    rows = [_Row((), np.arange(len(summed)))]
    while len(rows) < most:
        for row in rows:
            if row.split is None:
                row.split = best_split(row)
        splits = [r.split or (0.0, -1) for r in rows]
        k = max(range(len(rows)), key=lambda j: splits[j][0])
        gain, i = splits[k]
        if i < 0 or gain <= 0:
            break
        row = rows[k]
        path = narrow(row.path, i)
        assert path is not None
        holds = condition(*vocabulary[i])[0](cells.take(row.members))
        rows[k:k + 1] = [_Row(path, row.members[holds]), _Row(row.path, row.members[~holds])]
        if note is not None:
            note(f"chart: {len(rows)} rows; the last split, by {vocabulary[i][0]} = {vocabulary[i][1]!r}, "
                 f"gains {gain / deals * 100:.6f} % of the ante (the search's estimate)")
    return [(tuple(vocabulary[j] for j in r.path), r.members) for r in rows]


def _float_cells(members: np.ndarray, column: np.ndarray, summed: np.ndarray) -> list[int | None]:
    """Each column's action of least loss over a row's cells (None where it holds none)."""
    out: list[int | None] = []
    for c in range(N_COLUMNS):
        at = members[column[members] == c]
        out.append(int(np.argmin(summed[at].sum(axis=0))) if len(at) else None)
    return out


def _exact_cells(classes: np.ndarray, column: np.ndarray, weight: np.ndarray, losses: np.ndarray
                 ) -> list[int | None]:
    """Without draws: each column's bet (0) or fold (1), the one that loses less over a row's
    classes, summed exactly (None where it holds none)."""
    out: list[int | None] = []
    for c in range(N_COLUMNS):
        at = classes[column[classes] == c]
        out.append(None if not len(at) else
                   0 if exact_total(weight[at], losses[at, 0]) <= exact_total(weight[at], losses[at, 1]) else 1)
    return out


def _sides(chosen: list[int | None], fold: int) -> tuple[list[int], list[int] | None]:
    """A row's cells: each up-card rank's, unmatched then matched (None where the sides agree); a
    cell without deals takes its other side's action, else ``fold``."""
    n = len(COLUMNS)
    up = [next(a for a in (chosen[r], chosen[r + n], fold) if a is not None) for r in range(n)]
    matched = [a if (a := chosen[r + n]) is not None else up[r] for r in range(n)]
    return up, None if matched == up else matched


def code_of(action: str) -> str:
    """A cell's code: B, F, 6, or the keep's (P for the pair, AK for A K, PH for the pair and the
    highest card)."""
    known = {v: k for k, v in CODES.items()}
    if action in known:
        return known[action]
    return "".join(KEEP_CODES.get(w, w) for w in action.removeprefix("keep ").split())


def derive_chart(rules: Rules, most: int, jobs: int = 1, progress: Callable[[int, int], None] | None = None,
                 counts: Counts | None = None, table: str | Path | None = None, work: Path | None = None,
                 note: Callable[[str], None] | None = None) -> tuple[str, CardCheck]:
    """A chart of at most ``most`` rows for ``rules``, its file's text and its exact check (with
    draws: from the rules' ``table``, the departures kept in ``work``, as ``check`` does)."""
    if most < 2:
        raise InputError("a chart has at least 2 rows")
    # the chart's rows are not lines: the most lines a derive allows, for its insurance and buys
    x = deriving(rules, 200, jobs, progress, counts, table, work, False, True, note, None)
    names = actions(rules)
    cells, summed = cell_losses(x, names)
    vocabulary = [a for a in atoms(draws=rules.draws) if a[0] not in UP_KEYS]
    rows = grow(cells, summed, vocabulary, most, float(x.weight.sum()), note)
    column = cells.up + len(COLUMNS) * cells.matches.astype(np.int64)
    if x.counts is None:
        chosen = [(when, _float_cells(members, column, summed)) for when, members in rows]
    else:
        first, cell = cell_of(x.seen, False)
        losses, _ = bet_fold_losses(x.counts)
        every = x.seen.up + len(COLUMNS) * x.seen.matches.astype(np.int64)
        chosen = [(when, _exact_cells(np.flatnonzero(np.isin(cell, members)), every, x.weight, losses))
                  for when, members in rows]
    text = _chart_text(rules, [(when, _sides(c, names.index("fold"))) for when, c in chosen], names, x.play)
    return text, check(parse(text, f"the derived chart of {rules.name}"), rules, jobs, progress, counts=x.counts,
                       table=table, work=work, returns=False)


def _chart_text(rules: Rules, rows: list[tuple[tuple[tuple[str, Any], ...], tuple[list[int], list[int] | None]]],
                names: tuple[str, ...], play: Any) -> str:
    """The chart's file: its codes, its insurance and buys (where the derive states them), a row
    for each hand group, the last without conditions."""
    codes = [code_of(a) for a in names]
    used = sorted({a for _, (up, matched) in rows for a in (*up, *(matched or ()))})
    out = [f"# Derived from optimal play by `rpoker strategy derive --chart --rules {rules.name}`: {len(rows)} rows,",
           "# the first row whose hand group holds decides, by the up-card's column.",
           f'name = "{GAMES.get(rules.name, rules.name)}: the derived chart ({len(rows)} rows)"',
           f'rules = "{rules.name}"', f"# columns: the up-card's rank, {' '.join(RANK_NAMES)}"]
    if not play.best:      # before any table: its keys are the file's own
        out += ["", *later_play.toml(play)]
    own = [a for a in used if codes[a] not in CODES]
    if own:
        out += ["", "[codes]"] + [f'"{codes[a]}" = "{names[a]}"' for a in own]     # quoted: "Q+" is no bare key
    for when, (up, matched) in rows:
        out += ["", "[[first_row]]"]
        if when:
            out.append("when = { " + ", ".join(f"{k} = {toml_value(v)}" for k, v in when) + " }")
        out.append(f'up = "{" ".join(codes[a] for a in up)}"')
        if matched is not None:
            out.append(f'matched = "{" ".join(codes[a] for a in matched)}"')
    return "\n".join(out) + "\n"


def write_chart(rules: Rules, most: int, directory: Path, jobs: int = 1,
                progress: Callable[[int, int], None] | None = None, table: str | Path | None = None,
                work: Path | None = None, note: Callable[[str], None] | None = None) -> tuple[Path, CardCheck]:
    """The chart derived for ``rules`` (``derive_chart``) written to ``directory`` as
    ``<rules>-chart.toml``, and its exact check."""
    text, checked = derive_chart(rules, most, jobs, progress, table=table, work=work, note=note)
    path = directory / f"{rules.name}-chart.toml"
    write_atomic(path, lambda p: p.write_text(text, encoding="utf-8"))
    return path, checked
