"""The dealer's counts by ranks (docs/design.md §2): a blind prefix counted only where it is
read, from its nearest anchor (counted by inclusion-exclusion over the deck's new cards), equals
the literal count of the deck's hidden hands, whatever the order of the reads."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from solver._kernel._deck import blind_below
from solver._kernel._eval import evaluate
from solver.reference import deal as ref

N_STRENGTH = 7462


def literal_below(up: int, known: list[int]) -> np.ndarray:
    """Every four hidden cards of the deck with the up-card, by rank strength (the first hidden
    card's suit changed from the up-card's, so that no hand is a flush; the ranks, all a rank
    strength reads, are kept, though the card may then repeat another), sorted."""
    deck = ref.unseen([up, *known])
    four = np.array(list(itertools.combinations(deck, 4)), dtype=np.uint8)
    suit = four[:, 0] & 3
    four[:, 0] = (four[:, 0] & ~np.uint8(3)) | np.where(suit == (up & 3), (suit + 1) & 3, suit).astype(np.uint8)
    hands = np.column_stack([np.full(len(four), up, dtype=np.uint8), four])
    return np.sort(evaluate(hands, False))


def test_a_prefix_read_in_any_order_equals_the_literal_count():
    rng = random.Random(17)
    for case in range(14):
        cards = rng.sample(range(52), 23)
        up, known = cards[0], cards[1:1 + rng.choice([5, 6, 9, 12, 17])]
        # the deal's deck less up to five new cards: distinct ranks, pairs, trips, four of a kind
        rest = [c for c in range(52) if c != up and c not in known]
        n_new = case % 6
        new = rng.sample(rest, n_new) if case % 3 else [c for c in rest if c >> 2 == rest[0] >> 2][:n_new]
        strengths = literal_below(up, known + new)
        # places at the ends, in the middle, repeated, and at the deck's own hands' strengths
        wanted = [0, N_STRENGTH, *rng.sample(range(N_STRENGTH + 1), 40),
                  *(int(s) for s in rng.sample(list(strengths), 20))]
        wanted += [s + 1 for s in wanted[-10:] if s < N_STRENGTH] + wanted[:5]
        rng.shuffle(wanted)
        got = blind_below(up, np.array(known, dtype=np.uint8), wanted, new)
        assert got == [int(np.searchsorted(strengths, s)) for s in wanted], (case, new)


def test_every_place_of_a_prefix_equals_the_literal_count():
    # every anchor and every place between them, for decks less new cards of each shape
    rng = random.Random(5)
    shapes = ((), (3,), (12, 12), (0, 5, 9), (7, 7, 7, 2), (3, 3, 8, 8), (9, 9, 9, 9, 0), (1, 4, 4, 10, 11))
    for new_ranks in shapes:
        up = 4 * 6 + 1
        deck = [c for c in range(52) if c != up]
        new = []
        for r in new_ranks:
            new.append(next(c for c in deck if c >> 2 == r and c not in new))
        known = rng.sample([c for c in deck if c not in new], 5)
        strengths = literal_below(up, known + new)
        wanted = sorted(set(int(s) for s in strengths)) + [N_STRENGTH]
        got = blind_below(up, np.array(known, dtype=np.uint8), wanted, new)
        assert got == [int(np.searchsorted(strengths, s)) for s in wanted], new_ranks


def test_bad_cards_are_refused():
    for up, known in ((52, [1, 2]), (3, [3]), (3, [60])):
        with pytest.raises(ValueError, match="codes 0 to 51"):
            blind_below(up, np.array(known, dtype=np.uint8), [5])


def test_bad_new_cards_are_refused():
    for new in ([1, 1], [0, 1, 2, 3, 5, 6], [7], [8], [52]):
        with pytest.raises(ValueError, match="new cards"):
            blind_below(7, np.array([8, 9], dtype=np.uint8), [5], new)
