"""Hand evaluation: the typed face of the ``_eval`` kernel.

A hand's *strength* is a dense integer 0..7461 ordered as RULES §2 (equal = tie). The main
combination of a 6-card hand is its best 5 cards; the payout multiple P adds the best second
combination (RULES §4).

>>> from solver.cards import parse_cards
>>> value = evaluate(parse_cards("As Ah Kd 9c 8s"))
>>> value.category_label, value.payout, value.second_label
('pair', 2, 'AK')
>>> evaluate(parse_cards("9h 8d 7c 6s 5h 5d"), rules.DEFAULT.replace(second_rule="new_rank")).payout
5
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import rules
from ._kernel import _eval
from .cards import RANK_NAMES, Card, format_cards
from .category import LABELS, STRAIGHT, STRAIGHT_FLUSH
from .errors import InputError

N_STRENGTH = 7462

#: category code of every strength
STRENGTH_CATEGORY: np.ndarray = _eval.strength_categories()
_STRENGTH_RAW: np.ndarray = _eval.strength_raw()


def paytable_array(r: rules.Rules) -> np.ndarray:
    """The main paytable as the kernels take it: int32 indexed by category code."""
    return np.asarray(r.paytable, dtype=np.int32)


def as_hands(hands: np.ndarray | Sequence[Sequence[Card]]) -> np.ndarray:
    """Rows of card codes as a C-contiguous uint8 array."""
    return np.ascontiguousarray(np.asarray(hands, dtype=np.uint8))


def strengths(hands: np.ndarray | Sequence[Sequence[Card]], checked: bool = True) -> np.ndarray:
    """Strength of the best five cards of each row (rows of 5 or 6 card codes), uint16.

    ``checked=False`` is the fast path for rows the package made itself (every class of a table,
    a deal already checked): the kernel then skips checking each card code and repeat.

    >>> from solver.cards import parse_cards
    >>> strengths([parse_cards("As Ah Kd 9c 8s")]) == strengths([parse_cards("As Ah Kd 9c 8s")], checked=False)
    array([ True])
    """
    return _eval.evaluate(as_hands(hands), checked)


def all_hands(n: int) -> np.ndarray:
    """Every hand of ``n`` cards (5 or 6) as sorted rows of card codes, in increasing order.

    >>> all_hands(5).shape
    (2598960, 5)
    """
    return _eval.all_hands(n)


def payouts(hands: np.ndarray | Sequence[Sequence[Card]], r: rules.Rules = rules.DEFAULT,
            checked: bool = True) -> np.ndarray:
    """Payout multiple P of each row of 5 or 6 card codes under the rules' paytable
    (``checked=False``: the fast path, as ``strengths``)."""
    return _eval.payout(as_hands(hands), paytable_array(r), r.second_combination, r.second_rule == "new_rank",
                        checked)


def strength_ranks(strength: int) -> tuple[int, ...]:
    """Tie-break ranks (0..12, highest first) of a strength; a straight gives its high card."""
    raw = int(_STRENGTH_RAW[strength])
    category = raw >> 20
    count = 1 if category in (STRAIGHT, STRAIGHT_FLUSH) else {2: 4, 3: 3, 4: 3, 7: 2, 8: 2}.get(category, 5)
    return tuple((raw >> (4 * (4 - i))) & 15 for i in range(count))


def describe_strength(strength: int) -> str:
    """A strength in words: ``pair A K 9 8``, ``straight 9-high``."""
    category = int(STRENGTH_CATEGORY[strength])
    ranks = [RANK_NAMES[r] for r in strength_ranks(strength)]
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        return f"{LABELS[category]} {ranks[0]}-high"
    if category == 10:
        return LABELS[category]
    return f"{LABELS[category]} {' '.join(ranks)}"


@dataclass(frozen=True)
class HandValue:
    """What a 5- or 6-card hand is worth: its main and second combination and P."""

    cards: tuple[Card, ...]
    strength: int
    category: int
    main: tuple[Card, ...]
    second: tuple[Card, ...]
    second_category: int | None
    payout: int

    @property
    def category_label(self) -> str:
        return LABELS[self.category]

    @property
    def second_label(self) -> str | None:
        return None if self.second_category is None else LABELS[self.second_category]

    def summary(self) -> str:
        """Several lines for people: cards, main, second, P."""
        lines = [
            f"hand:   {format_cards(self.cards)}",
            f"main:   {describe_strength(self.strength)}"
            + (f"  [{format_cards(self.main)}]" if self.main else ""),
            "second: "
            + (f"{self.second_label}  [{format_cards(self.second)}]" if self.second_category is not None else "none"),
            f"P:      {self.payout}",
        ]
        return "\n".join(lines)


def evaluate(cards: Sequence[Card], r: rules.Rules = rules.DEFAULT) -> HandValue:
    """Main combination, second combination and payout multiple of 5 or 6 distinct cards."""
    if len(cards) not in (5, 6):
        raise InputError(f"a hand has 5 or 6 cards, not {len(cards)}")
    if len(set(cards)) != len(cards):
        raise InputError("a card is repeated in the hand")
    if len(cards) == 6 and not r.sixth_card:
        raise InputError(f"the rules {r.name!r} have no sixth card: a hand has 5 cards")
    row = np.asarray(cards, dtype=np.uint8)
    strength, p, main_mask, second_mask, second_category = _eval.detail(
        row, paytable_array(r), r.second_combination, r.second_rule == "new_rank"
    )

    def pick(mask: int) -> tuple[Card, ...]:
        return tuple(c for i, c in enumerate(cards) if mask >> i & 1)

    return HandValue(
        cards=tuple(cards),
        strength=strength,
        category=int(STRENGTH_CATEGORY[strength]),
        main=pick(main_mask),
        second=pick(second_mask),
        second_category=None if second_category < 0 else second_category,
        payout=p,
    )
