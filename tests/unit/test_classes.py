import random

import numpy as np
import pytest

from solver import classes
from solver.cards import parse_card, parse_cards
from solver.deal import solve
from solver.rules import DEFAULT


@pytest.fixture(scope="module")
def table():
    return classes.enumerate_classes()


def test_counts_and_weights(table):
    hands, ups, weights = table
    assert len(hands) == classes.N_CLASSES == 5_649_150
    assert int(weights.sum()) == classes.N_DEALS == 122_151_120
    assert len(np.unique(classes._hand_keys(hands))) == 134_459
    keys = classes.class_keys(hands, ups)
    assert (np.diff(keys) > 0).all()  # sorted, no class twice
    assert not (hands == ups[:, None]).any()


def test_random_deals_map_to_listed_classes_and_back(table):
    hands, ups, weights = table
    keys = classes.class_keys(hands, ups)
    rng = random.Random(3)
    for _ in range(300):
        cards = rng.sample(range(52), 6)
        hand, up = cards[:5], cards[5]
        c = classes.canonical(hand, up)
        key = classes.class_keys(np.array([c.hand], np.uint8), np.array([c.up_card]))[0]
        i = np.searchsorted(keys, key)
        assert keys[i] == key
        assert set(c.to_user(c.hand)) == set(hand) and c.to_user([c.up_card]) == (up,)
        # any suit permutation of the deal lands in the same class
        k = rng.randrange(24)
        other = classes.canonical([int(classes.PERM_CARD[k][x]) for x in hand], int(classes.PERM_CARD[k][up]))
        assert (other.hand, other.up_card) == (c.hand, c.up_card)


def test_weights_count_the_deals_of_each_class(table):
    hands, ups, weights = table
    rng = np.random.default_rng(5)
    for i in rng.integers(0, len(hands), 200):
        hand, up = [int(x) for x in hands[i]], int(ups[i])
        images = {(tuple(sorted(int(classes.PERM_CARD[k][x]) for x in hand)), int(classes.PERM_CARD[k][up]))
                  for k in range(24)}
        assert weights[i] == len(images)


def test_a_class_solves_like_the_users_deal():
    hand, up = parse_cards("As Ks Qd 7c 2h"), parse_card("9s")
    c = classes.canonical(hand, up)
    r = DEFAULT.replace(exchange_max=1)
    mine, theirs = solve(hand, up, r), solve(c.hand, c.up_card, r)
    assert mine.bet.ev == theirs.bet.ev
    for o in theirs.options:
        assert mine.option(o.action.kind, c.to_user(o.action.throw)).ev == o.ev
