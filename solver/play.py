"""The player's later decisions when betting: insuring the hand and buying the dealer a game.

The solver makes both as best play does: the insurance whose size gains most, a game bought for
each dealer hand where buying beats taking the ante (it sees the dealer's cards). A person may
follow a rule instead (a strategy card's ``[insurance]`` and ``[buy_game]``), read from the hand's
payout multiple P alone: ``Play`` holds such rules, and the kernel counts any of them exactly
(``kernel_rules.kernel_rules(rules, play)``).

>>> Play().best, Play(insure_from=NEVER).best
(True, False)
>>> Play(insure_from=3, buy_from=2).describe()
'insurance: the most when P >= 3, else none; buying a game: always when P >= 2, else never'
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .errors import InputError
from .hand import N_STRENGTH
from .rules import Rules

NEVER = 1 << 30
"""A payout multiple no hand reaches: ``Play(insure_from=NEVER)`` never insures."""


@dataclass(frozen=True)
class Play:
    """``insure_from``: None, the best insurance; k, the most insurance the rules allow with a
    hand that pays P >= k (and may insure: RULES §6), none below. ``buy_from``: None, a game
    bought where it beats taking the ante; k, a game bought for every dealer hand that does not
    qualify when the hand pays P >= k (and may buy: AK or better, RULES §7), never below."""

    insure_from: int | None = None
    buy_from: int | None = None
    insure_when: bytes | None = None
    """With ``insure_from``: where the card's ``[[insurance]]`` rules insure, by whether a card
    thrown away had the up-card's rank (then the dealer is less likely to pair it), up-card rank
    and final strength (2 × 13 × 7462 bytes, 1 the most, 0 none; None: every hand of
    P >= insure_from)."""

    def __post_init__(self) -> None:
        if self.insure_when is not None and len(self.insure_when) != 2 * 13 * N_STRENGTH:
            raise ValueError(f"insure_when: 2 x 13 x {N_STRENGTH} bytes (thrown matching the up-card or not, up rank, "
                             f"final strength), not {len(self.insure_when)}")

    def insure_row(self, up_rank: int, thrown_up: bool = False) -> bytes | None:
        """``insure_when`` against an up-card of rank ``up_rank`` (by final strength), after
        throwing away a card of its rank or not (``thrown_up``)."""
        if self.insure_when is None:
            return None
        start = (13 * thrown_up + up_rank) * N_STRENGTH
        return self.insure_when[start:start + N_STRENGTH]

    @property
    def best(self) -> bool:
        """Both decisions as best play makes them."""
        return self.insure_from is None and self.buy_from is None

    def insures(self, p: int, strength: int = 0, up_rank: int = 0, thrown_up: bool = False) -> bool | None:
        """Whether a final hand of payout multiple ``p`` (of strength ``strength``, against an
        up-card of rank ``up_rank``, after throwing away a card of its rank or not) takes the most
        insurance (None: the best)."""
        if self.insure_from is None:
            return None
        row = self.insure_row(up_rank, thrown_up)
        return p >= self.insure_from and (row is None or row[strength] == 1)

    def buys(self, p: int) -> bool | None:
        """Whether a hand of payout multiple ``p`` buys a game whenever the dealer does not
        qualify (None: where it gains)."""
        return None if self.buy_from is None else p >= self.buy_from

    @property
    def key(self) -> bytes:
        """What the counts kept under these rules are named by (empty for the best: the names
        of counts kept before there were players' rules stay the same)."""
        if self.best:
            return b""
        when = hashlib.sha256(self.insure_when).hexdigest() if self.insure_when is not None else ""
        return f"insurance {self.insure_from} {when} buying a game {self.buy_from}".encode()

    def check(self, rules: Rules) -> None:
        """A player's rule is counted only while no payout reaches a table maximum (the kernel
        then values the insurance and the buy together: ``_bet.bet_capped``)."""
        if not self.best and rules.max_payout is not None:
            raise InputError(f"the rules {rules.name!r} set a table maximum payout: insurance and buying a game "
                             "are counted only as best play makes them there (leave them optimal)")

    def describe(self) -> str:
        """The rules in words."""
        return "; ".join(self.words())

    def words(self, stated: bool = False) -> list[str]:
        """Each rule in words (``stated``: those that are not the solver's alone)."""
        out = []
        for k, what, done, otherwise in ((self.insure_from, "insurance", "the most", "none"),
                                         (self.buy_from, "buying a game", "always", "never")):
            if k is None:
                if not stated:
                    out.append(f"{what}: optimal")
            elif k >= NEVER:
                out.append(f"{what}: never")
            else:
                where = " where its rules say" if what == "insurance" and self.insure_when is not None else ""
                out.append(f"{what}: {done}{where} when P >= {k}, else {otherwise}" if k > 0
                           else f"{what}: {done}{where}")
        return out


BEST = Play()
"""Both decisions as the solver makes them."""
