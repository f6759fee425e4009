"""What a strategy card says on one deal, beside the best play, each exactly (``rpoker strategy
advise``): the line that decides, the card's action and the best, both EVs and what following
the card costs on this deal.

Three decisions: the first (``first``: fold, bet, a sixth card or an exchange, then the card's
own later rules), the bet or fold of the final hand after a draw (``after_draw``, with the
card's insurance), and taking the ante or buying the dealer a game (``buy``). Where the card
leaves a decision to the solver (``optimal``, no ``[[after_draw]]``), its action is the best.

>>> from solver.cards import parse_cards, parse_card
>>> from solver.rules import load as load_rules
>>> from solver.strategy.card import load
>>> a = first(load("caribbean-published"), parse_cards("Ah Kd 9c 5s 3d"), parse_card("9h"), load_rules("caribbean"))
>>> a.card_action, a.best_action, a.cost >= 0
('bet', 'bet', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..action import Action
from ..cards import Card, format_cards
from ..deal import option_values, solve
from ..errors import InputError
from ..final_hand import bet_value, buy_game, check_final
from ..fraction_text import fraction_json
from ..hand import evaluate
from ..rules import Rules
from . import after_draw
from .card import Rule, StrategyCard
from .hands import Seen

FIRST, AFTER_DRAW, BUY = "first", "after_draw", "buy"     # the decisions a card is asked about


@dataclass(frozen=True)
class Advice:
    """One decision of a deal: the card's line that decides it (None: the card leaves it to the
    solver), the card's action and the best in words, and their exact EVs in antes."""

    decision: str
    rule: Rule | None
    card_action: str
    best_action: str
    card_ev: Fraction
    best_ev: Fraction
    insurance: tuple[int, int] | None = None   # after a draw, when the card bets: (the card's size, the best's)

    @property
    def cost(self) -> Fraction:
        """What following the card gives up on this deal (0 where it plays the best)."""
        return self.best_ev - self.card_ev

    @property
    def line_words(self) -> str:
        if self.rule is None:
            return "the card leaves it to the solver"
        return f"line {self.rule.line}: {self.rule.words()}"


def first(card: StrategyCard, hand: Sequence[Card], up_card: Card, rules: Rules,
          dead: Sequence[Card] = ()) -> Advice:
    """The first decision of a dealt hand: the card's action, played on with the card's own bet
    or fold after a draw, insurance and buys, against the best action played on at its best."""
    card.check_play(rules)
    hand, dead = tuple(hand), tuple(dead)
    solution = solve(hand, up_card, rules, dead)
    seen = Seen.of(np.asarray([hand], np.uint8), np.asarray([up_card]))
    line = card.decide(seen)
    if line[0] < 0:
        raise InputError(f"strategy file {card.path}: no rule decides {format_cards(hand)} against "
                         f"the up-card {format_cards([up_card])}")
    best, second = solution.options[0].action, solution.options[1].action
    code = card.codes(seen, line, rules, np.asarray([best.code(hand)]), np.asarray([second.code(hand)]))[0]
    action = Action.from_code(int(code), hand)
    after = after_draw.row(card.after_table, up_card, action) if card.after_table is not None else None
    card_ev = option_values(hand, up_card, [action], rules, dead, after=after, play=card.play)[0]
    return Advice(FIRST, card.first[int(line[0])], action.words(hand), best.words(hand), card_ev, solution.best.ev)


def final_after_draw(card: StrategyCard, final: Sequence[Card], up_card: Card, rules: Rules,
                     thrown: Sequence[Card] = (), dead: Sequence[Card] = ()) -> Advice:
    """The bet or fold of a final hand (5 cards after exchanging ``thrown``, or 6 after a sixth
    card): the card's, betting with its insurance, against the best bet or fold with the best
    insurance."""
    card.check_play(rules)
    final, thrown = tuple(final), tuple(thrown)
    check_final(final, thrown, rules)
    if len(final) == 5 and not thrown:
        raise InputError("five cards and none thrown are the dealt hand: its decision is the first one "
                         "(name the cards thrown with --thrown)")
    best_bet = bet_value(final, up_card, rules, thrown, dead)
    mine = best_bet if card.play.best else bet_value(final, up_card, rules, thrown, dead, play=card.play)
    thrown_up = any(c >> 2 == up_card >> 2 for c in thrown)
    rule: Rule | None = None
    if card.after_table is None:
        bets = mine.should_bet
    else:
        strength = evaluate(final, rules).strength      # of six cards, the best five's
        seen = Seen.of(after_draw.final_hands()[[strength]], np.zeros(1, np.uint8)).facing(up_card >> 2, thrown_up)
        rule = card.after_draw[int(after_draw.first_holding(card.after_draw, seen)[0])]
        bets = bool(card.after_table[int(thrown_up), up_card >> 2, strength])
    best_ev = max(best_bet.ev, Fraction(-1))
    return Advice(AFTER_DRAW, rule, "bet" if bets else "fold", "bet" if best_bet.should_bet else "fold",
                  mine.ev if bets else Fraction(-1), best_ev,
                  (mine.insurance_size, best_bet.insurance_size) if bets else None)


