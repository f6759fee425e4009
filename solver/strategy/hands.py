"""What a person sees of a deal, for every class at once: the hand's category, its ranks from the
highest, the rank of its highest group (pair, trips, ...), the up-card's rank and whether it
matches a card of the hand. A strategy card's conditions read these (``card``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _eval
from ..hand import STRENGTH_CATEGORY


@dataclass(frozen=True)
class Seen:
    """Per deal (rows): ``category`` (``category.CATEGORIES`` index), ``ranks`` the five ranks from
    the highest (0 = 2 ... 12 = A), ``group`` the rank of the largest group of equal ranks (the
    higher one on a tie; the highest card when all differ), ``up`` the up-card's rank, ``matches``
    whether it is the rank of a card of the hand.

    >>> from solver.cards import parse_cards, parse_card
    >>> s = Seen.of(np.asarray([parse_cards("Ah Kd 9c 9s 3h")]), np.asarray([parse_card("9d")]))
    >>> int(s.category[0]), s.ranks[0].tolist(), int(s.group[0]), int(s.up[0]), bool(s.matches[0])
    (2, [12, 11, 7, 7, 1], 7, 7, True)
    """

    category: np.ndarray
    ranks: np.ndarray
    group: np.ndarray
    up: np.ndarray
    matches: np.ndarray

    @classmethod
    def of(cls, hands: np.ndarray, up_cards: np.ndarray) -> Seen:
        hands = np.ascontiguousarray(hands, np.uint8)
        ranks = np.sort(hands >> 2, axis=1)[:, ::-1].astype(np.int64)
        counts = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
        # the largest group, the higher rank on a tie: ranks are sorted, so the first of the most
        group = ranks[np.arange(len(ranks)), np.argmax(counts, axis=1)]
        up = (np.asarray(up_cards, np.int64) >> 2)
        category = STRENGTH_CATEGORY[_eval.evaluate(hands, False)].astype(np.int64)
        return cls(category, np.ascontiguousarray(ranks), group, up, (ranks == up[:, None]).any(axis=1))
