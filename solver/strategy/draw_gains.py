"""What a card's bet or fold after its draws is worth, cell by cell.

A card's bet or fold after a draw (``[[after_draw]]``) reads the final hand's strength, the
up-card's rank and whether a card thrown away had that rank, alone (``after_draw.bet_table``).
So over every deal where the card's first decision draws, its EV is that of folding every final
hand plus, for each cell (thrown matching the up-card or not, up rank, final strength) it bets,
what betting those final hands adds over folding them: their *gain* (``deal.option_gains``,
counted by the kernel with every final hand bet). The gains of a first decision, summed over the
cycle into 2 × 13 × 7462 cells, make the bet or fold after the draw a problem of cells: the best
decision of a cell is the sign of its gain, and any rules cost exactly the gains of the cells
they decide otherwise.

The sums are floats (what a derive searches with); the check counts the card exactly. One
kernel call per class where the card draws, shard by shard, each shard's sum kept sealed in the
work folder (``kept``) as it finishes: a derive stopped and started again reads them back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

from ..action import SIXTH_CARD, Action
from ..classes import N_DEALS, enumerate_classes, rank_order
from ..deal import add_gains
from ..hand import N_STRENGTH
from ..play import BEST, Play
from ..rules import Rules
from ..tables import Plan
from ..version import __version__
from .departing import TableCodes, work_folder
from .kept import Shard, count_shards, read_sealed, write_sealed

SHAPE = (2, 13, N_STRENGTH)
"""The cells: whether the draw threw a card of the up-card's rank away, the up-card's rank, the
final hand's strength (``after_draw.bet_table``'s)."""


def _shard_gains(rules: Rules, rows: np.ndarray, played: np.ndarray, play: Play = BEST) -> np.ndarray:
    """The gains of the classes ``rows`` whose card draws (table codes ``played``), each times
    its deals, summed by cell (``SHAPE``), each bet insured and bought as ``play`` says."""
    hands, ups, weight = enumerate_classes()
    out = np.zeros(SHAPE)
    for i in rank_order(hands[rows], ups[rows]).tolist():    # deals of the same ranks share the store
        row = int(rows[i])
        hand, up = tuple(int(c) for c in hands[row]), int(ups[row])
        action = Action.from_code(int(played[i]), hand)
        add_gains(out[int(action.throws_rank_of(up)), up >> 2], hand, up, action, rules, float(weight[row]), play)
    return out


def draw_gains(rules: Rules, codes: TableCodes, played: np.ndarray, jobs: int = 1,
               progress: Callable[[int, int], None] | None = None, work: Path | None = None,
               play: Play = BEST) -> np.ndarray:
    """By cell (``SHAPE``), what betting the final hands of the draws of a first decision adds
    over folding them, in antes per deal of the cycle: the classes (rows of the rules' complete
    table ``codes``) play their ``played`` codes, counted by ``jobs`` workers, shard by shard;
    each bet insured and bought as ``play`` says."""
    import joblib

    table = codes.table
    folder = work_folder(table, work)
    plan = Plan(table.manifest.shard_rows, ())
    drawing = played >= SIXTH_CARD
    shards: list[Shard[np.ndarray]] = []
    for s in range(plan.n_shards):
        span = plan.rows(s)
        rows = span.start + np.flatnonzero(drawing[span.start:span.stop])
        if not len(rows):
            continue
        h = hashlib.sha256(f"rpoker strategy draw gains {__version__} {table.fingerprint} {s}".encode())
        for a in (rows, played[rows]):
            h.update(np.ascontiguousarray(a, np.int64).tobytes())
        h.update(play.key)
        path = folder / f"gains-{s:05d}-{h.hexdigest()[:24]}.npy"
        shards.append(Shard(len(rows), partial(read_sealed, path, SHAPE),
                            joblib.delayed(_shard_gains)(rules, rows, played[rows], play), partial(write_sealed, path)))
    total = np.zeros(SHAPE)
    for got in count_shards(shards, jobs, progress):
        total += got
    out: np.ndarray = total / N_DEALS
    return out
