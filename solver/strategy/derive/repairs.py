"""What the stages of a derive share (``Deriving``), and the repairs of a checked card.

Checked, a card with later rules of its own has each first-decision line that loses more than
betting or folding its deals at once under them bet or folded at once (``at_once``: its later
rules searched again with the lines it frees), and is checked again; then the deals of its lines
that lose less bet or folded at once split off into lines of their own (``split_off``), and it is
checked again: the card that loses less is kept. The search cannot see this: it values a draw as
if the solver played its final hands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from ...play import Play
from ...report.counting import Counts
from ...rules import Rules
from .. import later_play
from ..after_draw import ACTIONS, bet_table
from ..at_once import AtOnce, split_lines, whole_lines
from ..card import INSURE, parse
from ..check import check
from ..departing import TableCodes
from ..draw_gains import draw_gains
from ..hands import Seen
from ..vocabulary import Line, atoms
from .refinement import Found
from .searching import final_rules
from .writing import Derived, card_text, plain

AFTER_LINES = 6
"""The most lines of a derived card's bet or fold after a draw (``[[after_draw]]``), within its size."""
NEVER = (Line((), "none"),)
"""The insurance's rules of one line that never insures: no ``[[insurance]]`` lines."""


@dataclass
class Deriving:
    """What the stages of one derive share: the rules and their classes as a card sees them
    (``seen``, ``weight``), the card's insurance and buys (``play``), the rules' table (``codes``;
    rules with draws) or every class's bet counts (``counts``; rules without), whether the card
    states the bet or fold after a draw (``stated``) and its insurance in rules of its own
    (``insuring``), and where the work is kept (``folder``, ``work``)."""

    rules: Rules
    seen: Seen
    weight: np.ndarray
    play: Play
    stated: bool
    insuring: bool
    jobs: int = 1
    codes: TableCodes | None = None
    counts: Counts | None = None
    hands: np.ndarray | None = None
    ups: np.ndarray | None = None
    folder: Path | None = None
    work: Path | None = None
    table: str | Path | None = None
    progress: Callable[[int, int], None] | None = None
    note: Callable[[str], None] | None = None
    counted: dict[bytes, AtOnce] = field(default_factory=dict)

    def say(self, text: str) -> None:
        if self.note is not None:
            self.note(text)

    def _codes(self) -> TableCodes:
        if self.codes is None:
            raise AssertionError("a stage of rules with draws run without their table")
        return self.codes

    def played(self, lines: tuple[Line, ...]) -> np.ndarray:
        """The table codes of the first decision ``lines`` in every class."""
        alone = parse(card_text(lines, self.rules, self.rules.name), "first decision")
        codes = self._codes()
        return alone.codes(self.seen, alone.decide(self.seen), self.rules, codes.best, codes.second)

    def gains_of(self, lines: tuple[Line, ...]) -> np.ndarray:
        """What each cell of the first decision's draws gains by a bet (``draw_gains``)."""
        return draw_gains(self.rules, self._codes(), self.played(lines), self.jobs, self.progress, self.work,
                          self.play)

    def insurance_gains(self, lines: tuple[Line, ...], later: tuple[Line, ...]) -> np.ndarray:
        """What insuring the most gains over never in each cell of the hands the first decision
        ``lines`` bets, at once and after its draws as ``later`` says (``later_play``)."""
        text = card_text(lines, self.rules, self.rules.name, later)
        betting = bet_table(parse(text, "bet or fold")) if self.stated else None
        return later_play.insurance_gains(self.rules, self._codes(), self.played(lines), betting, self.play,
                                          self.jobs, self.progress, self.work)

    def after_rules(self, lines: tuple[Line, ...], sizes: range) -> dict[int, Found]:
        """The bet or fold after the draws of the first decision ``lines``, in each of ``sizes`` lines."""
        return final_rules(self.gains_of(lines), ACTIONS, sizes, self.folder, self.jobs)

    def insurance_rules(self, lines: tuple[Line, ...], later: tuple[Line, ...], sizes: range) -> dict[int, Found]:
        """The insurance's rules over the bets of the first decision ``lines`` and ``later``, in each of ``sizes``."""
        return final_rules(self.insurance_gains(lines, later), INSURE, sizes, self.folder, self.jobs)

    def checked(self, chosen: tuple[Line, ...], later: tuple[Line, ...], insurance: tuple[Line, ...]) -> Derived:
        """The card of these lines, checked exactly."""
        size = len(chosen) + len(later) + later_play.lines(self.play, len(insurance))
        name = f"{self.rules.name}: derived card of {size} lines"
        text = card_text(chosen, self.rules, name, later, self.play, insurance)
        card = parse(text, f"{self.rules.name}-derived-{size}.toml")
        self.say(f"checking the card of {size} lines exactly")
        return Derived(chosen, card, check(card, self.rules, self.jobs, self.progress, counts=self.counts,
                                           table=self.table, work=self.work, returns=False), text, later, insurance)

    def at_once_losses(self, d: Derived) -> AtOnce:
        """What each class loses as ``d`` plays it, and bet or folded at once under its own play
        (every class's bet counted once for each way of insuring and buying: both repairs read it)."""
        card = d.check.losses / d.check.unit
        key = d.card.play.key
        if key not in self.counted:
            if self.hands is None or self.ups is None:
                raise AssertionError("a repair of rules with draws run without their classes")
            self.counted[key] = AtOnce.of(card, self.rules, d.card.play, self.hands, self.ups, self._codes().best_ev)
        return replace(self.counted[key], card=card)


