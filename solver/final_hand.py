"""Decisions on a final hand: betting it or folding (``bet_value``, with the best insurance), and
buying the dealer a game when the dealer does not qualify (``buy_game``).

>>> from solver.cards import parse_cards, parse_card
>>> bet = bet_value(parse_cards("As Ks Qd Jh Th"), parse_card("9s"))    # a straight, after an exchange
>>> round(float(bet.ev), 9), bet.should_bet
(4.970934135, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ._kernel import _buy, _dealer
from .cards import Card, check_disjoint
from .category import AK
from .counts import BET, Bet, Situation
from .errors import InputError
from .hand import evaluate, strengths
from .kernel_rules import cards_needed, kernel_rules, play_rules
from .play import BEST, Play
from .rules import DEFAULT, Rules


@dataclass(frozen=True)
class BetValue:
    """Betting a final hand: EV with the best insurance, its size, one unit's EV (while no
    payout reaches the table's maximum), EV without."""

    ev: Fraction
    no_insurance: Fraction
    insurance_unit: Fraction
    insurance_size: int
    p_dealer_no_game: Fraction

    @property
    def should_bet(self) -> bool:
        """Bet rather than fold (−1): a tie is a bet (``Action.simplicity``)."""
        return self.ev >= -1

    @classmethod
    def from_bet(cls, bet: Bet, p: int, rules: Rules) -> BetValue:
        """From the kernel's bet (``_dealer.situation``): its value with the best insurance as
        the kernel found it; without insurance and one unit's from its counts."""
        c = bet.counts
        k = kernel_rules(rules)
        tie_loses = c.tie if k.tie_loses else 0
        no_insurance = Fraction(c.den * (k.win_pay(p) * c.win - 3 * c.lose + c.nq) + c.buy_excess, c.n * c.den)
        return cls(Fraction(bet.value, c.n * c.den), no_insurance, Fraction(c.nq - c.win - tie_loses, c.n),
                   c.insurance, Fraction(c.nq, c.n))

    @classmethod
    def from_row(cls, row: np.ndarray, p: int, rules: Rules) -> BetValue:
        """From a row of ``bet_counts`` (the counts, with the value at ``BET["value"]``)."""
        counts = Situation._make(int(v) for v in np.delete(row, BET["value"]))
        return cls.from_bet(Bet(counts, int(row[BET["value"]])), p, rules)


def check_final(final: Sequence[Card], thrown: Sequence[Card], rules: Rules) -> None:
    """A final hand as the rules can make it: 5 cards (the dealt hand, or after exchanging the
    ``thrown`` cards), or 6 after a sixth card (nothing thrown)."""
    if len(final) not in (5, 6):
        raise InputError(f"the final hand must have 5 or 6 cards, not {len(final)}")
    if len(final) == 6:
        if not rules.sixth_card:
            raise InputError(f"the rules {rules.name!r} have no sixth card: a final hand has 5 cards")
        if thrown:
            raise InputError("six cards come from a sixth card, which is bought instead of an exchange: "
                             "no cards are thrown with them")
    elif thrown and len(thrown) not in rules.exchange_counts:
        allowed = ", ".join(map(str, rules.exchange_counts)) or "none"
        raise InputError(f"the rules {rules.name!r} do not allow exchanging {len(thrown)} cards (allowed: {allowed})")


def bet_value(final: Sequence[Card], up_card: Card, rules: Rules = DEFAULT, thrown: Sequence[Card] = (),
              dead: Sequence[Card] = (), play: Play = BEST) -> BetValue:
    """Betting a final hand of 5 cards (after an exchange) or 6 (after a sixth card).

    ``thrown`` are the cards exchanged away (out of play). Compare ``ev`` with folding (−1).
    ``play``: the player's rules of insurance and buying a game (a strategy card's), else the
    best; ``ev`` is then the bet as they play it.
    """
    final, thrown, dead = tuple(final), tuple(thrown), tuple(dead)
    check_final(final, thrown, rules)
    check_disjoint([("hand", final), ("up-card", [up_card]), ("thrown cards", thrown), ("dead cards", dead)])
    if 52 - len(final) - len(thrown) - len(dead) - 1 < cards_needed(rules, 0):
        raise InputError(f"too many known cards: the dealer and a buy need {cards_needed(rules, 0)} unseen cards")
    value = evaluate(final, rules)
    known = np.asarray([*final, *thrown, *dead], np.uint8)
    thrown_up = any(c >> 2 == up_card >> 2 for c in thrown)
    bet = _dealer.situation(np.asarray(final, np.uint8), up_card, known, play_rules(rules, play, up_card, thrown_up),
                            value.payout)
    return BetValue.from_bet(bet, value.payout, rules)


@dataclass(frozen=True)
class BuyDecision:
    """The dealer does not qualify: take the ante (+1) or buy the dealer a game."""

    take_ante: Fraction
    buy: Fraction
    p_dealer_qualifies: Fraction

    @property
    def should_buy(self) -> bool:
        return self.buy > self.take_ante


def buy_game(final: Sequence[Card], dealer: Sequence[Card], rules: Rules = DEFAULT,
             thrown: Sequence[Card] = (), dead: Sequence[Card] = ()) -> BuyDecision:
    """EV of taking the ante and of buying a game, seeing the dealer's five cards (RULES §7)."""
    final, dealer, thrown, dead = tuple(final), tuple(dealer), tuple(thrown), tuple(dead)
    check_final(final, thrown, rules)
    if len(dealer) != 5:
        raise InputError(f"the dealer's hand must have 5 cards, not {len(dealer)}")
    check_disjoint([("hand", final), ("dealer's hand", dealer), ("thrown cards", thrown), ("dead cards", dead)])
    if not rules.buy_game:
        raise InputError(f"the rules {rules.name!r} do not allow buying a game")
    unseen = 52 - len(final) - len(dealer) - len(thrown) - len(dead)
    if unseen < 1 + rules.buy_redraws:
        raise InputError(f"too many known cards: a buy needs {1 + rules.buy_redraws} unseen cards, "
                         f"{unseen} are left")
    k = kernel_rules(rules)
    dealer_strength = int(strengths(np.asarray([dealer], np.uint8), checked=False)[0])
    if dealer_strength >= k.qualifier:
        raise InputError("the dealer qualifies: there is no game to buy")
    value = evaluate(final, rules)
    if value.category < AK:
        raise InputError("buying a game needs a hand of AK or better")
    known = {*final, *dealer, *thrown, *dead}
    stub = np.asarray([c for c in range(52) if c not in known], np.uint8)
    win, tie, lose, den = _buy.seen_buy(np.asarray(dealer, np.uint8), stub, value.strength,
                                        k.qualifier, rules.buy_redraws)
    # uninsured: a won showdown pays 2P (+ the ante), at most the table's maximum
    num, q_num = k.win_pay(value.payout) * win - 3 * lose, win + tie + lose
    return BuyDecision(Fraction(1), -rules.buy_game_fee + Fraction(num, den), Fraction(q_num, den))
