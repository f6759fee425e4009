"""A card's advice on one deal (``strategy.advice``, ``rpoker strategy advise``, ``best --card``)
against the solver and the literal reference."""

import json
import random
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from typer.testing import CliRunner

from solver import rules
from solver.cards import parse_card, parse_cards
from solver.cli import app
from solver.deal import solve
from solver.errors import InputError
from solver.final_hand import buy_game
from solver.hand import evaluate
from solver.reference import deal as ref
from solver.reference import hand as ref_hand
from solver.strategy import Seen, advice, load, parse

R = rules.DEFAULT


def _deals(n: int, seed: int):
    rng = random.Random(seed)
    for _ in range(n):
        cards = rng.sample(range(52), 6)
        yield tuple(cards[:5]), cards[5]


@pytest.mark.parametrize("name", ["russian-derived-first", "russian-tip-keep-high-cards"])
def test_the_first_decision_equals_solve_on_random_deals(name):
    """A card that states only its first decision: its EV is that of its action as ``solve``
    counts it, the best is ``solve``'s best, and it costs nothing exactly where both agree."""
    card = load(name)
    for hand, up in _deals(12, 7):
        a = advice.first(card, hand, up, R)
        s = solve(hand, up, R)
        line = int(card.decide(Seen.of(np.asarray([hand], np.uint8), np.asarray([up])))[0])
        assert a.rule is card.first[line]
        mine = next(o for o in s.options if o.action.words(hand) == a.card_action)
        assert a.card_ev == mine.ev and a.best_ev == s.best.ev and a.best_action == s.best.action.words(hand)
        assert a.cost >= 0 and (a.cost == 0) == (mine.ev == s.best.ev)


def test_a_card_s_later_rules_count_in_its_first_decision():
    """A card that bets, folds and insures its own way after a draw: its exchange's EV is the
    literal reference asking the card's rules of every final hand the exchange draws (all but 12
    cards dead, so that the reference is quick)."""
    card = load("russian-derived")
    hand, up = parse_cards("Ah Kd 9c 5s 3d"), parse_card("9h")
    rest = [c for c in range(52) if c not in (*hand, up)]
    dead = tuple(random.Random(3).sample(rest, len(rest) - 12))
    a = advice.first(card, hand, up, R, dead)
    assert a.card_action.startswith("exchange") and a.cost > 0
    thrown = tuple(parse_cards(a.card_action.split(",")[0].removeprefix("exchange ")))
    matched = any(c >> 2 == up >> 2 for c in thrown)

    def bets(final) -> bool:
        five = max(combinations(final, 5), key=ref_hand.strength)
        seen = Seen.of(np.asarray([five], np.uint8), np.asarray([up], np.uint8), np.asarray([matched]))
        return card.after_draw[int(card.decide_after(seen)[0])].action == "bet"

    assert a.card_ev == ref.exchange(hand, up, thrown, R, dead, after=bets, play=card.play)
    assert a.best_ev == max(o.ev for o in solve(hand, up, R, dead).options)


@pytest.mark.parametrize("final, up, thrown", [("Jh Jd Jc 4h 2h", "Ks", "8c 5s 2d"), ("Ah Kd 8c 5s 3d", "Jd", "Jc 4h"),
                                               ("Jh Jd 8c 5s 2d Jc", "Ks", "")])
def test_the_bet_after_a_draw_against_the_reference(final, up, thrown):
    """After a draw: the best is the literal reference's bet or fold; the card's decision is its
    first ``[[after_draw]]`` rule that holds on the five cards that play."""
    card = load("russian-derived")
    final_cards, u, out = parse_cards(final), parse_card(up), parse_cards(thrown)
    a = advice.final_after_draw(card, final_cards, u, R, out)
    expected = ref.bet_values(final_cards, u, ref.unseen([*final_cards, u, *out]), R)["ev"]
    assert a.best_ev == max(expected, Fraction(-1)) and a.best_action == ("bet" if expected >= -1 else "fold")
    five = max(combinations(final_cards, 5), key=ref_hand.strength)
    matched = any(c >> 2 == u >> 2 for c in out)
    line = int(card.decide_after(Seen.of(np.asarray([five], np.uint8), np.asarray([u]), np.asarray([matched])))[0])
    assert a.rule is card.after_draw[line] and a.card_action == card.after_draw[line].action
    mine = ref.bet_values(final_cards, u, ref.unseen([*final_cards, u, *out]), R, card.play, matched)["ev"]
    assert a.card_ev == (mine if a.card_action == "bet" else -1) and a.cost >= 0


