"""Reference EVs of the options of one deal, by literal enumeration (RULES §3 to §7).

Every dealer hand, every exchange outcome, every sixth card and every buy draw is enumerated
card by card (the dealer and buy loops in the ``_brute`` kernel, the rest here). Slow: a bet
takes tens of milliseconds, a two-card exchange tens of seconds. The judge of ``solver.deal``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np

from .._kernel import _brute
from ..cards import Card
from ..hand import STRENGTH_CATEGORY, strengths
from ..play import BEST, Play
from ..rules import Rules
from . import hand as ref_hand


def unseen(known: Sequence[Card]) -> list[Card]:
    """The cards not among ``known``, in order."""
    gone = set(known)
    return [c for c in range(52) if c not in gone]


@dataclass(frozen=True)
class _Outcomes:
    """A final hand against every dealer hand (``_brute.outcomes``), and what it is paid."""

    n: int
    win: int
    tie: int
    lose: int
    den: int
    draws: dict[tuple[int, int, int], int]   # (win, tie, lose) draws of a buy -> dealer hands
    nq: int
    may_buy: bool
    pay: int                # a won showdown: 2P (+ the ante), uncapped
    rules: Rules
    always: bool | None     # the player's rule of buying a game (Play.buys): None, where it gains

    def cap(self, x: int) -> int:
        """A payout of the box, at most the table's maximum (RULES §6)."""
        m = self.rules.max_payout
        return x if m is None else min(x, m)

    def buys(self, size: int, draws: tuple[int, int, int]) -> tuple[bool, int]:
        """Whether the player insured for ``size`` buys a game for a dealer hand of these buy
        draws (where it beats taking the ante, or as the player's rule says), and the hand's
        value over den."""
        take = self.cap(size + 1) * self.den
        if not self.may_buy or self.always is False:
            return False, take
        w, t, lo = draws
        insured, fee = self.cap(size), self.rules.buy_game_fee
        buy = (w * (self.cap(size + self.pay) - fee) + (t + (self.den - w - t - lo)) * (insured - fee)
               + lo * (insured - fee - 3))
        return (True, buy) if buy > take or self.always else (False, take)

    def value(self, size: int) -> int:
        """Betting insured for ``size`` (0: not), every dealer hand and buy draw settled one
        by one: the numerator over n * den."""
        tie_loses = self.rules.insurance_on_tie == "lost"
        total = self.den * (self.win * (self.cap(self.pay) - size) - self.tie * size * tie_loses - 3 * self.lose)
        return total + sum(k * self.buys(size, d)[1] for d, k in self.draws.items())

    def bought(self, size: int) -> tuple[int, int, int, int, int]:
        """Insured for ``size``: what buying adds to taking the ante (over den), the dealer hands
        a game is bought for, and their draws that end in a showdown won, tied, lost."""
        take = self.cap(size + 1) * self.den
        out = [0, 0, 0, 0, 0]
        for d, k in self.draws.items():
            buys, value = self.buys(size, d)
            if buys:
                out = [out[0] + k * (value - take), out[1] + k, out[2] + k * d[0], out[3] + k * d[1],
                       out[4] + k * d[2]]
        excess, hands, w, t, lo = out
        return excess, hands, w, t, lo

    def results(self, size: int) -> dict[int, int]:
        """Every net result of betting insured for ``size`` -> rounds (a dealer hand is den)."""
        tie_loses = self.rules.insurance_on_tie == "lost"
        out: dict[int, int] = {}

        def add(result: int, rounds: int) -> None:
            if rounds:
                out[result] = out.get(result, 0) + rounds

        add(self.cap(self.pay) - size, self.win * self.den)
        add(-size * tie_loses, self.tie * self.den)
        add(-3, self.lose * self.den)
        insured, fee = self.cap(size), self.rules.buy_game_fee
        for (w, t, lo), k in self.draws.items():
            if self.buys(size, (w, t, lo))[0]:
                add(self.cap(size + self.pay) - fee, k * w)
                add(insured - fee, k * (self.den - w - lo))
                add(insured - fee - 3, k * lo)
            else:
                add(self.cap(size + 1), k * self.den)
        return dict(sorted(out.items()))


