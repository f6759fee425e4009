"""What a person sees of a deal, for every class at once: the hand's category, its ranks from the
highest, the rank of its highest group (pair, trips, ...), the up-card's rank, whether it matches
a card of the hand, and the draws the hand holds (cards to a flush, a straight, a straight flush,
a royal) and, without a pair, which card its highest shares a suit with; of a final hand after
a draw, also whether a card thrown away had the up-card's rank.
A strategy card's conditions and its exchanges read these (``card``, ``keep``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cached_property

import numpy as np

from ..hand import STRENGTH_CATEGORY, strengths

#: the ranks of each straight as a 13-bit mask (bit r: rank r, 0 = 2 ... 12 = A), A-2-3-4-5 first
STRAIGHTS = np.asarray([0b1_0000_0000_1111] + [0b11111 << low for low in range(9)], np.int64)
#: T J Q K A
ROYAL = int(STRAIGHTS[-1])


BITS = np.asarray([bin(v).count("1") for v in range(1 << 13)], np.int64)
"""The number of ranks in each 13-bit mask."""

HIGHEST = np.asarray([-1] + [v.bit_length() - 1 for v in range(1, 1 << 13)], np.int64)
"""The highest rank in each 13-bit mask (-1 for none)."""


#: six ranks in a row as 13-bit masks, A-2-3-4-5-6 first: a sixth card making one pays two straights
SIX_RUNS = np.asarray([0b1_0000_0001_1111] + [0b111111 << low for low in range(8)], np.int64)


def _outs(runs: np.ndarray) -> np.ndarray:
    """For each 13-bit set of ranks, how many ranks would complete one of ``runs`` with it."""
    masks = np.arange(1 << 13)
    outs = np.zeros(1 << 13, np.int64)
    for rank in range(13):
        with_it = masks | (1 << rank)
        outs += ((with_it[:, None] & runs) == runs).any(axis=1)
    return outs


OUTS = _outs(STRAIGHTS)
"""For each 13-bit set of ranks, how many ranks would make a straight with it."""

SIX_OUTS = _outs(SIX_RUNS)
"""For each 13-bit set of ranks (at most five), how many ranks would make six in a row with it."""


def _popcount(x: np.ndarray) -> np.ndarray:
    counted: np.ndarray = BITS[x]
    return counted


@dataclass(frozen=True)
class Seen:
    """Per deal (rows): ``hands`` its five cards (as given: an exchange's cards are their
    columns), ``category`` (``category.CATEGORIES`` index), ``ranks`` the five ranks from the
    highest (0 = 2 ... 12 = A), ``group`` the rank of the largest group of equal ranks (the higher
    one on a tie; the highest card when all differ), ``up`` the up-card's rank, ``matches`` whether
    it is the rank of a card of the hand; of a final hand after a draw, ``thrown_up`` whether a
    card thrown away had the up-card's rank (None for a dealt hand). The draws are counted when
    first asked for.

    >>> from solver.cards import parse_cards, parse_card
    >>> s = Seen.of(np.asarray([parse_cards("Ah Kd 9c 9s 3h")]), np.asarray([parse_card("9d")]))
    >>> int(s.category[0]), s.ranks[0].tolist(), int(s.group[0]), int(s.up[0]), bool(s.matches[0])
    (2, [12, 11, 7, 7, 1], 7, 7, True)
    >>> s = Seen.of(np.asarray([parse_cards("Jh Th 9h 8h 2c")]), np.asarray([parse_card("9d")]))
    >>> int(s.to_flush[0]), int(s.straight_outs[0]), int(s.to_straight_flush[0]), int(s.to_royal[0])
    (4, 2, 4, 2)
    >>> int(Seen.of(np.asarray([parse_cards("9h 8d 6c 5s 4h")]), np.asarray([parse_card("2d")])).six_outs[0])
    1
    >>> int(Seen.of(np.asarray([parse_cards("Ah Kd 9h 7c 3h")]), np.asarray([parse_card("2d")])).suited_place[0])
    3
    """

    hands: np.ndarray
    category: np.ndarray
    ranks: np.ndarray
    group: np.ndarray
    up: np.ndarray
    matches: np.ndarray
    thrown_up: np.ndarray | None = None

    @classmethod
    def of(cls, hands: np.ndarray, up_cards: np.ndarray, thrown_up: np.ndarray | None = None) -> Seen:
        hands = np.ascontiguousarray(hands, np.uint8)
        ranks = np.sort(hands >> 2, axis=1)[:, ::-1].astype(np.int64)
        counts = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
        # the largest group, the higher rank on a tie: ranks are sorted, so the first of the most
        group = ranks[np.arange(len(ranks)), np.argmax(counts, axis=1)]
        up = (np.asarray(up_cards, np.int64) >> 2)
        category = STRENGTH_CATEGORY[strengths(hands, checked=False)].astype(np.int64)
        return cls(hands, category, np.ascontiguousarray(ranks), group, up, (ranks == up[:, None]).any(axis=1),
                   None if thrown_up is None else np.asarray(thrown_up, bool))

    def facing(self, up: int, thrown_up: bool) -> Seen:
        """The same hands against an up-card of rank ``up`` for every deal, after a draw that
        threw a card of its rank away or not; what the hands alone decide (their category,
        ranks, draws) is not counted again."""
        ups = np.full(len(self), up, np.int64)
        out = replace(self, up=ups, matches=(self.ranks == up).any(axis=1),
                      thrown_up=np.full(len(self), thrown_up, bool))
        # the draws counted already (cached properties) read the hands alone
        own = {f.name for f in fields(self)}
        out.__dict__.update({k: v for k, v in self.__dict__.items() if k not in own})
        return out

    def take(self, rows: np.ndarray) -> Seen:
        """The deals of ``rows``."""
        return Seen(self.hands[rows], self.category[rows], self.ranks[rows], self.group[rows], self.up[rows],
                    self.matches[rows], None if self.thrown_up is None else self.thrown_up[rows])

    def __len__(self) -> int:
        return len(self.up)

    @cached_property
    def suit_ranks(self) -> np.ndarray:
        """The ranks held in each suit, as 13-bit masks: (deals, 4)."""
        out = np.zeros((len(self), 4), np.int64)
        rows = np.arange(len(self))
        for col in range(5):
            card = self.hands[:, col].astype(np.int64)
            out[rows, card & 3] |= 1 << (card >> 2)
        return out

    @property
    def up_group(self) -> np.ndarray:
        """Whether the up-card has the rank of the hand's largest group (``group``)."""
        out: np.ndarray = self.up == self.group
        return out

    @cached_property
    def rank_mask(self) -> np.ndarray:
        """The ranks held, as a 13-bit mask."""
        mask: np.ndarray = np.bitwise_or.reduce(self.suit_ranks, axis=1)
        return mask

    @cached_property
    def to_flush(self) -> np.ndarray:
        """The most cards of one suit."""
        most: np.ndarray = _popcount(self.suit_ranks).max(axis=1)
        return most

    @cached_property
    def straight_outs(self) -> np.ndarray:
        """How many ranks would make a straight with the hand's cards (13 for a straight made;
        2 for an open-ended draw, 1 for an inside one, 0 for none)."""
        outs: np.ndarray = OUTS[self.rank_mask]
        return outs

    @cached_property
    def six_outs(self) -> np.ndarray:
        """How many ranks a sixth card could have to make six ranks in a row, i.e. two straights
        (1 for 4 5 6 8 9, 2 for a straight of 5 to 9: a 4 or a T; 0 with a pair)."""
        outs: np.ndarray = SIX_OUTS[self.rank_mask]
        return outs

    @cached_property
    def to_straight_flush(self) -> np.ndarray:
        """The most cards of one suit within the five ranks of a straight."""
        most: np.ndarray = _popcount(self.suit_ranks[:, :, None] & STRAIGHTS).max(axis=(1, 2))
        return most

    @cached_property
    def to_royal(self) -> np.ndarray:
        """The most cards of one suit among T J Q K A."""
        most: np.ndarray = _popcount(self.suit_ranks & ROYAL).max(axis=1)
        return most

    @cached_property
    def suited_place(self) -> np.ndarray:
        """Of a hand of five ranks, the place from the highest (2–5) of the highest other card
        of its highest card's suit: what keeping two suited high cards keeps; 0 where the highest
        card has no other of its suit, or the hand holds a pair (no single highest card's suit
        to speak of)."""
        rows = np.arange(len(self))
        top = self.ranks[:, 0]
        suit = (self.hands[rows, np.argmax(self.hands >> 2, axis=1)] & 3).astype(np.int64)
        # the highest rank left in that suit, then its place among the ranks from the highest
        companion = HIGHEST[self.suit_ranks[rows, suit] & ~(1 << top)]
        place = 1 + np.argmax(self.ranks == companion[:, None], axis=1)
        distinct = BITS[self.rank_mask] == 5
        out: np.ndarray = np.where(distinct & (companion >= 0), place, 0)
        return out
