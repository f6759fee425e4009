"""A strategy card's bet or fold after a draw (``after``: by the final hand's strength) in the
kernel, against the literal reference, which asks the card of each final hand it enumerates."""

import random
from itertools import combinations

import numpy as np
import pytest

from solver import rules
from solver._kernel import _dealer
from solver._kernel._store import clear_shared
from solver.action import Action
from solver.cards import parse_card, parse_cards
from solver.deal import Gains, add_gains, option_gains, option_returns, option_values
from solver.hand import N_STRENGTH, strengths
from solver.kernel_rules import kernel_rules
from solver.reference import deal as ref
from solver.reference import hand as ref_hand

R = rules.DEFAULT
#: a card that bets about half of the final hands, at random: every path of the kernel meets both
AFTER = np.random.default_rng(17).integers(0, 2, N_STRENGTH).astype(np.uint8)


def bets(final) -> bool:
    """The card's decision on a final hand, by its best five cards (the reference's evaluator)."""
    five = max(combinations(final, 5), key=ref_hand.strength)
    return bool(AFTER[int(strengths([five])[0])])


DEALS = [("Ah Ad Kc 8s 9d", "Kh"), ("2h 5h 9h Jh Kc", "3h"), ("Qs Js Ts 9s 2d", "As"), ("7c 7d 7h Ks 2c", "7s"),
         ("Ah Kh 9c 5d 3s", "Qh")]


@pytest.mark.parametrize("text, up", DEALS)
def test_one_card_exchanges_and_sixth_card_against_reference(text, up):
    hand, u = parse_cards(text), parse_card(up)
    actions = [Action("sixth_card"), *(Action("exchange", (c,)) for c in hand[:3])]
    values = option_values(hand, u, actions, R, after=AFTER)
    assert values[0] == ref.sixth_card(hand, u, R, after=bets)
    for a, v in zip(actions[1:], values[1:]):
        assert v == ref.exchange(hand, u, a.throw, R, after=bets)
    # the results count the same play: the same EV, the folds where the card folds
    for a, v in zip(actions[:2], values[:2]):
        assert option_returns(hand, u, a, R, after=AFTER).ev == v
    assert values != option_values(hand, u, actions, R)  # the card does change the play


def test_results_against_reference():
    hand, u = parse_cards("2h 5h 9h Jh Kc"), parse_card("3h")
    expected = ref.option_results(hand, u, R, "exchange", (hand[4],), after=bets)
    r = option_returns(hand, u, Action("exchange", (hand[4],)), R, after=AFTER)
    assert {x: r.probability(k) for x, k in r.results.items()} == expected


@pytest.mark.parametrize("text, up", [("Jh Jd 8c 5s 2d", "Ks"), ("6c 6h Qs Ad 4s", "Qd"), ("Ah Kh 9h 5d 3s", "Qh")])
def test_grouped_exchanges_equal_card_by_card(text, up):
    """All 31 exchanges under the card: the grouped sums equal the outcome-by-outcome values,
    under rules that force a bet, buy with redraws, or cap the payout (insurance one by one)."""
    hand, u = parse_cards(text), parse_card(up)
    for r in (R, R.replace(buy_redraws=3, dealer_qualifier="pair", exchange_forces_bet=()),
              R.replace(max_payout=30)):
        args = (np.asarray(hand, np.uint8), u, np.zeros(0, np.uint8), kernel_rules(r), r.exchange_counts, True)
        grouped = _dealer.solve(*args, after=AFTER)
        assert grouped.exchange == _dealer.solve(*args, card_by_card=True, after=AFTER).exchange
        assert grouped.exchange != _dealer.solve(*args).exchange
        # the results count the same play (two of each size: groups, flushes, folds)
        for throw in [hand[:1], hand[3:], hand[1:4], hand[:4], hand]:
            action = Action("exchange", tuple(throw))
            assert option_returns(hand, u, action, r, after=AFTER).ev == option_values(hand, u, [action], r,
                                                                                        after=AFTER)[0]


def test_deals_in_a_row_equal_each_alone():
    """The store shares work between deals (up-suit generations): with the card's decisions
    the values of a run of deals equal each deal's from an empty store."""
    rng = random.Random(3)
    deals = []
    for _ in range(8):
        cards = tuple(rng.sample(range(52), 6))
        deals += [cards, tuple(c & ~3 | (c + 1) & 3 for c in cards)]  # then the same ranks, suits moved
    actions = [Action("sixth_card")]
    run = []
    for cards in deals:
        hand = cards[:5]
        wanted = actions + [Action("exchange", hand[2:]), Action("exchange", hand[:2])]
        run.append(option_values(hand, cards[5], wanted, R, after=AFTER))
    for cards, values in zip(deals, run):
        clear_shared()
        hand = cards[:5]
        wanted = actions + [Action("exchange", hand[2:]), Action("exchange", hand[:2])]
        assert option_values(hand, cards[5], wanted, R, after=AFTER) == values


