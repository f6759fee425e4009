"""Exact EV of every option of one deal: fold, bet (with insurance), 31 exchanges, sixth card.

Every EV is an exact ``Fraction`` of integer counts over every unseen card (RULES §3–§7); floats
are for display only. The counting is done by the ``_dealer`` kernel; ``solver.reference.deal``
enumerates card by card and is the judge in the tests.

>>> from solver.cards import parse_cards, parse_card
>>> s = solve(parse_cards("Jh Jd 8c 5s 2d"), parse_card("Ks"))
>>> round(float(s.bet.ev), 12)
0.087109722095
>>> s.best.label
'exchange 8c 5s 2d'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import groupby
from typing import Any, NamedTuple

import numpy as np

from ._kernel import _dealer
from .action import BET as BET_CODE
from .action import FOLD, SIXTH_CARD, Action, exchange_code, mask_of_code
from .cards import Card, check_disjoint, format_cards
from .classes import rank_order
from .counts import BET_COLUMNS, RESULT_ROW, Solved
from .errors import InputError
from .final_hand import BetValue
from .hand import N_STRENGTH, strengths
from .kernel_rules import cards_needed, kernel_rules, payout_by_strength, play_rules
from .play import BEST, Play
from .returns import Returns
from .rules import DEFAULT, Rules


@dataclass(frozen=True)
class Option:
    """One first decision and its exact EV."""

    action: Action
    ev: Fraction

    @property
    def label(self) -> str:
        return self.action.label


@dataclass(frozen=True)
class Solution:
    """The options of one deal, best first: every one, unless solved with ``leading``."""

    hand: tuple[Card, ...]
    up_card: Card
    dead: tuple[Card, ...]
    rules: Rules
    bet: BetValue
    options: tuple[Option, ...] = field(default_factory=tuple)

    @property
    def best(self) -> Option:
        return self.options[0]

    def option(self, action: str, throw: Sequence[Card] = ()) -> Option:
        """The option of an action (and, for an exchange, the cards thrown, in any order)."""
        for o in self.options:
            if o.action.same(action, throw):
                return o
        raise KeyError(f"no option {action} {format_cards(throw)}".strip())


def _check(hand: Sequence[Card], up_card: Card, dead: Sequence[Card], rules: Rules) -> None:
    if len(hand) != 5:
        raise InputError(f"the hand must have 5 cards, not {len(hand)}")
    check_disjoint([("hand", hand), ("up-card", [up_card]), ("dead cards", dead)])
    drawn = max([*rules.exchange_counts, 1 if rules.sixth_card else 0])
    unseen = 52 - 5 - 1 - len(dead)
    if unseen < cards_needed(rules, drawn):
        raise InputError(f"too many dead cards ({len(dead)}): {unseen} unseen cards are fewer than the "
                         f"{cards_needed(rules, drawn)} that drawing {drawn}, the dealer and a buy need")


def _kernel(hand: tuple[Card, ...], up_card: Card, dead: tuple[Card, ...], rules: Rules, counts: Sequence[int],
            sixth: bool, bound_counts: Sequence[int] = (), wanted: int = 0xFFFFFFFF,
            results: bool = False, after: np.ndarray | None = None, play: Play = BEST, thrown_up: bool = False,
            **gains: Any) -> Solved:
    """The kernel's count of a deal (``thrown_up``: whether the exchanges counted throw away a
    card of the up-card's rank, which a player's insurance may read)."""
    return _dealer.solve(np.asarray(hand, np.uint8), up_card, np.asarray(dead, np.uint8),
                         play_rules(rules, play, up_card, thrown_up),
                         tuple(counts), sixth, bound_counts=tuple(bound_counts), wanted=wanted, results=results,
                         after=_after(after), **gains)


def _after(after: np.ndarray | None) -> np.ndarray | None:
    """A card's bet (1) or fold (0) of each final strength after a draw, as the kernel reads it."""
    if after is None:
        return None
    out = np.ascontiguousarray(after, np.uint8)
    if out.shape != (N_STRENGTH,):
        raise ValueError(f"after: one entry per final strength ({N_STRENGTH}), not {out.shape}")
    return out


