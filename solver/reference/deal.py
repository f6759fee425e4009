"""Reference EVs of the options of one deal, by literal enumeration (RULES §3 to §7).

Every dealer hand, every exchange outcome, every sixth card and every buy draw is enumerated
card by card (the dealer and buy loops in the ``_brute`` kernel, the rest here). Slow: a bet
takes tens of milliseconds, a two-card exchange tens of seconds. The judge of ``solver.deal``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

import numpy as np

from .. import _brute
from ..cards import Card
from ..hand import STRENGTH_CATEGORY, strengths
from ..rules import Rules
from . import hand as ref_hand


def unseen(known: Sequence[Card]) -> list[Card]:
    """The cards not among ``known``, in order."""
    gone = set(known)
    return [c for c in range(52) if c not in gone]


def bet_values(final: Sequence[Card], up: Card, deck: Sequence[Card], rules: Rules) -> dict[str, Fraction]:
    """EV of betting a final hand: with the best insurance, without, one unit of insurance, size."""
    player = int(strengths([final])[0])
    category = int(STRENGTH_CATEGORY[player])
    p = ref_hand.payout(final, rules)
    qualifier = int(np.argmax(STRENGTH_CATEGORY >= rules.qualifier_category))
    may_buy = rules.buy_game and category >= 1
    n, win, tie, lose, nq, excess, den, *_ = _brute.situation(
        np.asarray(deck, dtype=np.uint8), up, player, p, may_buy, qualifier,
        int(rules.ante_on_win == "paid"), rules.buy_game_fee, rules.buy_redraws,
    )
    win_pays = 2 * p + (1 if rules.ante_on_win == "paid" else 0)
    no_insurance = Fraction(win * win_pays - 3 * lose + nq, n) + Fraction(excess, n * den)
    tie_loses = tie if rules.insurance_on_tie == "lost" else 0
    unit = Fraction(nq - win - tie_loses, n)
    sizes = [0]
    if rules.insurance and category >= rules.insurance_category:
        low = 1 if rules.insurance_min == "ante" else 2
        high = 2 * p if rules.insurance_max == "payout" else p
        if high >= low:
            sizes += list(range(low, high + 1))
    size = max(sizes, key=lambda i: (no_insurance + i * unit, -i))
    return {"ev": no_insurance + size * unit, "no_insurance": no_insurance, "unit": unit,
            "size": Fraction(size), "p_no_game": Fraction(nq, n)}


def bet(hand: Sequence[Card], up: Card, rules: Rules, dead: Sequence[Card] = ()) -> Fraction:
    """EV of betting the dealt hand at once."""
    return bet_values(hand, up, unseen([*hand, up, *dead]), rules)["ev"]


def sixth_card(hand: Sequence[Card], up: Card, rules: Rules, dead: Sequence[Card] = ()) -> Fraction:
    """EV of buying a sixth card, then betting or folding."""
    deck = unseen([*hand, up, *dead])
    total = Fraction(0)
    for c in deck:
        rest = [x for x in deck if x != c]
        total += max(Fraction(-1), bet_values([*hand, c], up, rest, rules)["ev"])
    return -rules.sixth_card_fee + total / len(deck)


def exchange(hand: Sequence[Card], up: Card, throw: Sequence[Card], rules: Rules,
             dead: Sequence[Card] = ()) -> Fraction:
    """EV of exchanging the cards ``throw``, then betting or folding (or betting, if forced)."""
    kept = [c for c in hand if c not in throw]
    k = len(throw)
    deck = unseen([*hand, up, *dead])  # the thrown cards are out of play
    forced = k in rules.exchange_forces_bet
    total = Fraction(0)
    count = 0
    for new in combinations(deck, k):
        rest = [x for x in deck if x not in new]
        value = bet_values([*kept, *new], up, rest, rules)["ev"]
        total += value if forced else max(Fraction(-1), value)
        count += 1
    return -rules.exchange_fees[k - 1] + total / count


def bet_results(final: Sequence[Card], up: Card, deck: Sequence[Card], rules: Rules,
                size: int | None = None) -> dict[int, int]:
    """Every net result of betting a final hand with its best insurance (``size``, if known:
    ``bet_values``'s) -> rounds, out of n * den: every dealer hand and every buy draw settled
    one by one (``_brute.results``)."""
    player = int(strengths([final])[0])
    p = ref_hand.payout(final, rules)
    qualifier = int(np.argmax(STRENGTH_CATEGORY >= rules.qualifier_category))
    if size is None:
        size = int(bet_values(final, up, deck, rules)["size"])
    return _brute.results(np.asarray(deck, dtype=np.uint8), up, player, p,
                          rules.buy_game and int(STRENGTH_CATEGORY[player]) >= 1, qualifier,
                          int(rules.ante_on_win == "paid"), rules.buy_game_fee, rules.buy_redraws, int(size),
                          rules.insurance_on_tie == "lost")


def option_results(hand: Sequence[Card], up: Card, rules: Rules, action: str, throw: Sequence[Card] = (),
                   dead: Sequence[Card] = ()) -> dict[int, Fraction]:
    """Every net result of an option (``fold``, ``bet``, ``sixth_card``, ``exchange`` of ``throw``)
    with its probability: each final hand bet or folded as its EV says (bet on a tie, or when
    the exchange forces it), the fee taken."""
    deck = unseen([*hand, up, *dead])
    if action == "fold":
        return {-1: Fraction(1)}
    if action == "bet":
        finals, fee, forced = [(list(hand), deck)], 0, True
    elif action == "sixth_card":
        finals = [([*hand, c], [x for x in deck if x != c]) for c in deck]
        fee, forced = rules.sixth_card_fee, False
    else:
        kept = [c for c in hand if c not in throw]
        finals = [([*kept, *new], [x for x in deck if x not in new]) for new in combinations(deck, len(throw))]
        fee, forced = rules.exchange_fees[len(throw) - 1], len(throw) in rules.exchange_forces_bet
    total: dict[int, int] = {}
    rounds = 0
    for final, rest in finals:
        values = bet_values(final, up, rest, rules)
        bet = bet_results(final, up, rest, rules, int(values["size"]))
        n = sum(bet.values())
        if not forced and values["ev"] < -1:
            bet = {-1: n}
        for r, k in bet.items():
            total[r - fee] = total.get(r - fee, 0) + k
        rounds += n
    return {r: Fraction(k, rounds) for r, k in sorted(total.items())}
