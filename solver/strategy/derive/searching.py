"""The search: the cards of each size over the cells, each stage kept in the work folder.

Each size is searched apart (``tree.search_size``), then refined from its neighbours'
(``shaking.chained``); with draws, shaken and chained again. The losses are first put on a grid
of a power of two (``on_grid``), so that every sum the search makes is exact in float64 and it
finds the same card on every machine.
"""

from __future__ import annotations

import hashlib
import inspect
import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from ...version import __version__
from ..after_draw import final_hands
from ..hands import Seen
from ..vocabulary import NARROWS, Line, atoms, condition_masks, narrowing
from . import refinement, shaking, tree
from .cells import IMPOSSIBLE
from .refinement import Found, decided, list_loss, refine, retouch, without_cheapest
from .shaking import chained, perturbed, perturbed_size
from .tree import Node, grow, impurity, search_size, split_path, tree_lines
from .work import keep_card, kept_cards


def on_grid(loss: np.ndarray) -> np.ndarray:
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


def search(seen: Seen, loss: np.ndarray, names: tuple[str, ...], sizes: tuple[int, ...], draws: bool = False,
           lookahead: int = 6, folder: Path | None = None, jobs: int = 1,
           note: Callable[[str], None] | None = None) -> dict[int, tuple[tuple[Line, ...], float]]:
    """The cards of at most each of ``sizes`` lines over cells ``seen`` whose actions ``names``
    lose ``loss`` (cells, actions), with the loss of each: at each size, the card of least loss
    of two trees, one grown by sorting, one by the loss. The conditions are ``atoms(draws)``, and
    whether a card thrown away had the up-card's rank where ``seen`` knows it (final hands).

    A tree grows leaf by leaf, each leaf taking the action of least loss, while its decision list
    (``tree_lines``) fits in the size. Each step splits, by one condition, the leaf where
    that gains most: by sorting, Gini's index of the deals by their best action, which rewards a
    split that sorts the deals even before either side changes its action; by the loss, the loss
    it takes off, where each leaf's ``lookahead`` best conditions by the loss and as many by
    sorting are also scored by the loss left after the best split of each side, a third of it
    counted (a split that changes no action at once may open the splits that do: the pairs by the
    up-card against the pair).

    The sizes are searched apart, by ``jobs`` workers, then each size's card is refined from its
    neighbours' (``chained``), then, with ``draws`` (a first decision that may draw), shaken out
    of where the refine stopped (``perturbed``, by the workers again) and chained again
    (``settle``); with a work ``folder``,
    each stage's card of each size is kept there as it is found and read back by a search of the
    same cells, losses, sizes and code (``kept_card``); ``note`` hears of each stage and of each card found."""
    loss = on_grid(loss)
    vocabulary = atoms(draws, seen.thrown_up is not None)
    # the conditions over the cells: stated once for one process; workers state their own, and
    # none is held here meanwhile
    masks = condition_masks(seen, vocabulary) if jobs == 1 else None

    def stated() -> np.ndarray:
        return masks if masks is not None else condition_masks(seen, vocabulary)

    # the kept cards' names (with no folder, nothing to name)
    key = search_key(loss, stated(), names, lookahead) if folder is not None else ""
    chained_code = f"{key} {sorted(sizes)} {shaking.CHAIN} {inspect.getsource(chained)}"
    chain = hashlib.sha256(chained_code.encode()).hexdigest()[:24]
    rounds = shaking.PERTURB if draws else 0
    shaken = hashlib.sha256(f"{chain} {rounds} {inspect.getsource(perturbed)}".encode()).hexdigest()[:24]
    settled = hashlib.sha256(f"{shaken} {inspect.getsource(chained)}".encode()).hexdigest()[:24]
    if rounds:
        done = kept_cards(folder, sizes, "settled", settled)
        if len(done) == len(sizes):
            return done
    kept = kept_cards(folder, sizes, "perturbed", shaken)
    if len(kept) == len(sizes):
        return settle(kept, loss, names, vocabulary, stated(), folder, settled, note)
    cards = kept_cards(folder, sizes, "chained", chain)
    if len(cards) < len(sizes):
        cards = kept_cards(folder, sizes, "search", key)
        todo = [size for size in sizes if size not in cards]
        if note is not None and todo:
            note(f"searching cards of {', '.join(map(str, todo))} lines over {len(seen):,} cells"
                 + (f" ({len(cards)} sizes kept)" if cards else ""))
        for size, card in by_workers(search_size, [(seen, loss, names, size, draws, lookahead) for size in todo],
                                      jobs, masks):
            cards[size] = card
            keep_card(folder, f"search-{size}-{key}", card)
            if note is not None:
                note(f"card of at most {size} lines found ({len(card[0])} lines)")
        if note is not None and len(sizes) > 1:
            note(f"refining the cards of {', '.join(map(str, sorted(sizes)))} lines from each other's")
        cards = chained({size: cards[size] for size in sizes}, loss, names, vocabulary, stated())
        for size, card in cards.items():
            keep_card(folder, f"chained-{size}-{chain}", card)
    if not rounds:
        return cards
    todo = [size for size in sizes if size not in kept]
    if note is not None:
        note(f"shaking the cards of {', '.join(map(str, todo))} lines out of where the refine stopped")
    for size, card in by_workers(perturbed_size, [(seen, loss, names, cards[size], size, draws, rounds)
                                                    for size in todo], jobs, masks):
        kept[size] = card
        keep_card(folder, f"perturbed-{size}-{shaken}", card)
        if note is not None:
            note(f"card of at most {size} lines shaken ({'less loss' if card[1] < cards[size][1] else 'unchanged'})")
    return settle(kept, loss, names, vocabulary, stated(), folder, settled, note)


