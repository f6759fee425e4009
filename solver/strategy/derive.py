"""A strategy card derived from optimal play: at most N rule lines a person can follow, losing as
little as a greedy search finds, then checked exactly (``check``).

The search works on *cells*: the classes that every condition of a card sees alike (the same
category, ranks, up-card rank and draws), with each action's loss against the best summed over
their deals. It grows a tree leaf by leaf, each split by one condition of the vocabulary
(``atoms``), each leaf taking the action of least loss; a tree of N leaves is a card of N lines
(``search``). The search sums floats; the card it writes is then checked exactly, so the cost
printed is exact.

What each action loses in each class: without draws, from every class's bet counts
(``report.class_counts``: bet and fold, exactly). With draws, from the rules' compact table, which
holds each class's best action and runner-up with their EVs, and the kernel counts every class's
bet (about a minute): an action that is the best loses nothing, the runner-up its gap, a fold or a
bet its EV's distance from the best. Any other action's loss is that of the same action in one
class of the same cell (its *representative*, solved exactly: ``representative_losses``), and at
least the runner-up's gap; where that class would exchange all five cards (a keep naming ranks it
does not hold: 5 ms a class, as much as every other action together), the runner-up's gap plus
``UNKNOWN``. These are the search's estimates: only the exact check says what the card loses.

With draws a card also states the bet or fold after a draw, searched over the cells (a card of
the up-card's rank thrown away or not, up rank, final strength) of its first decision's draws,
each weighted by what betting it gains over folding (``draw_gains``): what those rules lose is
exact there, up to the floats' rounding.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from .. import __version__, toml_text
from ..action import KINDS, N_CODES, SIXTH_CARD, Action, exchange_code
from ..classes import enumerate_classes, rank_order
from ..counts import bet_evs
from ..deal import bet_counts, option_values
from ..errors import InputError
from ..manifest import writable_directory, write_atomic
from ..play import BEST, Play
from ..report.counting import Counts, class_counts
from ..rules import Rules
from ..rules import load as rules_load
from . import later_play
from .after_draw import ACTIONS, bet_table, final_hands
from .at_once import AtOnce, split_lines, whole_lines
from .card import INSURE, StrategyCard, parse
from .check import CardCheck, bet_fold_losses, check, ranked_classes
from .departing import TableCodes, work_folder
from .draw_gains import draw_gains
from .hands import Seen
from .keep import NO_HAND, Keep
from .kept import read_sealed, write_sealed
from .rendering import later_words
from .vocabulary import NARROWS, Line, atoms, condition_masks, narrowing

#: the cards' sizes of the cost curve
CURVE = (5, 10, 20, 40)
#: what an exchange of a derived card may keep (rules with an exchange)
KEEPS = ("pair", "two_pair", "trips", "flush", "straight", "straight_flush", "royal", "highest", "pair highest",
         "highest_suited",
         "A", "K", "Q",
         "A K", "A Q", "A J", "K Q", "K J", "Q J", "A K Q", "A K J", "A Q J", "K Q J", "A K Q J", "Q+", "K+",
         "pair A", "pair K", "pair A K", "pair Q+")
AFTER_LINES = 6
"""The most lines of a derived card's bet or fold after a draw (``[[after_draw]]``), within its size."""
INSURANCE_LINES = range(1, 4)
"""The numbers of lines a derived card may give to its insurance (``[[insurance]]``; one: never)."""
UNKNOWN = 0.1
"""What the search adds to the runner-up's gap where a representative's loss is not counted."""
IMPOSSIBLE = 1e6
"""The loss of an action a deal cannot take (a keep naming no card of it): never chosen."""


def actions(rules: Rules) -> tuple[str, ...]:
    """The first actions a derived card may take under ``rules``: bet, fold, a sixth card, and
    exchanges by what they keep (``keep ...``)."""
    out = ["bet", "fold"] + (["sixth_card"] if rules.sixth_card else [])
    return (*out, *(f"keep {k}" for k in KEEPS if rules.exchange))


@dataclass(frozen=True)
class Derived:
    """A derived card: its lines of the first decision in order (the last without conditions),
    the card parsed from its file, its exact check, its lines of the bet or fold after a draw
    (none: the solver's) and of its insurance (none: a word, or the solver's)."""

    lines: tuple[Line, ...]
    card: StrategyCard
    check: CardCheck
    text: str
    after: tuple[Line, ...] = ()
    insurance: tuple[Line, ...] = ()

    @property
    def size(self) -> int:
        """The card's lines: both decisions, its insurance and buying a game."""
        return len(self.lines) + len(self.after) + later_play.lines(self.card.play, len(self.insurance))


def _value(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v) if isinstance(v, int) else f'"{v}"'


def card_text(lines: tuple[Line, ...], rules: Rules, name: str, after: tuple[Line, ...] = (),
              play: Play = BEST, insurance: tuple[Line, ...] = ()) -> str:
    """The card's TOML file: its insurance and buying a game (``play``; the solver's where it
    does not say), the first decision's ``lines``, then the bet or fold after a draw (``after``;
    none: the solver's), then the insurance's rules (``insurance``; none: ``play``'s)."""
    out = [f"# Derived from optimal play by `rpoker strategy derive --rules {rules.name}`: "
           f"{len(lines) + len(after) + later_play.lines(play, len(insurance))} lines, the",
           "# first rule that holds decides.", f'name = "{name}"', f'rules = "{rules.name}"']
    if insurance:
        play = replace(play, insure_from=None, insure_when=None)     # its rules say it, below
    if not play.best:
        out += ["", *later_play.toml(play)]
    for table, block in (("first", lines), ("after_draw", after), ("insurance", insurance)):
        for line in block:
            out += ["", f"[[{table}]]"]
            if line.when:
                out.append("when = { " + ", ".join(f"{k} = {_value(v)}" for k, v in line.when) + " }")
            if line.action.startswith("keep "):
                out += ['do = "exchange"', f'keep = "{line.action[5:]}"']
            else:
                out.append(f'do = "{line.action}"')
    return "\n".join(out) + "\n"


def plain(lines: tuple[Line, ...], rules: Rules, seen: Seen) -> tuple[Line, ...]:
    """The first decision's ``lines`` as a person reads them: a keep of ranks that no hand the
    line decides holds (the search's "keep A" for hands without an ace) says what it does, keep
    nothing (the same cards thrown: all five); and a line whose every deal the lines below it
    play the same way is left out (the search tells keeps apart by their words), until neither
    changes a line.

    >>> from solver.cards import parse_cards, parse_card
    >>> from solver.rules import preset
    >>> seen = Seen.of(np.asarray([parse_cards("Qh Jd 8c 5s 3h"), parse_cards("Ah Jd 8c 5s 3h")]),
    ...                np.asarray([parse_card("9d"), parse_card("9d")]))
    >>> lines = (Line((("holds", "A"),), "keep K"), Line((("holds", "J"),), "keep A"), Line((), "keep K"))
    >>> [line.action for line in plain(lines, preset("oasis"), seen)]
    ['keep nothing']
    """
    def deciding(rules_: list[Line], part: Seen) -> np.ndarray:
        return parse(card_text(tuple(rules_), rules, rules.name), "first decision").decide(part)

    def played(action: str, part: Seen) -> np.ndarray:
        """The table code of ``action`` in each deal (-1 where a keep names no card of it)."""
        code, impossible = _action_codes(part, rules, action)
        out: np.ndarray = np.where(impossible, -1, code)
        return out

    out = list(lines)
    before: list[Line] = []
    while out != before:
        before = list(out)
        line = deciding(out, seen)
        for k, rule in enumerate(out):
            rows = np.flatnonzero(line == k)
            keeps = rule.action.startswith("keep ")
            if keeps and len(rows) and (played(rule.action, seen.take(rows)) == ALL_FIVE).all():
                out[k] = replace(rule, action="keep nothing")
        for k in range(len(out) - 2, -1, -1):
            rows = np.flatnonzero(line == k)
            part = seen.take(rows)
            rest = out[:k] + out[k + 1:]
            below = deciding(rest, part)
            if all(np.array_equal(played(out[k].action, part.take(np.flatnonzero(below == j))),
                                  played(rest[j].action, part.take(np.flatnonzero(below == j))))
                   for j in np.unique(below).tolist()):
                del out[k]
                line[line > k] -= 1          # the lines below move up; line k's deals go to theirs
                line[rows] = below
    return tuple(out)


