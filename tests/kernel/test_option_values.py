"""A few options of a deal counted together (``deal.option_values``, one kernel call that counts
only them) against ``deal.solve``, which counts every option: the EVs must be equal exactly."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import rules
from solver.action import Action
from solver.cards import parse_card, parse_cards
from solver.deal import option_values, solve
from solver.errors import InputError

R = rules.DEFAULT
VARIANTS = {"russian": R, "oasis": rules.load("oasis"), "redraws 3": R.replace(buy_redraws=3),
            "forced bet": R.replace(exchange_forces_bet=(1, 2)), "max payout": R.replace(max_payout=200)}


def _same_as_solve(hand, up, rule, dead=(), rng=None):
    options = solve(hand, up, rule, dead).options
    rng = rng or random.Random(0)
    for size in (1, 2, 5):                     # subsets of the options, in any order
        chosen = rng.sample(options, min(size, len(options)))
        assert option_values(hand, up, [o.action for o in chosen], rule, dead) == [o.ev for o in chosen]
    assert option_values(hand, up, [o.action for o in options], rule, dead) == [o.ev for o in options]


@pytest.mark.parametrize("text, up, dead", [
    ("As Ks Qs Js 2h", "4s", ""),          # four to a royal; the dealer's up-card of the suit
    ("Ks 9s 7s 5s 2s", "Kh", ""),          # a flush, the up rank matching the hand
    ("9h 8h 7h 6h 2c", "Th", "5h Jh"),     # straight flush draws, dead cards of the suit
    ("2c 2d 2h 3c 3d", "2s", ""),          # a full house, the up-card matching
    ("Ah Ad Kc 8s 9d", "Kh", "Kd"),        # a pair with AK, a dead card of the up rank
])
def test_special_deals(text, up, dead):
    hand, u = parse_cards(text), parse_card(up)
    for rule in (R, VARIANTS["redraws 3"]):
        _same_as_solve(hand, u, rule, parse_cards(dead) if dead else ())


@settings(max_examples=12, deadline=None)
@given(cards=st.lists(st.integers(0, 51), min_size=8, max_size=8, unique=True),
       variant=st.sampled_from(sorted(VARIANTS)), dead=st.integers(0, 2), seed=st.integers(0, 99))
def test_random_deals(cards, variant, dead, seed):
    rule = VARIANTS[variant].replace(exchange_max=3)      # 4- and 5-card exchanges: in the special deals
    _same_as_solve(tuple(cards[:5]), cards[5], rule, tuple(cards[6:6 + dead]), random.Random(seed))


def test_what_the_rules_do_not_allow():
    hand, up = parse_cards("Ah Ad Kc 8s 9d"), parse_card("Kh")
    with pytest.raises(InputError, match="do not allow exchanging 9d"):
        option_values(hand, up, [Action("exchange", (hand[4],))], R.replace(exchange_min=2))
    with pytest.raises(InputError, match="have no sixth card"):
        option_values(hand, up, [Action("sixth_card")], rules.load("oasis"))
    with pytest.raises(InputError, match="must be in the hand"):
        option_values(hand, up, [Action("exchange", (parse_card("2c"),))], R)