def _outcomes(final: Sequence[Card], up: Card, deck: Sequence[Card], rules: Rules, play: Play = BEST) -> _Outcomes:
    player = int(strengths([final])[0])
    qualifier = int(np.argmax(STRENGTH_CATEGORY >= rules.qualifier_category))
    may_buy = rules.buy_game and int(STRENGTH_CATEGORY[player]) >= 1
    n, win, tie, lose, den, draws = _brute.outcomes(np.asarray(deck, dtype=np.uint8), up, player, may_buy,
                                                    qualifier, rules.buy_redraws)
    # the dealer hands of each (win, tie, lose): sorted, counted between the changes
    ordered = draws[np.lexsort(draws.T[::-1])]
    changes = (np.diff(ordered, axis=0) != 0).any(axis=1)
    starts = np.flatnonzero(np.r_[True, changes]) if len(draws) else np.zeros(0, np.int64)
    times = np.diff(np.r_[starts, len(ordered)])
    kinds = {(int(w), int(t), int(lo)): int(k) for (w, t, lo), k in zip(ordered[starts].tolist(), times.tolist())}
    p = ref_hand.payout(final, rules)
    pay = 2 * p + (1 if rules.ante_on_win == "paid" else 0)
    return _Outcomes(n, win, tie, lose, den, kinds, len(draws), may_buy, pay, rules, play.buys(p))


def insurance_sizes(final: Sequence[Card], rules: Rules) -> list[int]:
    """Every insurance the player may take with a final hand (RULES §6), 0 (none) first."""
    category = int(STRENGTH_CATEGORY[int(strengths([final])[0])])
    if not rules.insurance or category < rules.insurance_category:
        return [0]
    p = ref_hand.payout(final, rules)
    low = 1 if rules.insurance_min == "ante" else 2
    high = 2 * p if rules.insurance_max == "payout" else p
    return [0, *range(low, high + 1)]


def _throws_up(throw: Sequence[Card], up: Card) -> bool:
    """Whether the cards thrown away hold one of the up-card's rank (a player's insurance may read
    it): written here apart from ``Action.throws_rank_of``, which the tests judge by it."""
    return any(c >> 2 == up >> 2 for c in throw)


def bet_values(final: Sequence[Card], up: Card, deck: Sequence[Card], rules: Rules,
               play: Play = BEST, thrown_up: bool = False) -> dict[str, Fraction]:
    """EV of betting a final hand: with the best insurance (every size tried, the smallest of
    the best) or the one ``play`` takes (none, or the most; after throwing away a card of the
    up-card's rank or not: ``thrown_up``), without, one unit of insurance (while no payout
    reaches the table's maximum), its size; each buy of a game where it gains or as ``play``
    says."""
    o = _outcomes(final, up, deck, rules, play)
    sizes = insurance_sizes(final, rules)
    values = {size: o.value(size) for size in sizes}
    insures = play.insures(ref_hand.payout(final, rules), int(strengths([final])[0]), up >> 2, thrown_up)
    size = max(values, key=lambda i: (values[i], -i)) if insures is None else sizes[-1] if insures else 0
    tie_loses = o.tie if rules.insurance_on_tie == "lost" else 0
    return {"ev": Fraction(values[size], o.n * o.den), "no_insurance": Fraction(values[0], o.n * o.den),
            "unit": Fraction(o.nq - o.win - tie_loses, o.n), "size": Fraction(size), "p_no_game": Fraction(o.nq, o.n)}


def situation(final: Sequence[Card], up: Card, deck: Sequence[Card], rules: Rules,
              play: Play = BEST) -> tuple[int, ...]:
    """The counts of betting a final hand as ``_dealer.situation`` gives them: (n, win, tie,
    lose, nq, buy excess uninsured, den, buys, buy_win, buy_tie, buy_lose, insurance,
    insured excess), the buys' split with the insurance taken, by literal enumeration."""
    o = _outcomes(final, up, deck, rules, play)
    size = int(bet_values(final, up, deck, rules, play)["size"])
    excess, *split = o.bought(size)
    return (o.n, o.win, o.tie, o.lose, o.nq, o.bought(0)[0], o.den, *split, size, excess)


def bet(hand: Sequence[Card], up: Card, rules: Rules, dead: Sequence[Card] = (), play: Play = BEST) -> Fraction:
    """EV of betting the dealt hand at once."""
    return bet_values(hand, up, unseen([*hand, up, *dead]), rules, play)["ev"]


#: a strategy card's decision after a draw: whether it bets this final hand (else it folds)
After = Callable[[Sequence[Card]], bool]


