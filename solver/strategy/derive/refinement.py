"""Refining a decision list: lines inserted, dropped, or their conditions changed, while the
loss falls.

The search works on ``Listed`` decision lists (each line's conditions as indices of the
vocabulary, its action as an index of the actions) over the cells, each condition's cells a row
of ``masks``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..vocabulary import Line, narrowing

Found = tuple[tuple[Line, ...], float]
"""A card found by the search, and what it loses over the cells."""


#: a decision list as the refining sees it: each line's conditions (vocabulary indices) and action
Listed = list[tuple[tuple[int, ...], int]]


REFINE = 30
"""The most rounds of exchanging a derived card's lines (``refine``; a line inserted into room
left is not one)."""


PAIRED = 8
"""How many of the best single conditions a round also tries with a second one (``refine``)."""


def listed_of(card: tuple[Line, ...], names: tuple[str, ...], vocabulary: list[tuple[str, Any]]) -> Listed:
    """A card's lines as the refine sees them (``Listed``)."""
    index = {c: i for i, c in enumerate(vocabulary)}
    return [(tuple(index[c] for c in line.when), names.index(line.action)) for line in card]


def written(listed: Listed, names: tuple[str, ...], vocabulary: list[tuple[str, Any]]) -> tuple[Line, ...]:
    """The lines of a ``Listed`` decision list."""
    return tuple(Line(tuple(vocabulary[i] for i in path), names[a]) for path, a in listed)


def decided(listed: Listed, held: np.ndarray) -> np.ndarray:
    """The line of a decision list that decides each cell (``held``: each condition's cells)."""
    line = np.full(held.shape[1], len(listed) - 1)
    free = np.ones(held.shape[1], bool)
    for k, (path, _) in enumerate(listed[:-1]):
        take = free.copy()
        for i in path:
            take &= held[i]
        line[take] = k
        free &= ~take
    return line


def list_loss(loss: np.ndarray, held: np.ndarray, listed: Listed) -> float:
    """What a decision list loses over all cells (``held``: each condition's cells)."""
    acts = np.asarray([a for _, a in listed])[decided(listed, held)]
    return float(loss[np.arange(len(loss)), acts].sum())


def without_cheapest(loss: np.ndarray, held: np.ndarray, listed: Listed) -> Listed:
    """The decision list without the line (but the last) whose loss costs least."""
    k = min((list_loss(loss, held, listed[:k] + listed[k + 1:]), k) for k in range(len(listed) - 1))[1]
    return listed[:k] + listed[k + 1:]


def retouch(loss: np.ndarray, masks: np.ndarray, held: np.ndarray,
             narrow: Callable[[tuple[int, ...], int], tuple[int, ...] | None], listed: Listed) -> Listed:
    """The decision list with the one change of one line's conditions (one added, one dropped, or
    one replaced by another; the last line keeps none) that takes most loss off, that line's
    action then chosen anew over its cells; the list itself where no such change gains
    (``masks``: each condition's cells, ``held`` the same as booleans). A condition added sends
    the line's cells where it fails to the next line that holds them; one dropped takes the
    cells of later lines where the others hold; one replaced does both."""
    line = decided(listed, held)
    acts = np.asarray([a for _, a in listed])
    rows = np.arange(len(loss))
    best: tuple[float, int, tuple[int, ...]] = (0.0, -1, ())

    def first_gaining(change: np.ndarray, path: tuple[int, ...], k: int) -> None:
        """The best of the conditions added to ``path`` by their ``change`` of line ``k``'s
        (a condition of a key the path has narrows it: their cells are those of both)."""
        nonlocal best
        for i in np.argsort(change).tolist():
            if change[i] >= best[0]:
                break
            narrowed = narrow(path, i)
            if narrowed is not None and set(narrowed) != set(listed[k][0]):
                best = (float(change[i]), k, narrowed)
                break

    added: list[np.ndarray] = []
    replaced: list[tuple[int, tuple[int, ...]]] = []
    moved: list[np.ndarray] = []
    for k, (path, a) in enumerate(listed[:-1]):
        idx = np.flatnonzero(line == k)
        after = np.full(len(idx), len(listed) - 1)
        for j in range(len(listed) - 2, k, -1):
            holds = np.ones(len(idx), bool)
            for i in listed[j][0]:
                holds &= held[i, idx]
            after[holds] = j
        leaving = loss[idx, acts[after]] - loss[idx, a]         # what each cell loses moved on
        added.append(leaving.sum() - masks[:, idx] @ leaving)
        first_gaining(added[k], path, k)
        for i in path:
            rest = tuple(j for j in path if j != i)
            taken = line > k
            for j in rest:
                taken &= held[j]
            # what each later cell the other conditions hold gains taken into this line
            moved.append(np.where(taken, loss[:, a] - loss[rows, acts[line]], 0.0))
            replaced.append((k, rest))
            if float(moved[-1].sum()) < best[0]:
                best = (float(moved[-1].sum()), k, rest)
    if moved:
        # each condition in place of one: the line's cells that fail it leave, the later cells
        # that hold it with the others come in
        into = masks @ np.stack(moved, axis=1)
        for n, (k, rest) in enumerate(replaced):
            first_gaining(added[k] + into[:, n], rest, k)
    _, k, path = best
    if k < 0:
        return listed
    out = [*listed[:k], (path, acts[k]), *listed[k + 1:]]
    out[k] = (path, int(np.argmin(loss[decided(out, held) == k].sum(axis=0))))
    return out


