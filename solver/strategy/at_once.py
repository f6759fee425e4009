"""Betting or folding at once where a checked card's own later rules play its draws worse.

The derive's search values each draw as the solver plays the final hands after it. A card's own
bet or fold after a draw, insurance and buys are a person's rules and play them worse, so once
the card is checked exactly, some of its deals lose less bet or folded at once. What each class
loses as the card plays it comes with the check (``CardCheck.losses``); what betting it at once
loses under the same insurance and buys is cheap to count (``deal.bet_counts``: about half a
minute over every class), and folding loses the ante. Two repairs follow, each valued in floats:
only the exact check of the card they make says whether it loses less.

- ``whole_lines``: a line whose deals lose less all bet (or all folded) at once takes that
  action. The default rules' derived card of 2026-12-06 lost 0.0364 % of the ante with a sixth
  card with three of a kind or better; betting them lost 0.0293 %.
- ``split_lines``: the deals of a line that lose less bet (or folded), told apart by one or two
  conditions more (``vocabulary.atoms``), go to a line of their own just above it, one line at a
  time, the line that gains most first. For a line and an action, what every pair of conditions
  gains is one matrix product over the line's classes, ``(M * gain) @ M.T`` (``M``: the
  conditions' masks, ``gain``: what each class gains, times its deals); its diagonal is what each
  condition alone gains. Over the default rules' derived card of 2026-12-06 (25 lines), folding
  at once the hands of no game (no pair, no A K) of a K or an A high whose second-highest card is
  below an up-card Q gains 0.0207 % of the ante (the floats' sum), where one condition alone
  gains nothing.

>>> import numpy as np
>>> from solver.strategy.vocabulary import Line
>>> lines = (Line((), "keep highest"),)
>>> losses = AtOnce(card=np.array([0.5, 0.1]), bet=np.array([0.2, 0.9]), fold=np.array([0.9, 0.9]))
>>> whole_lines(lines, np.zeros(2, np.int64), losses, np.array([1, 1]))[0].action
'keep highest'
>>> whole_lines(lines, np.zeros(2, np.int64), losses, np.array([3, 1]))[0].action
'bet'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..counts import bet_evs
from ..deal import bet_counts
from ..play import Play
from ..rules import Rules
from .hands import Seen
from .vocabulary import Line, condition_masks, narrowing

AT_ONCE = ("bet", "fold")
"""The actions of a line split off: those without a draw, so without the bet or fold after one."""
CHUNK = 100_000
"""Classes whose masks are held at once when a line is split (100,000 classes × the 389
conditions of ``atoms(draws=True)`` in float64: 0.31 GB, and as much again weighted by the gains)."""


@dataclass(frozen=True)
class AtOnce:
    """What each class loses per deal against optimal play (floats): as the card plays it, bet at
    once and folded at once, under the card's own insurance and buys."""

    card: np.ndarray
    bet: np.ndarray
    fold: np.ndarray

    @classmethod
    def of(cls, card: np.ndarray, rules: Rules, play: Play, hands: np.ndarray, ups: np.ndarray,
           best_ev: np.ndarray) -> AtOnce:
        """What the classes (``hands``, ``ups``, whose best EVs are ``best_ev``) lose as a card
        plays them (``card``: its check's ``losses / unit``), bet at once and folded at once under
        ``rules`` and the card's insurance and buys (``play``)."""
        return cls(card, best_ev - bet_evs(bet_counts(hands, ups, rules, play)), best_ev + 1.0)

    def of_action(self, action: str) -> np.ndarray:
        loss: np.ndarray = getattr(self, action)
        return loss


