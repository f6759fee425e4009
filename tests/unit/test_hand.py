import csv
import hashlib
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import rules
from solver._kernel import _eval
from solver.cards import parse_cards
from solver.category import CATEGORIES
from solver.hand import N_STRENGTH, STRENGTH_CATEGORY, evaluate, payouts, strengths
from solver.reference import hand as ref

NEW_RANK = rules.DEFAULT.replace(second_rule="new_rank")


DATA = Path(__file__).parents[1] / "data"


def worked_examples():
    with open(DATA / "worked_examples.csv") as f:
        rows = [line for line in f if not line.startswith("#")]
    return list(csv.DictReader(rows))


@pytest.mark.parametrize("row", worked_examples(), ids=lambda row: row["hand"])
def test_worked_examples_of_rules_section_4(row):
    cards = parse_cards(row["hand"])
    for r, key in ((rules.DEFAULT, "p_any_new_card"), (NEW_RANK, "p_new_rank")):
        value = evaluate(cards, r)
        assert value.payout == int(row[key])
        assert ref.payout(cards, r) == int(row[key])
        assert CATEGORIES[value.category] == row["main"]
    value = evaluate(cards)
    assert (CATEGORIES[value.second_category] if value.second_category is not None else "-") == row["second"]
    # the second combination holds a card outside the main combination's cards
    if value.second:
        assert set(value.second) - set(value.main)


def test_second_combination_off_pays_the_main_only():
    off = rules.DEFAULT.replace(second_combination=False)
    assert evaluate(parse_cards("Ah Ad Ac As 7d 7c"), off).payout == 20
    assert evaluate(parse_cards("Ah Ad Kc 8s 9d"), off).payout == 1


@pytest.fixture(scope="module")
def five_card_strengths():
    hands = _eval.all_hands(5)
    return hands, _eval.evaluate(hands)


def test_five_card_counts_by_category(five_card_strengths, hand_counts):
    hands, s = five_card_strengths
    assert len(hands) == 2_598_960
    assert np.bincount(STRENGTH_CATEGORY[s], minlength=11).tolist() == hand_counts["five_card_by_category"]
    assert len(np.unique(s)) == N_STRENGTH


def test_five_card_order_golden_checksum(five_card_strengths, hand_counts):
    _, s = five_card_strengths
    assert hashlib.sha256(s.astype("<u2").tobytes()).hexdigest() == hand_counts["five_card_strength_sha256"]


def test_every_strength_class_is_ordered_as_the_reference(five_card_strengths):
    """One hand per strength: the reference strictly increases along the kernel's order."""
    hands, s = five_card_strengths
    _, first = np.unique(s, return_index=True)
    keys = [ref.strength(tuple(int(c) for c in hands[i])) for i in first]
    assert all(a < b for a, b in zip(keys, keys[1:]))
    # and random hands land in the class of the representative with the same reference strength
    rng = np.random.default_rng(7)
    for i in rng.integers(0, len(hands), 20_000):
        assert ref.strength(tuple(int(c) for c in hands[i])) == keys[s[i]]


def test_five_card_payout_counts(five_card_strengths, hand_counts):
    hands, _ = five_card_strengths
    values, counts = np.unique(payouts(hands), return_counts=True)
    assert dict(zip(map(str, values.tolist()), counts.tolist())) == hand_counts["five_card_by_payout"]


@pytest.mark.slow
def test_six_card_counts_by_main_category_and_payout(hand_counts):
    hands = _eval.all_hands(6)
    assert len(hands) == 20_358_520
    s = _eval.evaluate(hands, False)
    assert np.bincount(STRENGTH_CATEGORY[s], minlength=11).tolist() == hand_counts["six_card_by_category"]
    values, counts = np.unique(payouts(hands), return_counts=True)
    expected = hand_counts["six_card_by_payout"]["any_new_card"]
    assert dict(zip(map(str, values.tolist()), counts.tolist())) == expected


@pytest.mark.slow
def test_six_card_payout_counts_new_rank(hand_counts):
    values, counts = np.unique(payouts(_eval.all_hands(6), NEW_RANK), return_counts=True)
    assert dict(zip(map(str, values.tolist()), counts.tolist())) == hand_counts["six_card_by_payout"]["new_rank"]


@pytest.mark.parametrize(
    "low, high",
    [
        ("5h 4d 3c 2s Ah", "6h 5d 4c 3s 2h"),  # the wheel is the lowest straight
        ("Kh Qd Jc 9s 7h", "Ah Kd 4c 3s 2h"),  # every AK beats every no game
        ("Ah Kd 5c 3s 2h", "2h 2d 3c 4s 6h"),  # the lowest pair beats the best AK
        ("5s 4s 3s 2s As", "6h 5h 4h 3h 2h"),  # steel wheel is the lowest straight flush
        ("Ks Qs Js Ts 9s", "As Ks Qs Js Ts"),  # royal flush on top
        ("Ah Ad Kc Ks 3d", "Ah Ad Kc Ks 4d"),  # kicker of two pair
        ("9h 9d 9c 2s 2h", "9h 9d 9c 3s 3d"),  # full house: the three, then the two
    ],
)
def test_order_edge_cases(low, high):
    a, b = strengths([parse_cards(low), parse_cards(high)])
    assert a < b
    assert ref.strength(parse_cards(low)) < ref.strength(parse_cards(high))


def test_suits_never_break_ties():
    a, b = strengths([parse_cards("Ah Kd 9c 5s 3h"), parse_cards("As Kc 9d 5h 3c")])
    assert a == b


cards6 = st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True)
paytables = st.lists(st.integers(0, 200), min_size=10, max_size=10)


@settings(max_examples=400, deadline=None)
@given(cards=cards6, five=st.booleans(), second_rule=st.sampled_from(["any_new_card", "new_rank"]),
       second_on=st.booleans(), table=paytables)
def test_kernel_matches_reference(cards, five, second_rule, second_on, table):
    hand = tuple(cards[:5] if five else cards)
    r = rules.DEFAULT.replace(second_rule=second_rule, second_combination=second_on, paytable=(0, *table))
    assert payouts([hand], r)[0] == ref.payout(hand, r)
    best = ref.best_strength(hand)
    # the kernel's strength sits in the class whose reference strength is best
    same = [h for h in [hand[:5]] if ref.strength(h) == best]
    if same:
        assert strengths([same[0]])[0] == strengths([hand])[0]


def test_suited_six_card_hands_match_reference():
    """Flush-heavy six-card hands, where the second combination is most intricate."""
    rng = random.Random(11)
    for _ in range(300):
        suit = rng.randrange(4)
        ranks = rng.sample(range(13), 5 + rng.randrange(2))
        hand = [4 * r + suit for r in ranks]
        while len(hand) < 6:
            c = rng.randrange(52)
            if c not in hand:
                hand.append(c)
        for r in (rules.DEFAULT, NEW_RANK):
            assert payouts([hand], r)[0] == ref.payout(hand, r)


def test_bad_rows_are_refused():
    with pytest.raises(ValueError, match="5 or 6 cards"):
        strengths([[1, 2, 3, 4]])
    with pytest.raises(ValueError, match="repeated"):
        strengths([[1, 2, 3, 4, 4]])
    with pytest.raises(ValueError, match="out of range"):
        strengths([[1, 2, 3, 4, 52]])