def settle(shaken: dict[int, Found], loss: np.ndarray, names: tuple[str, ...], vocabulary: list[tuple[str, Any]],
             masks: np.ndarray, folder: Path | None, key: str, note: Callable[[str], None] | None) -> dict[int, Found]:
    """The ``shaken`` cards chained again (``chained``), each kept in ``folder`` as
    ``settled-{size}-{key}``. Each size is shaken apart, and a shake that finds a far better card
    of one size lends it to the others only chained: the default rules' 16 shaken lines lose
    0.3758 % and the 17 shaken 0.3758 % too, where the 16 with one line more lose 0.3561 %. Their
    16-21 lines, shaken: 0.376, 0.376, 0.353, 0.337, 0.305, 0.305 %; chained again: 0.376, 0.356,
    0.337, 0.325, 0.305, 0.295 % (the search's estimates), in 44 min on one core (2026-12-06)."""
    if note is not None and len(shaken) > 1:
        note(f"refining the shaken cards of {', '.join(map(str, sorted(shaken)))} lines from each other's")
    out = chained(shaken, loss, names, vocabulary, masks)
    for size, card in out.items():
        keep_card(folder, f"settled-{size}-{key}", card)
    return out


def by_workers(task: Callable[..., tuple[int, Found]], arguments: list[tuple[Any, ...]], jobs: int,
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


def search_key(loss: np.ndarray, masks: np.ndarray, names: tuple[str, ...], lookahead: int) -> str:
    """What a kept search card is found by: the cells' losses and conditions, the actions, and
    the search's code and constants (a search changed since is run again; an edit elsewhere in
    this module keeps the hours of search done)."""
    h = hashlib.sha256(f"rpoker derive search {__version__} {names} {lookahead} {NARROWS} {tree.AHEAD} "
                       f"{refinement.REFINE} {refinement.PAIRED}".encode())
    h.update(SEARCH_CODE.encode())
    h.update(np.ascontiguousarray(loss, np.float64).tobytes())
    h.update(np.packbits(masks > 0).tobytes())
    return h.hexdigest()[:24]


#: the search's code, read once: a card kept by a search of other code is searched again (``search_key``)
SEARCH_CODE = "".join(inspect.getsource(code) for code in (
    atoms, narrowing, split_path, Node, impurity, search_size, grow, decided, list_loss, without_cheapest, retouch,
    refine, tree_lines))


def final_rules(gains: np.ndarray, names: tuple[str, str], sizes: range, folder: Path | None = None,
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
