"""Every result of an option of a deal: the kernel's counts against literal enumeration.

The reference (``solver.reference.deal.option_results``) settles every final hand against every
dealer hand and every buy draw one by one; the fast path counts outcome by outcome with the
dealer side counted by ranks. Both are exact: the tables must be equal.
"""

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import rules
from solver.action import Action
from solver.cards import parse_card, parse_cards
from solver.deal import option_returns, solve
from solver.errors import InputError
from solver.reference import deal as ref

R = rules.DEFAULT


def _table(r):
    return {result: r.probability(k) for result, k in r.results.items()}


def _option(action, throw=()):
    return Action(action, tuple(throw))


@pytest.mark.parametrize("text, up, rule, action, thrown", [
    # a pair with AK: insurance no, buys often; one card thrown
    ("Ah Ad Kc 8s 9d", "Kh", R, "exchange", "9d"),
    # AKQJ of a suit: a sixth card (flushes, straights, their seconds)
    ("As Ks Qs Js 2h", "4s", R, "sixth_card", ""),
    # a full house insured (the dealer misses a game often)
    ("2c 2d 2h 3c 3d", "2s", R, "bet", ""),
    # a flush (dealer flush draws after a buy, flush ties), three redraws
    ("Ks 9s 7s 5s 2s", "Kh", R.replace(buy_redraws=3), "bet", ""),
    # a qualifier of a pair, the ante paid on a win, half insurance from the bet
    ("Ts Td Tc 4h 4s", "Th", R.replace(dealer_qualifier="pair", ante_on_win="paid", insurance_max="half_payout",
                                        insurance_min="bet"), "sixth_card", ""),
    # an exchange that forces the bet (no fold after it), with dead cards
    ("Qs Jd 8d 4c 3c", "Kd", R.replace(exchange_forces_bet=(1,)), "exchange", "3c"),
])
def test_option_results_equal_literal_enumeration(text, up, rule, action, thrown):
    hand, u = parse_cards(text), parse_card(up)
    throw = parse_cards(thrown) if thrown else ()
    dead = parse_cards("2d 7h") if rule.exchange_forces_bet == (1,) else ()
    fast = option_returns(hand, u, _option(action, throw), rule, dead)
    assert _table(fast) == ref.option_results(hand, u, rule, action, throw, dead)
    assert fast.ev == solve(hand, u, rule, dead).option(action, throw).ev


@pytest.mark.slow
@pytest.mark.parametrize("text, up", [("Jh Jd 8c 5s 2d", "Ks"), ("Ac Kd 9c 4c 2h", "7d")])
def test_two_card_exchange_results_slow(text, up):
    hand, u = parse_cards(text), parse_card(up)
    for throw in list(combinations(hand, 2))[:3]:
        fast = option_returns(hand, u, _option("exchange", throw), R)
        assert _table(fast) == ref.option_results(hand, u, R, "exchange", throw)


@settings(max_examples=15, deadline=None)
@given(cards=st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True),
       preset=st.sampled_from(["russian", "oasis"]))
def test_every_option_returns_its_ev(cards, preset):
    """The results of each option (3-card exchanges at most, for time) average to its EV, and
    count every round once."""
    r = rules.load(preset).replace(exchange_max=3)
    hand, up = tuple(cards[:5]), cards[5]
    s = solve(hand, up, r)
    for o in s.options:
        got = option_returns(hand, up, o, r)
        assert got.ev == o.ev
        assert sum(got.results.values()) == got.rounds
        assert 0 <= got.bet_rate <= 1 and 0 <= got.buy_rate <= got.bet_rate


def test_rates_of_a_bet():
    """Betting a dealt hand bets in every round; a full house that holds most of the low ranks
    against the last of them (the dealer misses a game often) insures in every round; the
    average wager is ante, bet, insurance and the buys' fees."""
    hand, u = parse_cards("2c 2d 2h 3c 3d"), parse_card("2s")
    s = solve(hand, u)
    got = option_returns(hand, u, s.option("bet"))
    assert got.bet_rate == 1 and s.bet.insurance_size == 14
    assert got.insured_rate == 1 and got.insurance == 14 * got.rounds
    assert got.average_wager == 1 + 2 + s.bet.insurance_size + R.buy_game_fee * got.buy_rate
    folded = option_returns(hand, u, s.option("fold"))
    assert folded.results == {-1: 1} and folded.ev == -1 and folded.std() == 0


def test_bad_options():
    hand, u = parse_cards("As Ks Qd 7c 2h"), parse_card("9s")
    with pytest.raises(InputError):
        option_returns(hand, u, _option("exchange", parse_cards("3d")))
    with pytest.raises(InputError):
        option_returns(hand, u, _option("sixth_card"), rules.load("caribbean"))


@pytest.mark.parametrize("text, up", [
    ("Jh Jd 8c 5s 2d", "Ks"),      # pairs, two pairs, trips after the draw
    ("9s 8s 7h 4s 2s", "As"),      # flush draws in the up suit; the dealer throws its up-card A
    ("6c 6h Qs Ad 4s", "Ad"),      # the up-card's rank in the hand
])
def test_grouped_results_equal_card_by_card(text, up):
    """The results of every exchange of 1 to 3 cards: the kernel's grouped sums equal its
    outcome-by-outcome counts (and its values those of the exchanges' EVs)."""
    import numpy as np

    from solver._kernel import _dealer
    from solver.kernel_rules import kernel_rules

    hand, u = parse_cards(text), parse_card(up)
    for r in (R, R.replace(buy_redraws=3, dealer_qualifier="pair", exchange_forces_bet=(2,))):
        args = (np.asarray(hand, np.uint8), u, np.zeros(0, np.uint8), kernel_rules(r), (1, 2, 3))
        grouped = _dealer.solve(*args, results=True)
        each = _dealer.solve(*args, results=True, card_by_card=True)
        assert grouped.exchange_results == each.exchange_results
        assert grouped.exchange == each.exchange == _dealer.solve(*args).exchange
