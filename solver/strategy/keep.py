"""An exchange stated by what it keeps ("keep the pair", "keep A K", "keep the four to a flush"),
resolved to the cards of each deal.

A keep is a list of words, the cards kept being the union of what each names:

- ``nothing``: throw all five;
- ``pair``, ``two_pair``, ``trips``, ``quads``: the cards of the hand's (highest) pair, of its two
  pairs, of its three or four of a kind;
- ranks and ranges: every card of those ranks (``"A K"``, ``"J+"`` for J or higher, ``"9-Q"``);
- ``highest``: the highest unpaired card (of no pair or more of the hand): its highest card without a
  pair, the kicker of a pair;
- ``highest_suited``: of a hand without a pair, its highest card and the highest other card of its
  suit (two suited high cards);
- ``flush``: the cards of the suit the hand holds most of (three or more);
- ``straight``: four cards to a straight, the four with the most ranks that complete them (an
  open-ended draw before an inside one), then the highest; of two cards of one rank, the one whose
  suit more of the others share (then the first);
- ``straight_flush``: the most cards of one suit within the five ranks of a straight (three or
  more; the highest such straight on a tie);
- ``royal``: the cards of one suit among T J Q K A, of the suit that holds most of them (three or
  more).

A word that names nothing in a hand (``pair`` without a pair) is an error there, as is a keep of
all five cards: the card says what to do about it.

>>> from solver.cards import parse_cards, parse_card, format_cards
>>> from .hands import Seen
>>> hand = parse_cards("8c 8d Ah Kh 3s")
>>> seen = Seen.of(np.asarray([hand]), np.asarray([parse_card("2d")]))
>>> def kept(words):
...     mask = Keep.parse(words).kept(seen)[0]
...     return format_cards([c for i, c in enumerate(hand) if mask >> i & 1])
>>> kept("pair"), kept("pair A"), kept("A K"), kept("J+"), kept("nothing"), kept("pair highest")
('8c 8d', '8c 8d Ah', 'Ah Kh', 'Ah Kh', '', '8c 8d Ah')
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import RANK_NAMES, RANKS
from .hands import OUTS, ROYAL, STRAIGHTS, Seen, _popcount

GROUPS = {"pair": 2, "two_pair": 2, "trips": 3, "quads": 4}
SHAPES = ("flush", "straight", "straight_flush", "royal")
HIGHEST = "the highest unpaired card"
HIGHEST_SUITED = "the highest card and the next of its suit"
NO_HAND = -1
"""``Keep.kept`` of a deal where a word names no card."""


def rank_set(token: str, what: str) -> frozenset[int]:
    """The ranks of a token: "A", "T" (or "10"), a range "9-Q", or "J+" (J or higher)."""
    def rank(text: str) -> int:
        t = text.upper().replace("10", "T")
        if t not in RANKS:
            raise ValueError(f"{what}: {token!r} is not a rank or a range of ranks (2-9, T, J, Q, K, A; "
                             "\"9-Q\", \"J+\")")
        return RANKS.index(t)

    if token.endswith("+"):
        return frozenset(range(rank(token[:-1]), 13))
    low, _, high = token.partition("-")
    a = rank(low)
    b = rank(high) if high else a
    if b < a:
        raise ValueError(f"{what}: the range {token!r} runs from the higher rank to the lower")
    return frozenset(range(a, b + 1))


def _columns(mask: np.ndarray) -> np.ndarray:
    """A (deals, 5) boolean array as 5-bit masks over the hand's columns."""
    out: np.ndarray = (mask.astype(np.int64) << np.arange(5)).sum(axis=1)
    return out


