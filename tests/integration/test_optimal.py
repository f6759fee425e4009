"""Optimal play played out from a strategy table: exact results, shard by shard, for the report."""

import json
from fractions import Fraction

import numpy as np
import pytest

from solver import rules, tables
from solver.kernel_rules import NO_MAXIMUM, kernel_rules
from solver.returns import Returns
from solver.tables import played

R = rules.DEFAULT


@pytest.fixture(scope="module")
def small_shard(tmp_path_factory):
    """Two shards of 40 classes of a full table (exact best EVs), played out as they are built:
    one where every class bets, one where they buy a sixth card or exchange."""
    directory = tmp_path_factory.mktemp("full") / "t"
    tables.build(R, directory, shard_rows=40, shards=[2000, 100_000], results=True)
    return tables.Table(directory)


@pytest.mark.parametrize("shard", [2000, 100_000])
def test_a_shard_played_out_adds_up_to_its_best_evs(small_shard, shard):
    data = played.shard_results(small_shard, R, shard)
    # the build's own pass wrote the same, listed in the manifest
    assert json.loads(played.results_path(small_shard.directory, shard).read_text()) == data
    assert played.verify_results(small_shard, R) == 2
    rows = small_shard.read_shard(shard).to_pydict()
    weight = sum(rows["weight"])
    exact = sum(w * Fraction(n, d) for w, n, d in zip(rows["weight"], rows["best_num"], rows["best_den"]))
    results = {int(x): k for x, k in data["results"].items()}
    assert data["weight"] == weight and data["rounds"] == weight * played.unit(R)
    assert sum(results.values()) == data["rounds"]
    assert Fraction(sum(x * k for x, k in results.items()), data["rounds"]) == exact / weight
    assert 0 < data["bets"] <= data["rounds"] and data["fees"] >= 0


def test_the_unit_is_every_options_rounds_multiple():
    u = played.unit(R)
    assert u % (163_185 * 42 * 41) == 0                       # a bet: C(46,4) dealer hands, 42 * 41 draws
    assert u % (46 * 148_995 * 41 * 40) == 0                  # a sixth card
    assert played.unit(rules.load("caribbean")) == 163_185 * 42 * 41     # bets only (the draws: as counted)


def test_returns_collect_by_hand():
    """Two bets, one insured: each count lands on its result, scaled by its weight."""
    settings = kernel_rules(rules.DEFAULT)
    assert (settings.win_extra, settings.tie_loses, settings.max_payout) == (0, True, NO_MAXIMUM)
    counts = np.asarray([[2, 1, 3, 4, 1, 50, 10, 20], [1, 0, 0, 1, 0, 0, 0, 0]], np.int64)
    r = Returns.collect(1000, 7, np.asarray([1, 2]), counts, np.asarray([2, 1]), np.asarray([4, 0]), 100,
                        settings, 1, fee=1)
    expected: dict[int, int] = {}
    for result, rounds in [(-1 - 1, 7),                                 # folded, the fee lost
                           (4 - 4 - 1, 200), (-4 - 1, 100),             # win (insurance lost), tie
                           (-3 - 1, 300),                               # lose (insurance returned)
                           (1 + 4 - 1, 300),                            # no game: ante and insurance paid
                           (4 - 1 + 4 - 1, 50), (4 - 1 - 1, 10 + 100 - 50 - 10 - 20),  # bought: won, tie or
                           (4 - 1 - 3 - 1, 20),                         # still no game, lost
                           (2 - 1, 200), (1 - 1, 200)]:                 # the second class: win 2, no game +1
        expected[result] = expected.get(result, 0) + rounds
    assert r.results == dict(sorted(expected.items()))
    assert r.bets == (10 + 2 * 2) * 100 and r.insured == 10 * 100 and r.insurance == 40 * 100
    assert r.bought == 100 and r.fees == 1000 + 100
