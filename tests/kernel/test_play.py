"""The player's rules of insurance and buying a game (``Play``) in the kernel, against the
literal reference: every dealer hand and buy draw enumerated, each game bought or not and each
insurance taken as the rule says."""

import random
from fractions import Fraction

import numpy as np
import pytest

from solver import rules
from solver._kernel import _dealer
from solver._kernel._store import clear_shared
from solver.action import Action
from solver.cards import parse_card, parse_cards
from solver.deal import option_returns, option_values, solve
from solver.errors import InputError
from solver.hand import evaluate
from solver.kernel_rules import kernel_rules, play_rules
from solver.play import NEVER, Play
from solver.reference import deal as ref

R = rules.DEFAULT
#: where a card's [[insurance]] rules insure, at random (a card of the up-card's rank thrown away or
#: not × 13 up ranks × 7462 final strengths)
WHEN = np.random.default_rng(23).integers(0, 2, 2 * 13 * 7462).astype(np.uint8).tobytes()
#: never / always / by the hand's payout / by the final hand and the up-card / one decision the solver's
PLAYS = [Play(NEVER, NEVER), Play(0, 0), Play(3, 2), Play(None, 1), Play(NEVER, None), Play(5, NEVER),
         Play(0, 4, WHEN), Play(3, None, WHEN)]
VARIANTS = [R, R.replace(buy_redraws=0), R.replace(buy_redraws=3), R.replace(ante_on_win="paid"),
            R.replace(dealer_qualifier="pair"), R.replace(buy_game_fee=2), R.replace(insurance_max="half_payout"),
            R.replace(insurance_min="bet")]


def test_bet_of_a_final_hand_against_brute_force():
    """Final hands of 5 and 6 cards from AK to a straight flush (and below AK: no buy), many of
    one suit (the dealer's flush draws after a buy), dead cards: the counts, the buys' split, the
    insurance taken and the value equal the literal enumeration's under every rule."""
    rng = random.Random(5)
    checked, differ = 0, 0
    while checked < 60:
        r, play = rng.choice(VARIANTS), PLAYS[checked % len(PLAYS)]
        k = rng.choice([5, 5, 6])
        suit = rng.randrange(4)
        cards = (rng.sample([c for c in range(52) if c % 4 == suit], rng.choice([2, 3, 4]))
                 + rng.sample([c for c in range(52) if c % 4 != suit], 5))[:k + 1]
        rng.shuffle(cards)
        final, up = cards[:k], cards[k]
        v = evaluate(final, r)
        if v.category < 1 and rng.random() < 0.8:    # mostly hands that may buy (AK or better)
            continue
        dead = rng.sample([c for c in range(52) if c not in cards], rng.choice([0, 0, 3]))
        args = (np.asarray(final, np.uint8), up, np.asarray(final + dead, np.uint8))
        fast = _dealer.situation(*args, play_rules(r, play, up), v.payout)
        deck = ref.unseen([*final, *dead, up])
        assert tuple(fast.counts) == tuple(ref.situation(final, up, deck, r, play)), (r.name, play, final, up)
        c = fast.counts
        assert Fraction(fast.value, c.n * c.den) == ref.bet_values(final, up, deck, r, play)["ev"]
        differ += fast.value != _dealer.situation(*args, kernel_rules(r), v.payout).value
        checked += 1
    assert differ >= 12      # the rules change the play, not only in name


# a flush draw, four to a straight flush, trips whose thrown card has the up-card's rank by default;
# a pair matching the up-card, trips of the up-card's rank and an AK with the slow checks
DEALS = [pytest.param("Ah Ad Kc 8s 9d", "Kh", marks=pytest.mark.slow), ("2h 5h 9h Jh Kc", "3h"),
         pytest.param("7c 7d 7h Ks 2c", "7s", marks=pytest.mark.slow),
         pytest.param("Ah Kh 9c 5d 3s", "Qh", marks=pytest.mark.slow), ("Ts 9s 8s 7s 2d", "Js"),
         ("9c 9d 9h Kd 4s", "4h")]


@pytest.mark.parametrize("text, up", DEALS)
def test_options_against_reference(text, up):
    """The bet, a sixth card and one-card exchanges under a player's rules: EVs as the reference
    counts them (each final hand bet or folded by its value under those rules; insured, by the
    final hand and whether the exchange threw a card of the up-card's rank away), and the results
    count the same play."""
    hand, u = parse_cards(text), parse_card(up)
    actions = [Action("bet"), Action("sixth_card"), Action("exchange", (hand[4],)), Action("exchange", (hand[0],))]
    for play in (Play(0, 0), Play(NEVER, 2), Play(0, None, WHEN)):
        # one call counts them all, but under an insurance that reads the thrown card each apart
        values = (option_values(hand, u, actions, R, play=play) if play.insure_when is None
                  else [option_values(hand, u, [a], R, play=play)[0] for a in actions])
        assert values[0] == ref.bet(hand, u, R, play=play)
        assert values[1] == ref.sixth_card(hand, u, R, play=play)
        for a, v in zip(actions[2:], values[2:]):
            assert v == ref.exchange(hand, u, a.throw, R, play=play)
        for a, v in zip(actions[:3], values[:3]):
            assert option_returns(hand, u, a, R, play=play).ev == v
    assert option_values(hand, u, actions, R, play=Play(0, 0)) != option_values(hand, u, actions, R)