Valued = tuple[int, int, int]
"""An option as integers: its table code for the deal's hand as given (``Action.code``) and its
EV's numerator over a positive denominator (not reduced): what a table build sorts and stores,
without a ``Fraction`` or an ``Action`` per option."""


def _exchange_values(rules: Rules, values: dict[int, tuple[int, int]]) -> list[Valued]:
    """The kernel's exchange numerators by discard mask as options' values (fees in)."""
    return [(exchange_code(mask), num - rules.exchange_fees[mask.bit_count() - 1] * den, den)
            for mask, (num, den) in values.items()]


def _exchanges(hand: tuple[Card, ...], rules: Rules,
               values: dict[int, tuple[int, int]]) -> dict[tuple[Card, ...], Fraction]:
    """The kernel's exchange numerators by discard mask as EVs by the cards thrown (fees in)."""
    return {Action.from_code(code, hand).throw: Fraction(num, den)
            for code, num, den in _exchange_values(rules, values)}


def _scaled(evs: Sequence[tuple[int, int]]) -> list[int]:
    """EVs (numerator, positive denominator) as integers over one common denominator: their
    exact order, compared fast (a table build sorts the options of millions of deals).

    >>> _scaled([(1, 3), (-1, 2), (1, 6), (2, 1)])
    [2, -3, 1, 12]
    """
    common = math.lcm(*(d for _, d in evs))
    return [n * (common // d) for n, d in evs]


def _best_first(evs: Sequence[tuple[int, int]], simplicity: Callable[[int], tuple[int, int, list[Card]]]) -> list[int]:
    """The places of ``evs`` (numerator, denominator) best first; among equal EVs the simpler
    action first (``simplicity`` of a place: ``Action.simplicity``): the one option order.

    >>> _best_first([(-1, 1), (1, 3), (-2, 2)], lambda i: (i, 0, []))
    [1, 0, 2]
    """
    scaled = _scaled(evs)
    order = sorted(range(len(scaled)), key=scaled.__getitem__, reverse=True)
    if len(set(scaled)) == len(scaled):
        return order
    out: list[int] = []
    for _, run in groupby(order, key=scaled.__getitem__):
        tied = list(run)
        out += sorted(tied, key=simplicity) if len(tied) > 1 else tied
    return out


def ranked_values(hand: tuple[Card, ...], values: Sequence[Valued]) -> list[Valued]:
    """``Valued`` options of a deal of ``hand`` best first, in ``ranked``'s order."""
    order = _best_first([(num, den) for _, num, den in values],
                        lambda i: Action.from_code(values[i][0], hand).simplicity())
    return [values[i] for i in order]


def _nth_best(evs: Sequence[tuple[int, int]], n: int) -> tuple[int, int]:
    """The n-th largest EV (the smallest when there are fewer than n)."""
    scaled = _scaled(evs)
    return evs[sorted(range(len(evs)), key=scaled.__getitem__, reverse=True)[min(n, len(evs)) - 1]]


def exchange_bounds(hand: Sequence[Card], up_card: Card, rules: Rules = DEFAULT, dead: Sequence[Card] = (),
                    counts: Sequence[int] = (5,)) -> dict[tuple[Card, ...], Fraction]:
    """Exact upper bounds of the EVs of exchanging ``counts`` cards, by the cards thrown.

    Each outcome is valued as if no card made a flush (for the player, the dealer or a draw
    after a buy: against a player without one, a flush elsewhere can only lower the value),
    and the player's flush outcomes at the most any dealer hand can pay. What depends on ranks
    alone is shared by the deals of the same ranks, so this costs little next to ``solve``.

    >>> from solver.cards import parse_cards, parse_card
    >>> hand, up = parse_cards("2c 3c 7d Jh Qs"), parse_card("Kd")
    >>> most = exchange_bounds(hand, up)[tuple(hand)]
    >>> solve(hand, up).option("exchange", hand).ev <= most
    True
    """
    hand, dead = tuple(hand), tuple(dead)
    _check(hand, up_card, dead, rules)
    counts = [k for k in counts if k in rules.exchange_counts]
    return _exchanges(hand, rules, _kernel(hand, up_card, dead, rules, (), False, counts).exchange_bound)


BOUNDED_COUNTS = (3, 4, 5)
"""Exchange counts that ``solve(..., leading=n)`` first bounds and solves only when they may lead."""


def solve(hand: Sequence[Card], up_card: Card, rules: Rules = DEFAULT, dead: Sequence[Card] = (), *,
          leading: int | None = None) -> Solution:
    """Exact EV of every option of a deal: 5 cards, the dealer's up-card, known dead cards.

    With ``leading=n`` only the n best options are wanted (a compact strategy table keeps the
    best and the runner-up): an exchange of ``BOUNDED_COUNTS`` cards whose upper bound
    (``exchange_bounds``) is below the n-th best of the other options is left out; every option
    listed is exact, and the n best are those of all.

    >>> from solver.cards import parse_cards, parse_card
    >>> hand, up = parse_cards("Ah Ad Kc 8s 9d"), parse_card("Kh")
    >>> full, top = solve(hand, up), solve(hand, up, leading=2)
    >>> top.options[:2] == full.options[:2], len(full.options), len(top.options)
    (True, 34, 18)
    """
    hand, dead = tuple(hand), tuple(dead)
    raw, values = solve_values(hand, up_card, rules, dead, leading=leading)
    options = tuple(Option(Action.from_code(code, hand), Fraction(num, den)) for code, num, den in values)
    return Solution(hand, up_card, dead, rules, _bet_value(hand, raw, rules), options)


def solve_values(hand: tuple[Card, ...], up_card: Card, rules: Rules = DEFAULT, dead: tuple[Card, ...] = (), *,
                 leading: int | None = None) -> tuple[Solved, list[Valued]]:
    """``solve``'s options as integers (``Valued``), best first, with the kernel's first count
    (its ``bet``: the dealt hand's counts, insurance and value): what a table build stores.

    >>> from solver.cards import parse_cards, parse_card
    >>> hand, up = tuple(parse_cards("Ah Ad Kc 8s 9d")), parse_card("Kh")
    >>> _, values = solve_values(hand, up, leading=2)
    >>> [(Action.from_code(code, hand), Fraction(num, den)) for code, num, den in values][:2] == [
    ...     (o.action, o.ev) for o in solve(hand, up).options[:2]]
    True
    """
    _check(hand, up_card, dead, rules)
    bounded = [k for k in rules.exchange_counts if k in BOUNDED_COUNTS] if leading is not None else []
    raw = _kernel(hand, up_card, dead, rules, [k for k in rules.exchange_counts if k not in bounded],
                  rules.sixth_card, bounded)
    c = raw.bet.counts
    values: list[Valued] = [(FOLD, -1, 1), (BET_CODE, raw.bet.value, c.n * c.den)]
    if rules.sixth_card:
        values.append(_sixth_valued(raw, rules))
    values += _exchange_values(rules, raw.exchange)
    if bounded:
        # exactly: first the n exchanges of highest bounds that reach the n-th best of the others,
        # then those whose bound reaches the n-th best of all solved so far
        most = {code: (num, den) for code, num, den in _exchange_values(rules, raw.exchange_bound)}
        waiting = [code for _, code in sorted(zip((-v for v in _scaled(list(most.values()))), most))]
        for first in (leading, len(waiting)):
            nth, nth_den = _nth_best([(num, den) for _, num, den in values], leading or 1)
            needed = [code for code in waiting[:first] if most[code][0] * nth_den >= nth * most[code][1]]
            waiting = waiting[first:]
            if needed:
                masks = [mask_of_code(code) for code in needed]
                exact = _kernel(hand, up_card, dead, rules, sorted({mask.bit_count() for mask in masks}), False,
                                wanted=sum(1 << mask for mask in masks))
                values += _exchange_values(rules, exact.exchange)
    return raw, ranked_values(hand, values)


def _exchange_mask(hand: tuple[Card, ...], action: Action, rules: Rules) -> int:
    """The discard mask of an exchange the rules allow (an error names one they do not)."""
    k = len(action.throw)
    if k not in rules.exchange_counts or not set(action.throw) <= set(hand):
        raise InputError(f"the rules {rules.name!r} do not allow exchanging {format_cards(action.throw)}"
                         if k not in rules.exchange_counts else "the cards thrown must be in the hand")
    return sum(1 << i for i, c in enumerate(hand) if c in action.throw)


def _no_sixth_card(rules: Rules) -> InputError:
    return InputError(f"the rules {rules.name!r} have no sixth card")


def option_values(hand: Sequence[Card], up_card: Card, actions: Sequence[Action], rules: Rules = DEFAULT,
                  dead: Sequence[Card] = (), after: np.ndarray | None = None, play: Play = BEST) -> list[Fraction]:
    """The exact EVs of some options of a deal, each as ``solve`` counts it, from one kernel call
    that counts only these: a strategy check plays a few options of millions of classes.

    ``after``: a strategy card's decision after a draw, by the final hand's strength
    (``N_STRENGTH`` entries, 1 bet, 0 fold; a six-card hand by its best five); without it each
    final hand is bet or folded by its EV, as ``solve`` plays it. ``play``: the player's rules of
    insurance and buying a game (every bet's, the dealt hand's too), else the best.

    >>> from solver.cards import parse_cards, parse_card
    >>> hand, up = parse_cards("Ah Ad Kc 8s 9d"), parse_card("Kh")
    >>> wanted = [Action("bet"), Action("exchange", hand[2:]), Action("sixth_card"), Action("fold")]
    >>> option_values(hand, up, wanted) == [solve(hand, up).option(a.kind, a.throw).ev for a in wanted]
    True
    """
    hand, dead = tuple(hand), tuple(dead)
    _check(hand, up_card, dead, rules)
    masks = {}
    for a in actions:
        if a.kind == "exchange":
            masks[a] = _exchange_mask(hand, a, rules)
        elif a.kind == "sixth_card" and not rules.sixth_card:
            raise _no_sixth_card(rules)
    sixth = any(a.kind == "sixth_card" for a in actions)
    thrown = {a.throws_rank_of(up_card) for a in masks}
    if play.insure_when is not None and len(thrown) > 1:
        raise ValueError("a player's insurance reads what an exchange throws away: count such exchanges apart")
    raw = _kernel(hand, up_card, dead, rules, sorted({m.bit_count() for m in masks.values()}), sixth,
                  wanted=sum({1 << m for m in masks.values()}), after=after, play=play, thrown_up=True in thrown)
    exchanges = _exchanges(hand, rules, raw.exchange)
    out = []
    for a in actions:
        if a.kind == "fold":
            out.append(Fraction(-1))
        elif a.kind == "bet":
            out.append(_bet_value(hand, raw, rules).ev)
        elif a.kind == "sixth_card":
            out.append(_sixth_value(raw, rules))
        else:
            out.append(exchanges[tuple(c for c in hand if c in a.throw)])
    return out


class Gains(NamedTuple):
    """What betting the final hands of each strength of one option (a sixth card or an exchange)
    adds over folding them, summed over the option's outcomes: numerators by strength over a
    common denominator (a forced bet has none: nothing to decide)."""

    numerators: dict[int, int]
    denominator: int

    def of(self, after: np.ndarray) -> Fraction:
        """What betting as ``after`` says (1 bet, 0 fold, by final strength) adds to the option's
        EV over folding every final hand."""
        return Fraction(sum(v for s, v in self.numerators.items() if after[s]), self.denominator)


def option_gains(hand: Sequence[Card], up_card: Card, action: Action, rules: Rules = DEFAULT,
                 dead: Sequence[Card] = ()) -> Gains:
    """The ``Gains`` of a sixth card or an exchange: the option's EV under any bet or fold by
    final strength (a strategy card's ``after``) is that of folding every final hand plus the
    gains of the strengths it bets, so a card's decision after a draw can be searched for
    without counting the option again.

    >>> from solver.cards import parse_cards, parse_card
    >>> hand, up = parse_cards("Ah Kd 7c 5s 2d"), parse_card("9h")
    >>> keep_ak = Action("exchange", hand[2:])
    >>> gains, after = option_gains(hand, up, keep_ak), np.random.default_rng(1).integers(0, 2, N_STRENGTH)
    >>> folded = option_values(hand, up, [keep_ak], after=np.zeros(N_STRENGTH, np.uint8))[0]
    >>> option_values(hand, up, [keep_ak], after=after)[0] == folded + gains.of(after)
    True
    """
    raw = _gains_kernel(tuple(hand), up_card, action, rules, tuple(dead), gains=True)
    if raw is None:
        return Gains({}, 1)
    assert raw.gains is not None
    _, den = raw.sixth_card if raw.sixth_card is not None else next(iter(raw.exchange.values()))
    return Gains(raw.gains, den)


def add_gains(into: np.ndarray, hand: Sequence[Card], up_card: Card, action: Action, rules: Rules = DEFAULT,
              weight: float = 1.0, play: Play = BEST) -> None:
    """Add ``weight`` times the ``option_gains`` of a sixth card or an exchange, as floats per
    deal, into ``into`` (``N_STRENGTH`` float64 by final strength): their sum over many deals,
    without a Python number per strength; each bet insured and bought as ``play`` says."""
    if into.shape != (N_STRENGTH,) or into.dtype != np.float64 or not into.flags.c_contiguous:
        raise ValueError(f"into: {N_STRENGTH} contiguous float64, one per final strength")
    _gains_kernel(tuple(hand), up_card, action, rules, (), gains_into=into, gains_weight=weight, play=play)


def _gains_kernel(hand: tuple[Card, ...], up_card: Card, action: Action, rules: Rules, dead: tuple[Card, ...],
                  **gains: Any) -> Solved | None:
    """The kernel's count of an option's gains (``gains``: as ``_dealer.solve`` takes them), or
    None for an exchange that forces the bet (nothing to decide)."""
    _check(hand, up_card, dead, rules)
    if action.kind == "sixth_card":
        if not rules.sixth_card:
            raise _no_sixth_card(rules)
        return _kernel(hand, up_card, dead, rules, (), True, **gains)
    if action.kind != "exchange":
        raise ValueError(f"gains are of a sixth card or an exchange, not {action.kind}")
    mask = _exchange_mask(hand, action, rules)
    if mask.bit_count() in rules.exchange_forces_bet:
        return None
    return _kernel(hand, up_card, dead, rules, (mask.bit_count(),), False, wanted=1 << mask,
                   thrown_up=action.throws_rank_of(up_card), **gains)


def _bet_value(hand: tuple[Card, ...], raw: Solved, rules: Rules) -> BetValue:
    strength = int(strengths(np.asarray([hand], np.uint8), checked=False)[0])
    return BetValue.from_bet(raw.bet, int(payout_by_strength(rules)[strength]), rules)


def _sixth_valued(raw: Solved, rules: Rules) -> Valued:
    """The kernel's sixth card as an option's value (its fee in)."""
    assert raw.sixth_card is not None
    num, den = raw.sixth_card
    return SIXTH_CARD, num - rules.sixth_card_fee * den, den


def _sixth_value(raw: Solved, rules: Rules) -> Fraction:
    _, num, den = _sixth_valued(raw, rules)
    return Fraction(num, den)


def ranked(options: Sequence[Option]) -> tuple[Option, ...]:
    """Options best first; among equal EVs in ``Action.simplicity``'s order (bet, fold, sixth card,
    fewer cards): a tie between betting and folding is a bet, as after a draw.

    >>> ranked([Option(Action("fold"), Fraction(-1)), Option(Action("bet"), Fraction(-1))])[0].label
    'bet'
    """
    order = _best_first([(o.ev.numerator, o.ev.denominator) for o in options],
                        lambda i: options[i].action.simplicity())
    return tuple(options[i] for i in order)


def bet_counts(hands: np.ndarray, up_cards: np.ndarray, rules: Rules, play: Play = BEST) -> np.ndarray:
    """Betting each dealt hand at once (no dead cards): int64 rows of ``BET_COLUMNS``: ``value``
    the bet with its best insurance (or ``play``'s) over n * den; the buys of a game split
    (``_dealer.situation``), the insurance taken and the buy's excess with it.

    The kernel takes the deals in rank order, so that deals of the same ranks share its work.
    """
    out = np.empty((len(hands), len(BET_COLUMNS)), np.int64)
    # a player's insurance that reads the up-card: the deals of each up rank apart
    groups = [np.arange(len(hands))] if play.insure_when is None else [
        np.flatnonzero(up_cards >> 2 == r) for r in range(13)]
    for rows in groups:
        order = rows[rank_order(hands[rows], up_cards[rows])]
        part = np.zeros((len(order), len(BET_COLUMNS)), np.int64)
        _dealer.bet_counts(np.ascontiguousarray(hands[order]), np.ascontiguousarray(up_cards[order]),
                           play_rules(rules, play, int(up_cards[order[0]])) if len(order) else kernel_rules(rules),
                           part)
        out[order] = part
    return out


def option_returns(hand: Sequence[Card], up_card: Card, option: Option | Action, rules: Rules = DEFAULT,
                   dead: Sequence[Card] = (), after: np.ndarray | None = None, play: Play = BEST) -> Returns:
    """Every net result of playing one option of a deal, with its exact count: the fee, the
    bet or fold of each final hand as its EV decides (a forced bet is bet) or as ``after`` says
    (``option_values``), the insurance and the buys of a game the best play takes or ``play``
    says (RULES §3–§7), over every unseen card.

    Its ``ev`` equals the option's EV. Exchanges are counted as their EVs are, by groups of
    outcomes (``_dealer.solve(..., results=True)``).

    >>> from solver.cards import parse_cards, parse_card
    >>> hand, up = parse_cards("Jh Jd 8c 5s 2d"), parse_card("Ks")
    >>> best = solve(hand, up).best
    >>> r = option_returns(hand, up, best)
    >>> r.ev == best.ev, f"{float(r.bet_rate):.4f}", f"{float(r.std()):.4f}"
    (True, '1.0000', '3.4533')
    """
    hand, dead = tuple(hand), tuple(dead)
    _check(hand, up_card, dead, rules)
    action = option.action if isinstance(option, Option) else option
    if action.kind == "fold":
        return Returns({-1: 1}, 1, 0, 0, 0, 0, 0)
    if action.kind == "bet":
        raw = _kernel(hand, up_card, dead, rules, (), False, play=play)
        c = raw.bet.counts
        n, den = c.n, c.den
        strength = int(strengths(np.asarray([hand], np.uint8), checked=False)[0])
        pay = int(payout_by_strength(rules)[strength])
        folded, rows, fee = 0, {pay << 16 | c.insurance: tuple(getattr(c, name) for name in RESULT_ROW)}, 0
    else:
        if action.kind == "sixth_card":
            if not rules.sixth_card:
                raise _no_sixth_card(rules)
            results = _kernel(hand, up_card, dead, rules, (), True, results=True, after=after,
                              play=play).sixth_card_results
            assert results is not None
            folded, rows, n, den = results
            fee = rules.sixth_card_fee
        else:
            mask = _exchange_mask(hand, action, rules)
            k = len(action.throw)
            raw = _kernel(hand, up_card, dead, rules, (k,), False, wanted=1 << mask, results=True, after=after,
                          play=play, thrown_up=action.throws_rank_of(up_card))
            folded, rows, n, den = raw.exchange_results[mask]
            fee = rules.exchange_fees[k - 1]
    # by the final hands' P << 16 | the insurance the kernel takes
    keys = np.asarray(list(rows), np.int64)
    counts = np.asarray(list(rows.values()), np.int64).reshape(len(rows), 8)
    p, size = keys >> 16, keys & 0xFFFF
    outcomes = folded + int(counts[:, :4].sum()) // n
    return Returns.collect(outcomes * n * den, folded * n * den, np.ones(len(rows), np.int64), counts, p, size,
                           den, play_rules(rules, play, up_card, action.throws_rank_of(up_card)), rules.buy_game_fee,
                           fee)