@pytest.mark.slow
def test_two_card_exchanges_against_reference_slow():
    hand, u = parse_cards("Jh Jd 8c 5s 2d"), parse_card("Ks")
    r = R.replace(exchange_min=2, exchange_max=2, sixth_card=False)
    for throw in (hand[3:], hand[:2]):
        assert option_values(hand, u, [Action("exchange", throw)], r, after=AFTER)[0] == ref.exchange(
            hand, u, throw, r, after=bets)


def test_after_is_one_entry_per_strength():
    hand, u = parse_cards("Ah Ad Kc 8s 9d"), parse_card("Kh")
    with pytest.raises(ValueError, match="7462"):
        option_values(hand, u, [Action("sixth_card")], R, after=AFTER[:100])


FOLD_ALL = np.zeros(N_STRENGTH, np.uint8)


def _gain_actions(hand):
    """A sixth card and two exchanges of each size: groups, flushes, the player's own flushes."""
    return [Action("sixth_card"), *(Action("exchange", t) for k in range(1, 6)
                                     for t in (tuple(hand[:k]), tuple(hand[5 - k:])))]


@pytest.mark.parametrize("text, up", DEALS)
def test_gains_give_the_value_under_any_card(text, up):
    """An option's value under a card's bet or fold after the draw is that of folding every final
    hand plus the gains of the strengths the card bets: under rules with redraws, a payout cap
    (insurance one by one) and dead cards; and the grouped gains equal the card-by-card ones."""
    hand, u = parse_cards(text), parse_card(up)
    cards = [AFTER, 1 - AFTER, np.ones(N_STRENGTH, np.uint8)]
    dead = [c for c in range(52) if c not in (*hand, u)][7:10]
    for r, d in ((R, ()), (R.replace(buy_redraws=3, dealer_qualifier="pair", exchange_forces_bet=()), ()),
                 (R.replace(max_payout=30), ()), (R, dead), (R.replace(exchange_forces_bet=(5,)), ())):
        for a in _gain_actions(hand):
            if a.kind == "exchange" and len(a.throw) in r.exchange_forces_bet:
                assert option_gains(hand, u, a, r, d) == Gains({}, 1)   # nothing to decide
                continue
            gains = option_gains(hand, u, a, r, d)
            folded = option_values(hand, u, [a], r, d, after=FOLD_ALL)[0]
            assert [option_values(hand, u, [a], r, d, after=c)[0] for c in cards] == [
                folded + gains.of(c) for c in cards]
            if a.kind == "exchange":
                mask = sum(1 << i for i, c in enumerate(hand) if c in a.throw)
                args = (np.asarray(hand, np.uint8), u, np.asarray(d, np.uint8), kernel_rules(r), (len(a.throw),),
                        False)
                assert _dealer.solve(*args, wanted=1 << mask, gains=True, card_by_card=True).gains == gains.numerators


def test_gains_of_deals_in_a_row_equal_each_alone():
    """The gains read the groups the store shares between deals of the same ranks alike."""
    rng = random.Random(5)
    deals = []
    for _ in range(6):
        cards = tuple(rng.sample(range(52), 6))
        deals += [cards, tuple(c & ~3 | (c + 1) & 3 for c in cards), tuple(c & ~3 | (c + 2) & 3 for c in cards)]
    run = [[option_gains(c[:5], c[5], a, R) for a in _gain_actions(c[:5])] for c in deals]
    for cards, gains in zip(deals, run):
        clear_shared()
        assert [option_gains(cards[:5], cards[5], a, R) for a in _gain_actions(cards[:5])] == gains


def test_gains_are_of_one_option():
    hand, u = parse_cards("Ah Ad Kc 8s 9d"), parse_card("Kh")
    args = (np.asarray(hand, np.uint8), u, np.zeros(0, np.uint8), kernel_rules(R))
    with pytest.raises(ValueError, match="one option"):
        _dealer.solve(*args, (1,), True, gains=True)
    with pytest.raises(ValueError, match="one option"):
        _dealer.solve(*args, (2,), False, wanted=0b11 | 0b101, gains=True)
    with pytest.raises(ValueError, match="gains are of"):
        option_gains(hand, u, Action("bet"), R)


@pytest.mark.parametrize("text, up", DEALS[:3])
def test_added_gains_are_the_gains_as_floats(text, up):
    hand, u = parse_cards(text), parse_card(up)
    for a in _gain_actions(hand)[:6]:
        into = np.zeros(N_STRENGTH)
        add_gains(into, hand, u, a, R, weight=3.0)
        exact = option_gains(hand, u, a, R)
        expected = np.zeros(N_STRENGTH)
        for s, v in exact.numerators.items():
            expected[s] = 3 * v / exact.denominator
        np.testing.assert_allclose(into, expected, rtol=1e-12, atol=0)
    with pytest.raises(ValueError, match="float64"):
        add_gains(np.zeros(N_STRENGTH, np.float32), hand, u, Action("sixth_card"), R)