def whole_lines(lines: tuple[Line, ...], line: np.ndarray, losses: AtOnce, weight: np.ndarray) -> tuple[Line, ...]:
    """``lines`` (each class's: ``line``, of ``weight`` deals) with the action of each replaced
    by betting or folding at once where that loses less over the line's deals."""
    out = list(lines)
    for k in range(len(lines)):
        rows = line == k
        lost = {a: float(np.dot(weight[rows], losses.of_action(a)[rows])) for a in ("card", *AT_ONCE)}
        action = min(AT_ONCE, key=lambda a: lost[a])
        if lost[action] < lost["card"] and out[k].action != action:
            out[k] = replace(out[k], action=action)
    return tuple(out)


@dataclass(frozen=True)
class _Split:
    """The best line split off one line: what it gains (summed over deals), its conditions (a
    path of the vocabulary) and action, the classes it takes."""

    gain: float
    path: tuple[int, ...]
    action: str
    rows: np.ndarray


def _best_split(line: Line, rows: np.ndarray, seen: Seen, losses: AtOnce, weight: np.ndarray,
                vocabulary: list[tuple[str, Any]]) -> _Split | None:
    """The line of ``line``'s conditions and one or two more, betting or folding at once, that
    gains most over the classes ``rows`` it decides (None: no such line gains)."""
    index = {c: i for i, c in enumerate(vocabulary)}
    if any(c not in index for c in line.when) or not len(rows):
        return None
    path = tuple(index[c] for c in line.when)
    narrow = narrowing(vocabulary)
    actions = [a for a in AT_ONCE if a != line.action]
    gains = {a: np.zeros((len(vocabulary), len(vocabulary))) for a in actions}
    for start in range(0, len(rows), CHUNK):
        part = rows[start:start + CHUNK]
        masks = condition_masks(seen.take(part), vocabulary)
        for a in actions:
            gain = weight[part] * (losses.card[part] - losses.of_action(a)[part])
            gains[a] += (masks * gain) @ masks.T
    best: _Split | None = None
    for a in actions:
        upper = np.triu(gains[a])
        for flat in np.argsort(upper, axis=None)[::-1]:
            p, q = divmod(int(flat), len(vocabulary))
            if upper[p, q] <= (best.gain if best else 0.0):
                break
            first = narrow(path, p)
            both = first if first is None or p == q else narrow(first, q)
            if both is None or both == path:        # not a line a card can state, or the whole line
                continue
            held = np.ones(len(rows), bool)
            part_seen = seen.take(rows)
            for i in both:
                held &= condition_masks(part_seen, [vocabulary[i]])[0] > 0
            best = _Split(float(upper[p, q]), both, a, rows[held])
            break
    return best


def split_lines(lines: tuple[Line, ...], seen: Seen, line: np.ndarray, losses: AtOnce, weight: np.ndarray,
                vocabulary: list[tuple[str, Any]], room: int) -> list[tuple[tuple[Line, ...], float]]:
    """The first decision ``lines`` (each class's of ``seen``: ``line``, of ``weight`` deals)
    after one, two, ... up to ``room`` lines split off (``_best_split``, each just above the line
    whose deals it takes, the one that gains most first), each with what it gains in all, per
    deal; fewer where no line split off gains."""
    out: list[tuple[tuple[Line, ...], float]] = []
    current = list(lines)
    owner = line.copy()
    splits: list[_Split | None] = [_best_split(ln, np.flatnonzero(owner == k), seen, losses, weight, vocabulary)
                                   for k, ln in enumerate(current)]
    deals, gained = float(weight.sum()), 0.0
    while len(out) < room:
        gains = [found.gain if found is not None else 0.0 for found in splits]
        k = int(np.argmax(gains))
        found = splits[k]
        if found is None:
            break
        # the new line above line k: the lines below move down, and k's classes it takes are its
        owner[owner >= k] += 1
        owner[found.rows] = k
        current.insert(k, Line(tuple(vocabulary[i] for i in found.path), found.action))
        splits.insert(k, None)
        splits[k + 1] = _best_split(current[k + 1], np.flatnonzero(owner == k + 1), seen, losses, weight, vocabulary)
        gained += found.gain / deals
        out.append((tuple(current), gained))
    return out
