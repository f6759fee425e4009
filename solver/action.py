"""A first action of a deal: fold, bet, buy a sixth card, or exchange some cards.

``Action`` is the one place that knows how actions are named, coded in a strategy table and
ordered among equal EVs; the solver, the tables, the report and the command line use it.

>>> from solver.cards import parse_cards
>>> hand = parse_cards("As Ks Qd 7c 2h")
>>> a = Action("exchange", parse_cards("Qd 7c 2h"))
>>> a.label, a.code(hand), Action.from_code(a.code(hand), hand) == a
('exchange Qd 7c 2h', 30, True)
>>> [Action.from_code(c, hand).label for c in (0, 1, 2)]
['fold', 'bet', 'sixth card']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from .cards import Card, format_cards

#: the kinds of first action, simplest first: among options of equal EV the simpler is listed first
KINDS = ("fold", "bet", "sixth_card", "exchange")
#: the order of the kinds among options of equal EV (``Action.simplicity``)
TIE_ORDER = ("bet", "fold", "sixth_card", "exchange")
#: the codes of a strategy table: 0 fold, 1 bet, 2 sixth card, 2 + mask for an exchange (the mask's
#: bits over the five cards of the table's representative hand, in its sorted order)
N_CODES = 34
FOLD, BET, SIXTH_CARD = (KINDS.index(k) for k in ("fold", "bet", "sixth_card"))
#: the groups of first actions the report counts: fold, bet, sixth card, exchange of k cards
GROUPS = ("fold", "bet", "sixth card", *(f"exchange {k}" for k in range(1, 6)))
_GROUP_OF_CODE = np.array([0, 1, 2, *(2 + bin(mask).count("1") for mask in range(1, 32))], np.int64)


Mask = TypeVar("Mask", int, np.ndarray)


def exchange_code(mask: Mask) -> Mask:
    """The table code of the exchange of the cards of ``mask`` (bits over the hand's five; or an
    array of masks)."""
    code: Mask = SIXTH_CARD + mask
    return code


def mask_of_code(code: int) -> int:
    """The discard mask of an exchange's table code."""
    return code - SIXTH_CARD


@dataclass(frozen=True)
class Action:
    """A first action: its ``kind`` (one of ``KINDS``) and, for an exchange, the cards thrown."""

    kind: str
    throw: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"no action {self.kind!r}")
        if (self.kind == "exchange") != bool(self.throw):
            raise ValueError("an exchange throws cards, and nothing else does")

    @property
    def label(self) -> str:
        """In words, as the command line prints it: ``exchange Qd 7c 2h``, ``sixth card``."""
        if self.kind == "exchange":
            return f"exchange {format_cards(self.throw)}"
        return self.kind.replace("_", " ")

    def words(self, hand: Sequence[Card]) -> str:
        """As advice to a player holding ``hand``: what to throw and what to keep."""
        if self.kind == "exchange":
            keep = [c for c in hand if c not in self.throw]
            return f"{self.label}" + (f", keep {format_cards(keep)}" if keep else " (all five)")
        return "buy a sixth card" if self.kind == "sixth_card" else self.kind

    def code(self, hand: Sequence[Card]) -> int:
        """Its code in a strategy table whose representative hand is ``hand``."""
        if self.kind == "exchange":
            return exchange_code(sum(1 << list(hand).index(c) for c in self.throw))
        return KINDS.index(self.kind)

    @classmethod
    def from_code(cls, code: int, hand: Sequence[Card]) -> Action:
        """The action of a table's ``code``, an exchange throwing cards of ``hand``."""
        if not 0 <= code < N_CODES:
            raise ValueError(f"no action code {code}")
        if code > SIXTH_CARD:
            mask = mask_of_code(code)
            return cls("exchange", tuple(c for i, c in enumerate(hand) if mask >> i & 1))
        return cls(KINDS[code])

    def simplicity(self) -> tuple[int, int, list[Card]]:
        """Orders actions of equal EV: bet, fold, sixth card, then exchanges of fewer cards. A
        tie between betting and folding is a bet, for a dealt hand as after a draw (where the
        kernel bets unless folding is better): the one convention (docs/design.md §4)."""
        return TIE_ORDER.index(self.kind), len(self.throw), sorted(self.throw)

    def throws_rank_of(self, card: Card) -> bool:
        """Whether it throws away a card of the rank of ``card`` (the up-card: the dealer is then
        less likely to pair it, which a card's later rules may read).

        >>> from solver.cards import parse_card, parse_cards
        >>> hand, up = parse_cards("9c 9d 9h Kd 4s"), parse_card("4h")
        >>> Action("exchange", hand[3:]).throws_rank_of(up), Action("sixth_card").throws_rank_of(up)
        (True, False)
        """
        return any(c >> 2 == card >> 2 for c in self.throw)

    def same(self, kind: str, throw: Sequence[Card] = ()) -> bool:
        """Whether it is ``kind`` throwing ``throw`` (in any order)."""
        return self.kind == kind and set(self.throw) == set(throw)


def group_of_codes(codes: np.ndarray) -> np.ndarray:
    """Table action codes as their place in ``GROUPS`` (fold, bet, sixth card, exchange of k)."""
    grouped: np.ndarray = _GROUP_OF_CODE[codes.astype(np.int64)]
    return grouped
