"""Cards: parsing, formatting and the integer encoding the kernels use.

A card is the integer ``4 * rank + suit`` with ``rank`` 0..12 for 2..A and ``suit`` 0..3 for
c, d, h, s (RULES §1). Suits never rank; the order of suits only fixes the encoding.

>>> parse_cards("As 10h kd")
(51, 34, 45)
>>> format_cards(parse_cards("as th KD"))
'As Th Kd'
>>> parse_card("7x")
Traceback (most recent call last):
...
solver.errors.InputError: '7x' is not a card: the suit must be one of c d h s (or ♣ ♦ ♥ ♠)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .errors import InputError, shown

RANKS = "23456789TJQKA"
SUITS = "cdhs"
_SUIT_SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s", "♧": "c", "♢": "d", "♡": "h", "♤": "s"}
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")

Card = int


def card(rank: int, suit: int) -> Card:
    """The card of a rank (0 = deuce .. 12 = ace) and a suit (0..3 = c d h s)."""
    return 4 * rank + suit


def rank_of(c: Card) -> int:
    """Rank 0..12 (deuce..ace) of a card."""
    return c >> 2


def suit_of(c: Card) -> int:
    """Suit 0..3 (c d h s) of a card."""
    return c & 3


def parse_card(token: str) -> Card:
    """One card from text such as ``As``, ``td``, ``10h`` or ``Q♠``."""
    text = token.strip()
    if len(text) < 2:
        raise InputError(f"{shown(token)} is not a card: a card is a rank then a suit, like As or 10h")
    rank_text, suit_text = text[:-1].upper(), text[-1]
    suit_text = _SUIT_SYMBOLS.get(suit_text, suit_text.lower())
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS:
        raise InputError(f"{shown(token)} is not a card: the rank must be one of 2-9, T (or 10), J, Q, K, A")
    if suit_text not in SUITS:
        raise InputError(f"{shown(token)} is not a card: the suit must be one of c d h s (or ♣ ♦ ♥ ♠)")
    return card(RANKS.index(rank_text), SUITS.index(suit_text))


def _tokens(text: str | Iterable[str]) -> list[str]:
    if isinstance(text, str):
        return text.replace(",", " ").split()
    return [t for item in text for t in str(item).replace(",", " ").split()]


def parse_cards(
    text: str | Iterable[str],
    count: int | Sequence[int] | None = None,
    what: str = "cards",
) -> tuple[Card, ...]:
    """Distinct cards from text separated by spaces or commas.

    ``count`` is the number of cards required (or the allowed numbers); ``what`` names them in
    error messages.

    >>> parse_cards("As Ks Qd 7c 2h", count=5, what="hand")
    (51, 47, 41, 20, 2)
    >>> parse_cards("As As", what="hand")
    Traceback (most recent call last):
    ...
    solver.errors.InputError: the hand has 'As' twice
    """
    tokens = _tokens(text)
    cards = tuple(parse_card(t) for t in tokens)
    seen: dict[Card, str] = {}
    for token, c in zip(tokens, cards):
        if c in seen:
            raise InputError(f"the {what} has {format_card(c)!r} twice")
        seen[c] = token
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(cards) not in allowed:
            wanted = " or ".join(str(n) for n in allowed)
            raise InputError(f"the {what} must have {wanted} cards, not {len(cards)}: {shown(' '.join(tokens))}")
    return cards


def format_card(c: Card) -> str:
    """Text of one card, rank then suit: ``As``, ``Td``."""
    if not 0 <= c < 52:
        raise ValueError(f"card code {c} is out of range 0..51")
    return RANKS[rank_of(c)] + SUITS[suit_of(c)]


def format_cards(cards: Iterable[Card]) -> str:
    """Text of several cards separated by spaces."""
    return " ".join(format_card(c) for c in cards)


def check_disjoint(groups: Sequence[tuple[str, Sequence[Card]]]) -> None:
    """Raise an InputError naming the first card that stands in two of the named groups."""
    owner: dict[Card, str] = {}
    for name, cards in groups:
        for c in cards:
            if c in owner:
                where = f"the {owner[c]}" if owner[c] == name else f"both the {owner[c]} and the {name}"
                raise InputError(f"{format_card(c)!r} is in {where}")
            owner[c] = name

