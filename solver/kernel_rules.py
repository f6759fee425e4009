"""The rules as the kernel applies them: the one place where each rule setting becomes the
kernel's (strengths where a rule starts, limits in antes, payouts), built once per ``Rules``.

>>> from solver.rules import DEFAULT
>>> k = kernel_rules(DEFAULT)
>>> k.qualifier == lowest_strength(AK), k.win_pay(1), k.max_payout == NO_MAXIMUM
(True, 2, True)
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ._kernel._settle import KernelRules
from .cards import Card
from .category import AK
from .hand import N_STRENGTH, STRENGTH_CATEGORY, all_hands, payouts, paytable_array, strengths
from .play import BEST, Play
from .rules import Rules


@cache
def _representatives() -> np.ndarray:
    """One 5-card hand of each strength (rows indexed by strength)."""
    hands = all_hands(5)
    _, first = np.unique(strengths(hands, checked=False), return_index=True)
    return np.ascontiguousarray(hands[first])


@cache
def payout_by_strength(rules: Rules) -> np.ndarray:
    """P of a 5-card hand of each strength (for five cards P depends on the strength alone)."""
    return payouts(_representatives(), rules, checked=False)


@cache
def lowest_strength(category: int) -> int:
    """The lowest strength of a category (N_STRENGTH past the top)."""
    above = np.flatnonzero(STRENGTH_CATEGORY >= category)
    return int(above[0]) if len(above) else N_STRENGTH


NO_MAXIMUM = 1 << 40
"""``max_payout`` as the kernels take it when the table sets no maximum (more than any box wins)."""


@cache
def kernel_rules(rules: Rules, play: Play = BEST, up_rank: int = 0, thrown_up: bool = False) -> KernelRules:
    """The rules as the kernel applies them, built once per ``Rules``: the one place where each
    rule setting becomes the kernel's (strengths where a rule starts, limits in antes, payouts);
    with ``play``, the player's rules of insurance and buying a game instead of the best (against
    an up-card of rank ``up_rank``, after throwing away a card of its rank or not, where its
    insurance reads them: ``play_rules``)."""
    play.check(rules)
    return KernelRules(
        qualifier=lowest_strength(rules.qualifier_category),
        win_extra=int(rules.ante_on_win == "paid"),
        buy_on=rules.buy_game,
        buy_fee=rules.buy_game_fee,
        redraws=rules.buy_redraws,
        buy_from=lowest_strength(AK),
        insurance_from=lowest_strength(rules.insurance_category) if rules.insurance else N_STRENGTH,
        insurance_max=2 if rules.insurance_max == "payout" else 1,
        insurance_min=1 if rules.insurance_min == "ante" else 2,
        tie_loses=rules.insurance_on_tie == "lost",
        max_payout=NO_MAXIMUM if rules.max_payout is None else rules.max_payout,
        p5=payout_by_strength(rules),
        paytable=paytable_array(rules),
        second_combination=rules.second_combination,
        new_rank=rules.second_rule == "new_rank",
        forced_counts=tuple(rules.exchange_forces_bet),
        insure_policy=-1 if play.insure_from is None else play.insure_from,
        buy_policy=-1 if play.buy_from is None else play.buy_from,
        insure_table=play.insure_row(up_rank, thrown_up),
    )


def play_rules(rules: Rules, play: Play, up_card: Card, thrown_up: bool = False) -> KernelRules:
    """``kernel_rules`` of a deal of the up-card ``up_card`` (after throwing away a card of its
    rank or not: ``thrown_up``): one per up rank and thrown card only where the player's
    insurance reads them."""
    if play.insure_when is None:
        return kernel_rules(rules, play)
    return kernel_rules(rules, play, up_card >> 2, thrown_up)


def cards_needed(rules: Rules, drawn: int) -> int:
    """Unseen cards a final situation needs: ``drawn`` new cards, the dealer's four, a buy's draws."""
    return drawn + 4 + (1 + rules.buy_redraws if rules.buy_game else 0)
