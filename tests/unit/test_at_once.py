"""Lines split off a checked card's first decision (``at_once.split_lines``) against trying every
line by hand."""

import itertools
import random

import numpy as np
import pytest

from solver.classes import enumerate_classes
from solver.strategy import at_once
from solver.strategy.conditions import condition
from solver.strategy.hands import Seen
from solver.strategy.vocabulary import Line, narrowing

VOCABULARY = [("up", "2-7"), ("up", "8-A"), ("up", "5-J"), ("up", "8-J"), ("up_matches", True),
              ("up_matches", False), ("holds", "A"), ("holds", "K"), ("category", "pair"), ("category", "no_game"),
              ("group", "9-A"), ("up_below", 1), ("to_flush", 3)]
LINES = (Line((("category", "pair"),), "keep pair"), Line((("holds", "A"),), "bet"), Line((), "keep highest"))


@pytest.fixture(scope="module")
def sample():
    hands, ups, weight = enumerate_classes()
    rows = np.asarray(sorted(random.Random(3).sample(range(len(hands)), 4000)), np.int64)
    return Seen.of(hands[rows], ups[rows]), weight[rows]


def _holds(seen, when):
    out = np.ones(len(seen), bool)
    for key, value in when:
        out &= condition(key, value)[0](seen)
    return out


def _decided(seen, lines):
    line, left = np.full(len(seen), -1), np.ones(len(seen), bool)
    for k, rule in enumerate(lines):
        held = left & _holds(seen, rule.when)
        line[held], left = k, left & ~held
    return line


def _loss(seen, lines, losses, weight):
    """What a card's lines lose: a line of ``LINES`` as the card plays it, a line split off as its
    action at once."""
    line = _decided(seen, lines)
    out = 0.0
    for k, rule in enumerate(lines):
        loss = losses.card if rule in LINES else losses.of_action(rule.action)
        out += float(np.dot(weight[line == k], loss[line == k]))
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_line_split_off_is_the_best_of_all(sample, seed, monkeypatch):
    """One line split off is, of every line of the card, action at once (bet, fold) and one or two
    conditions a card can state after the line's own, the one that gains most; what it gains is
    what the card loses less; each more line split off gains more."""
    monkeypatch.setattr(at_once, "CHUNK", 700)            # the masks taken in parts
    seen, weight = sample
    rng = np.random.default_rng(seed)
    losses = at_once.AtOnce(*(rng.random(len(seen)) for _ in range(3)))
    line = _decided(seen, LINES)
    narrow = narrowing(VOCABULARY)
    best = 0.0
    for k, rule in enumerate(LINES):
        path = tuple(VOCABULARY.index(c) for c in rule.when)
        for action, (p, q) in itertools.product(("bet", "fold"), itertools.combinations_with_replacement(
                range(len(VOCABULARY)), 2)):
            first = narrow(path, p)
            both = first if first is None or p == q else narrow(first, q)
            if action == rule.action or both is None or both == path:
                continue
            taken = (line == k) & _holds(seen, [VOCABULARY[i] for i in both])
            best = max(best, float(np.dot(weight[taken], losses.card[taken] - losses.of_action(action)[taken])))
    deals = float(weight.sum())
    splits = at_once.split_lines(LINES, seen, line, losses, weight, VOCABULARY, 3)
    assert best > 0 and len(splits) == 3
    assert splits[0][1] == pytest.approx(best / deals, rel=1e-9)
    before = _loss(seen, LINES, losses, weight)
    for lines, gained in splits:
        assert gained == pytest.approx((before - _loss(seen, lines, losses, weight)) / deals, rel=1e-9)
        assert [r for r in lines if r in LINES] == list(LINES) and lines[-1] == LINES[-1]
    assert all(b[1] > a[1] for a, b in itertools.pairwise(splits))


def test_nothing_to_split_off(sample):
    """Where betting and folding at once lose more everywhere, no line is split off."""
    seen, weight = sample
    losses = at_once.AtOnce(np.zeros(len(seen)), np.ones(len(seen)), np.ones(len(seen)))
    assert at_once.split_lines(LINES, seen, _decided(seen, LINES), losses, weight, VOCABULARY, 2) == []