def test_a_card_s_buy_rule():
    """A card that buys whenever the hand pays P >= 2: the buy's EV where it buys, the ante's
    where the best would buy and the card does not; without the rule, the best."""
    card = parse('rules = "russian"\n[[first]]\ndo = "optimal"\n[buy_game]\ndo = "buy"\npays_at_least = 2\n', "b.toml")
    dealer = parse_cards("Js 9h 7c 5d 2d")
    for final in ("Ts Td Tc 4h 4s", "Ah Kd 8c 5s 3d"):
        d = buy_game(parse_cards(final), dealer, R)
        a = advice.buy(card, parse_cards(final), dealer, R)
        p = evaluate(parse_cards(final), R).payout
        assert a.card_ev == (d.buy if p >= 2 else d.take_ante) and a.best_ev == max(d.buy, d.take_ante)
    plain = advice.buy(load("russian-derived-first"), parse_cards("Ah Kd 8c 5s 3d"), dealer, R)
    assert plain.rule is None and plain.cost == 0


def test_the_command():
    run = CliRunner().invoke
    out = run(app, ["strategy", "advise", "russian-derived-first", "As Ks Qd 7c 2h", "--up", "9s", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    a = advice.first(load("russian-derived-first"), parse_cards("As Ks Qd 7c 2h"), parse_card("9s"), R)
    assert data["decision"] == "first" and data["card_ev"]["exact"] == str(a.card_ev)
    assert data["line"]["line"] == a.rule.line and Fraction(data["cost"]["exact"]) == a.cost
    out = run(app, ["best", "As Ks Qd 7c 2h", "--up", "9s", "--card", "russian-derived-first", "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["card"] == data
    out = run(app, ["strategy", "advise", "russian-derived", "Ah Kd 8c 5s 3d", "--up", "Jd", "--thrown", "Jc 4h"])
    assert out.exit_code == 0 and "the bet or fold after the draw" in out.stdout
    for args, why in [(["strategy", "advise", "russian-derived", "Ah Kd 8c 5s 3d"], "--up"),
                      (["best", "As Ks Qd 7c 2h", "--up", "9s", "--card", "caribbean-published"], "--rules caribbean"),
                      (["strategy", "advise", "nope.toml", "Ah Kd 8c 5s 3d", "--up", "2c"], "cannot read"),
                      (["strategy", "advise", "russian-derived", "Ah Kd 8c 5s 3d", "--up", "Ah"], "up-card")]:
        out = run(app, args)
        assert out.exit_code == 2 and why in out.stderr and "Traceback" not in out.output, (args, out.output)
    with pytest.raises(InputError, match="dealt hand"):
        advice.final_after_draw(load("russian-derived"), parse_cards("Ah Kd 8c 5s 3d"), parse_card("2c"), R)


def test_suits_do_not_matter():
    """The same deal in other suits: the same line, actions and EVs."""
    card = load("russian-derived")
    hand, up = parse_cards("Qh Qd 9h 6h 2c"), parse_card("Ts")
    swap = {0: 3, 1: 2, 2: 1, 3: 0}
    other = tuple(4 * (c >> 2) + swap[c & 3] for c in hand)
    a, b = advice.first(card, hand, up, R), advice.first(card, other, 4 * (up >> 2) + swap[up & 3], R)
    assert (a.rule, a.card_ev, a.best_ev) == (b.rule, b.card_ev, b.best_ev)
