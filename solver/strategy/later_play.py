"""The insurance and buying a game a derived card states, as a person plays them.

A person cannot value a buy dealer hand by dealer hand as the solver does; the rule a person can
follow reads the hand's payout P alone: insure for the most (or never), buy a game whenever the
dealer does not qualify (or never), from some P on. The derive picks the threshold of each by
the dealt hands bet at once (``deal.bet_counts``, about half a minute over every class for each
way of playing): for each P, what insuring the most, and what always buying, gains over never
doing it, summed over the classes' deals; the threshold k keeps the P >= k whose gains sum
highest (none: never). The dealt hands stand in for the final hands; the exact check of the card
then counts the rule where it is played, after the draws too.

The insurance may also be stated as ``[[insurance]]`` rules on the final hand, the up-card and
whether a card thrown away had its rank (``insurance_gains``): what insuring the most adds over
never in each cell (thrown matching the up-card or not, up rank, final strength) over the hands a
card bets, at once and after its draws, so that the rules become a problem of cells, as the bet
or fold after a draw is (``draw_gains``). The thrown card counts: a card of the up-card's rank out
of play makes the dealer less likely to pair it, and so to qualify. Over the exchanges of
the default rules' derived card, insuring where it gains in each cell of up rank and final
strength alone gains 0.028 % of the ante; told apart by the thrown card too, 0.055 % (the sums'
floats, 2026-12-06).

>>> from solver.play import Play, NEVER
>>> toml(Play(NEVER, 4))
['insurance = "never"', '', '[buy_game]', 'do = "buy"', 'pays_at_least = 4']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..action import KINDS
from ..classes import N_DEALS, enumerate_classes
from ..counts import bet_evs
from ..deal import bet_counts
from ..hand import strengths
from ..kernel_rules import lowest_strength, payout_by_strength
from ..play import BEST, NEVER, Play
from ..rules import Rules
from .departing import TableCodes
from .draw_gains import draw_gains


def stated(rules: Rules) -> bool:
    """Whether a derived card states its insurance and buys (the rules offer one, and no table
    maximum makes the kernel value them only as the solver plays them)."""
    return bool(rules.insurance or rules.buy_game) and rules.max_payout is None


def lines(play: Play, insurance: int = 0) -> int:
    """The lines of a card the rules take: one for each decision not left to the solver, or its
    ``insurance`` rules' where it states them so."""
    return (insurance or play.insure_from is not None) + (play.buy_from is not None)


def _threshold(gain: np.ndarray, p: np.ndarray) -> int:
    """The k from which doing it (P >= k) gains most over never (NEVER when nothing gains)."""
    by_p = np.bincount(p, weights=gain)
    above = np.append(np.cumsum(by_p[::-1])[::-1], 0.0)      # above[k]: the gains of P >= k
    k = 1 + int(np.argmax(above[1:]))
    return k if above[k] > 0 else NEVER


def choose(rules: Rules, hands: np.ndarray, ups: np.ndarray, weight: np.ndarray) -> Play:
    """The insurance and buying a game of a derived card under ``rules`` (every class: ``hands``,
    ``ups``, deals ``weight``); the solver's where the card does not state them (``stated``)."""
    if not stated(rules):
        return BEST
    p = payout_by_strength(rules)[strengths(hands, checked=False)].astype(np.int64)
    rows = np.flatnonzero(p > 0)

    def value(play: Play) -> np.ndarray:
        return _bet_value(hands[rows], ups[rows], weight[rows], rules, play)

    never = value(Play(NEVER, NEVER))
    insure = _threshold(value(Play(0, NEVER)) - never, p[rows]) if rules.insurance else None
    buy = _threshold(value(Play(NEVER, 0)) - never, p[rows]) if rules.buy_game else None
    return Play(insure, buy)


def toml(play: Play) -> list[str]:
    """The card's lines of ``play``, before its first [[first]]: a word first (a key after a
    table would belong to that table), then the tables."""
    blocks = []
    for key, k, doing in (("insurance", play.insure_from, "most"), ("buy_game", play.buy_from, "buy")):
        if k is not None:
            blocks.append([f'{key} = "never"'] if k >= NEVER
                          else [f"[{key}]", f'do = "{doing}"', f"pays_at_least = {k}"])
    out: list[str] = []
    for block in sorted(blocks, key=lambda b: b[0].startswith("[")):
        out += ([""] if out else []) + block
    return out


def _bet_value(hands: np.ndarray, ups: np.ndarray, weight: np.ndarray, rules: Rules, play: Play) -> np.ndarray:
    """Each dealt hand bet at once under ``play``, times its deals (floats)."""
    c = bet_counts(hands, ups, rules, play)
    out: np.ndarray = bet_evs(c) * weight
    return out


def insurance_gains(rules: Rules, codes: TableCodes, played: np.ndarray, bets: np.ndarray | None, play: Play,
                    jobs: int = 1, progress: Callable[[int, int], None] | None = None,
                    work: Path | None = None) -> np.ndarray:
    """What insuring the most adds over never insuring, by whether a card thrown away had the
    up-card's rank (never, for a hand bet at once), the up-card's rank and the final strength
    (2, 13, N_STRENGTH), in antes per deal of the cycle, over every hand a card bets: the
    classes (rows of the complete table ``codes``) playing ``played`` bet at once, and after
    their draws the final hands their ``bets`` (``after_draw.bet_table``; None: the solver's)
    bet; a game bought as ``play`` says.

    At once, each class's bet counted both ways (``deal.bet_counts``); after a draw, the gains of
    betting over folding (``draw_gains``) counted both ways: folding is the same in both, so
    their difference is the insurance's alone. Where the solver bets or folds after the draw
    (``bets`` None), each cell is bet where that gains under the insurance played: the
    insurance's gain there is the best of betting or folding under the most, less that under
    never."""
    hands, ups, weight = enumerate_classes()
    most, none = replace(play, insure_from=0, insure_when=None), replace(play, insure_from=NEVER, insure_when=None)
    strength = strengths(hands, checked=False)
    # only the hands that may insure (RULES §6) have a gain
    at_once = np.flatnonzero((played == KINDS.index("bet")) & (strength >= lowest_strength(rules.insurance_category)))
    h, u = hands[at_once], ups[at_once]
    gain = _bet_value(h, u, weight[at_once], rules, most) - _bet_value(h, u, weight[at_once], rules, none)
    insured, uninsured = (draw_gains(rules, codes, played, jobs, progress, work, p) for p in (most, none))
    out: np.ndarray = (np.maximum(insured, 0) - np.maximum(uninsured, 0) if bets is None
                       else (insured - uninsured) * bets)
    np.add.at(out[0], (u >> 2, strength[at_once]), gain / N_DEALS)
    return out
