"""A card's later decision: bet or fold the final hand after an exchange or a sixth card.

The rules of ``[[after_draw]]`` read what a person sees of the final hand (the five cards that
play: of six cards, the best five), the up-card, and whether a card thrown away had the
up-card's rank (then the dealer is less likely to pair it), so their decision depends on those
alone. It is resolved once into a table of 2 × 13 × 7462 entries (1 bet, 0 fold: thrown
matching the up-card or not, the up-card's rank, the final strength) whose row for an option
(``row``) the kernel reads for every final hand it counts
(``deal.option_values(..., after=row(table, up, action))``).

>>> from solver.strategy.card import parse
>>> card = parse('''
... rules = "russian"
... [[first]]
... do = "optimal"
... [[after_draw]]
... when = { category = "pair+" }
... do = "bet"
... [[after_draw]]
... when = { category = "ak", thrown_matches_up = true }
... do = "bet"
... [[after_draw]]
... do = "fold"
... ''', "example.toml")
>>> from solver.action import Action
>>> from solver.hand import strengths
>>> from solver.cards import parse_card, parse_cards
>>> table, up = bet_table(card), parse_card("Jd")
>>> [int(row(table, up, Action("sixth_card"))[strengths([parse_cards(h)])[0]])
...  for h in ("9s 9d 7c 4h 2s", "Ah Kd 8c 5s 3d")]
[1, 0]
>>> int(row(table, up, Action("exchange", parse_cards("Js 4c")))[strengths([parse_cards("Ah Kd 8c 5s 3d")])[0]])
1
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Protocol

import numpy as np

from ..action import Action
from ..cards import RANK_NAMES, Card, format_cards
from ..errors import InputError
from ..hand import N_STRENGTH, strengths
from .hands import Seen


class Decides(Protocol):
    """A rule of a card as this module reads it (``card.Rule``): where it holds, and its action."""

    @property
    def action(self) -> str: ...

    def holds(self, seen: Seen) -> np.ndarray: ...


class StatesAfterDraw(Protocol):
    """A card as ``bet_table`` reads it (``card.StrategyCard``): its file and its after-draw rules."""

    @property
    def path(self) -> str: ...

    @property
    def after_draw(self) -> Sequence[Decides]: ...


def first_holding(rules: Sequence[Decides], seen: Seen) -> np.ndarray:
    """The index of the first of ``rules`` that holds in each deal of ``seen`` (-1 where none does)."""
    line = np.full(len(seen.up), -1, np.int64)
    for i, rule in enumerate(rules):
        line[(line < 0) & rule.holds(seen)] = i
    return line

BET, FOLD = "bet", "fold"
#: the actions of a final hand
ACTIONS = (BET, FOLD)


@cache
def final_hands() -> np.ndarray:
    """One hand of each strength (row = strength): every multiset of five ranks in suits that
    make no flush (the copies of a rank in distinct suits), and every five distinct ranks of one
    suit."""
    hands = []
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) < 5:
            hands.append([4 * r + i % 4 for i, r in enumerate(ranks)])
    hands += [[4 * r for r in ranks] for ranks in combinations(range(13), 5)]
    cards = np.asarray(hands, np.uint8)
    out = np.empty((N_STRENGTH, 5), np.uint8)
    out[strengths(cards)] = cards
    return out


def bet_table(card: StatesAfterDraw) -> np.ndarray:
    """The decision of the card's ``after_draw`` rules (bet or fold; the first that holds
    decides) for every final strength against every up-card rank, after a draw that threw a card
    of the up-card's rank away or not: uint8 (2, 13, N_STRENGTH), indexed [thrown matching,
    up rank, strength], 1 bet, 0 fold. A final hand no rule decides is an error naming one."""
    return rule_table(card.after_draw, BET, card.path, "after_draw", (False, True))


def rule_table(rules: Sequence[Decides], yes: str, path: str, table: str, thrown: tuple[bool, ...]) -> np.ndarray:
    """The decision of rules on a final hand (the first that holds decides; 1 where it is
    ``yes``) for every final strength against every up-card rank, for each of ``thrown`` (a card
    of the up-card's rank thrown away or not): uint8 (len(thrown), 13, N_STRENGTH). A final hand
    no rule decides is an error naming one (``[[table]]`` of the file ``path``)."""
    hands = final_hands()
    yeses = np.asarray([rule.action == yes for rule in rules])
    out = np.empty((len(thrown), 13, N_STRENGTH), np.uint8)
    # the up-card's rank is all the rules read of it; a suit the hand may hold does not matter
    seen = Seen.of(hands, np.zeros(N_STRENGTH, np.uint8))
    for t, flag in enumerate(thrown):
        for up in range(13):
            line = first_holding(rules, seen.facing(up, flag))
            if (line < 0).any():
                k = int(np.argmax(line < 0))
                after = " after throwing a card of its rank away" if flag else ""
                raise InputError(f"strategy file {path}: no [[{table}]] rule decides the final hand "
                                 f"{format_cards(hands[k].tolist())} against the up-card {RANK_NAMES[up]}{after}: "
                                 "end them with a rule without conditions")
            out[t, up] = yeses[line]
    return out


def row(table: np.ndarray, up: Card, action: Action) -> np.ndarray:
    """The bet or fold of every final strength of one option (``table``: ``bet_table``) against
    the up-card ``up``: the kernel's ``after``."""
    out: np.ndarray = table[int(action.throws_rank_of(up)), up >> 2]
    return out