def freed(stating: dict[int, Found], ruled: dict[int, Found], lines: int) -> tuple[int, int]:
    """The lines of the bet or fold after a draw and of the insurance, of the searches' cards by
    size ``stating`` and ``ruled``, at most ``lines`` together, whose searches lose least together.

    >>> stating, ruled = {4: ((), 0.5), 5: ((), 0.2)}, {3: ((), 0.3), 4: ((), 0.1)}
    >>> freed(stating, ruled, 7), freed(stating, ruled, 8), freed(stating, ruled, 9)
    ((4, 3), (5, 3), (5, 4))
    """
    return min(((a, b) for a in stating for b in ruled if a + b <= lines),
               key=lambda split: stating[split[0]][1] + ruled[split[1]][1])


def at_once(x: Deriving, d: Derived, most: int, k: int, j: int) -> Derived:
    """``d`` with its first decision's lines that lose more, exactly, than betting or folding
    their hands at once under its own later rules bet or folded at once (``whole_lines``), the
    lines that leaves redundant left out, and its later rules searched again over its draws
    and bets, with the lines freed (``k``, ``j``: the lines its bet or fold after a draw and
    its insurance had): kept where it loses less, exactly."""
    lines = whole_lines(d.lines, d.card.decide(x.seen), x.at_once_losses(d), x.weight)
    if lines == d.lines:
        return d
    lines = plain(lines, x.rules, x.seen)
    x.say(f"{len(d.lines) - len(lines)} of the first decision's lines freed by betting or folding at once")
    free = most - d.size + len(d.lines) - len(lines)
    stating: dict[int, Found] = {0: ((), 0.0)}
    if x.stated:
        stating = x.after_rules(lines, range(2, min(AFTER_LINES, k + free) + 1))
    ruled = {j: (d.insurance, 0.0)}
    if x.insuring:
        ruled = x.insurance_rules(lines, stating[k][0], range(1, j + free + 1))
    # the insurance's searched over the bet or fold of as many lines as before
    k2, j2 = freed(stating, ruled, k + j + free)
    insurance = d.insurance
    if x.insuring:
        if k2 != k:
            ruled = x.insurance_rules(lines, stating[k2][0], range(1, j2 + 1))
        insurance = () if ruled[j2][0] == NEVER else ruled[j2][0]
    touched = x.checked(lines, stating[k2][0], insurance)
    return touched if touched.check.cost < d.check.cost else d


def split_off(x: Deriving, d: Derived, most: int) -> Derived:
    """``d`` with the deals of its first decision's lines that lose less bet or folded at once
    under its own later rules split off into lines of their own (``split_lines``): in the lines
    of ``most`` it has room for, and in one of its insurance's where the line gains more than
    the insurance, searched again in one line less over the draws and bets that leaves, loses
    by it. Kept where it loses less, exactly."""
    room = most - d.size
    trade = int(x.insuring and len(d.insurance) > 1)
    if room + trade < 1:
        return d
    splits = split_lines(d.lines, x.seen, d.card.decide(x.seen), x.at_once_losses(d), x.weight, atoms(draws=True),
                         room + trade)
    lines, insurance = splits[min(room, len(splits)) - 1][0] if room and splits else d.lines, d.insurance
    if len(splits) > room:
        j = len(d.insurance)
        ruled = x.insurance_rules(splits[room][0], d.after, range(1, j + 1))
        gain = splits[room][1] - (splits[room - 1][1] if room else 0.0)
        x.say(f"a line split off gains {gain * 100:.6f} % of the ante; the insurance in one line less loses "
              f"{(ruled[j - 1][1] - ruled[j][1]) * 100:.6f} % more (the sums' floats)")
        if gain > ruled[j - 1][1] - ruled[j][1]:
            lines = splits[room][0]
            insurance = () if ruled[j - 1][0] == NEVER else ruled[j - 1][0]
    if lines == d.lines:
        return d
    lines = plain(lines, x.rules, x.seen)
    x.say(f"the first decision in {len(lines)} lines, from {len(d.lines)}: lines split off bet or fold at once")
    parted = x.checked(lines, d.after, insurance)
    return parted if parted.check.cost < d.check.cost else d


def repaired(x: Deriving, d: Derived, most: int, k: int, j: int) -> Derived:
    """``d`` after both repairs of its exact check (``at_once``, ``split_off``)."""
    return split_off(x, at_once(x, d, most, k, j), most)