def _action_codes(seen: Seen, rules: Rules, name: str) -> tuple[np.ndarray, np.ndarray]:
    """The table code of an action of a derived card in each class, and where it cannot be taken."""
    if not name.startswith("keep "):
        return np.full(len(seen), KINDS.index(name)), np.zeros(len(seen), bool)
    kept = Keep.parse(name[5:]).kept(seen)
    throw = 31 & ~kept
    sizes = np.asarray([bin(t).count("1") for t in range(32)])
    return exchange_code(throw), (kept == NO_HAND) | ~np.isin(sizes[throw], rules.exchange_counts)


ALL_FIVE = exchange_code(31)
"""The code of exchanging all five, which representatives leave to ``UNKNOWN``."""


def _representative_codes(rules: Rules) -> np.ndarray:
    """The codes every representative is solved for: a sixth card and each exchange the rules
    allow, but of all five (5 ms a class, as much as every other action together)."""
    sizes = [bin(t).count("1") for t in range(1, 31)]
    exchanges = [exchange_code(t) for t, k in zip(range(1, 31), sizes) if k in rules.exchange_counts]
    return np.asarray(([SIXTH_CARD] if rules.sixth_card else []) + exchanges, np.int64)


def _solve_representatives(rules: Rules, rows: np.ndarray) -> np.ndarray:
    """The exact EVs (as floats) of every option of ``_representative_codes`` of the classes
    ``rows`` (rows, N_CODES), NaN for the others."""
    hands, ups, _ = enumerate_classes()
    wanted = _representative_codes(rules).tolist()
    out = np.full((len(rows), N_CODES), np.nan)
    for i in rank_order(hands[rows], ups[rows]).tolist():
        hand, up = tuple(int(c) for c in hands[rows[i]]), int(ups[rows[i]])
        out[i, wanted] = [float(v) for v in option_values(hand, up, [Action.from_code(c, hand) for c in wanted],
                                                          rules)]
    return out


