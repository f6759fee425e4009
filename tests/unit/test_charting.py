"""The chart derive's row search on made-up losses: it splits where the best action changes, and
stops where no split gains; the cells' codes."""

import numpy as np

from solver.play import BEST, NEVER, Play
from solver.rules import load
from solver.strategy import words
from solver.strategy.card import parse
from solver.strategy.chart import CODES
from solver.strategy.derive.charting import _chart_text, code_of, grow


def _cells(n: int = 20_000):
    seen = words.dealt()
    return seen.take(np.random.default_rng(7).choice(len(seen), n, replace=False))


def test_the_rows_split_where_the_best_action_changes():
    """Three actions: the first best with a pair or better, the second best with no pair against an
    up-card 2-9, the third elsewhere. One split finds the pairs; the up-card's ranks are the
    columns, so no other split gains: two rows, though six were allowed."""
    cells = _cells()
    paired = cells.category >= 2
    best = np.where(paired, 0, np.where(cells.up <= 7, 1, 2))
    summed = np.ones((len(cells), 3))
    summed[np.arange(len(cells)), best] = 0.0
    rows = grow(cells, summed, [("category", "pair+"), ("category", "ak"), ("holds", "A")], 6, float(len(cells)))
    assert rows[0][0] == (("category", "pair+"),) and rows[-1][0] == ()
    assert np.array_equal(np.sort(rows[0][1]), np.flatnonzero(paired))
    assert len(rows) == 2          # the up-card's rank is the columns: no row is needed for it


def test_no_split_without_a_gain():
    cells = _cells(5000)
    rows = grow(cells, np.zeros((len(cells), 2)), [("category", "pair+")], 5, float(len(cells)))
    assert [when for when, _ in rows] == [()]


def test_codes():
    assert {code_of(a) for a in CODES.values()} == set(CODES)
    assert [code_of(a) for a in ("keep pair", "keep A K", "keep pair highest", "keep nothing", "keep Q+")] == [
        "P", "AK", "PH", "X", "Q+"]


def test_a_chart_s_file_reads_back_with_its_codes():
    """The chart's file names its own codes (quoted: "Q+" is no bare TOML key) and reads back."""
    names = ("bet", "fold", "sixth_card", "keep pair", "keep Q+", "keep A K")
    rows = [((("category", "pair+"),), ([3] * 13, [0] * 13)), ((), ([4] * 6 + [5] * 7, None))]
    card = parse(_chart_text(load("russian"), rows, names, BEST), "c.toml")
    first = dict(card.chart)["first_row"]
    assert first[0].cells == ("keep pair",) * 13 and first[0].split == ("bet",) * 13
    assert first[1].cells == ("keep Q+",) * 6 + ("keep A K",) * 7 and dict(card.chart_codes)["Q+"] == "keep Q+"


def test_a_chart_s_file_states_its_insurance_and_buys_before_its_tables():
    """The insurance and buys a derive states are keys of the file itself: written before the
    chart's codes, which would take them otherwise."""
    names = ("bet", "fold", "sixth_card", "keep pair", "keep Q+")
    rows = [((("category", "pair+"),), ([3] * 13, None)), ((), ([4] * 13, None))]
    for play in (Play(NEVER, 4), Play(None, 4)):
        card = parse(_chart_text(load("russian"), rows, names, play), "c.toml")
        assert card.play == play and dict(card.chart_codes)["Q+"] == "keep Q+"
