"""The table maximum payout (``max_payout``, RULES §6): what a box is paid in one round, bet and
insurance together, is capped. The kernel's exact values against literal enumeration that
tries every insurance size: bets, the buy's split, sixth cards, exchanges, the results of a
round, the bounds of a compact build, the batch counts of a report."""

import random
from fractions import Fraction

import numpy as np
import pytest

from solver import report, rules
from solver._kernel import _dealer, _eval
from solver.cards import format_cards, parse_card, parse_cards
from solver.classes import enumerate_classes
from solver.deal import bet_counts, exchange_bounds, option_returns, solve
from solver.errors import InputError
from solver.final_hand import bet_value
from solver.hand import evaluate
from solver.kernel_rules import kernel_rules, payout_by_strength
from solver.reference import deal as ref
from solver.returns import bets_returns

R = rules.DEFAULT
VARIANTS = [R.replace(max_payout=m) for m in (5, 8, 12, 30, 200)] + [
    R.replace(max_payout=10, insurance_min="bet"), R.replace(max_payout=9, insurance_max="half_payout"),
    R.replace(max_payout=11, insurance_on_tie="returned"), R.replace(max_payout=13, ante_on_win="paid"),
    R.replace(max_payout=7, buy_redraws=0), R.replace(max_payout=15, buy_redraws=3, buy_game_fee=0),
    R.replace(max_payout=8, dealer_qualifier="pair")]


def _situation(final, up, dead, r):
    v = evaluate(final, r)
    return _dealer.situation(np.asarray(final, np.uint8), up, np.asarray([*final, *dead], np.uint8),
                             kernel_rules(r), v.payout)


def test_the_setting():
    assert R.max_payout is None and R.replace(max_payout=200).fingerprint != R.fingerprint
    assert "max_payout" not in R.to_dict()   # rules without it keep their fingerprints
    for bad in (0, -5, 10**7, "200", 2.5, True):
        with pytest.raises(InputError, match="'max_payout'"):
            R.replace(max_payout=bad)


def test_bets_against_every_insurance_size():
    """Random final hands of 5 and 6 cards (trips or better, where the cap meets the
    insurance), dead cards, every variant: the counts, the best insurance and the EV equal the
    literal enumeration of every dealer hand and buy draw with every size of insurance."""
    rng = random.Random(3)
    checked = capped = 0
    while checked < 60:
        r = rng.choice(VARIANTS)
        k = rng.choice([5, 5, 6])
        cards = rng.sample(range(52), k + 1)
        final, up = cards[:k], cards[k]
        v = evaluate(final, r)
        if v.category < 3:
            continue
        dead = rng.sample([c for c in range(52) if c not in cards], rng.choice([0, 0, 2]))
        deck = ref.unseen([*final, *dead, up])
        fast = _situation(final, up, dead, r)
        assert tuple(fast.counts) == ref.situation(final, up, deck, r), (r.max_payout, format_cards(final), up, dead)
        if k == 5:
            b, want = bet_value(final, up, r, (), dead), ref.bet_values(final, up, deck, r)
            assert (b.ev, b.insurance_size, b.no_insurance) == (want["ev"], want["size"], want["no_insurance"])
        capped += 2 * v.payout + 2 * v.payout > r.max_payout
        checked += 1
    assert capped >= 20   # the cap meets the insurance in a good share of them


@pytest.mark.parametrize("cards, up, m, fee, size", [
    ("Ad Kc As Ah Qs", "Qh", 6, 1, 5),      # M - 1: the ante paid to the insured hand meets the cap
    ("Ac Kh Ks Ah As", "Kd", 16, 1, 2),     # M - 2P: the buy's showdown meets it
    ("Ah As Kd Ks Kc", "Kh", 25, 0, 11),
])
def test_the_cap_can_make_a_middle_insurance_best(cards, up, m, fee, size):
    """Insurance and a bought game can both pay in one round: under the cap the best size is
    neither none nor the most (the reference tries each), and the kernel takes it."""
    r = R.replace(max_payout=m, buy_game_fee=fee)
    final, u = parse_cards(cards), parse_card(up)
    want = ref.bet_values(final, u, ref.unseen([*final, u]), r)
    b = bet_value(final, u, r)
    assert want["size"] == b.insurance_size == size and b.ev == want["ev"]
    assert b.ev > b.no_insurance and b.insurance_size < 2 * evaluate(final, r).payout


