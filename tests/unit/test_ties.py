"""One convention for a tie between betting and folding, wherever the choice is made: a bet."""

from fractions import Fraction

import numpy as np

from solver import report, rules
from solver.action import Action
from solver.cards import parse_card, parse_cards
from solver.counts import BET, BET_COLUMNS
from solver.deal import Option, ranked, solve, solve_values
from solver.final_hand import BetValue
from solver.kernel_rules import kernel_rules


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


def test_options_are_ordered_by_ev_then_simplicity():
    """``solve``'s order, made on integers (``solve_values``) and with the simplicity read only for
    ties, is the plain one: exact EVs from the highest, equal EVs simplest first; ``leading=2``
    finds the same two best. Suit-symmetric hands tie many exchanges."""
    rng = np.random.default_rng(18)
    deals = [(parse_cards("Ah Ad Kc 8s 9d"), parse_card("Kh")), (parse_cards("2h 3h 4h 5h 6h"), parse_card("7h"))]
    deals += [(tuple(int(c) for c in d[:5]), int(d[5])) for d in (rng.permutation(52)[:6] for _ in range(12))]
    for hand, up in deals:
        hand = tuple(hand)
        options = solve(hand, up).options
        assert list(options) == sorted(options, key=lambda o: (-o.ev, *o.action.simplicity()))
        _, values = solve_values(hand, up, leading=2)
        assert [(Action.from_code(code, hand), Fraction(num, den)) for code, num, den in values[:2]] == [
            (o.action, o.ev) for o in options[:2]]
    ties = [Option(Action("exchange", (c,)), Fraction(1, 3)) for c in (9, 5, 7)]
    ties.append(Option(Action("fold"), Fraction(-1)))
    assert [o.action.throw for o in ranked(ties)] == [(5,), (7,), (9,), ()]
