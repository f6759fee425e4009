"""Reference hand evaluation and payout multiple (RULES §2 and §4), in plain Python.

Strengths are tuples ``(category, tie-break ranks...)`` compared as tuples.

>>> from solver.cards import parse_cards
>>> from solver.rules import DEFAULT
>>> payout(parse_cards("Ah Ad Kc 8s 9d"), DEFAULT)
2
>>> payout(parse_cards("Ah Ad Ac As 7d 7c"), DEFAULT)
27
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from ..cards import Card, rank_of, suit_of
from ..category import (
    AK,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    NO_GAME,
    PAIR,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
)
from ..rules import Rules

ACE, KING = 12, 11


def _straight_high(ranks: Sequence[int]) -> int | None:
    """High rank of a straight made by five distinct ranks, or None (the wheel is 5-high)."""
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[4] - distinct[0] == 4:
        return distinct[4]
    if distinct == [0, 1, 2, 3, ACE]:
        return 3
    return None


def strength(five: Sequence[Card]) -> tuple[int, ...]:
    """Comparable strength of exactly five cards: category first, then tie-break ranks."""
    assert len(five) == 5
    ranks = [rank_of(c) for c in five]
    flush = len({suit_of(c) for c in five}) == 1
    high = _straight_high(ranks)
    if flush and high is not None:
        return (ROYAL_FLUSH if high == ACE else STRAIGHT_FLUSH, high)
    counts = Counter(ranks)
    # ranks ordered by how many there are, then by rank: the poker tie-break order
    ordered = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if shape == [4, 1]:
        return (FOUR_OF_A_KIND, *ordered)
    if shape == [3, 2]:
        return (FULL_HOUSE, *ordered)
    if flush:
        return (FLUSH, *ordered)
    if high is not None:
        return (STRAIGHT, high)
    if shape == [3, 1, 1]:
        return (THREE_OF_A_KIND, *ordered)
    if shape == [2, 2, 1]:
        return (TWO_PAIR, *ordered)
    if shape == [2, 1, 1, 1]:
        return (PAIR, *ordered)
    if ACE in counts and KING in counts:
        return (AK, *ordered)
    return (NO_GAME, *ordered)


def best_strength(cards: Sequence[Card]) -> tuple[int, ...]:
    """Strength of the best five cards among 5 or more."""
    return max(strength(five) for five in combinations(cards, 5))


def combination_cards(five: Sequence[Card]) -> frozenset[Card]:
    """The combination cards of a five-card hand (RULES §4)."""
    category = strength(five)[0]
    if category == NO_GAME:
        return frozenset()
    if category == AK:
        return frozenset(c for c in five if rank_of(c) in (ACE, KING))
    if category in (PAIR, TWO_PAIR, THREE_OF_A_KIND, FOUR_OF_A_KIND):
        counts = Counter(rank_of(c) for c in five)
        return frozenset(c for c in five if counts[rank_of(c)] >= 2)
    return frozenset(five)


def exact_combination(cards: Sequence[Card]) -> int | None:
    """The combination whose combination cards are exactly these cards, if any."""
    ranks = sorted(rank_of(c) for c in cards)
    shape = sorted(Counter(ranks).values())
    if len(cards) == 2:
        if shape == [2]:
            return PAIR
        return AK if ranks == [KING, ACE] else None
    if len(cards) == 3:
        return THREE_OF_A_KIND if shape == [3] else None
    if len(cards) == 4:
        return {(4,): FOUR_OF_A_KIND, (2, 2): TWO_PAIR}.get(tuple(shape))
    if len(cards) == 5:
        category = strength(cards)[0]
        return category if category in (STRAIGHT, FLUSH, FULL_HOUSE, STRAIGHT_FLUSH, ROYAL_FLUSH) else None
    return None


def payout(cards: Sequence[Card], rules: Rules) -> int:
    """Payout multiple P of a 5- or 6-card hand: main plus the best second combination."""
    best = best_strength(cards)
    pay = rules.paytable
    if not rules.second_combination or best[0] == NO_GAME:
        return pay[best[0]]
    seconds = [
        (frozenset(sub), kind)
        for size in (2, 3, 4, 5)
        for sub in combinations(cards, size)
        if (kind := exact_combination(sub)) is not None
    ]
    result = 0
    for five in combinations(cards, 5):
        if strength(five) != best:
            continue
        main = combination_cards(five)
        main_ranks = sorted(rank_of(c) for c in main)
        second = 0
        for sub, kind in seconds:
            if sub <= main:
                continue  # every card of it is a combination card of the main
            if rules.second_rule == "new_rank" and sorted(rank_of(c) for c in sub) == main_ranks:
                continue
            second = max(second, pay[kind])
        result = max(result, pay[best[0]] + second)
    return result
