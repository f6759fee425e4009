"""One round of the trainer: seeded deals, the answers a player types, and each decision
scored by the exact EV of the choice against the best from that point on (``Decision.lost``,
in antes); the first decision's EVs are ``solve``'s, the later ones ``bet_value``'s and
``buy_game``'s. The round is played out as RULES §3-7 settle it.

>>> from solver.rules import DEFAULT
>>> deal = next(deals(7, DEFAULT))
>>> r = Round(deal, DEFAULT)
>>> r.question
'first'
>>> d = r.answer("fold")
>>> d.choice, d.lost >= 0, r.question
('fold', True, None)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..action import Action
from ..cards import RANKS, Card, format_cards, parse_card
from ..category import AK, PAIR, THREE_OF_A_KIND, TWO_PAIR
from ..deal import Solution, solve
from ..errors import InputError
from ..final_hand import bet_value, buy_game
from ..hand import evaluate, strengths
from ..kernel_rules import kernel_rules
from ..play import NEVER, Play
from ..rules import Rules
from ..strategy import StrategyCard, advice

FIRST, AFTER_DRAW, INSURANCE, BUY = "first", "after_draw", "insurance", "buy"
QUESTIONS = {FIRST: "your play", AFTER_DRAW: "bet or fold", INSURANCE: "insure", BUY: "take the ante or buy a game"}
HINTS = {
    FIRST: "f fold, b bet, s sixth card, or k and the cards to keep (k As Ks; k none: exchange all five; "
           "a rank alone where the hand holds one card of it: k A K)",
    AFTER_DRAW: "b bet, f fold",
    INSURANCE: "y insure (the most), n no insurance",
    BUY: "a take the ante, b buy a game",
}
QUIT = ("q", "quit", "exit")


@dataclass(frozen=True)
class Deal:
    """A shuffled deck as the game deals it: the hand (held highest card first, as a player
    sorts it, so that the answers name its cards in that order), the up-card, the dealer's four
    hidden cards, then the cards the draws and a bought game take, in order."""

    index: int
    hand: tuple[Card, ...]
    up_card: Card
    hidden: tuple[Card, ...]
    stock: tuple[Card, ...]

    @classmethod
    def of(cls, index: int, deck: Sequence[int]) -> Deal:
        d = tuple(deck)
        return cls(index, tuple(sorted(d[:5], reverse=True)), d[5], d[6:10], d[10:])

    @property
    def dealer(self) -> tuple[Card, ...]:
        return (self.up_card, *self.hidden)


def hand_group(cards: Sequence[Card], rules: Rules) -> str:
    """A hand's group in a player's words, as the trainer counts mistakes: the made hands by
    category, pairs by rank (with or without A K), A K by its third card, the draws (four to a
    flush, open and inside straight draws), else the highest card.

    >>> from solver.cards import parse_cards
    >>> from solver.rules import DEFAULT
    >>> [hand_group(parse_cards(h), DEFAULT) for h in ("7s 7d Ac Kd 2h", "As Kd Qc 7h 2s", "9s 8s 4s 2s Kd",
    ...                                                 "9s 8d 7c 6h 2s", "Qs Td 8c 5h 2s")]
    ['pair of 7s with A K', 'A K Q', 'four to a flush', 'open straight draw', 'no pair, Q high']
    """
    value = evaluate(cards, rules)
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    if value.category > THREE_OF_A_KIND or value.category in (TWO_PAIR, THREE_OF_A_KIND):
        return value.category_label
    if value.category == PAIR:
        pair = RANKS[value.main[0] >> 2]
        with_ak = 12 in ranks and 11 in ranks and pair not in "AK"
        return f"pair of {pair}s" + (" with A K" if with_ak else "")
    if value.category == AK:
        third = next(r for r in ranks if r < 11)
        return f"A K {RANKS[third]}"
    suits = [c & 3 for c in cards]
    if max(suits.count(s) for s in range(4)) >= 4:
        return "four to a flush"
    straight = _straight_draw(set(ranks))
    if straight:
        return straight
    return f"no pair, {RANKS[ranks[0]]} high"


def _straight_draw(ranks: set[int]) -> str | None:
    """"open straight draw" (four ranks in a row, both ends open), "inside straight draw" (four of
    five ranks in a row), else None; the ace plays low too."""
    low = ranks | ({-1} if 12 in ranks else set())
    for start in range(9, -2, -1):          # windows of five ranks, highest first
        window = set(range(start, start + 5))
        if len(window & low) == 4:
            run = sorted(window & low)
            open_ended = run[-1] - run[0] == 3 and -1 not in run and run[-1] != 12
            return "open straight draw" if open_ended else "inside straight draw"
    return None


@dataclass(frozen=True)
class Decision:
    """One answer scored exactly: the choice and the best in words, their EVs from that point of
    the round on (antes), and, with a card, the card's action and EV."""

    kind: str
    group: str
    choice: str
    best: str
    ev: Fraction
    best_ev: Fraction
    card: str | None = None
    card_ev: Fraction | None = None

    @property
    def lost(self) -> Fraction:
        return self.best_ev - self.ev

    @property
    def right(self) -> bool:
        return self.lost == 0


