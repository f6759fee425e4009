"""Growing a tree of conditions into a card of at most N lines (one size of the search).

A tree grows leaf by leaf, each split by one condition of the vocabulary, each leaf taking the
action of least loss; the tree is written as a decision list (``tree_lines``) and refined.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..hands import Seen
from ..vocabulary import Line, atoms, condition_masks, narrowing
from . import refinement
from .refinement import listed_of, written

AHEAD = 3
"""What a split's gain two splits ahead is divided by: the lines it may take."""


def split_path(path: tuple[int, ...] | None) -> tuple[int, ...]:
    """The path of a split made: the search splits only by conditions a card can state there."""
    if path is None:
        raise AssertionError("a split by a condition the card cannot state after its path")
    return path


@dataclass
class Node:
    """A node of the search's tree: its cells, the conditions written on its path (the branches
    where a condition holds), and its split (a condition's index, the side where it holds, the
    other) once split."""

    cells: np.ndarray
    path: tuple[int, ...]
    action: int                 # the action of least loss over its cells
    split: tuple[int, Node, Node] | None = None


def impurity(mass: np.ndarray) -> np.ndarray:
    """How mixed a set of deals is, by the mass (last axis: one per action) of the deals where
    each action is the best, each weighted by what it gains over the next best: Gini's index in
    these weights, sum over a < b of m_a m_b / M (written so, not as M - sum m_a^2 / M, whose
    cancellation would blur near ties), which unlike the loss itself rewards a split that sorts the
    deals even before either side changes its action."""
    total = mass.sum(axis=-1)
    before = np.cumsum(mass, axis=-1) - mass            # the masses of the actions before each
    pairs = (mass * before).sum(axis=-1)
    mixed: np.ndarray = np.divide(pairs, total, out=np.zeros_like(total), where=total > 0)
    return mixed


def search_size(seen: Seen, loss: np.ndarray, names: tuple[str, ...], size: int, draws: bool, lookahead: int,
                 masks: np.ndarray | None = None) -> tuple[int, tuple[tuple[Line, ...], float]]:
    """``search``'s card of at most ``size`` lines, with its loss (``masks``: the conditions'
    cells, when at hand)."""
    vocabulary = atoms(draws, seen.thrown_up is not None)
    if masks is None:
        masks = condition_masks(seen, vocabulary)
    by_cell = np.ascontiguousarray(masks.T)      # a cell's conditions together: subsets of cells copy fast
    narrow = narrowing(vocabulary)
    ordered = np.sort(loss, axis=1)
    gain = ordered[:, 1] - ordered[:, 0] if loss.shape[1] > 1 else np.zeros(len(loss))
    sides = np.zeros(loss.shape)
    sides[np.arange(len(loss)), np.argmin(loss, axis=1)] = gain

    def splits(cells: np.ndarray, path: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, float]:
        """Each condition's loss left once it splits ``cells`` (inf where it splits nothing or
        a card could not state it after the path), its sorting gain (-inf there), and the loss
        before."""
        idx = np.flatnonzero(cells)
        part = by_cell[idx].T if len(idx) < len(cells) else masks
        total = loss[idx].sum(axis=0, dtype=np.float64)
        held = part @ loss[idx].astype(np.float64)
        left = held.min(axis=1) + (total - held).min(axis=1)
        by_side = part @ sides[idx]
        mass = sides[idx].sum(axis=0)
        sorting = impurity(mass) - impurity(by_side) - impurity(mass - by_side)
        size = part.sum(axis=1)
        bad = (size == 0) | (size == len(idx))
        on_path = {vocabulary[j][0] for j in path}
        bad |= [vocabulary[i][0] in on_path and narrow(path, i) is None for i in range(len(vocabulary))]
        left[bad], sorting[bad] = np.inf, -np.inf
        return left, sorting, float(total.min())

    def after(cells: np.ndarray, path: tuple[int, ...]) -> float:
        """The loss left in ``cells`` after their best split (or none)."""
        unsplit = float(loss[cells].sum(axis=0).min())
        return min(unsplit, float(splits(cells, path)[0].min())) if cells.sum() > 1 else unsplit

    def by_sorting(node: Node) -> tuple[float, int]:
        sorting = splits(node.cells, node.path)[1]
        i = int(np.argmax(sorting))
        return float(sorting[i]), i

    def by_loss(node: Node) -> tuple[float, int]:
        left, sorting, before = splits(node.cells, node.path)
        best, chosen = -np.inf, -1
        for i in {int(i) for i in np.argsort(left)[:lookahead]} | {int(i) for i in np.argsort(-sorting)[:lookahead]}:
            if np.isfinite(left[i]):
                held = masks[i] > 0
                ahead = (after(node.cells & held, split_path(narrow(node.path, i)))
                         + after(node.cells & ~held, node.path))
                gain = max(before - float(left[i]), (before - ahead) / AHEAD)
                if gain > best:
                    best, chosen = gain, i
        return best, chosen

    def estimate(lines: tuple[Line, ...]) -> float:
        left, out = np.ones(len(seen), bool), 0.0
        for line in lines:
            held = left.copy()
            for cond in line.when:
                held &= masks[vocabulary.index(cond)] > 0
            out += float(loss[held, names.index(line.action)].sum())
            left &= ~held
        return out

    grown = min((grow(loss, masks, names, vocabulary, narrow, size, score) for score in (by_sorting, by_loss)),
                key=estimate)
    refined = written(refinement.refine(loss, masks, vocabulary, listed_of(grown, names, vocabulary), size, by_cell),
                      names, vocabulary)
    chosen = min(grown, refined, key=estimate)
    return size, (chosen, estimate(chosen))


