"""One convention for a tie between betting and folding, wherever the choice is made: a bet."""

from fractions import Fraction

import numpy as np

from solver import report, rules
from solver.action import Action
from solver.counts import BET, BET_COLUMNS
from solver.deal import BetValue, Option, kernel_rules, ranked


def test_the_dealt_hand_bets_on_a_tie():
    options = [Option(Action("fold"), Fraction(-1)), Option(Action("bet"), Fraction(-1)),
               Option(Action("sixth_card"), Fraction(-1))]
    assert [o.action.kind for o in ranked(options)] == ["bet", "fold", "sixth_card"]
    assert [o.action.kind for o in ranked(options[::-1])] == ["bet", "fold", "sixth_card"]


def test_the_advice_after_a_draw_bets_on_a_tie():
    assert BetValue(Fraction(-1), Fraction(-1), Fraction(0), 0, Fraction(0)).should_bet
    assert not BetValue(Fraction(-1) - Fraction(1, 10**9), Fraction(-2), Fraction(0), 0, Fraction(0)).should_bet


def test_the_report_bets_on_a_tie():
    counts = np.zeros((3, len(BET_COLUMNS)), np.int64)
    counts[:, BET["n"]], counts[:, BET["den"]] = 10, 3
    counts[:, BET["value"]] = [-30, -31, -29]      # worth -1 exactly, less, more
    ones = np.ones(3, np.int64)
    c = report.Counts(ones, ones, ones, counts, ones, kernel_rules(rules.DEFAULT))
    assert report.optimal_bet(c).tolist() == [True, False, True]