def _deck_of(rng: np.random.Generator) -> list[int]:
    return [int(c) for c in rng.permutation(52)]


def deals(seed: int, rules: Rules, focus: Sequence[str] = ()) -> Iterator[Deal]:
    """Seeded deals (the same seed, the same deals). With ``focus`` (hand groups), every other
    deal on average is one of those groups, drawn from the same stream."""
    rng = np.random.default_rng(seed)
    wanted = set(focus)
    index = 0
    while True:
        deck = _deck_of(rng)
        if wanted and rng.random() < 0.5:
            for _ in range(2000):            # the rarest groups take a few hundred shuffles
                if hand_group(deck[:5], rules) in wanted:
                    break
                deck = _deck_of(rng)
        index += 1
        yield Deal.of(index, deck)


def _yes(text: str, yes: tuple[str, ...], no: tuple[str, ...], kind: str) -> bool:
    word = text.strip().lower()
    if word in yes:
        return True
    if word in no:
        return False
    raise InputError(HINTS[kind])


def parse_first(text: str, hand: Sequence[Card], rules: Rules) -> Action:
    """A first decision in a player's words: fold, bet, sixth card, or the cards to keep (or to
    throw: ``t 7c 2h``).

    >>> from solver.cards import parse_cards
    >>> from solver.rules import DEFAULT
    >>> hand = parse_cards("As Ks Qd 7c 2h")
    >>> [parse_first(t, hand, DEFAULT).label for t in ("b", "k A K Q", "t 2h 7c", "k none")]
    ['bet', 'exchange 7c 2h', 'exchange 7c 2h', 'exchange As Ks Qd 7c 2h']
    """
    words = text.replace(",", " ").split()
    if not words:
        raise InputError(HINTS[FIRST])
    head, rest = words[0].lower(), words[1:]
    if not rest:
        if head in ("f", "fold"):
            return Action("fold")
        if head in ("b", "bet"):
            return Action("bet")
        if head in ("s", "six", "sixth"):
            if not rules.sixth_card:
                raise InputError(f"the rules {rules.name!r} have no sixth card")
            return Action("sixth_card")
    if head in ("s", "six", "sixth") and [w.lower() for w in rest] == ["card"]:
        return parse_first("s", hand, rules)
    throwing = head in ("t", "throw", "exchange", "x")
    if head in ("k", "keep") or throwing:
        named = rest
    else:
        named = words                        # cards alone: the cards to keep
    try:
        cards = () if [w.lower() for w in named] in (["none"], ["-"], ["nothing"]) else _held(named, hand)
    except InputError as e:
        raise InputError(str(e) if named is rest else HINTS[FIRST]) from None
    throw = tuple(c for c in hand if (c in cards) == throwing)
    if not throw:
        raise InputError("keeping all five cards is a bet or a fold: answer b or f")
    if not rules.exchange or len(throw) not in rules.exchange_counts:
        allowed = ", ".join(map(str, rules.exchange_counts)) if rules.exchange else "none"
        raise InputError(f"the rules {rules.name!r} do not allow exchanging {len(throw)} cards (allowed: {allowed})")
    return Action("exchange", throw)


def _held(tokens: Sequence[str], hand: Sequence[Card]) -> tuple[Card, ...]:
    """The cards of ``hand`` that ``tokens`` name: a card, or a rank the hand holds once."""
    out: list[Card] = []
    for token in tokens:
        t = token.upper()
        if len(t) == 1 and t in RANKS:
            held = [c for c in hand if c >> 2 == RANKS.index(t)]
            if len(held) != 1:
                raise InputError(f"the hand holds {len(held)} cards of rank {t}: name the card ({t}s, {t}h, …)"
                                 if held else f"the hand holds no {t}")
            c = held[0]
        else:
            c = parse_card(token)
            if c not in hand:
                raise InputError(f"{token} is not in your hand {format_cards(sorted(hand, reverse=True))}")
        if c in out:
            raise InputError(f"{token} is named twice")
        out.append(c)
    return tuple(out)