def refine(loss: np.ndarray, masks: np.ndarray, vocabulary: list[tuple[str, Any]], listed: Listed,
            most: int, by_cell: np.ndarray | None = None) -> Listed:
    """A decision list of at most ``most`` lines improved line by line: while there is room, the
    line (one condition, or two of other keys: one of the ``PAIRED`` best alone or used by the
    list's lines, with any other; any action) whose insertion anywhere above the
    last takes most loss off is added; when full, a round drops the line that costs least to
    lose and inserts the best line in its place (or inserts first, then drops), or changes one
    line's conditions (``retouch``), whichever loses least, kept only if the loss falls. A
    tree's list has lines a list can do without: a decision list states exceptions a tree splits
    around; and a line written for the lines of a tree may hold too widely, or too narrowly, among
    the lines of the list. (``by_cell``: ``masks`` transposed, when at hand.)"""
    held = masks > 0
    if by_cell is None:
        by_cell = np.ascontiguousarray(masks.T)      # a cell's conditions together: subsets of cells copy fast
    rows = np.arange(len(loss))
    narrow = narrowing(vocabulary)

    def total(lines: Listed) -> float:
        return list_loss(loss, held, lines)

    def gains(lines: Listed, line: np.ndarray, gain: np.ndarray, within: np.ndarray | None) -> np.ndarray:
        """(positions, conditions, actions): what a line inserted before each line takes off,
        over the cells of ``within`` (all when None)."""
        out = np.zeros((len(lines), len(vocabulary), loss.shape[1]))
        for k in range(len(lines)):
            idx = np.flatnonzero((line == k) if within is None else (line == k) & within)
            if len(idx):
                out[k] = by_cell[idx].T @ gain[idx]
        return np.cumsum(out[::-1], axis=0)[::-1]   # before line p: the cells of lines p, p + 1, ...

    def best_line(lines: Listed) -> tuple[float, int, tuple[int, ...], int]:
        line = decided(lines, held)
        acts = np.asarray([a for _, a in lines])[line]
        gain = loss[rows, acts][:, None] - loss
        single = gains(lines, line, gain, None)
        p, i, a = np.unravel_index(int(np.argmax(single)), single.shape)
        best: tuple[float, int, tuple[int, ...], int] = (float(single[p, i, a]), int(p), (int(i),), int(a))
        # the first condition of a pair: the best alone, and those of the card's lines (a
        # condition whose line alone loses may gain with another: two used apart, together)
        firsts = np.argsort(-single.max(axis=(0, 2)))[:PAIRED].tolist()
        firsts += sorted({i for path, _ in lines for i in path} - set(firsts))
        for first in firsts:
            both = gains(lines, line, gain, held[first])
            for other in range(len(vocabulary)):
                if vocabulary[other][0] == vocabulary[first][0]:
                    both[:, other] = -np.inf
            p, j, a = np.unravel_index(int(np.argmax(both)), both.shape)
            if both[p, j, a] > best[0]:
                best = (float(both[p, j, a]), int(p), (first, int(j)), int(a))
        return best

    def inserted(lines: Listed, found: tuple[float, int, tuple[int, ...], int]) -> Listed:
        _, p, path, a = found
        return [*lines[:p], (path, a), *lines[p:]]

    def dropped(lines: Listed) -> Listed:
        return without_cheapest(loss, held, lines)

    current, value = list(listed), total(listed)
    rounds = 0
    while True:
        trials = []
        if len(current) < most:
            found = best_line(current)
            if found[0] > 0:
                current = inserted(current, found)
                value = total(current)
                continue          # an insertion is not a round: a seed grows by many
        if rounds == REFINE:
            break
        rounds += 1
        if len(current) >= most and len(current) > 1:
            # drop the line that costs least to lose, then insert the best; or insert first,
            # then drop (the new line may make an old one redundant)
            trials = [inserted(dropped(current), best_line(dropped(current))),
                      dropped(inserted(current, best_line(current)))]
        trial = min([*trials, retouch(loss, masks, held, narrow, current)], key=total)
        if total(trial) >= value - 1e-12 * abs(value):
            break
        current, value = trial, total(trial)
    return current