def buy(card: StrategyCard, final: Sequence[Card], dealer: Sequence[Card], rules: Rules,
        thrown: Sequence[Card] = (), dead: Sequence[Card] = ()) -> Advice:
    """The dealer does not qualify: the card's take-the-ante or buy (by its ``buy_game`` rule)
    against the best, seeing the dealer's five cards."""
    card.check_play(rules)
    d = buy_game(final, dealer, rules, thrown, dead)
    rule_from = card.play.buy_from
    buys = d.should_buy if rule_from is None else evaluate(final, rules).payout >= rule_from
    words = {True: "buy a game", False: "take the ante"}
    return Advice(BUY, None, words[buys], words[d.should_buy], d.buy if buys else d.take_ante,
                  max(d.buy, d.take_ante))


def advise(card: StrategyCard, cards: Sequence[Card], up_card: Card | None, rules: Rules,
           thrown: Sequence[Card] = (), dealer: Sequence[Card] = (), dead: Sequence[Card] = ()) -> Advice:
    """The decision the cards name: with the ``dealer``'s five cards, buying a game with the final
    hand ``cards``; with cards ``thrown`` (or six cards), the bet or fold after the draw; else the
    first decision of the dealt hand."""
    if dealer:
        return buy(card, cards, dealer, rules, thrown, dead)
    if up_card is None:
        raise InputError("name the dealer's up-card (--up)")
    if thrown or len(cards) == 6:
        return final_after_draw(card, cards, up_card, rules, thrown, dead)
    return first(card, cards, up_card, rules, dead)


_HEADINGS = {FIRST: "the first decision", AFTER_DRAW: "the bet or fold after the draw", BUY: "buying a game"}


def to_json(card: StrategyCard, advice: Advice) -> dict[str, Any]:
    """An advice for programs (``rpoker strategy advise --json``): EVs as ``{value, exact}``."""
    out: dict[str, Any] = {
        "card": card.name, "decision": advice.decision,
        "line": None if advice.rule is None else {"line": advice.rule.line, "words": advice.rule.words()},
        "card_action": advice.card_action, "best_action": advice.best_action,
        "card_ev": fraction_json(advice.card_ev), "best_ev": fraction_json(advice.best_ev),
        "cost": fraction_json(advice.cost)}
    if advice.insurance is not None:
        out["insurance"] = {"card": advice.insurance[0], "best": advice.insurance[1]}
    return out


def to_text(card: StrategyCard, advice: Advice) -> str:
    """An advice for people: the line, the two actions with their EVs, the cost."""
    insured = ""
    if advice.insurance is not None and advice.insurance != (0, 0):
        insured = f" (insured {advice.insurance[0]}; the best insures {advice.insurance[1]})"
    if advice.cost == 0:
        verdict = "  the card plays the best here"
    elif advice.card_action == advice.best_action:
        verdict = (f"  the same action; the card's later decisions (after the draw, insurance, buys) give up "
                   f"{float(advice.cost):.9f} antes on this deal")
    else:
        verdict = f"  following the card costs {float(advice.cost):.9f} antes on this deal"
    lines = [f"{card.name}, {_HEADINGS[advice.decision]} — {advice.line_words}",
             f"  the card: {advice.card_action:<36} EV {float(advice.card_ev):+.9f}{insured}",
             f"  best:     {advice.best_action:<36} EV {float(advice.best_ev):+.9f}", verdict]
    return "\n".join(lines) + "\n"
