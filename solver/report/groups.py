"""The hand groups of the strategy charts: a row for each category, with the ranks that matter.

>>> from solver.hand import evaluate
>>> from solver.cards import parse_cards
>>> [hand_group(evaluate(parse_cards(h)).strength) for h in ("As Kd 9c 5s 2h", "7s 7d 9c 5s 2h")]
['A K 9', 'pair of 7']
"""

from __future__ import annotations

from ..cards import RANK_NAMES
from ..category import AK, CATEGORIES, PAIR
from ..hand import STRENGTH_CATEGORY, strength_ranks


def hand_group(strength: int) -> str:
    """A row of the strategy chart: the category, with the ranks that matter for the decision."""
    category, ranks = int(STRENGTH_CATEGORY[strength]), strength_ranks(strength)
    if category == 0:
        return f"no game, {RANK_NAMES[ranks[0]]} high"
    if category == AK:
        return f"A K {RANK_NAMES[ranks[2]]}"
    if category == PAIR:
        return f"pair of {RANK_NAMES[ranks[0]]}"
    return CATEGORIES[category].replace("_", " ")
