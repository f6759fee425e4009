"""The conditions a derived card may state, and its lines made of them.

The search (``derive.search``) and the repairs after the exact check (``at_once``) split the
classes by the same conditions (``atoms``: (key, value) pairs of the card's file), each over a
set of classes as a mask (``condition_masks``); a line's conditions are a path of them, and a
condition added to a path narrows one of the same key where both are sets (``narrowing``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..cards import RANK_NAMES
from ..category import CATEGORIES
from .conditions import condition
from .hands import Seen
from .keep import rank_set


def _span(a: int, b: int) -> str:
    return RANK_NAMES[a] if a == b else f"{RANK_NAMES[a]}-{RANK_NAMES[b]}"


def atoms(draws: bool = False, thrown: bool = False) -> list[tuple[str, Any]]:
    """The conditions a derived card may use, as (key, value) of the card's file: categories (and
    "or better"), up-card ranges, the up-card matching a card of the hand or its pair (trips, ...)
    or not, a card (or one of two) held, the pair's range, the up-card below the n-th card, the
    AK hands' next cards; with ``draws``, the
    up-card above the n-th card and against the pair, the draws to a flush, a straight, a
    straight flush and a royal, and which high card the highest card of a hand without a pair is
    suited with; with ``thrown`` (a final hand after a draw), whether a card
    thrown away had the up-card's rank."""
    out: list[tuple[str, Any]] = [("category", c) for c in CATEGORIES] + [("category", f"{c}+") for c in CATEGORIES[1:]]
    out += [("up", _span(a, b)) for a in range(13) for b in range(a, 13)]
    out += [("up_matches", True), ("up_matches", False), ("up_matches_group", True), ("up_matches_group", False)]
    out += [("holds", RANK_NAMES[r]) for r in range(13)]
    out += [("holds", f"{RANK_NAMES[a]},{RANK_NAMES[b]}") for a in range(13) for b in range(a)]
    out += [("group", _span(a, b)) for a in range(13) for b in range(a, 13)]
    out += [("up_below", n) for n in range(1, 6)]
    out += [("at_least", f"A K {RANK_NAMES[x]}") for x in range(11)]
    out += [("at_least", f"A K {RANK_NAMES[x]} {RANK_NAMES[y]}") for x in range(11) for y in range(x)]
    if draws:
        # the up-card against the hand's cards: what an exchange hopes to pair against the dealer's
        out += [("up_below", "group")] + [("up_above", n) for n in (*range(1, 6), "group")]
        out += [("to_flush", 3), ("to_flush", 4), ("to_straight", "open"), ("to_straight", "inside"),
                ("to_straight", "double"), ("to_straight_flush", 3), ("to_straight_flush", 4), ("to_royal", 3),
                ("to_royal", 4)]
        out += [("highest_suited", n) for n in range(2, 6)]
    if thrown:
        out += [("thrown_matches_up", True), ("thrown_matches_up", False)]
    return out


@dataclass(frozen=True)
class Line:
    """A derived rule: its conditions as (key, value) and its action."""

    when: tuple[tuple[str, Any], ...]
    action: str


#: conditions whose values are sets that nest: a second one on a path narrows the first
NARROWS = ("category", "up", "group")


def narrowing(vocabulary: list[tuple[str, Any]]) -> Callable[[tuple[int, ...], int], tuple[int, ...] | None]:
    """``narrow(path, i)``: the conditions of ``path`` with the vocabulary's condition ``i``
    added — in the place of one of its key where both are sets (``NARROWS``) whose intersection
    the vocabulary states (pair or better, then trips: trips) — or None where a card could not
    state it (a key twice)."""
    def values(key: str, value: str) -> frozenset[int]:
        if key == "category":
            k = CATEGORIES.index(value.rstrip("+"))
            return frozenset(range(k, len(CATEGORIES))) if value.endswith("+") else frozenset({k})
        return rank_set(value, key)

    sets = {i: values(k, v) for i, (k, v) in enumerate(vocabulary) if k in NARROWS}
    stated = {(vocabulary[i][0], held): i for i, held in sets.items()}

    def narrow(path: tuple[int, ...], i: int) -> tuple[int, ...] | None:
        key = vocabulary[i][0]
        same = [n for n, j in enumerate(path) if vocabulary[j][0] == key]
        if not same:
            return (*path, i)
        if key not in NARROWS:
            return None
        n = same[0]
        both = stated.get((key, sets[path[n]] & sets[i]))
        return None if both is None else (*path[:n], both, *path[n + 1:])
    return narrow


def condition_masks(seen: Seen, vocabulary: list[tuple[str, Any]]) -> np.ndarray:
    """Each condition of ``vocabulary`` over the cells ``seen``: 1.0 where it holds (float64: sums
    over hundreds of thousands of cells decide between near ties)."""
    out: np.ndarray = np.stack([condition(k, v)[0](seen) for k, v in vocabulary]).astype(np.float64)
    return out
