"""The sizes of a search lending each other their lines (``chained``), and a card shaken out of
where the refine stopped (``perturbed``)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..hands import Seen
from ..vocabulary import atoms, condition_masks
from . import refinement
from .refinement import Found, Listed, list_loss, listed_of, without_cheapest, written

CHAIN = 3
"""The most passes of ``chained`` up and down the sizes."""


def chained(cards: dict[int, Found], loss: np.ndarray, names: tuple[str, ...], vocabulary: list[tuple[str, Any]],
             masks: np.ndarray) -> dict[int, Found]:
    """The searched ``cards`` by size, each replaced by the card of the next smaller size refined
    with room for more lines (``refine``), or by the card of the next larger size with its lines
    that cost least to lose left out down to its size and refined, where that loses less: up and
    down the sizes until no card changes (at most ``CHAIN`` times), then by a smaller card where
    one still loses less, so that a card of more lines never loses more. The sizes are searched
    apart, and one search may end far from another: on the default rules' cells, with
    ``to_straight = "double"`` offered, the search of 17 lines ended at 0.842 % (its estimate),
    and the earlier search's 17 lines, refined, lose 0.436 %; a good card of one size lends its
    lines to the others. (``masks``: each condition of ``vocabulary`` over the cells, as
    ``condition_masks``.)"""
    held = masks > 0
    by_cell = np.ascontiguousarray(masks.T)
    listed = {size: listed_of(card, names, vocabulary) for size, (card, _) in cards.items()}
    value = {size: list_loss(loss, held, card) for size, card in listed.items()}
    sizes = sorted(cards)

    def offer(size: int, trial: Listed) -> bool:
        lost = list_loss(loss, held, trial)
        if lost < value[size] - 1e-12 * abs(value[size]):
            listed[size], value[size] = trial, lost
            return True
        return False

    for _ in range(CHAIN):
        changed = False
        for smaller, size in zip(sizes, sizes[1:]):
            changed |= offer(size, refinement.refine(loss, masks, vocabulary, listed[smaller], size, by_cell))
        for larger, size in zip(sizes[::-1], sizes[-2::-1]):
            fewer = listed[larger]
            while len(fewer) > size:
                fewer = without_cheapest(loss, held, fewer)
            changed |= offer(size, refinement.refine(loss, masks, vocabulary, fewer, size, by_cell))
        if not changed:
            break
    return monotone({size: (written(listed[size], names, vocabulary), value[size]) for size in sizes})


def monotone(cards: dict[int, Found]) -> dict[int, Found]:
    """``cards`` by size, each replaced by a smaller one that loses less: a card of more lines
    never loses more."""
    out = dict(cards)
    sizes = sorted(out)
    for smaller, size in zip(sizes, sizes[1:]):
        if out[smaller][1] < out[size][1]:
            out[size] = out[smaller]
    return out


PERTURB = 12
"""The rounds of ``perturbed`` at each size of a first decision with draws (``search`` reads it
when called). The default rules' 16 lines lose 0.5776 % chained and 0.3758 % after them (the
search's estimates, 2026-12-05); 14 rounds more, in two streams of other draws, found no card of
less loss (2026-12-06). Without draws (the Caribbean Stud's card, the
few lines of the bet or fold after a draw and of the insurance) none: shaken, the Caribbean
Stud's card of 20 lines comes out the same, in 82 s where the derive takes 48 s (2026-12-06)."""


def perturbed(loss: np.ndarray, masks: np.ndarray, vocabulary: list[tuple[str, Any]], listed: Listed, size: int,
               rounds: int, by_cell: np.ndarray | None = None) -> Listed:
    """``listed`` after ``rounds`` rounds of leaving out two to four of its lines (not the
    last), drawn at random, and refining the rest back to ``size`` lines (``refine``), each
    round's card kept where it loses less. The refine stops at a card that no one change
    improves, often far from the best of its size; lines taken out together make room for others
    that pay only together (the default rules' 17 lines of 2026-12-05: 0.455 % to 0.415 % in
    five rounds). The draws are Python's ``random.Random(size).random()``, the same sequence on
    every machine and version: the same card. (``masks``, ``by_cell``: as ``refine``.)"""
    held = masks > 0
    draw = random.Random(size)
    current, value = listed, list_loss(loss, held, listed)
    for _ in range(rounds):
        many = 2 + int(3 * draw.random())
        out = sorted(range(len(current) - 1), key=lambda _: draw.random())[:many]
        kept = [line for k, line in enumerate(current) if k not in out]
        trial = refinement.refine(loss, masks, vocabulary, kept, size, by_cell)
        lost = list_loss(loss, held, trial)
        if lost < value - 1e-12 * abs(value):
            current, value = trial, lost
    return current


def perturbed_size(seen: Seen, loss: np.ndarray, names: tuple[str, ...], card: Found, size: int, draws: bool,
                    rounds: int, masks: np.ndarray | None = None) -> tuple[int, Found]:
    """``search``'s ``card`` of at most ``size`` lines after ``rounds`` of ``perturbed``, with its
    loss (``masks``: the conditions' cells, when at hand)."""
    vocabulary = atoms(draws, seen.thrown_up is not None)
    if masks is None:
        masks = condition_masks(seen, vocabulary)
    out = perturbed(loss, masks, vocabulary, listed_of(card[0], names, vocabulary), size, rounds)
    return size, (written(out, names, vocabulary), list_loss(loss, masks > 0, out))
