"""Deal classes: (5-card hand, up-card) up to a permutation of the suits.

Permuting suits changes no EV, so the strategy tables hold one row per class: 5,649,150
classes, weights summing to the 122,151,120 deals. A class is named by its
representative: the hand sorted by card code, lexicographically least over the 24 suit
permutations, then the least up-card among the permutations that keep that hand.

>>> from solver.cards import parse_cards, parse_card, format_cards
>>> c = canonical(parse_cards("As Ks Qd 7c 2h"), parse_card("9s"))
>>> format_cards(c.hand), format_cards([c.up_card])
('2c 7d Qh Ks As', '9s')
>>> format_cards(c.to_user(c.hand))
'2h 7c Qd Ks As'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import permutations

import numpy as np

from .cards import Card
from .hand import all_hands

#: the 24 permutations of the suits, as card maps: PERM_CARD[k][c] is card c with suits permuted
SUIT_PERMS: tuple[tuple[int, ...], ...] = tuple(permutations(range(4)))
PERM_CARD = np.array([[4 * (c >> 2) + perm[c & 3] for c in range(52)] for perm in SUIT_PERMS], dtype=np.uint8)
N_CLASSES = 5_649_150
N_DEALS = 122_151_120


def _hand_keys(hands: np.ndarray) -> np.ndarray:
    """Sorted 5-card rows as integers (base 52), ordering like the sorted tuples."""
    s = np.sort(hands, axis=1).astype(np.int64)
    return (((s[:, 0] * 52 + s[:, 1]) * 52 + s[:, 2]) * 52 + s[:, 3]) * 52 + s[:, 4]


def rank_keys(hands: np.ndarray, up_cards: np.ndarray) -> np.ndarray:
    """The rank-level deal of each deal (hand rank multiset, up rank) as an integer below 13**6."""
    return (np.sort(hands >> 2, axis=1).astype(np.int64) @ (13 ** np.arange(5))) * 13 + (up_cards >> 2)


def rank_order(hands: np.ndarray, up_cards: np.ndarray) -> np.ndarray:
    """The order that puts deals of the same ranks (hand rank multiset, up rank) together, and
    among them the deals with the same ranks in the up-card's suit: the solver shares its work
    between such neighbours."""
    up_suit = (hands & 3) == (up_cards & 3)[:, None]
    in_up_suit = (up_suit.astype(np.int64) << (hands >> 2).astype(np.int64)).sum(axis=1)
    return np.lexsort((in_up_suit, rank_keys(hands, up_cards)))


def class_keys(hands: np.ndarray, up_cards: np.ndarray) -> np.ndarray:
    """The key of each class (representative hands and up-cards): its rank-level deal, then the
    sorted hand in base 52, then the up-card. Rank-level deals first, so that the classes in key
    order come in rank order: the solver shares its rank-level work between neighbours.

    >>> from solver.cards import parse_cards, parse_card
    >>> int(class_keys(np.array([parse_cards("2c 2d 2h 2s 3c")], np.uint8), np.array([parse_card("3d")]))[0])
    7340708752186373
    """
    keys: np.ndarray = (rank_keys(hands, up_cards) * 52 ** 5 + _hand_keys(hands)) * 52 + up_cards.astype(np.int64)
    return keys


@dataclass(frozen=True)
class DealClass:
    """A deal's class: the representative hand and up-card, and the suit map from the user's cards."""

    hand: tuple[Card, ...]
    up_card: Card
    perm: int  # index into SUIT_PERMS: user card c -> PERM_CARD[perm][c]

    def to_user(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """Cards of the representative (e.g. a stored exchange) in the user's own suits."""
        inverse = np.argsort(PERM_CARD[self.perm])
        return tuple(int(inverse[c]) for c in cards)


def canonical(hand: Sequence[Card], up_card: Card) -> DealClass:
    """The class of a deal and the suit permutation that maps it onto the representative."""
    rows = PERM_CARD[:, list(hand)]
    keys = _hand_keys(rows)
    ups = PERM_CARD[:, up_card].astype(np.int64)
    best = int(np.lexsort((ups, keys))[0])
    return DealClass(tuple(int(c) for c in np.sort(rows[best])), int(ups[best]), best)


@cache
def hand_classes() -> tuple[np.ndarray, np.ndarray]:
    """Every five-card hand up to the suits' names (134,459), as the least of its images under
    the suit permutations: hands uint8[N, 5] in increasing key order, and which permutations keep
    each (bit k: ``SUIT_PERMS[k]``). About 3 s; cached for the process.
    """
    hands = all_hands(5)  # sorted rows, in increasing key order
    keys = _hand_keys(hands)
    least = keys.copy()
    stabilizer = np.zeros(len(hands), dtype=np.int32)  # bit k: permutation k keeps the hand
    for k in range(len(SUIT_PERMS)):
        mapped = _hand_keys(PERM_CARD[k][hands])
        np.minimum(least, mapped, out=least)
        stabilizer |= (mapped == keys).astype(np.int32) << k
    rep = least == keys
    return hands[rep], stabilizer[rep]


@cache
def enumerate_classes() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every class, sorted by ``class_keys``: hands uint8[N, 5], up-cards uint8[N], weights int64[N].

    About 10 s and 1 GB at its peak; cached for the process.
    """
    hands, stabilizer = hand_classes()
    stab_size = np.zeros(len(hands), dtype=np.int64)
    for k in range(len(SUIT_PERMS)):
        stab_size += (stabilizer >> k) & 1
    orbit = 24 // stab_size
    # up-cards: the least image under the permutations that keep the hand
    up_min = np.tile(np.arange(52, dtype=np.uint8), (len(hands), 1))
    for k in range(len(SUIT_PERMS)):
        keeps = ((stabilizer >> k) & 1).astype(bool)
        np.minimum(up_min, np.where(keeps[:, None], PERM_CARD[k][None, :], 52).astype(np.uint8), out=up_min)
    in_hand = np.zeros((len(hands), 52), dtype=bool)
    np.put_along_axis(in_hand, hands.astype(np.int64), True, axis=1)
    is_class = (up_min == np.arange(52)) & ~in_hand
    # weight of (hand, up): the hand's orbit times the up-cards that map to this one
    sizes = np.zeros((len(hands), 52), dtype=np.int64)
    rows = np.repeat(np.arange(len(hands)), 52)
    np.add.at(sizes, (rows[~in_hand.ravel()], up_min.ravel()[~in_hand.ravel()]), 1)
    hand_idx, up = np.nonzero(is_class)
    hands, up, weights = hands[hand_idx], up.astype(np.uint8), orbit[hand_idx] * sizes[hand_idx, up]
    order = np.argsort(class_keys(hands, up))
    return np.ascontiguousarray(hands[order]), up[order], weights[order]