@dataclass(frozen=True)
class Keep:
    """The words of a keep (``parse``) and the cards they keep in each deal (``kept``)."""

    words: tuple[str, ...]
    ranks: frozenset[int]

    @classmethod
    def parse(cls, spec: object) -> Keep:
        """From a string of words (``"pair A"``) or a list of them; ValueError names a bad word."""
        tokens = spec.replace(",", " ").split() if isinstance(spec, str) else spec
        if not isinstance(tokens, list) or not tokens or not all(isinstance(t, str) for t in tokens):
            raise ValueError(f"keep must name the cards kept, e.g. \"pair\", \"A K\", \"flush\" or \"nothing\", "
                             f"not {spec!r}")
        words: list[str] = []
        ranks: set[int] = set()
        for token in tokens:
            word = token.lower()
            if word in ("nothing", "highest", "highest_suited", *GROUPS, *SHAPES):
                words.append(word)
            else:
                try:
                    ranks |= rank_set(token, "keep")
                except ValueError as exc:
                    raise ValueError(f"{exc}; or one of nothing, highest, highest_suited, {', '.join(GROUPS)}, "
                                     f"{', '.join(SHAPES)}"
                                     ) from None
        if "nothing" in words and (len(tokens) > 1):
            raise ValueError("keep = \"nothing\" throws every card: it takes no other word")
        return cls(tuple(words), frozenset(ranks))

    def text(self) -> str:
        """In plain words: ``keep the pair and A``."""
        if self.words == ("nothing",):
            return "exchange all five"
        named = [{"highest": HIGHEST, "highest_suited": HIGHEST_SUITED}.get(w, w.replace("_", " ")) for w in self.words]
        if self.ranks:
            named.append(" ".join(RANK_NAMES[r] for r in sorted(self.ranks, reverse=True)))
        return "keep " + " and ".join(named)

    def kept(self, seen: Seen) -> np.ndarray:
        """The 5-bit mask of the cards kept in each deal (bit i: the hand's i-th card), or
        ``NO_HAND`` where a word names no card of the hand."""
        ranks = (seen.hands >> 2).astype(np.int64)
        keep = np.isin(ranks, list(self.ranks)) if self.ranks else np.zeros(ranks.shape, bool)
        missing = np.zeros(len(seen), bool)
        same = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
        for word in self.words:
            if word in GROUPS:
                cols = same == GROUPS[word]
                if word == "pair":   # the highest pair only
                    top = np.where(cols, ranks, -1).max(axis=1)
                    cols &= ranks == top[:, None]
                needed = 4 if word == "two_pair" else GROUPS[word]
                missing |= cols.sum(axis=1) != needed
                keep |= cols
            elif word == "highest":
                single = same == 1
                top = np.where(single, ranks, -1).max(axis=1)
                cols = single & (ranks == top[:, None])
                missing |= top < 0
                keep |= cols
            elif word == "highest_suited":
                place = seen.suited_place
                found = place > 0
                # the highest card, and the card at that place (ranks differ: one card a rank)
                companion = seen.ranks[np.arange(len(seen)), np.maximum(place - 1, 0)]
                missing |= ~found
                keep |= found[:, None] & ((ranks == seen.ranks[:, [0]]) | (ranks == companion[:, None]))
            elif word != "nothing":
                cols, found = _shape(word, seen, ranks)
                missing |= ~found
                keep |= cols
        out = _columns(keep)
        out[missing] = NO_HAND
        return out


def _shape(word: str, seen: Seen, ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cards a draw word keeps (deals, 5) and the deals that hold that draw."""
    suits = (seen.hands & 3).astype(np.int64)
    if word == "flush":
        held = np.stack([(suits == s).sum(axis=1) for s in range(4)], axis=1)
        suit = held.argmax(axis=1)
        return suits == suit[:, None], held.max(axis=1) >= 3
    if word in ("straight_flush", "royal"):
        windows = STRAIGHTS if word == "straight_flush" else np.asarray([ROYAL])
        # by suit and window: the count, the higher window (then suit) winning ties
        held = _popcount(seen.suit_ranks[:, :, None] & windows)                 # (deals, 4, windows)
        score = held * 64 + np.arange(len(windows))[None, None, :] * 4 + np.arange(4)[None, :, None]
        best = score.reshape(len(seen), -1).argmax(axis=1)
        suit, window = best // len(windows), best % len(windows)
        in_window = (windows[window][:, None] >> ranks) & 1
        cols = (suits == suit[:, None]) & (in_window == 1)
        return cols, cols.sum(axis=1) >= 3
    # straight: four ranks of a straight's five, most completing ranks first, then the highest
    best_set = np.zeros(len(seen), np.int64)
    best_score = np.full(len(seen), -1, np.int64)
    for window in STRAIGHTS.tolist():
        four = seen.rank_mask & window
        score = np.where(_popcount(four) == 4, OUTS[four] * (1 << 13) + four, -1)
        better = score > best_score
        best_score[better], best_set[better] = score[better], four[better]
    cols = ((best_set[:, None] >> ranks) & 1) == 1
    # one card of each rank: the one whose suit most of the others kept share, then the first
    share = np.stack([(cols & (suits == suits[:, [j]])).sum(axis=1) for j in range(5)], axis=1)
    chosen = cols.copy()
    for j in range(5):
        for i in range(5):
            beats = (share[:, i] > share[:, j]) | ((share[:, i] == share[:, j]) & (i < j))
            chosen[:, j] &= ~(cols[:, i] & (ranks[:, i] == ranks[:, j]) & beats) if i != j else True
    return chosen, best_score >= 0