CASES = [("Ah As Ad Kd Qc", "5h", R.replace(max_payout=20, buy_game_fee=0)),
         ("Ts Td Tc 4h 4s", "9s", R.replace(max_payout=12)),
         ("Kc Ac Kh Ks 7d", "Kd", R.replace(max_payout=16, insurance_on_tie="returned")),
         ("9h 9d 9c 2s 5h", "3c", R.replace(max_payout=8, ante_on_win="paid"))]


@pytest.mark.parametrize("text, up, r", CASES)
def test_sixth_card_and_one_card_exchanges(text, up, r):
    hand, u = parse_cards(text), parse_card(up)
    s = solve(hand, u, r)
    assert s.option("sixth_card").ev == ref.sixth_card(hand, u, r)
    for c in hand:
        assert s.option("exchange", (c,)).ev == ref.exchange(hand, u, (c,), r)


@pytest.mark.parametrize("text, up, r", CASES[:3])
def test_every_result_of_a_round(text, up, r):
    """The return tables of a bet, a sixth card and an exchange under the cap: equal to the
    literal enumeration, their EVs the options'."""
    hand, u = parse_cards(text), parse_card(up)
    s = solve(hand, u, r)
    for o in (s.option("bet"), s.option("sixth_card"), s.option("exchange", (hand[4],))):
        got = option_returns(hand, u, o, r)
        assert got.ev == o.ev
        assert {x: Fraction(k, got.rounds) for x, k in got.results.items()} == \
            ref.option_results(hand, u, r, o.action.kind, o.action.throw)
        assert max(got.results) <= r.max_payout - (r.sixth_card_fee if o.action.kind != "bet" else 0)


@pytest.mark.parametrize("text, up, r", CASES)
def test_big_exchanges_grouped_bounded_and_leading(text, up, r):
    """Exchanges of 3 to 5 cards: the grouped sums equal the kernel's card-by-card path (the
    hands the cap meets are taken one by one in both), every bound is at least its exact EV,
    and solving for the best two gives the two best of all."""
    hand, u = parse_cards(text), parse_card(up)
    args = (np.asarray(hand, np.uint8), u, np.asarray([], np.uint8), kernel_rules(r), (3,))
    grouped = _dealer.solve(*args).exchange
    one_by_one = _dealer.solve(*args, card_by_card=True).exchange
    assert grouped == one_by_one
    s = solve(hand, u, r)
    for throw, most in exchange_bounds(hand, u, r, counts=(3, 4, 5)).items():
        assert s.option("exchange", throw).ev <= most
    assert solve(hand, u, r, leading=2).options[:2] == s.options[:2]


def test_a_cap_above_every_payout_changes_nothing():
    hand, u = parse_cards("Ah As Ad Kd Qc"), parse_card("5h")
    assert solve(hand, u, R.replace(max_payout=1_000_000)).options == solve(hand, u, R).options


def test_batch_counts_of_a_report_under_the_cap():
    """Rules without exchanges (the report counts their bets in batches): the batch counts
    give solve()'s bet, and the results of the strategy add up to the kernel's values (the
    report checks it) and cap every payout."""
    for r in (rules.load("caribbean").replace(max_payout=20),
              R.replace(exchange=False, sixth_card=False, max_payout=14)):
        hands, ups, _ = enumerate_classes()
        rng = random.Random(9)
        # strong hands, where the cap binds, and random ones
        strong = [k for k in rng.sample(range(len(hands)), 4000)
                  if evaluate(hands[k].tolist(), r).category >= 3][:25]
        rows = strong + rng.sample(range(len(hands)), 15)
        counts = bet_counts(hands[rows], ups[rows], r)
        for i, k in enumerate(rows):
            b = bet_value(hands[k].tolist(), int(ups[k]), r)
            assert Fraction(int(counts[i, 7]), int(counts[i, 0] * counts[i, 6])) == b.ev
            assert counts[i, 12] == b.insurance_size
        p = payout_by_strength(r)[_eval.evaluate(np.ascontiguousarray(hands[rows]), False)]
        played = bets_returns(counts, p.astype(np.int64), np.ones(len(rows), np.int64), kernel_rules(r),
                              r.buy_game_fee)
        assert max(played.results) <= r.max_payout
        assert report.COMPLETIONS == int(counts[0, 0])


@pytest.mark.slow
def test_two_card_exchange_under_the_cap_slow():
    hand, up = parse_cards("Ah Ad Kc Ks 7d"), parse_card("Kd")
    r = R.replace(max_payout=16, exchange_min=2, exchange_max=2, sixth_card=False)
    s = solve(hand, up, r)
    for throw in [(hand[4], hand[2]), (hand[4], hand[0])]:
        assert s.option("exchange", throw).ev == ref.exchange(hand, up, throw, r)