def representative_values(rows: np.ndarray, rules: Rules, codes: TableCodes, jobs: int = 1,
                          progress: Callable[[int, int], None] | None = None,
                          work: Path | None = None) -> np.ndarray:
    """The exact EVs (floats, per deal) of every option but betting, folding and exchanging all
    five of the classes ``rows`` (one per cell): (rows, N_CODES), NaN where not counted. Counted
    in chunks of ``jobs`` workers, each kept sealed in the work folder as it finishes (a derive
    resumes, whatever actions its card may take)."""
    import joblib

    hands, ups, _ = enumerate_classes()
    order = rank_order(hands[rows], ups[rows])
    folder = work_folder(codes.table, work)
    chunks = np.array_split(order, max(1, len(order) // 2048))
    values = np.full((len(rows), N_CODES), np.nan)
    solved = _representative_codes(rules)
    tasks = []
    for chunk in chunks:
        h = hashlib.sha256(f"rpoker derive representatives {__version__}".encode())
        for a in (rows[chunk], solved):
            h.update(np.ascontiguousarray(a, np.int64).tobytes())
        path = folder / f"representatives-{h.hexdigest()[:24]}.npy"
        got = read_sealed(path, (len(chunk), N_CODES))
        if got is None:
            tasks.append((chunk, path))
        else:
            values[chunk] = got
    counted = len(rows) - sum(len(c) for c, _ in tasks)
    if progress is not None:
        progress(counted, len(rows))
    if not tasks:       # all kept: an empty generator of joblib warns of tasks cancelled
        return values
    results = joblib.Parallel(n_jobs=jobs, return_as="generator")(
        joblib.delayed(_solve_representatives)(rules, rows[c]) for c, _ in tasks)
    for (chunk, path), got in zip(tasks, results):
        write_sealed(path, got)
        values[chunk] = got
        counted += len(chunk)
        if progress is not None:
            progress(counted, len(rows))
    return values


def representative_losses(part: Seen, values: np.ndarray, best_ev: np.ndarray, names: tuple[str, ...],
                          rules: Rules) -> np.ndarray:
    """What each action ``names`` loses in the representatives ``part`` of EVs ``values``
    (``representative_values``) and best EVs ``best_ev``: (rows, actions), NaN where not counted
    (betting, folding, exchanging all five, what the class cannot take)."""
    loss = np.full((len(part), len(names)), np.nan)
    for a, name in enumerate(names):
        code, impossible = _action_codes(part, rules, name)
        ok = ~impossible & (code >= 2)
        loss[ok, a] = best_ev[ok] - values[np.flatnonzero(ok), code[ok]]
    return loss


def _table_losses(seen: Seen, codes: TableCodes, rules: Rules, names: tuple[str, ...], estimate: np.ndarray,
                  bet_ev: np.ndarray | None = None) -> np.ndarray:
    """What each action loses in each class (rules with draws), as the compact table tells it
    (the module's docstring), the losses of its other actions as ``estimate`` (classes,
    actions; NaN: not counted) and betting's from each class's bet EV ``bet_ev`` when given; in
    antes per deal, float32 (classes, actions)."""
    gap = (codes.best_ev - codes.second_ev).astype(np.float32)
    out = np.empty((len(seen), len(names)), np.float32)
    for a, name in enumerate(names):
        code, impossible = _action_codes(seen, rules, name)
        # never below the runner-up's gap: an action that is neither the best nor the runner-up
        unknown = np.where(np.isnan(estimate[:, a]), gap + UNKNOWN, np.maximum(estimate[:, a], gap))
        loss = np.where(code == codes.best, 0, np.where(code == codes.second, gap, unknown))
        if name == "fold":
            loss = (codes.best_ev + 1).astype(np.float32)
        if name == "bet" and bet_ev is not None:
            loss = np.maximum(codes.best_ev - bet_ev, 0).astype(np.float32)
        out[:, a] = np.where(impossible, IMPOSSIBLE, loss)
    return out


def _cell_of(seen: Seen, draws: bool) -> tuple[np.ndarray, np.ndarray]:
    """The cells: the first class of each, and each class's cell."""
    key = ((seen.ranks @ (13 ** np.arange(4, -1, -1))) * 11 + seen.category) * 13 + seen.up
    if draws:
        key = (((key * 6 + seen.to_flush) * 6 + seen.to_straight_flush) * 6 + seen.to_royal) * 14 + seen.straight_outs
        key = key * 6 + seen.suited_place
    _, first, cell = np.unique(key, return_index=True, return_inverse=True)
    return first, cell


def _cells(seen: Seen, loss: np.ndarray, weight: np.ndarray, draws: bool,
           cells: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[Seen, np.ndarray]:
    """The cells (one class of each, as a Seen; ``cells``: ``_cell_of`` when at hand) and each
    action's loss summed over their deals (cells, actions)."""
    first, cell = cells if cells is not None else _cell_of(seen, draws)
    summed = np.zeros((len(first), loss.shape[1]))
    for a in range(loss.shape[1]):
        summed[:, a] = np.bincount(cell, weight * loss[:, a].astype(np.float64), len(first))
    return seen.take(first), summed


def _stated(path: tuple[int, ...] | None) -> tuple[int, ...]:
    """The path of a split made: the search splits only by conditions a card can state there."""
    if path is None:
        raise AssertionError("a split by a condition the card cannot state after its path")
    return path


@dataclass
class _Node:
    """A node of the search's tree: its cells, the conditions written on its path (the branches
    where a condition holds), and its split (a condition's index, the side where it holds, the
    other) once split."""

    cells: np.ndarray
    path: tuple[int, ...]
    action: int                 # the action of least loss over its cells
    split: tuple[int, _Node, _Node] | None = None


def _impurity(mass: np.ndarray) -> np.ndarray:
    """How mixed a set of deals is, by the mass (last axis: one per action) of the deals where
    each action is the best, each weighted by what it gains over the next best: Gini's index in
    these weights, sum over a < b of m_a m_b / M (written so, not as M - sum m_a^2 / M, whose
    cancellation would blur near ties), which unlike the loss itself rewards a split that sorts the
    deals even before either side changes its action."""
    total = mass.sum(axis=-1)
    before = np.cumsum(mass, axis=-1) - mass            # the masses of the actions before each
    pairs = (mass * before).sum(axis=-1)
    mixed: np.ndarray = np.divide(pairs, total, out=np.zeros_like(total), where=total > 0)
    return mixed


AHEAD = 3
"""What a split's gain two splits ahead is divided by: the lines it may take."""


def search(seen: Seen, loss: np.ndarray, names: tuple[str, ...], sizes: tuple[int, ...], draws: bool = False,
           lookahead: int = 6, folder: Path | None = None, jobs: int = 1,
           note: Callable[[str], None] | None = None) -> dict[int, tuple[tuple[Line, ...], float]]:
    """The cards of at most each of ``sizes`` lines over cells ``seen`` whose actions ``names``
    lose ``loss`` (cells, actions), with the loss of each: at each size, the card of least loss
    of two trees, one grown by sorting, one by the loss. The conditions are ``atoms(draws)``, and
    whether a card thrown away had the up-card's rank where ``seen`` knows it (final hands).

    A tree grows leaf by leaf, each leaf taking the action of least loss, while its decision list
    (``_lines``) fits in the size. Each step splits, by one condition, the leaf where
    that gains most: by sorting, Gini's index of the deals by their best action, which rewards a
    split that sorts the deals even before either side changes its action; by the loss, the loss
    it takes off, where each leaf's ``lookahead`` best conditions by the loss and as many by
    sorting are also scored by the loss left after the best split of each side, a third of it
    counted (a split that changes no action at once may open the splits that do: the pairs by the
    up-card against the pair).

    The sizes are searched apart, by ``jobs`` workers, then each size's card is refined from its
    neighbours' (``_chained``), then, with ``draws`` (a first decision that may draw), shaken out
    of where the refine stopped (``_perturbed``, by the workers again) and chained again
    (``_settled``); with a work ``folder``,
    each stage's card of each size is kept there as it is found and read back by a search of the
    same cells, losses, sizes and code (``_kept_card``); ``note`` hears of each stage and of each card found."""
    loss = _on_grid(loss)
    vocabulary = atoms(draws, seen.thrown_up is not None)
    # the conditions over the cells: stated once for one process; workers state their own, and
    # none is held here meanwhile
    masks = condition_masks(seen, vocabulary) if jobs == 1 else None

    def stated() -> np.ndarray:
        return masks if masks is not None else condition_masks(seen, vocabulary)

    # the kept cards' names (with no folder, nothing to name)
    key = _search_key(loss, stated(), names, lookahead) if folder is not None else ""
    chain = hashlib.sha256(f"{key} {sorted(sizes)} {CHAIN} {inspect.getsource(_chained)}".encode()).hexdigest()[:24]
    rounds = PERTURB if draws else 0
    shaken = hashlib.sha256(f"{chain} {rounds} {inspect.getsource(_perturbed)}".encode()).hexdigest()[:24]
    settled = hashlib.sha256(f"{shaken} {inspect.getsource(_chained)}".encode()).hexdigest()[:24]
    if rounds:
        done = _kept_cards(folder, sizes, "settled", settled)
        if len(done) == len(sizes):
            return done
    kept = _kept_cards(folder, sizes, "perturbed", shaken)
    if len(kept) == len(sizes):
        return _settled(kept, loss, names, vocabulary, stated(), folder, settled, note)
    cards = _kept_cards(folder, sizes, "chained", chain)
    if len(cards) < len(sizes):
        cards = _kept_cards(folder, sizes, "search", key)
        todo = [size for size in sizes if size not in cards]
        if note is not None and todo:
            note(f"searching cards of {', '.join(map(str, todo))} lines over {len(seen):,} cells"
                 + (f" ({len(cards)} sizes kept)" if cards else ""))
        for size, card in _by_workers(_search_size, [(seen, loss, names, size, draws, lookahead) for size in todo],
                                      jobs, masks):
            cards[size] = card
            _keep_card(folder, f"search-{size}-{key}", card)
            if note is not None:
                note(f"card of at most {size} lines found ({len(card[0])} lines)")
        if note is not None and len(sizes) > 1:
            note(f"refining the cards of {', '.join(map(str, sorted(sizes)))} lines from each other's")
        cards = _chained({size: cards[size] for size in sizes}, loss, names, vocabulary, stated())
        for size, card in cards.items():
            _keep_card(folder, f"chained-{size}-{chain}", card)
    if not rounds:
        return cards
    todo = [size for size in sizes if size not in kept]
    if note is not None:
        note(f"shaking the cards of {', '.join(map(str, todo))} lines out of where the refine stopped")
    for size, card in _by_workers(_perturbed_size, [(seen, loss, names, cards[size], size, draws, rounds)
                                                    for size in todo], jobs, masks):
        kept[size] = card
        _keep_card(folder, f"perturbed-{size}-{shaken}", card)
        if note is not None:
            note(f"card of at most {size} lines shaken ({'less loss' if card[1] < cards[size][1] else 'unchanged'})")
    return _settled(kept, loss, names, vocabulary, stated(), folder, settled, note)


def _settled(shaken: dict[int, Found], loss: np.ndarray, names: tuple[str, ...], vocabulary: list[tuple[str, Any]],
             masks: np.ndarray, folder: Path | None, key: str, note: Callable[[str], None] | None) -> dict[int, Found]:
    """The ``shaken`` cards chained again (``_chained``), each kept in ``folder`` as
    ``settled-{size}-{key}``. Each size is shaken apart, and a shake that finds a far better card
    of one size lends it to the others only chained: the default rules' 16 shaken lines lose
    0.3758 % and the 17 shaken 0.3758 % too, where the 16 with one line more lose 0.3561 %. Their
    16-21 lines, shaken: 0.376, 0.376, 0.353, 0.337, 0.305, 0.305 %; chained again: 0.376, 0.356,
    0.337, 0.325, 0.305, 0.295 % (the search's estimates), in 44 min on one core (2026-12-06)."""
    if note is not None and len(shaken) > 1:
        note(f"refining the shaken cards of {', '.join(map(str, sorted(shaken)))} lines from each other's")
    out = _chained(shaken, loss, names, vocabulary, masks)
    for size, card in out.items():
        _keep_card(folder, f"settled-{size}-{key}", card)
    return out


Found = tuple[tuple[Line, ...], float]
"""A card found by the search, and what it loses over the cells."""


def _by_workers(task: Callable[..., tuple[int, Found]], arguments: list[tuple[Any, ...]], jobs: int,
                masks: np.ndarray | None) -> Iterable[tuple[int, Found]]:
    """``task`` of each of ``arguments`` (its size and card), by ``jobs`` workers where more than
    one (each states the conditions anew: no copy of them sent), as each is done; in this process
    with the conditions ``masks`` where stated (else the task states them)."""
    if jobs > 1 and len(arguments) > 1:
        import joblib

        run = joblib.Parallel(n_jobs=min(jobs, len(arguments)), return_as="generator_unordered")
        done: Iterable[tuple[int, Found]] = run(joblib.delayed(task)(*a) for a in arguments)
        return done
    return (task(*a, masks) for a in arguments)


def _monotone(cards: dict[int, Found]) -> dict[int, Found]:
    """``cards`` by size, each replaced by a smaller one that loses less: a card of more lines
    never loses more."""
    out = dict(cards)
    sizes = sorted(out)
    for smaller, size in zip(sizes, sizes[1:]):
        if out[smaller][1] < out[size][1]:
            out[size] = out[smaller]
    return out


def _on_grid(loss: np.ndarray) -> np.ndarray:
    """``loss`` rounded to the multiples of a power of two so fine that every sum the search
    makes of it (of any cells, in any order, of one action's losses or of the gains between two
    actions) is exact in float64: the products with the conditions' masks then come out the same
    whatever order the BLAS of a machine sums in, and so the near ties fall alike and the search
    finds the same card on every machine. The losses of actions a cell cannot take
    (``IMPOSSIBLE`` a deal and more: never chosen, so their sums need not be exact) are left out
    of the scale. (The default rules' 617k cells: a step of 2^-23 of an ante, each cell's loss
    moved by 6e-8 at most, 0.0045 over all the cells of an action.)"""
    wide = loss.astype(np.float64)
    possible = np.where(np.abs(wide) < IMPOSSIBLE, np.abs(wide), 0.0)
    most = 4 * float(possible.sum(axis=0).max(initial=0.0))
    if most == 0:
        return wide
    step = 2.0 ** (math.ceil(math.log2(most)) - 52)
    out: np.ndarray = np.round(wide / step) * step
    return out


CHAIN = 3
"""The most passes of ``_chained`` up and down the sizes."""


def _chained(cards: dict[int, Found], loss: np.ndarray, names: tuple[str, ...], vocabulary: list[tuple[str, Any]],
             masks: np.ndarray) -> dict[int, Found]:
    """The searched ``cards`` by size, each replaced by the card of the next smaller size refined
    with room for more lines (``_refine``), or by the card of the next larger size with its lines
    that cost least to lose left out down to its size and refined, where that loses less: up and
    down the sizes until no card changes (at most ``CHAIN`` times), then by a smaller card where
    one still loses less, so that a card of more lines never loses more. The sizes are searched
    apart, and one search may end far from another: on the default rules' cells, with
    ``to_straight = "double"`` offered, the search of 17 lines ended at 0.842 % (its estimate),
    and the earlier search's 17 lines, refined, lose 0.436 %; a good card of one size lends its
    lines to the others. (``masks``: each condition of ``vocabulary`` over the cells, as
    ``_masks``.)"""
    held = masks > 0
    by_cell = np.ascontiguousarray(masks.T)
    listed = {size: _listed(card, names, vocabulary) for size, (card, _) in cards.items()}
    value = {size: _total(loss, held, card) for size, card in listed.items()}
    sizes = sorted(cards)

    def offer(size: int, trial: Listed) -> bool:
        lost = _total(loss, held, trial)
        if lost < value[size] - 1e-12 * abs(value[size]):
            listed[size], value[size] = trial, lost
            return True
        return False

    for _ in range(CHAIN):
        changed = False
        for smaller, size in zip(sizes, sizes[1:]):
            changed |= offer(size, _refine(loss, masks, vocabulary, listed[smaller], size, by_cell))
        for larger, size in zip(sizes[::-1], sizes[-2::-1]):
            fewer = listed[larger]
            while len(fewer) > size:
                fewer = _dropped(loss, held, fewer)
            changed |= offer(size, _refine(loss, masks, vocabulary, fewer, size, by_cell))
        if not changed:
            break
    return _monotone({size: (_written(listed[size], names, vocabulary), value[size]) for size in sizes})


PERTURB = 12
"""The rounds of ``_perturbed`` at each size of a first decision with draws (``search`` reads it
when called). The default rules' 16 lines lose 0.5776 % chained and 0.3758 % after them (the
search's estimates, 2026-12-05); 14 rounds more, in two streams of other draws, found no card of
less loss (2026-12-06). Without draws (the Caribbean Stud's card, the
few lines of the bet or fold after a draw and of the insurance) none: shaken, the Caribbean
Stud's card of 20 lines comes out the same, in 82 s where the derive takes 48 s (2026-12-06)."""


def _perturbed(loss: np.ndarray, masks: np.ndarray, vocabulary: list[tuple[str, Any]], listed: Listed, size: int,
               rounds: int, by_cell: np.ndarray | None = None) -> Listed:
    """``listed`` after ``rounds`` rounds of leaving out two to four of its lines (not the
    last), drawn at random, and refining the rest back to ``size`` lines (``_refine``), each
    round's card kept where it loses less. The refine stops at a card that no one change
    improves, often far from the best of its size; lines taken out together make room for others
    that pay only together (the default rules' 17 lines of 2026-12-05: 0.455 % to 0.415 % in
    five rounds). The draws are Python's ``random.Random(size).random()``, the same sequence on
    every machine and version: the same card. (``masks``, ``by_cell``: as ``_refine``.)"""
    held = masks > 0
    draw = random.Random(size)
    current, value = listed, _total(loss, held, listed)
    for _ in range(rounds):
        many = 2 + int(3 * draw.random())
        out = sorted(range(len(current) - 1), key=lambda _: draw.random())[:many]
        trial = _refine(loss, masks, vocabulary, [line for k, line in enumerate(current) if k not in out], size,
                        by_cell)
        lost = _total(loss, held, trial)
        if lost < value - 1e-12 * abs(value):
            current, value = trial, lost
    return current


def _perturbed_size(seen: Seen, loss: np.ndarray, names: tuple[str, ...], card: Found, size: int, draws: bool,
                    rounds: int, masks: np.ndarray | None = None) -> tuple[int, Found]:
    """``search``'s ``card`` of at most ``size`` lines after ``rounds`` of ``_perturbed``, with its
    loss (``masks``: the conditions' cells, when at hand)."""
    vocabulary = atoms(draws, seen.thrown_up is not None)
    if masks is None:
        masks = condition_masks(seen, vocabulary)
    out = _perturbed(loss, masks, vocabulary, _listed(card[0], names, vocabulary), size, rounds)
    return size, (_written(out, names, vocabulary), _total(loss, masks > 0, out))


def _listed(card: tuple[Line, ...], names: tuple[str, ...], vocabulary: list[tuple[str, Any]]) -> Listed:
    """A card's lines as the refine sees them (``Listed``)."""
    index = {c: i for i, c in enumerate(vocabulary)}
    return [(tuple(index[c] for c in line.when), names.index(line.action)) for line in card]


def _written(listed: Listed, names: tuple[str, ...], vocabulary: list[tuple[str, Any]]) -> tuple[Line, ...]:
    """The lines of a ``Listed`` decision list."""
    return tuple(Line(tuple(vocabulary[i] for i in path), names[a]) for path, a in listed)


def _search_size(seen: Seen, loss: np.ndarray, names: tuple[str, ...], size: int, draws: bool, lookahead: int,
                 masks: np.ndarray | None = None) -> tuple[int, tuple[tuple[Line, ...], float]]:
    """``search``'s card of at most ``size`` lines, with its loss (``masks``: the conditions'
    cells, when at hand)."""
    vocabulary = atoms(draws, seen.thrown_up is not None)
    if masks is None:
        masks = condition_masks(seen, vocabulary)
    by_cell = np.ascontiguousarray(masks.T)      # a cell's conditions together: subsets of cells copy fast
    narrow = narrowing(vocabulary)
    ordered = np.sort(loss, axis=1)
    gain = ordered[:, 1] - ordered[:, 0] if loss.shape[1] > 1 else np.zeros(len(loss))
    sides = np.zeros(loss.shape)
    sides[np.arange(len(loss)), np.argmin(loss, axis=1)] = gain

    def splits(cells: np.ndarray, path: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, float]:
        """Each condition's loss left once it splits ``cells`` (inf where it splits nothing or
        a card could not state it after the path), its sorting gain (-inf there), and the loss
        before."""
        idx = np.flatnonzero(cells)
        part = by_cell[idx].T if len(idx) < len(cells) else masks
        total = loss[idx].sum(axis=0, dtype=np.float64)
        held = part @ loss[idx].astype(np.float64)
        left = held.min(axis=1) + (total - held).min(axis=1)
        by_side = part @ sides[idx]
        mass = sides[idx].sum(axis=0)
        sorting = _impurity(mass) - _impurity(by_side) - _impurity(mass - by_side)
        size = part.sum(axis=1)
        bad = (size == 0) | (size == len(idx))
        on_path = {vocabulary[j][0] for j in path}
        bad |= [vocabulary[i][0] in on_path and narrow(path, i) is None for i in range(len(vocabulary))]
        left[bad], sorting[bad] = np.inf, -np.inf
        return left, sorting, float(total.min())

    def after(cells: np.ndarray, path: tuple[int, ...]) -> float:
        """The loss left in ``cells`` after their best split (or none)."""
        unsplit = float(loss[cells].sum(axis=0).min())
        return min(unsplit, float(splits(cells, path)[0].min())) if cells.sum() > 1 else unsplit

    def by_sorting(node: _Node) -> tuple[float, int]:
        sorting = splits(node.cells, node.path)[1]
        i = int(np.argmax(sorting))
        return float(sorting[i]), i

    def by_loss(node: _Node) -> tuple[float, int]:
        left, sorting, before = splits(node.cells, node.path)
        best, chosen = -np.inf, -1
        for i in {int(i) for i in np.argsort(left)[:lookahead]} | {int(i) for i in np.argsort(-sorting)[:lookahead]}:
            if np.isfinite(left[i]):
                held = masks[i] > 0
                ahead = after(node.cells & held, _stated(narrow(node.path, i))) + after(node.cells & ~held, node.path)
                gain = max(before - float(left[i]), (before - ahead) / AHEAD)
                if gain > best:
                    best, chosen = gain, i
        return best, chosen

    def estimate(lines: tuple[Line, ...]) -> float:
        left, out = np.ones(len(seen), bool), 0.0
        for line in lines:
            held = left.copy()
            for cond in line.when:
                held &= masks[vocabulary.index(cond)] > 0
            out += float(loss[held, names.index(line.action)].sum())
            left &= ~held
        return out

    grown = min((_grow(loss, masks, names, vocabulary, narrow, size, score) for score in (by_sorting, by_loss)),
                key=estimate)
    refined = _written(_refine(loss, masks, vocabulary, _listed(grown, names, vocabulary), size, by_cell), names,
                       vocabulary)
    chosen = min(grown, refined, key=estimate)
    return size, (chosen, estimate(chosen))


def _search_key(loss: np.ndarray, masks: np.ndarray, names: tuple[str, ...], lookahead: int) -> str:
    """What a kept search card is found by: the cells' losses and conditions, the actions, and
    the search's code and constants (a search changed since is run again; an edit elsewhere in
    this module keeps the hours of search done)."""
    h = hashlib.sha256(f"rpoker derive search {__version__} {names} {lookahead} {NARROWS} {AHEAD} {REFINE} "
                       f"{PAIRED}".encode())
    h.update(_SEARCH_CODE.encode())
    h.update(np.ascontiguousarray(loss, np.float64).tobytes())
    h.update(np.packbits(masks > 0).tobytes())
    return h.hexdigest()[:24]


def _keep_card(folder: Path | None, name: str, found: Found) -> None:
    """Keep a search's card and its loss in ``folder`` (if any) as ``name``, sealed (JSON's float
    text reads back the same double)."""
    if folder is None:
        return
    lines, loss = found
    text = json.dumps({"lines": [[[list(c) for c in line.when], line.action] for line in lines], "loss": loss})
    write_sealed(folder / f"{name}.npy", np.frombuffer(text.encode(), np.uint8))


def _kept_card(path: Path) -> Found | None:
    """A card ``_keep_card`` kept, or None where it is missing or damaged."""
    got = read_sealed(path, None)
    if got is None:
        return None
    found = json.loads(got.tobytes().decode())
    lines = tuple(Line(tuple((k, v) for k, v in when), action) for when, action in found["lines"])
    return lines, float(found["loss"])


def _kept_cards(folder: Path | None, sizes: tuple[int, ...], stage: str, key: str) -> dict[int, Found]:
    """The cards of ``sizes`` a search's ``stage`` kept in ``folder`` under ``key``, by size."""
    if folder is None:
        return {}
    found = {size: _kept_card(folder / f"{stage}-{size}-{key}.npy") for size in sizes}
    return {size: card for size, card in found.items() if card is not None}


def _grow(loss: np.ndarray, masks: np.ndarray, names: tuple[str, ...], vocabulary: list[tuple[str, Any]],
          narrow: Callable[[tuple[int, ...], int], tuple[int, ...] | None], most: int,
          score: Callable[[_Node], tuple[float, int]]) -> tuple[Line, ...]:
    """A tree grown leaf by leaf, each time splitting the leaf whose split ``score`` gains most
    while its decision list fits in ``most`` lines (``narrow``: a path with a condition added)."""
    def node(cells: np.ndarray, path: tuple[int, ...]) -> _Node:
        return _Node(cells, path, int(np.argmin(loss[cells].sum(axis=0))))

    root = node(np.ones(len(loss), bool), ())
    leaves = [(root, *score(root))]
    out = _lines(root, names, vocabulary, masks)
    while leaves:
        k = max(range(len(leaves)), key=lambda n: leaves[n][1])
        parent, gain, i = leaves[k]
        if gain <= 0:
            break
        held = masks[i] > 0
        left = node(parent.cells & held, _stated(narrow(parent.path, i)))
        right = node(parent.cells & ~held, parent.path)
        parent.split = (i, left, right)
        grown = _lines(root, names, vocabulary, masks)
        if len(grown) > most:
            parent.split = None
            del leaves[k]
            continue
        out = grown
        leaves[k:k + 1] = [(left, *score(left)), (right, *score(right))]
    return out


REFINE = 30
"""The most rounds of exchanging a derived card's lines (``_refine``; a line inserted into room
left is not one)."""
PAIRED = 8
"""How many of the best single conditions a round also tries with a second one (``_refine``)."""

#: a decision list as the refining sees it: each line's conditions (vocabulary indices) and action
Listed = list[tuple[tuple[int, ...], int]]


def _decided(listed: Listed, held: np.ndarray) -> np.ndarray:
    """The line of a decision list that decides each cell (``held``: each condition's cells)."""
    line = np.full(held.shape[1], len(listed) - 1)
    free = np.ones(held.shape[1], bool)
    for k, (path, _) in enumerate(listed[:-1]):
        take = free.copy()
        for i in path:
            take &= held[i]
        line[take] = k
        free &= ~take
    return line


def _total(loss: np.ndarray, held: np.ndarray, listed: Listed) -> float:
    """What a decision list loses over all cells (``held``: each condition's cells)."""
    acts = np.asarray([a for _, a in listed])[_decided(listed, held)]
    return float(loss[np.arange(len(loss)), acts].sum())


def _dropped(loss: np.ndarray, held: np.ndarray, listed: Listed) -> Listed:
    """The decision list without the line (but the last) whose loss costs least."""
    k = min((_total(loss, held, listed[:k] + listed[k + 1:]), k) for k in range(len(listed) - 1))[1]
    return listed[:k] + listed[k + 1:]


def _retouch(loss: np.ndarray, masks: np.ndarray, held: np.ndarray,
             narrow: Callable[[tuple[int, ...], int], tuple[int, ...] | None], listed: Listed) -> Listed:
    """The decision list with the one change of one line's conditions (one added, one dropped, or
    one replaced by another; the last line keeps none) that takes most loss off, that line's
    action then chosen anew over its cells; the list itself where no such change gains
    (``masks``: each condition's cells, ``held`` the same as booleans). A condition added sends
    the line's cells where it fails to the next line that holds them; one dropped takes the
    cells of later lines where the others hold; one replaced does both."""
    line = _decided(listed, held)
    acts = np.asarray([a for _, a in listed])
    rows = np.arange(len(loss))
    best: tuple[float, int, tuple[int, ...]] = (0.0, -1, ())

    def first_gaining(change: np.ndarray, path: tuple[int, ...], k: int) -> None:
        """The best of the conditions added to ``path`` by their ``change`` of line ``k``'s
        (a condition of a key the path has narrows it: their cells are those of both)."""
        nonlocal best
        for i in np.argsort(change).tolist():
            if change[i] >= best[0]:
                break
            narrowed = narrow(path, i)
            if narrowed is not None and set(narrowed) != set(listed[k][0]):
                best = (float(change[i]), k, narrowed)
                break

    added: list[np.ndarray] = []
    replaced: list[tuple[int, tuple[int, ...]]] = []
    moved: list[np.ndarray] = []
    for k, (path, a) in enumerate(listed[:-1]):
        idx = np.flatnonzero(line == k)
        after = np.full(len(idx), len(listed) - 1)
        for j in range(len(listed) - 2, k, -1):
            holds = np.ones(len(idx), bool)
            for i in listed[j][0]:
                holds &= held[i, idx]
            after[holds] = j
        leaving = loss[idx, acts[after]] - loss[idx, a]         # what each cell loses moved on
        added.append(leaving.sum() - masks[:, idx] @ leaving)
        first_gaining(added[k], path, k)
        for i in path:
            rest = tuple(j for j in path if j != i)
            taken = line > k
            for j in rest:
                taken &= held[j]
            # what each later cell the other conditions hold gains taken into this line
            moved.append(np.where(taken, loss[:, a] - loss[rows, acts[line]], 0.0))
            replaced.append((k, rest))
            if float(moved[-1].sum()) < best[0]:
                best = (float(moved[-1].sum()), k, rest)
    if moved:
        # each condition in place of one: the line's cells that fail it leave, the later cells
        # that hold it with the others come in
        into = masks @ np.stack(moved, axis=1)
        for n, (k, rest) in enumerate(replaced):
            first_gaining(added[k] + into[:, n], rest, k)
    _, k, path = best
    if k < 0:
        return listed
    out = [*listed[:k], (path, acts[k]), *listed[k + 1:]]
    out[k] = (path, int(np.argmin(loss[_decided(out, held) == k].sum(axis=0))))
    return out


def _refine(loss: np.ndarray, masks: np.ndarray, vocabulary: list[tuple[str, Any]], listed: Listed,
            most: int, by_cell: np.ndarray | None = None) -> Listed:
    """A decision list of at most ``most`` lines improved line by line: while there is room, the
    line (one condition, or two of other keys: one of the ``PAIRED`` best alone or used by the
    list's lines, with any other; any action) whose insertion anywhere above the
    last takes most loss off is added; when full, a round drops the line that costs least to
    lose and inserts the best line in its place (or inserts first, then drops), or changes one
    line's conditions (``_retouch``), whichever loses least, kept only if the loss falls. A
    tree's list has lines a list can do without: a decision list states exceptions a tree splits
    around; and a line written for the lines of a tree may hold too widely, or too narrowly, among
    the lines of the list. (``by_cell``: ``masks`` transposed, when at hand.)"""
    held = masks > 0
    if by_cell is None:
        by_cell = np.ascontiguousarray(masks.T)      # a cell's conditions together: subsets of cells copy fast
    rows = np.arange(len(loss))
    narrow = narrowing(vocabulary)

    def total(lines: Listed) -> float:
        return _total(loss, held, lines)

    def gains(lines: Listed, line: np.ndarray, gain: np.ndarray, within: np.ndarray | None) -> np.ndarray:
        """(positions, conditions, actions): what a line inserted before each line takes off,
        over the cells of ``within`` (all when None)."""
        out = np.zeros((len(lines), len(vocabulary), loss.shape[1]))
        for k in range(len(lines)):
            idx = np.flatnonzero((line == k) if within is None else (line == k) & within)
            if len(idx):
                out[k] = by_cell[idx].T @ gain[idx]
        return np.cumsum(out[::-1], axis=0)[::-1]   # before line p: the cells of lines p, p + 1, ...

    def best_line(lines: Listed) -> tuple[float, int, tuple[int, ...], int]:
        line = _decided(lines, held)
        acts = np.asarray([a for _, a in lines])[line]
        gain = loss[rows, acts][:, None] - loss
        single = gains(lines, line, gain, None)
        p, i, a = np.unravel_index(int(np.argmax(single)), single.shape)
        best: tuple[float, int, tuple[int, ...], int] = (float(single[p, i, a]), int(p), (int(i),), int(a))
        # the first condition of a pair: the best alone, and those of the card's lines (a
        # condition whose line alone loses may gain with another: two used apart, together)
        firsts = np.argsort(-single.max(axis=(0, 2)))[:PAIRED].tolist()
        firsts += sorted({i for path, _ in lines for i in path} - set(firsts))
        for first in firsts:
            both = gains(lines, line, gain, held[first])
            for other in range(len(vocabulary)):
                if vocabulary[other][0] == vocabulary[first][0]:
                    both[:, other] = -np.inf
            p, j, a = np.unravel_index(int(np.argmax(both)), both.shape)
            if both[p, j, a] > best[0]:
                best = (float(both[p, j, a]), int(p), (first, int(j)), int(a))
        return best

    def inserted(lines: Listed, found: tuple[float, int, tuple[int, ...], int]) -> Listed:
        _, p, path, a = found
        return [*lines[:p], (path, a), *lines[p:]]

    def dropped(lines: Listed) -> Listed:
        return _dropped(loss, held, lines)

    current, value = list(listed), total(listed)
    rounds = 0
    while True:
        trials = []
        if len(current) < most:
            found = best_line(current)
            if found[0] > 0:
                current = inserted(current, found)
                value = total(current)
                continue          # an insertion is not a round: a seed grows by many
        if rounds == REFINE:
            break
        rounds += 1
        if len(current) >= most and len(current) > 1:
            # drop the line that costs least to lose, then insert the best; or insert first,
            # then drop (the new line may make an old one redundant)
            trials = [inserted(dropped(current), best_line(dropped(current))),
                      dropped(inserted(current, best_line(current)))]
        trial = min([*trials, _retouch(loss, masks, held, narrow, current)], key=total)
        if total(trial) >= value - 1e-12 * abs(value):
            break
        current, value = trial, total(trial)
    return current


def _lines(root: _Node, names: tuple[str, ...], vocabulary: list[tuple[str, Any]],
           masks: np.ndarray) -> tuple[Line, ...]:
    """The tree as a decision list: a leaf is a line of the conditions that hold on its path,
    the side where a condition holds before the other, so that the other needs no "not" (its
    deals are taken above). A line whose action is that of the next line, which holds wherever
    it does (``masks``: each condition's cells), is left out."""
    def lines(node: _Node) -> list[tuple[Line, tuple[int, ...]]]:
        if node.split is None:
            return [(Line(tuple(vocabulary[i] for i in node.path), names[node.action]), node.path)]
        return lines(node.split[1]) + lines(node.split[2])

    def holds(path: tuple[int, ...]) -> np.ndarray:
        out = np.ones(masks.shape[1], bool)
        for i in path:
            out &= masks[i] > 0
        return out

    out: list[tuple[Line, tuple[int, ...]]] = []
    for line, path in reversed(lines(root)):
        if out and out[0][0].action == line.action and not (holds(path) & ~holds(out[0][1])).any():
            continue
        out.insert(0, (line, path))
    return tuple(line for line, _ in out)


#: the search's code, read once: a card kept by a search of other code is searched again (``_search_key``)
_SEARCH_CODE = "".join(inspect.getsource(code) for code in (atoms, narrowing, _stated, _Node, _impurity, _search_size,
                                                             _grow, _decided, _total, _dropped, _retouch, _refine,
                                                             _lines))


def _freed(stating: dict[int, Found], ruled: dict[int, Found], lines: int) -> tuple[int, int]:
    """The lines of the bet or fold after a draw and of the insurance, of the searches' cards by
    size ``stating`` and ``ruled``, at most ``lines`` together, whose searches lose least together.

    >>> stating, ruled = {4: ((), 0.5), 5: ((), 0.2)}, {3: ((), 0.3), 4: ((), 0.1)}
    >>> _freed(stating, ruled, 7), _freed(stating, ruled, 8), _freed(stating, ruled, 9)
    ((4, 3), (5, 3), (5, 4))
    """
    return min(((a, b) for a in stating for b in ruled if a + b <= lines),
               key=lambda split: stating[split[0]][1] + ruled[split[1]][1])


def after_draw_lines(size: int) -> range:
    """The numbers of lines a derived card of ``size`` lines may give to the bet or fold after a
    draw (the rest to the first decision): the derive takes the one of least loss."""
    return range(2, max(2, min(AFTER_LINES, size // 4)) + 1)


def _final_rules(gains: np.ndarray, names: tuple[str, str], sizes: range, folder: Path | None = None,
                 jobs: int = 1) -> dict[int, tuple[tuple[Line, ...], float]]:
    """Rules on the final hand in at most each of ``sizes`` lines, with their loss, from what the
    first of ``names`` gains over the second in each cell (the up-card's rank, the final
    strength; first, with the bet or fold after a draw, whether a card of the up-card's rank was
    thrown away): the bet or fold after a draw from the gains of the first decision's draws
    (``draw_gains.draw_gains``), the insurance from its gains over never
    (``later_play.insurance_gains``). The first loses what the second gains and the second what
    the first gains, so the loss is what the rules cost over the cells (in floats; exact but for
    the sums' rounding). Kept in a work ``folder`` as ``search`` keeps its cards, searched by ``jobs``
    workers."""
    *thrown, up, strength = np.nonzero(gains)
    seen = Seen.of(final_hands()[strength], (4 * up).astype(np.uint8), thrown[0].astype(bool) if thrown else None)
    g = gains[tuple(thrown) + (up, strength)]
    loss = np.stack([np.maximum(-g, 0), np.maximum(g, 0)], axis=1)
    return search(seen, loss, names, tuple(sizes), folder=folder, jobs=jobs)


def card_lines(text: str) -> tuple[tuple[Line, ...], tuple[Line, ...], tuple[Line, ...]]:
    """The lines of a card's file (``card_text``; read by ``card.parse`` first, which names any
    error): its first decision's, its bet or fold after a draw's and its insurance's.

    >>> card_lines('[[first]]\\nwhen = { up_below = 2 }\\ndo = "exchange"\\nkeep = "A K"')[0]
    (Line(when=(('up_below', 2),), action='keep A K'),)
    """
    data = toml_text.parse(text, "strategy card")

    def lines(table: str) -> tuple[Line, ...]:
        return tuple(Line(tuple(rule.get("when", {}).items()),
                          f"keep {rule['keep']}" if rule["do"] == "exchange" else rule["do"])
                     for rule in data.get(table, []))
    return lines("first"), lines("after_draw"), lines("insurance")


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
    rules of its own has each first-decision line that loses more than betting or folding its deals
    at once under them bet or folded at once (``at_once.whole_lines``), its later rules searched
    again over the draws that leaves, with the lines it frees, and is checked again; then the deals
    of its lines that lose less bet or folded at once split off into lines of their own
    (``split_off``), and it is checked again: the card that loses less is kept. ``start``: a card a derive wrote, taken
    as found instead of searching (its lines, its insurance and buys), then checked and repaired
    so; the only card returned. ``note`` hears of each stage past the first's progress: the
    searches, each card found."""
    if not 2 <= most <= 200:
        raise InputError(f"--lines must be 2 to 200, not {most}")
    names = actions(rules)
    c: Counts | None = None
    found: tuple[np.ndarray, np.ndarray] | None = None
    sizes = tuple(sorted({most, *curve}))
    stated = rules.draws and after_draw
    play = BEST
    folder: Path | None = None          # rules with draws: where the search keeps its cards
    if start is not None:   # refused before any work
        if rules_load(start.rules) != rules:
            raise InputError(f"strategy file {start.path} is for the rules {start.rules!r}, not {rules.name!r}")
        start.check_play(rules)
        play = start.play
        found_lines = card_lines(Path(start.path).read_text(encoding="utf-8"))
        size = len(found_lines[0]) + len(found_lines[1]) + later_play.lines(play, len(found_lines[2]))
        if size > most:
            raise InputError(f"strategy file {start.path} has {size} lines, more than --lines {most}")
    if rules.draws:
        codes = TableCodes.read(rules, table)
        hands, ups, weight = enumerate_classes()
        if insurance_buy and start is None:
            play = later_play.choose(rules, hands, ups, weight)
    extra = later_play.lines(play)
    if most - extra < 2:
        raise InputError(f"--lines must leave 2 for the first decision after {extra} for the insurance and buying a "
                         f"game, not {most}")
    insuring = rules.draws and rules.insurance and play.insure_from is not None
    # the lines the insurance's rules take beyond the one of "never"
    more = range(len(INSURANCE_LINES)) if insuring else range(1)
    first = {n - extra - k - j for n in sizes for k in (after_draw_lines(n - extra) if stated else (0,)) for j in more}
    first = {m for m in first if m >= 2}
    if rules.draws:
        seen = Seen.of(hands, ups)
        folder = work_folder(codes.table, work)
    else:
        c = counts if counts is not None else class_counts(rules, jobs, progress)
        _, _, seen = ranked_classes()
        weight = c.weight

    def played(lines: tuple[Line, ...]) -> np.ndarray:
        """The table codes of the first decision ``lines`` in every class."""
        alone = parse(card_text(lines, rules, rules.name), "first decision")
        return alone.codes(seen, alone.decide(seen), rules, codes.best, codes.second)

    def gains_of(lines: tuple[Line, ...]) -> np.ndarray:
        """What each cell of the first decision's draws gains by a bet (``draw_gains``)."""
        return draw_gains(rules, codes, played(lines), jobs, progress, work, play)

    def insurance_gains(lines: tuple[Line, ...], later: tuple[Line, ...]) -> np.ndarray:
        """What insuring the most gains over never in each cell of the hands the first decision
        ``lines`` bets, at once and after its draws as ``later`` says (``later_play``)."""
        betting = bet_table(parse(card_text(lines, rules, rules.name, later), "bet or fold")) if stated else None
        return later_play.insurance_gains(rules, codes, played(lines), betting, play, jobs, progress, work)

    def checked(chosen: tuple[Line, ...], later: tuple[Line, ...], insurance: tuple[Line, ...]) -> Derived:
        """The card of these lines, checked exactly."""
        size = len(chosen) + len(later) + later_play.lines(play, len(insurance))
        name = f"{rules.name}: derived card of {size} lines"
        text = card_text(chosen, rules, name, later, play, insurance)
        card = parse(text, f"{rules.name}-derived-{size}.toml")
        if note is not None:
            note(f"checking the card of {size} lines exactly")
        return Derived(chosen, card, check(card, rules, jobs, progress, counts=c, table=table, work=work,
                                           returns=False), text, later, insurance)

    counted: dict[bytes, AtOnce] = {}

    def at_once_losses(d: Derived) -> AtOnce:
        """What each class loses as ``d`` plays it, and bet or folded at once under its own play
        (every class's bet counted once for each way of insuring and buying: both repairs read it)."""
        card = d.check.losses / d.check.unit
        key = d.card.play.key
        if key not in counted:
            counted[key] = AtOnce.of(card, rules, d.card.play, hands, ups, codes.best_ev)
        return replace(counted[key], card=card)

    def at_once(d: Derived, most: int, k: int, j: int) -> Derived:
        """``d`` with its first decision's lines that lose more, exactly, than betting or folding
        their hands at once under its own later rules bet or folded at once (``whole_lines``), the
        lines that leaves redundant left out, and its later rules searched again over its draws
        and bets, with the lines freed (``k``, ``j``: the lines its bet or fold after a draw and
        its insurance had): kept where it loses less, exactly."""
        lines = whole_lines(d.lines, d.card.decide(seen), at_once_losses(d), weight)
        if lines == d.lines:
            return d
        lines = plain(lines, rules, seen)
        if note is not None:
            note(f"{len(d.lines) - len(lines)} of the first decision's lines freed by betting or folding at once")
        free = most - d.size + len(d.lines) - len(lines)
        stating: dict[int, Found] = {0: ((), 0.0)}
        if stated:
            stating = _final_rules(gains_of(lines), ACTIONS, range(2, min(AFTER_LINES, k + free) + 1), folder, jobs)
        ruled = {j: (d.insurance, 0.0)}
        if insuring:
            ruled = _final_rules(insurance_gains(lines, stating[k][0]), INSURE, range(1, j + free + 1), folder, jobs)
        # the insurance's searched over the bet or fold of as many lines as before
        k2, j2 = _freed(stating, ruled, k + j + free)
        insurance = d.insurance
        if insuring:
            if k2 != k:
                ruled = _final_rules(insurance_gains(lines, stating[k2][0]), INSURE, range(1, j2 + 1), folder, jobs)
            insurance = () if ruled[j2][0] == (Line((), "none"),) else ruled[j2][0]
        touched = checked(lines, stating[k2][0], insurance)
        return touched if touched.check.cost < d.check.cost else d

    def split_off(d: Derived, most: int) -> Derived:
        """``d`` with the deals of its first decision's lines that lose less bet or folded at once
        under its own later rules split off into lines of their own (``split_lines``): in the lines
        of ``most`` it has room for, and in one of its insurance's where the line gains more than
        the insurance, searched again in one line less over the draws and bets that leaves, loses
        by it. Kept where it loses less, exactly."""
        room = most - d.size
        trade = int(insuring and len(d.insurance) > 1)
        if room + trade < 1:
            return d
        splits = split_lines(d.lines, seen, d.card.decide(seen), at_once_losses(d),
                             weight, atoms(draws=True), room + trade)
        lines, insurance = splits[min(room, len(splits)) - 1][0] if room and splits else d.lines, d.insurance
        if len(splits) > room:
            j = len(d.insurance)
            ruled = _final_rules(insurance_gains(splits[room][0], d.after), INSURE, range(1, j + 1), folder, jobs)
            gain = splits[room][1] - (splits[room - 1][1] if room else 0.0)
            if note is not None:
                note(f"a line split off gains {gain * 100:.6f} % of the ante; the insurance in one line less loses "
                     f"{(ruled[j - 1][1] - ruled[j][1]) * 100:.6f} % more (the sums' floats)")
            if gain > ruled[j - 1][1] - ruled[j][1]:
                lines = splits[room][0]
                insurance = () if ruled[j - 1][0] == (Line((), "none"),) else ruled[j - 1][0]
        if lines == d.lines:
            return d
        lines = plain(lines, rules, seen)
        if note is not None:
            note(f"the first decision in {len(lines)} lines, from {len(d.lines)}: lines split off bet or fold at once")
        parted = checked(lines, d.after, insurance)
        return parted if parted.check.cost < d.check.cost else d

    def repaired(d: Derived, most: int, k: int, j: int) -> Derived:
        """``d`` after both repairs of its exact check (``at_once``, ``split_off``)."""
        return split_off(at_once(d, most, k, j), most)

    if start is not None:
        d = checked(*found_lines)
        return [repaired(d, most, len(d.after), max(1, len(d.insurance))) if stated or insuring else d]

    if rules.draws:
        found = _cell_of(seen, True)
        values = representative_values(found[0], rules, codes, jobs, progress, work)
        estimate = representative_losses(seen.take(found[0]), values, codes.best_ev[found[0]], names, rules)
        bet_ev = bet_evs(bet_counts(hands, ups, rules, play))
        loss = _table_losses(seen, codes, rules, names, estimate[found[1]], bet_ev)
        del estimate
    else:
        assert c is not None
        exact, unit = bet_fold_losses(c)       # in antes per deal
        loss = exact.astype(np.float64) / float(unit)
    cells, summed = _cells(seen, loss, weight, rules.draws, found)
    del loss
    out: list[Derived] = []
    cards = search(cells, summed, names, tuple(sorted(first)), rules.draws, folder=folder, jobs=jobs, note=note)
    deals = float(weight.sum())      # the search's losses are summed over the deals, the gains per deal

    for n in sizes:
        m = n - extra                     # the first decision's lines, less those the later rules take
        later: tuple[Line, ...] = ()
        k, j = 0, 1
        if stated:
            # the bet or fold after the draws of the first decision of the middle size, then the
            # split of the lines of least loss, its bet or fold from its own draws
            split = after_draw_lines(m)
            middle = split[len(split) // 2]
            stating = _final_rules(gains_of(cards[m - middle][0]), ACTIONS, split, folder, jobs)
            k = min(split, key=lambda k: cards[m - k][1] / deals + stating[k][1])
            m -= k
            # the chosen card's own bet or fold, its sizes searched together: a size searched alone
            # ends far from one refined from its neighbours' (5 lines over the draws of the default
            # rules' 16 first lines: 0.143 % alone, 0.062 % with 2-4; the search's sums, 2026-12-06)
            later = (stating if k == middle else _final_rules(gains_of(cards[m][0]), ACTIONS, split, folder,
                                                              jobs))[k][0]
        insurance: tuple[Line, ...] = ()
        if insuring:
            # the insurance's rules over this card's bets; each line past the first is one the
            # first decision gives up
            gains = insurance_gains(cards[m][0], later)
            ruled = _final_rules(gains, INSURE, INSURANCE_LINES, folder, jobs)
            j = min((j for j in INSURANCE_LINES if m - j + 1 in cards),
                    key=lambda j: cards[m - j + 1][1] / deals + ruled[j][1])
            if ruled[j][0] == (Line((), "none"),):      # one line "none": never, as it stands
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
            if stated:
                later = _final_rules(gains_of(chosen), ACTIONS, split, folder, jobs)[k][0]
            if insurance:
                insurance = _final_rules(insurance_gains(chosen, later), INSURE, INSURANCE_LINES, folder, jobs)[j][0]
        if rules.draws:
            chosen = plain(chosen, rules, seen)
        size = len(chosen) + len(later) + later_play.lines(play, len(insurance))
        if out and size == out[-1].size:
            continue                          # no condition lowers the loss further
        derived = checked(chosen, later, insurance)
        if stated or insuring:
            derived = repaired(derived, n, k, j)
        out.append(derived)
    return out


def markdown(d: Derived, curve: list[Derived], most: int) -> str:
    """The card in plain words with its exact figures, and the cost curve (``most``: the lines
    asked for)."""
    c = d.check
    out = [f"# {d.card.name}", "",
           f"Rules `{c.rules.name}`. House edge **{float(-c.ev) * 100:.6f} %** (optimal play "
           f"{float(-c.optimal.ev) * 100:.6f} %); cost against optimal play **{float(c.cost) * 100:.6f} %** of the "
           f"ante (exact: {c.cost.numerator}/{c.cost.denominator}); first action not the best in "
           f"{c.differ:,} of 122,151,120 deals.", "", "The first rule that holds decides:", ""]
    for i, rule in enumerate(d.card.first, 1):
        out.append(f"{i}. {rule.words()}")
    if d.card.after_draw:
        out += ["", "After an exchange or a sixth card, bet or fold the final hand (its five cards that play); the "
                    "first rule that holds decides:", ""]
        out += [f"{i}. {rule.words()}" for i, rule in enumerate(d.card.after_draw, len(d.card.first) + 1)]
    elif c.rules.draws:
        out += ["", "After an exchange or a sixth card, bet or fold as the solver does (optimal)."]
    if not d.card.play.best:
        # the insurance's rules are lines of the card too, numbered on
        play = replace(d.card.play, insure_from=None, insure_when=None) if d.card.insurance else d.card.play
        n = len(d.card.first) + len(d.card.after_draw) + 1
        out += ["", "Every bet, at once or after a draw (P: what the hand pays to 1):", ""]
        out += [f"{i}. {words}" for i, words in enumerate(play.words(stated=True), n)]
        if d.card.insurance:
            out += ["", "Insure (three of a kind or better) the most or not, as the first of these rules that holds "
                        "says:", ""]
            out += [f"{i}. {rule.words()}" for i, rule in enumerate(d.card.insurance, n + len(play.words(stated=True)))]
    if d.card.after_draw or not d.card.play.best:
        out += ["", f"Of the cost, {float(c.after_draw_cost) * 100:.6f} % is lost by {later_words(c)} where the "
                    "first action is the best."]
    if d.size < most:
        out += ["", f"The card takes {d.size} of the {most} lines allowed: the search finds no line that lowers "
                    "its loss in the lines left, or a line played its deals as the lines below it do."]
    if curve:
        out += ["", "| lines | house edge | cost against optimal play (% of the ante) |", "|---|---|---|"]
        out += [f"| {x.size} | {float(-x.check.ev) * 100:.6f} % | {float(x.check.cost) * 100:.6f} % |"
                for x in curve]
    return "\n".join(out) + "\n"


def chart(curve: list[Derived], path: Path) -> None:
    """PNG: the exact cost of the derived cards by their number of lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.8))
    sizes = [str(x.size) for x in curve]
    costs = [float(x.check.cost) * 100 for x in curve]
    ax.bar(sizes, costs)
    for i, v in enumerate(costs):
        ax.annotate(f"{v:.4f} %", (i, v), ha="center", va="bottom", fontsize=8)
    ax.set_xlabel("lines of the card")
    ax.set_ylabel("cost against optimal play (% of the ante)")
    ax.set_title(f"{curve[0].check.rules.name}: derived cards, exact cost")
    fig.tight_layout()
    write_atomic(path, lambda p: fig.savefig(p, dpi=110, format="png", metadata={"Software": None}))
    plt.close(fig)


def write(derived: list[Derived], most: int, directory: Path) -> list[Path]:
    """The card of ``most`` lines as TOML and Markdown, and the curve's chart, in ``directory``."""
    folder = writable_directory(directory, "strategy")
    main = max((d for d in derived if d.size <= most), key=lambda d: d.size)
    name = f"{main.check.rules.name}-derived-{main.size}"
    toml, md, png = folder / f"{name}.toml", folder / f"{name}.md", folder / f"{name}-curve.png"
    write_atomic(toml, lambda p: p.write_text(main.text))
    write_atomic(md, lambda p: p.write_text(markdown(main, derived if len(derived) > 1 else [], most)))
    chart(derived, png)
    return [toml, md, png]
