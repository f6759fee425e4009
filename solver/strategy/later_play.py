"""The insurance and buying a game a derived card states, as a person plays them.

A person cannot value a buy dealer hand by dealer hand as the solver does; the rule a person can
follow reads the hand's payout P alone: insure for the most (or never), buy a game whenever the
dealer does not qualify (or never), from some P on. The derive picks the threshold of each by
the dealt hands bet at once (``deal.bet_counts``, about half a minute over every class for each
way of playing): for each P, what insuring the most, and what always buying, gains over never
doing it, summed over the classes' deals; the threshold k keeps the P >= k whose gains sum
highest (none: never). The dealt hands stand in for the final hands; the exact check of the card
then counts the rule where it is played, after the draws too.

>>> from solver.play import Play, NEVER
>>> toml(Play(NEVER, 4))
['insurance = "never"', '', '[buy_game]', 'do = "buy"', 'pays_at_least = 4']
"""

from __future__ import annotations

import numpy as np

from .. import _eval
from ..counts import BET
from ..deal import bet_counts, payout_by_strength
from ..play import BEST, NEVER, Play
from ..rules import Rules


def stated(rules: Rules) -> bool:
    """Whether a derived card states its insurance and buys (the rules offer one, and no table
    maximum makes the kernel value them only as the solver plays them)."""
    return bool(rules.insurance or rules.buy_game) and rules.max_payout is None


def lines(play: Play) -> int:
    """The lines of a card the rules take: one for each decision not left to the solver."""
    return (play.insure_from is not None) + (play.buy_from is not None)


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
    p = payout_by_strength(rules)[_eval.evaluate(hands, False)].astype(np.int64)
    rows = np.flatnonzero(p > 0)

    def value(play: Play) -> np.ndarray:
        c = bet_counts(hands[rows], ups[rows], rules, play)
        out: np.ndarray = c[:, BET["value"]] / (c[:, BET["n"]] * c[:, BET["den"]]).astype(np.float64) * weight[rows]
        return out

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
