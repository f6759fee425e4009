"""Hand categories of RULES §2, lowest to highest; the index is the kernels' category code."""

CATEGORIES: tuple[str, ...] = (
    "no_game",
    "ak",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)
NO_GAME, AK, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE = range(8)
FOUR_OF_A_KIND, STRAIGHT_FLUSH, ROYAL_FLUSH = 8, 9, 10

LABELS: tuple[str, ...] = (
    "no game",
    "AK",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
    "royal flush",
)