def _bets(value: Fraction, final: Sequence[Card], forced: bool, after: After | None) -> bool:
    """Whether a final hand of EV ``value`` is bet: when forced, else as the card says
    (``after``), else when betting loses no more than folding (a tie is a bet)."""
    if forced:
        return True
    if after is not None:
        return after(final)
    return value >= -1


def _final(value: Fraction, final: Sequence[Card], forced: bool, after: After | None) -> Fraction:
    """A final hand's value as played (``_bets``)."""
    return value if _bets(value, final, forced, after) else Fraction(-1)


def sixth_card(hand: Sequence[Card], up: Card, rules: Rules, dead: Sequence[Card] = (),
               after: After | None = None, play: Play = BEST) -> Fraction:
    """EV of buying a sixth card, then betting or folding (as ``after`` says, if given)."""
    deck = unseen([*hand, up, *dead])
    total = Fraction(0)
    for c in deck:
        rest = [x for x in deck if x != c]
        total += _final(bet_values([*hand, c], up, rest, rules, play)["ev"], [*hand, c], False, after)
    return -rules.sixth_card_fee + total / len(deck)


def exchange(hand: Sequence[Card], up: Card, throw: Sequence[Card], rules: Rules,
             dead: Sequence[Card] = (), after: After | None = None, play: Play = BEST) -> Fraction:
    """EV of exchanging the cards ``throw``, then betting or folding (as ``after`` says, if
    given; betting, if forced)."""
    kept = [c for c in hand if c not in throw]
    k = len(throw)
    deck = unseen([*hand, up, *dead])  # the thrown cards are out of play
    forced = k in rules.exchange_forces_bet
    thrown_up = _throws_up(throw, up)
    total = Fraction(0)
    count = 0
    for new in combinations(deck, k):
        rest = [x for x in deck if x not in new]
        total += _final(bet_values([*kept, *new], up, rest, rules, play, thrown_up)["ev"], [*kept, *new], forced,
                        after)
        count += 1
    return -rules.exchange_fees[k - 1] + total / count


def bet_results(final: Sequence[Card], up: Card, deck: Sequence[Card], rules: Rules,
                size: int | None = None, play: Play = BEST, thrown_up: bool = False) -> dict[int, int]:
    """Every net result of betting a final hand with its best insurance (``size``, if known:
    ``bet_values``'s) -> rounds, out of n * den: every dealer hand and every buy draw settled
    one by one."""
    if size is None:
        size = int(bet_values(final, up, deck, rules, play, thrown_up)["size"])
    return _outcomes(final, up, deck, rules, play).results(size)


def option_results(hand: Sequence[Card], up: Card, rules: Rules, action: str, throw: Sequence[Card] = (),
                   dead: Sequence[Card] = (), after: After | None = None, play: Play = BEST) -> dict[int, Fraction]:
    """Every net result of an option (``fold``, ``bet``, ``sixth_card``, ``exchange`` of ``throw``)
    with its probability: each final hand bet or folded as its EV says (bet on a tie, or when
    the exchange forces it) or as ``after`` says, the fee taken."""
    deck = unseen([*hand, up, *dead])
    if action == "fold":
        return {-1: Fraction(1)}
    if action == "bet":
        finals, fee, forced = [(list(hand), deck)], 0, True
    elif action == "sixth_card":
        finals = [([*hand, c], [x for x in deck if x != c]) for c in deck]
        fee, forced = rules.sixth_card_fee, False
    else:
        kept = [c for c in hand if c not in throw]
        finals = [([*kept, *new], [x for x in deck if x not in new]) for new in combinations(deck, len(throw))]
        fee, forced = rules.exchange_fees[len(throw) - 1], len(throw) in rules.exchange_forces_bet
    thrown_up = _throws_up(throw, up)
    total: dict[int, int] = {}
    rounds = 0
    for final, rest in finals:
        values = bet_values(final, up, rest, rules, play, thrown_up)
        bet = bet_results(final, up, rest, rules, int(values["size"]), play)
        n = sum(bet.values())
        if not _bets(values["ev"], final, forced, after):
            bet = {-1: n}
        for r, k in bet.items():
            total[r - fee] = total.get(r - fee, 0) + k
        rounds += n
    return {r: Fraction(k, rounds) for r, k in sorted(total.items())}
