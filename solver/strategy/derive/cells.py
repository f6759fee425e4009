"""Cells and representatives: what each action of a derived card loses in each class.

Without draws, the losses come from every class's bet counts (exact). With draws, from the rules'
compact table (each class's best action and runner-up with their EVs) and every class's bet; any
other action's loss is that of the same action in one class of the same cell (its
*representative*, solved exactly), at least the runner-up's gap. The search then sums each
action's loss over the deals of each cell: the classes that every condition sees alike.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ...action import KINDS, N_CODES, SIXTH_CARD, Action, exchange_code
from ...classes import enumerate_classes, rank_order
from ...deal import option_values
from ...rules import Rules
from ...version import __version__
from ..departing import TableCodes, work_folder
from ..hands import Seen
from ..keep import NO_HAND, Keep
from ..kept import read_sealed, write_sealed

#: what an exchange of a derived card may keep (rules with an exchange)
KEEPS = ("pair", "two_pair", "trips", "flush", "straight", "straight_flush", "royal", "highest", "pair highest",
         "highest_suited",
         "A", "K", "Q",
         "A K", "A Q", "A J", "K Q", "K J", "Q J", "A K Q", "A K J", "A Q J", "K Q J", "A K Q J", "Q+", "K+",
         "pair A", "pair K", "pair A K", "pair Q+")


UNKNOWN = 0.1
"""What the search adds to the runner-up's gap where a representative's loss is not counted."""


IMPOSSIBLE = 1e6
"""The loss of an action a deal cannot take (a keep naming no card of it): never chosen."""


def actions(rules: Rules) -> tuple[str, ...]:
    """The first actions a derived card may take under ``rules``: bet, fold, a sixth card, and
    exchanges by what they keep (``keep ...``)."""
    out = ["bet", "fold"] + (["sixth_card"] if rules.sixth_card else [])
    return (*out, *(f"keep {k}" for k in KEEPS if rules.exchange))


def action_codes(seen: Seen, rules: Rules, name: str) -> tuple[np.ndarray, np.ndarray]:
    """The table code of an action of a derived card in each class, and where it cannot be taken."""
    if not name.startswith("keep "):
        return np.full(len(seen), KINDS.index(name)), np.zeros(len(seen), bool)
    kept = Keep.parse(name[5:]).kept(seen)
    throw = 31 & ~kept
    sizes = np.asarray([bin(t).count("1") for t in range(32)])
    return exchange_code(throw), (kept == NO_HAND) | ~np.isin(sizes[throw], rules.exchange_counts)


ALL_FIVE = exchange_code(31)
"""The code of exchanging all five, which representatives leave to ``UNKNOWN``."""


def representative_codes(rules: Rules) -> np.ndarray:
    """The codes every representative is solved for: a sixth card and each exchange the rules
    allow, but of all five (5 ms a class, as much as every other action together)."""
    sizes = [bin(t).count("1") for t in range(1, 31)]
    exchanges = [exchange_code(t) for t, k in zip(range(1, 31), sizes) if k in rules.exchange_counts]
    return np.asarray(([SIXTH_CARD] if rules.sixth_card else []) + exchanges, np.int64)


def solve_representatives(rules: Rules, rows: np.ndarray) -> np.ndarray:
    """The exact EVs (as floats) of every option of ``representative_codes`` of the classes
    ``rows`` (rows, N_CODES), NaN for the others."""
    hands, ups, _ = enumerate_classes()
    wanted = representative_codes(rules).tolist()
    out = np.full((len(rows), N_CODES), np.nan)
    for i in rank_order(hands[rows], ups[rows]).tolist():
        hand, up = tuple(int(c) for c in hands[rows[i]]), int(ups[rows[i]])
        out[i, wanted] = [float(v) for v in option_values(hand, up, [Action.from_code(c, hand) for c in wanted],
                                                          rules)]
    return out


def representative_values(rows: np.ndarray, rules: Rules, codes: TableCodes, jobs: int = 1,
                          progress: Callable[[int, int], None] | None = None,
                          work: Path | None = None) -> np.ndarray:
    """The exact EVs (floats, per deal) of every option but betting, folding and exchanging all
    five of the classes ``rows`` (one per cell): (rows, N_CODES), NaN where not counted. Counted
    in chunks of ``jobs`` workers, each kept sealed in the work folder as it finishes (a derive
    resumes, whatever actions its card may take)."""
    import joblib

    hands, ups, _ = enumerate_classes()
    order = rank_order(hands[rows], ups[rows])
    folder = work_folder(codes.table, work)
    chunks = np.array_split(order, max(1, len(order) // 2048))
    values = np.full((len(rows), N_CODES), np.nan)
    solved = representative_codes(rules)
    tasks = []
    for chunk in chunks:
        h = hashlib.sha256(f"rpoker derive representatives {__version__}".encode())
        for a in (rows[chunk], solved):
            h.update(np.ascontiguousarray(a, np.int64).tobytes())
        path = folder / f"representatives-{h.hexdigest()[:24]}.npy"
        got = read_sealed(path, (len(chunk), N_CODES))
        if got is None:
            tasks.append((chunk, path))
        else:
            values[chunk] = got
    counted = len(rows) - sum(len(c) for c, _ in tasks)
    if progress is not None:
        progress(counted, len(rows))
    if not tasks:       # all kept: an empty generator of joblib warns of tasks cancelled
        return values
    results = joblib.Parallel(n_jobs=jobs, return_as="generator")(
        joblib.delayed(solve_representatives)(rules, rows[c]) for c, _ in tasks)
    for (chunk, path), got in zip(tasks, results):
        write_sealed(path, got)
        values[chunk] = got
        counted += len(chunk)
        if progress is not None:
            progress(counted, len(rows))
    return values


def representative_losses(part: Seen, values: np.ndarray, best_ev: np.ndarray, names: tuple[str, ...],
                          rules: Rules) -> np.ndarray:
    """What each action ``names`` loses in the representatives ``part`` of EVs ``values``
    (``representative_values``) and best EVs ``best_ev``: (rows, actions), NaN where not counted
    (betting, folding, exchanging all five, what the class cannot take)."""
    loss = np.full((len(part), len(names)), np.nan)
    for a, name in enumerate(names):
        code, impossible = action_codes(part, rules, name)
        ok = ~impossible & (code >= 2)
        loss[ok, a] = best_ev[ok] - values[np.flatnonzero(ok), code[ok]]
    return loss


def table_losses(seen: Seen, codes: TableCodes, rules: Rules, names: tuple[str, ...], estimate: np.ndarray,
                  bet_ev: np.ndarray | None = None) -> np.ndarray:
    """What each action loses in each class (rules with draws), as the compact table tells it
    (the module's docstring), the losses of its other actions as ``estimate`` (classes,
    actions; NaN: not counted) and betting's from each class's bet EV ``bet_ev`` when given; in
    antes per deal, float32 (classes, actions)."""
    gap = (codes.best_ev - codes.second_ev).astype(np.float32)
    out = np.empty((len(seen), len(names)), np.float32)
    for a, name in enumerate(names):
        code, impossible = action_codes(seen, rules, name)
        # never below the runner-up's gap: an action that is neither the best nor the runner-up
        unknown = np.where(np.isnan(estimate[:, a]), gap + UNKNOWN, np.maximum(estimate[:, a], gap))
        loss = np.where(code == codes.best, 0, np.where(code == codes.second, gap, unknown))
        if name == "fold":
            loss = (codes.best_ev + 1).astype(np.float32)
        if name == "bet" and bet_ev is not None:
            loss = np.maximum(codes.best_ev - bet_ev, 0).astype(np.float32)
        out[:, a] = np.where(impossible, IMPOSSIBLE, loss)
    return out


def cell_of(seen: Seen, draws: bool) -> tuple[np.ndarray, np.ndarray]:
    """The cells: the first class of each, and each class's cell."""
    key = ((seen.ranks @ (13 ** np.arange(4, -1, -1))) * 11 + seen.category) * 13 + seen.up
    if draws:
        key = (((key * 6 + seen.to_flush) * 6 + seen.to_straight_flush) * 6 + seen.to_royal) * 14 + seen.straight_outs
        key = key * 6 + seen.suited_place
    _, first, cell = np.unique(key, return_index=True, return_inverse=True)
    return first, cell


def summed_cells(seen: Seen, loss: np.ndarray, weight: np.ndarray, draws: bool,
           cells: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[Seen, np.ndarray]:
    """The cells (one class of each, as a Seen; ``cells``: ``cell_of`` when at hand) and each
    action's loss summed over their deals (cells, actions)."""
    first, cell = cells if cells is not None else cell_of(seen, draws)
    summed = np.zeros((len(first), loss.shape[1]))
    for a in range(loss.shape[1]):
        summed[:, a] = np.bincount(cell, weight * loss[:, a].astype(np.float64), len(first))
    return seen.take(first), summed
