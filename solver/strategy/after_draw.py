"""A card's later decision: bet or fold the final hand after an exchange or a sixth card.

The rules of ``[[after_draw]]`` read what a person sees of the final hand (the five cards that
play: of six cards, the best five) and the up-card, so their decision depends on the final
hand's strength and the up-card's rank alone. It is resolved once into a table of 13 × 7462
entries (1 bet, 0 fold) that the kernel reads for every final hand it counts
(``deal.option_values(..., after=table[up_rank])``).

>>> from solver.strategy.card import parse
>>> card = parse('''
... rules = "russian"
... [[first]]
... do = "optimal"
... [[after_draw]]
... when = { category = "pair+" }
... do = "bet"
... [[after_draw]]
... do = "fold"
... ''', "example.toml")
>>> from solver.hand import strengths
>>> from solver.cards import parse_cards
>>> table = bet_table(card)
>>> [int(table[12, strengths([parse_cards(h)])[0]]) for h in ("9s 9d 7c 4h 2s", "Ah Kd 8c 5s 3d")]
[1, 0]
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import TYPE_CHECKING

import numpy as np

from ..cards import RANK_NAMES, format_cards
from ..errors import InputError
from ..hand import N_STRENGTH, strengths
from .hands import Seen

if TYPE_CHECKING:
    from .card import StrategyCard

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


def bet_table(card: StrategyCard) -> np.ndarray:
    """The decision of the card's ``after_draw`` rules (bet or fold; the first that holds
    decides) for every final strength against every up-card rank: uint8 (13, N_STRENGTH), 1 bet,
    0 fold. A final hand no rule decides is an error naming one."""
    hands = final_hands()
    bets = np.asarray([rule.action == BET for rule in card.after_draw])
    out = np.empty((13, N_STRENGTH), np.uint8)
    for up in range(13):
        # the up-card's rank is all the rules read of it; a suit the hand may hold does not matter
        line = card.decide_after(Seen.of(hands, np.full(N_STRENGTH, 4 * up, np.uint8)))
        if (line < 0).any():
            k = int(np.argmax(line < 0))
            raise InputError(f"strategy file {card.path}: no [[after_draw]] rule decides the final hand "
                             f"{format_cards(hands[k].tolist())} against the up-card {RANK_NAMES[up]}: end them "
                             "with a rule without conditions")
        out[up] = bets[line]
    return out