@dataclass
class Round:
    """One deal played through: ``question`` is the decision asked next (None: over), ``answer``
    scores it and moves on. ``card``: a strategy card whose action is shown beside each answer."""

    deal: Deal
    rules: Rules
    card: StrategyCard | None = None
    final: tuple[Card, ...] = ()
    thrown: tuple[Card, ...] = ()
    drawn: tuple[Card, ...] = ()
    insured: int = 0
    fee: int = 0
    question: str | None = FIRST
    result: int | None = None               # antes won or lost, once the round is over
    outcome: str = ""
    decisions: list[Decision] = field(default_factory=list)
    _solution: Solution | None = None
    _used: int = 0                          # stock cards the draws took

    def __post_init__(self) -> None:
        if self.rules.max_payout is not None:
            raise InputError(f"the rules {self.rules.name!r} set a table maximum payout: the trainer does not "
                             "play such rules yet (the buy after an insured bet is capped)")
        if self.card is not None:
            self.card.check_play(self.rules)

    @property
    def solution(self) -> Solution:
        if self._solution is None:
            self._solution = solve(self.deal.hand, self.deal.up_card, self.rules)
        return self._solution

    @property
    def group(self) -> str:
        return hand_group(self.final or self.deal.hand, self.rules)

    def answer(self, text: str) -> Decision:
        """Score the answer to ``question`` and move on; a malformed answer is an ``InputError``
        whose message is the hint (the question stays)."""
        handlers: dict[str, Callable[[str], Decision]] = {
            FIRST: self._first, AFTER_DRAW: self._after_draw, INSURANCE: self._insurance, BUY: self._buy}
        if self.question is None:
            raise InputError("the round is over")
        d = handlers[self.question](text)
        self.decisions.append(d)
        return d

    def _first(self, text: str) -> Decision:
        hand, up = self.deal.hand, self.deal.up_card
        action = parse_first(text, hand, self.rules)
        s = self.solution
        group = hand_group(hand, self.rules)
        card = advice.first(self.card, hand, up, self.rules) if self.card is not None else None
        d = Decision(FIRST, group, action.words(hand), s.best.action.words(hand),
                     s.option(action.kind, action.throw).ev, s.best.ev,
                     card.card_action if card else None, card.card_ev if card else None)
        if action.kind == "fold":
            self._over(-1, "you folded")
        elif action.kind == "bet":
            self.final = hand
            self._bet()
        else:
            k = 1 if action.kind == "sixth_card" else len(action.throw)
            fee = self.rules.sixth_card_fee if action.kind == "sixth_card" else self.rules.exchange_fees[k - 1]
            self.drawn, self._used, self.fee = self.deal.stock[:k], k, fee
            self.thrown = action.throw
            self.final = (*(c for c in hand if c not in action.throw), *self.drawn)
            if self.thrown and len(self.thrown) in self.rules.exchange_forces_bet:
                self._bet()                 # the rules force the bet after this exchange
            else:
                self.question = AFTER_DRAW
        return d

    def _bet_value(self, play: Play | None = None) -> Any:
        if play is None:
            return bet_value(self.final, self.deal.up_card, self.rules, self.thrown)
        return bet_value(self.final, self.deal.up_card, self.rules, self.thrown, play=play)

    def _after_draw(self, text: str) -> Decision:
        bets = _yes(text, ("b", "bet"), ("f", "fold"), AFTER_DRAW)
        bv = self._bet_value()
        words = {True: "bet", False: "fold"}
        card = (advice.final_after_draw(self.card, self.final, self.deal.up_card, self.rules, self.thrown)
                if self.card is not None else None)
        best = bv.should_bet
        d = Decision(AFTER_DRAW, self.group, words[bets], words[best], bv.ev if bets else Fraction(-1),
                     max(bv.ev, Fraction(-1)), card.card_action if card else None, card.card_ev if card else None)
        if bets:
            self._bet()
        else:
            self._over(-1 - self.fee, "you folded after the draw")
        return d

    def insurance_size(self) -> int:
        """The most insurance the final hand may take (antes; 0: none)."""
        value = evaluate(self.final, self.rules)
        k = kernel_rules(self.rules)
        most = k.insurance_max * value.payout
        return most if self.rules.may_insure(value.category) and most >= k.insurance_min else 0

    def _bet(self) -> None:
        self.question = INSURANCE if self.insurance_size() else None
        if self.question is None:
            self._showdown()

    def _insurance(self, text: str) -> Decision:
        insures = _yes(text, ("y", "yes", "i", "insure"), ("n", "no"), INSURANCE)
        ev = {True: self._bet_value(Play(insure_from=0)).ev, False: self._bet_value(Play(insure_from=NEVER)).ev}
        size = self.insurance_size()
        words = {True: f"insure {size}", False: "no insurance"}
        best = ev[True] > ev[False]
        card_words = card_ev = None
        if self.card is not None:
            # the card insures by its own rule (None: as the best does)
            value = evaluate(self.final, self.rules)
            rule = self.card.play.insures(value.payout, value.strength, self.deal.up_card >> 2,
                                          any(c >> 2 == self.deal.up_card >> 2 for c in self.thrown))
            mine = best if rule is None else rule
            card_words, card_ev = words[mine], ev[mine]
        self.insured = size if insures else 0
        d = Decision(INSURANCE, self.group, words[insures], words[best], ev[insures], ev[best], card_words, card_ev)
        self._showdown()
        return d

    def _showdown(self) -> None:
        k = kernel_rules(self.rules)
        dealer = self.deal.dealer
        if _strength(dealer) >= k.qualifier:
            self._settle(dealer, "")
        elif self.rules.may_buy(evaluate(self.final, self.rules).category):
            self.question = BUY
        else:
            self._over(1 + self.insured - self.fee, "the dealer does not qualify: you take the ante")

    def _buy(self, text: str) -> Decision:
        buys = _yes(text, ("b", "buy"), ("a", "ante", "take"), BUY)
        dealer = self.deal.dealer
        b = buy_game(self.final, dealer, self.rules, self.thrown)
        words = {True: "buy a game", False: "take the ante"}
        card = advice.buy(self.card, self.final, dealer, self.rules, self.thrown) if self.card is not None else None
        d = Decision(BUY, self.group, words[buys], words[b.should_buy], b.buy if buys else b.take_ante,
                     max(b.buy, b.take_ante), card.card_action if card else None, card.card_ev if card else None)
        if buys:
            bought = self._bought(dealer)
            self._settle(bought, f"you bought a game, the dealer's new hand {format_cards(bought)}: ",
                         self.rules.buy_game_fee)
        else:
            self._over(1 + self.insured - self.fee, "the dealer does not qualify: you take the ante")
        return d

    def _bought(self, dealer: tuple[Card, ...]) -> tuple[Card, ...]:
        """The dealer's hand after a bought game (RULES §7): its highest card thrown, the next
        card drawn; again, free, while the new card has the thrown card's rank and the dealer
        still does not qualify (at most ``buy_redraws`` times)."""
        k = kernel_rules(self.rules)
        hand, stock = list(dealer), list(self.deal.stock[self._used:])
        for _ in range(self.rules.buy_redraws + 1):
            top = max(hand, key=lambda c: c >> 2)
            hand.remove(top)
            new = stock.pop(0)
            hand.append(new)
            if new >> 2 != top >> 2 or _strength(hand) >= k.qualifier:
                break
        return tuple(hand)

    def _settle(self, dealer: tuple[Card, ...], how: str, buy_fee: int = 0) -> None:
        """A showdown against ``dealer``; a bought game that still does not qualify returns the
        ante and the bet. The insurance was paid if the dealer's first hand did not qualify."""
        k = kernel_rules(self.rules)
        player, theirs = evaluate(self.final, self.rules), _strength(dealer)
        if buy_fee and theirs < k.qualifier:
            self._over(self.insured - self.fee - buy_fee, how + "still no game, ante and bet back", buy_fee)
            return
        if buy_fee:
            insurance = self.insured                       # paid at the first, non-qualifying hand
        elif player.strength >= theirs and (player.strength > theirs or k.tie_loses):
            insurance = -self.insured
        else:
            insurance = 0
        if player.strength > theirs:
            net, said = k.win_pay(player.payout), f"your {player.category_label} wins"
        elif player.strength == theirs:
            net, said = 0, "a tie: ante and bet back"
        else:
            net, said = -3, "the dealer's hand is higher"
        self._over(net + insurance - self.fee - buy_fee, how + said, buy_fee)

    def _over(self, result: int, outcome: str, buy_fee: int = 0) -> None:
        """The round settled: ``result`` is the box's net, the fees paid in it (said in ``outcome``)."""
        fees = self.fee + buy_fee
        said = f"{outcome} (fees paid: {fees} ante{'s' * (fees != 1)})" if fees else outcome
        self.question, self.result, self.outcome = None, result, said


def _strength(five: Sequence[Card]) -> int:
    return int(strengths(np.asarray([five], np.uint8), checked=False)[0])
