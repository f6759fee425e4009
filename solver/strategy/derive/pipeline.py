"""The derive: a card of at most N lines from optimal play, its later decisions, its exact check
and its repairs (``derive``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from ...classes import enumerate_classes
from ...counts import bet_evs
from ...deal import bet_counts
from ...errors import InputError
from ...play import BEST, Play
from ...report.counting import Counts, class_counts
from ...rules import Rules
from ...rules import load as rules_load
from .. import later_play
from ..card import StrategyCard
from ..check import bet_fold_losses, ranked_classes
from ..departing import TableCodes, work_folder
from ..hands import Seen
from ..vocabulary import Line
from .cells import actions, cell_of, representative_losses, representative_values, summed_cells, table_losses
from .refinement import Found
from .repairs import AFTER_LINES, NEVER, Deriving, repaired
from .searching import search
from .writing import Derived, card_lines, plain

#: the cards' sizes of the cost curve
CURVE = (5, 10, 20, 40)


def parse_sizes(text: str) -> tuple[int, ...]:
    """The cost curve's sizes written as ``--sizes`` takes them, each 2 to 200 lines.

    >>> parse_sizes("10,25,50,100")
    (10, 25, 50, 100)
    """
    try:
        got = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise InputError(f"--sizes must be whole numbers separated by commas, not {text!r}") from None
    if not all(2 <= n <= 200 for n in got):
        raise InputError(f"--sizes must each be 2 to 200 lines, not {text!r}")
    return got

INSURANCE_LINES = range(1, 4)
"""The numbers of lines a derived card may give to its insurance (``[[insurance]]``; one: never)."""


def after_draw_lines(size: int) -> range:
    """The numbers of lines a derived card of ``size`` lines may give to the bet or fold after a
    draw (the rest to the first decision): the derive takes the one of least loss."""
    return range(2, max(2, min(AFTER_LINES, size // 4)) + 1)


def _started(start: StrategyCard, rules: Rules, most: int) -> tuple[tuple[Line, ...], tuple[Line, ...],
                                                                    tuple[Line, ...]]:
    """The lines of a card a derive wrote (``--from``), refused before any work where it is for
    other rules, states what ``rules`` cannot play, or has more than ``most`` lines."""
    if rules_load(start.rules) != rules:
        raise InputError(f"strategy file {start.path} is for the rules {start.rules!r}, not {rules.name!r}")
    start.check_play(rules)
    found = card_lines(Path(start.path).read_text(encoding="utf-8"))
    size = len(found[0]) + len(found[1]) + later_play.lines(start.play, len(found[2]))
    if size > most:
        raise InputError(f"strategy file {start.path} has {size} lines, more than --lines {most}")
    return found


def deriving(rules: Rules, most: int, jobs: int, progress: Callable[[int, int], None] | None,
              counts: Counts | None, table: str | Path | None, work: Path | None, after_draw: bool,
              insurance_buy: bool, note: Callable[[str], None] | None, start: StrategyCard | None) -> Deriving:
    """What the derive's stages share: rules with draws read their table and choose the card's
    insurance and buys (``later_play.choose``; a ``start`` card's own); rules without count every
    class's bet. The lines the insurance and buys take are refused before either count."""
    play: Play = start.play if start is not None else BEST
    codes = None
    if rules.draws:
        codes = TableCodes.read(rules, table)
        hands, ups, weight = enumerate_classes()
        if insurance_buy and start is None:
            play = later_play.choose(rules, hands, ups, weight)
    extra = later_play.lines(play)
    if most - extra < 2:
        raise InputError(f"--lines must leave 2 for the first decision after {extra} for the insurance and buying a "
                         f"game, not {most}")
    stated = rules.draws and after_draw
    if codes is not None:
        insuring = rules.insurance and play.insure_from is not None
        return Deriving(rules, Seen.of(hands, ups), weight, play, stated, insuring, jobs, codes=codes, hands=hands,
                        ups=ups, folder=work_folder(codes.table, work), work=work, table=table, progress=progress,
                        note=note)
    c = counts if counts is not None else class_counts(rules, jobs, progress)
    _, _, seen = ranked_classes()
    return Deriving(rules, seen, c.weight, play, stated, False, jobs, counts=c, work=work, table=table,
                    progress=progress, note=note)


def cell_losses(x: Deriving, names: tuple[str, ...]) -> tuple[Seen, np.ndarray]:
    """The cells (one class of each) and what each action ``names`` loses summed over their deals."""
    if x.codes is None:
        assert x.counts is not None
        exact, unit = bet_fold_losses(x.counts)       # in antes per deal
        return summed_cells(x.seen, exact.astype(np.float64) / float(unit), x.weight, False)
    assert x.hands is not None and x.ups is not None
    found = cell_of(x.seen, True)
    values = representative_values(found[0], x.rules, x.codes, x.jobs, x.progress, x.work)
    estimate = representative_losses(x.seen.take(found[0]), values, x.codes.best_ev[found[0]], names, x.rules)
    bet_ev = bet_evs(bet_counts(x.hands, x.ups, x.rules, x.play))
    loss = table_losses(x.seen, x.codes, x.rules, names, estimate[found[1]], bet_ev)
    del estimate
    return summed_cells(x.seen, loss, x.weight, True, found)


def _first_sizes(x: Deriving, sizes: tuple[int, ...], extra: int) -> tuple[int, ...]:
    """The sizes of the first decision to search: each size less the lines its later rules may take."""
    more = range(len(INSURANCE_LINES)) if x.insuring else range(1)
    first = {n - extra - k - j for n in sizes for k in (after_draw_lines(n - extra) if x.stated else (0,))
             for j in more}
    return tuple(sorted(m for m in first if m >= 2))


Chosen = tuple[tuple[Line, ...], tuple[Line, ...], tuple[Line, ...], int, int]
"""A card's lines: the first decision's, the bet or fold after a draw's, the insurance's, and the
numbers of lines of the last two as the search chose them (``k``, ``j``)."""


def _lines_of(x: Deriving, cards: dict[int, Found], m: int, deals: float) -> Chosen:
    """The lines of the card of ``m`` lines (less those of its buys and one-line insurance) from
    the searched first decisions ``cards``: the split of its lines of least loss, first decision
    and bet or fold after a draw and insurance together."""
    later: tuple[Line, ...] = ()
    k, j = 0, 1
    split = range(0)
    if x.stated:
        # the bet or fold after the draws of the first decision of the middle size, then the
        # split of the lines of least loss, its bet or fold from its own draws
        split = after_draw_lines(m)
        middle = split[len(split) // 2]
        stating = x.after_rules(cards[m - middle][0], split)
        k = min(split, key=lambda k: cards[m - k][1] / deals + stating[k][1])
        m -= k
        # the chosen card's own bet or fold, its sizes searched together: a size searched alone
        # ends far from one refined from its neighbours' (5 lines over the draws of the default
        # rules' 16 first lines: 0.143 % alone, 0.062 % with 2-4; the search's sums, 2026-12-06)
        later = (stating if k == middle else x.after_rules(cards[m][0], split))[k][0]
    insurance: tuple[Line, ...] = ()
    if x.insuring:
        # the insurance's rules over this card's bets; each line past the first is one the
        # first decision gives up
        ruled = x.insurance_rules(cards[m][0], later, INSURANCE_LINES)
        j = min((j for j in INSURANCE_LINES if m - j + 1 in cards),
                key=lambda j: cards[m - j + 1][1] / deals + ruled[j][1])
        if ruled[j][0] == NEVER:      # one line "none": never, as it stands
            j = 1
        else:
            insurance = ruled[j][0]
    searched = cards[m][0]
    m -= j - 1
    chosen = cards[m][0]
    if chosen != searched:
        # the insurance's lines were taken from the first decision, whose later rules were
        # searched over another card's draws and bets: searched again, in as many lines, over
        # its own (the default rules' 16 first lines had the bet or fold of the 18's, 2026-12-06)
        if x.stated:
            later = x.after_rules(chosen, split)[k][0]
        if insurance:
            insurance = x.insurance_rules(chosen, later, INSURANCE_LINES)[j][0]
    if x.rules.draws:
        chosen = plain(chosen, x.rules, x.seen)
    return chosen, later, insurance, k, j


def derive(rules: Rules, most: int, jobs: int = 1, progress: Callable[[int, int], None] | None = None,
           counts: Counts | None = None, curve: tuple[int, ...] = (), table: str | Path | None = None,
           work: Path | None = None, after_draw: bool = True, insurance_buy: bool = True,
           note: Callable[[str], None] | None = None, start: StrategyCard | None = None) -> list[Derived]:
    """The derived card of at most ``most`` lines, and those of each size of ``curve``, each
    checked exactly (rules with draws: from their complete ``table``, the check's departures
    kept in ``work``, as ``check``). With draws and ``after_draw``, a card states the bet or
    fold after a draw too, in some of its lines (``after_draw_lines``: as many as lose least,
    first decision and bet or fold together); else the solver decides it. With draws and
    ``insurance_buy``, it states its insurance and buying a game too, a line each
    (``later_play``: where the rules offer them and set no table maximum), or its insurance in
    ``[[insurance]]`` rules on the final hand, the up-card and the thrown card, in as many lines
    (``INSURANCE_LINES``) as lose least, first decision and insurance together; both are searched
    over the draws and bets of the first decision the card ends with. Checked, a card with later
    rules of its own is repaired (``repairs``) and checked again: the card that loses less is
    kept. ``start``: a card a derive wrote, taken as found instead of searching (its lines, its
    insurance and buys), then checked and repaired so; the only card returned. ``note`` hears of
    each stage past the first's progress: the searches, each card found."""
    if not 2 <= most <= 200:
        raise InputError(f"--lines must be 2 to 200, not {most}")
    found = _started(start, rules, most) if start is not None else None
    x = deriving(rules, most, jobs, progress, counts, table, work, after_draw, insurance_buy, note, start)
    if found is not None:
        d = x.checked(*found)
        return [repaired(x, d, most, len(d.after), max(1, len(d.insurance))) if x.stated or x.insuring else d]
    names = actions(rules)
    extra = later_play.lines(x.play)      # the first decision's lines are the rest
    sizes = tuple(sorted({most, *curve}))
    cells, summed = cell_losses(x, names)
    cards = search(cells, summed, names, _first_sizes(x, sizes, extra), rules.draws, folder=x.folder, jobs=jobs,
                   note=note)
    del summed
    deals = float(x.weight.sum())      # the search's losses are summed over the deals, the gains per deal
    out: list[Derived] = []
    for n in sizes:
        chosen, later, insurance, k, j = _lines_of(x, cards, n - extra, deals)
        size = len(chosen) + len(later) + later_play.lines(x.play, len(insurance))
        if out and size == out[-1].size:
            continue                          # no condition lowers the loss further
        derived = x.checked(chosen, later, insurance)
        if x.stated or x.insuring:
            derived = repaired(x, derived, n, k, j)
        out.append(derived)
    return out