def grow(loss: np.ndarray, masks: np.ndarray, names: tuple[str, ...], vocabulary: list[tuple[str, Any]],
          narrow: Callable[[tuple[int, ...], int], tuple[int, ...] | None], most: int,
          score: Callable[[Node], tuple[float, int]]) -> tuple[Line, ...]:
    """A tree grown leaf by leaf, each time splitting the leaf whose split ``score`` gains most
    while its decision list fits in ``most`` lines (``narrow``: a path with a condition added)."""
    def node(cells: np.ndarray, path: tuple[int, ...]) -> Node:
        return Node(cells, path, int(np.argmin(loss[cells].sum(axis=0))))

    root = node(np.ones(len(loss), bool), ())
    leaves = [(root, *score(root))]
    out = tree_lines(root, names, vocabulary, masks)
    while leaves:
        k = max(range(len(leaves)), key=lambda n: leaves[n][1])
        parent, gain, i = leaves[k]
        if gain <= 0:
            break
        held = masks[i] > 0
        left = node(parent.cells & held, split_path(narrow(parent.path, i)))
        right = node(parent.cells & ~held, parent.path)
        parent.split = (i, left, right)
        grown = tree_lines(root, names, vocabulary, masks)
        if len(grown) > most:
            parent.split = None
            del leaves[k]
            continue
        out = grown
        leaves[k:k + 1] = [(left, *score(left)), (right, *score(right))]
    return out


def tree_lines(root: Node, names: tuple[str, ...], vocabulary: list[tuple[str, Any]],
           masks: np.ndarray) -> tuple[Line, ...]:
    """The tree as a decision list: a leaf is a line of the conditions that hold on its path,
    the side where a condition holds before the other, so that the other needs no "not" (its
    deals are taken above). A line whose action is that of the next line, which holds wherever
    it does (``masks``: each condition's cells), is left out."""
    def lines(node: Node) -> list[tuple[Line, tuple[int, ...]]]:
        if node.split is None:
            return [(Line(tuple(vocabulary[i] for i in node.path), names[node.action]), node.path)]
        return lines(node.split[1]) + lines(node.split[2])

    def holds(path: tuple[int, ...]) -> np.ndarray:
        out = np.ones(masks.shape[1], bool)
        for i in path:
            out &= masks[i] > 0
        return out

    out: list[tuple[Line, tuple[int, ...]]] = []
    for line, path in reversed(lines(root)):
        if out and out[0][0].action == line.action and not (holds(path) & ~holds(out[0][1])).any():
            continue
        out.insert(0, (line, path))
    return tuple(line for line, _ in out)