def test_the_thrown_card_is_read_by_the_insurance():
    """An exchange that throws a card of the up-card's rank away is insured by that half of the
    card's insurance table: the same final hands, insured the other way, count otherwise; one
    call cannot count exchanges the table tells apart, and a table of one half is refused."""
    hand, u = parse_cards("9c 9d 9h Kd 4s"), parse_card("4h")
    throw_four, throw_king = Action("exchange", (hand[4],)), Action("exchange", (hand[3],))
    assert throw_four.throws_rank_of(u) and not throw_king.throws_rank_of(u)
    n = len(WHEN) // 2
    swapped = Play(0, None, WHEN[n:] + WHEN[:n])
    for a in (throw_four, throw_king):
        assert option_values(hand, u, [a], R, play=Play(0, None, WHEN)) != option_values(hand, u, [a], R, play=swapped)
    with pytest.raises(ValueError, match="apart"):
        option_values(hand, u, [throw_four, throw_king], R, play=Play(0, None, WHEN))
    with pytest.raises(ValueError, match="insure_when: 2 x 13 x 7462 bytes"):
        Play(0, None, WHEN[:n])         # a table of one half alone


def test_results_against_reference():
    hand, u = parse_cards("Ah Kh 9c 5d 3s"), parse_card("Qh")
    for play in (Play(0, 0), Play(NEVER, NEVER), Play(0, 4, WHEN)):
        expected = ref.option_results(hand, u, R, "exchange", (hand[2],), play=play)
        r = option_returns(hand, u, Action("exchange", (hand[2],)), R, play=play)
        assert {x: r.probability(k) for x, k in r.results.items()} == expected


@pytest.mark.parametrize("text, up", [("Jh Jd 8c 5s 2d", "Ks"), ("Ah Kh 9h 5d 3s", "Qh")])
def test_grouped_exchanges_equal_card_by_card(text, up):
    """All 31 exchanges: the grouped sums (shared buy plans, the other suits' flush draws) equal
    the outcome-by-outcome values under the player's rules, with redraws and a pair qualifier too."""
    hand, u = parse_cards(text), parse_card(up)
    for r, play in ((R, Play(0, 0)), (R.replace(buy_redraws=3, dealer_qualifier="pair"), Play(0, 0)),
                    (R, Play(0, 4, WHEN))):
        args = (np.asarray(hand, np.uint8), u, np.zeros(0, np.uint8), play_rules(r, play, u), r.exchange_counts, True)
        grouped = _dealer.solve(*args)
        assert grouped.exchange == _dealer.solve(*args, card_by_card=True).exchange
        assert grouped.exchange != _dealer.solve(*args[:3], kernel_rules(r), *args[4:]).exchange


def test_deals_in_a_row_equal_each_alone():
    """The store shares buy plans between deals of the same ranks: a deal counted under the
    player's rules right after the same deal under the best play (and back) equals it alone."""
    hand, u = parse_cards("Ah Kh 9c 5d 3s"), parse_card("Qh")
    wanted = [Action("sixth_card"), Action("exchange", hand[2:])]
    other = bytes(1 - b for b in WHEN)          # another table of insurance: the store must tell them apart
    plays = (Play(0, 0), Play(0, 0, WHEN), Play(0, 0, other))
    alone = []
    for play in plays:
        clear_shared()
        alone.append(option_values(hand, u, wanted, R, play=play))
    clear_shared()
    best = option_values(hand, u, wanted, R)
    for play, values in zip(plays, alone):
        assert option_values(hand, u, wanted, R, play=play) == values
    assert option_values(hand, u, wanted, R) == best
    assert len({tuple(v) for v in alone}) == 3


def test_best_play_is_the_default_and_bounds_refuse_a_rule():
    hand, u = parse_cards("Ah Ad Kc 8s 9d"), parse_card("Kh")
    assert option_values(hand, u, [Action("bet")], R, play=Play()) == [solve(hand, u).bet.ev]
    with pytest.raises(ValueError, match="bounds"):
        _dealer.solve(np.asarray(hand, np.uint8), u, np.zeros(0, np.uint8), kernel_rules(R, Play(0, 0)),
                      bound_counts=(5,))
    with pytest.raises(InputError, match="maximum payout"):
        option_values(hand, u, [Action("bet")], R.replace(max_payout=30), play=Play(NEVER, NEVER))
