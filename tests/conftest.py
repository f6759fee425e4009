import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def hand_counts() -> dict:
    return json.loads((DATA / "hand_counts.json").read_text())


@pytest.fixture(scope="session")
def fake_table(tmp_path_factory):
    """A complete compact table of the default rules in 6 large shards, of made-up answers
    (the figures only read them): its directory, and its weights, best, best_ev, insurance."""
    import numpy as np

    from solver import classes, rules, tables
    from solver.tables import schema

    rng = np.random.default_rng(4)
    hands, ups, weights = classes.enumerate_classes()
    n = len(hands)
    best = rng.integers(0, 34, n).astype(np.uint8)
    best_ev = rng.normal(-0.05, 1, n)
    insurance = rng.integers(0, 3, n).astype(np.uint8)
    directory = tmp_path_factory.mktemp("fake") / "t"
    r, rows = rules.DEFAULT, tables.SHARD_ROWS * 16
    directory.mkdir()
    manifest = tables.Manifest.new(r, rows, compact=True)
    keys = classes.class_keys(hands, ups)
    for s in range(manifest.shards_total):
        part = slice(s * rows, (s + 1) * rows)
        columns = {"key": keys[part], "weight": weights[part].astype(np.int32), "best": best[part],
                   "best_ev": best_ev[part], "second": best[part], "second_ev": best_ev[part],
                   "insurance": insurance[part]}
        manifest.shards[str(s)] = schema.write_shard(directory, s, schema.shard_metadata(r), columns, compact=True)
    manifest.write(directory)
    return directory, weights, best, best_ev, insurance


@pytest.fixture(scope="session")
def write_fake_results():
    """Made-up results of one shard of a table (results -3 and +10 only, the shard's EV that
    of its rows' best EVs; ``shift`` rounds moved to +10), written and listed as the results
    pass writes them."""
    from solver import report, rules
    from solver.tables import played

    def write(t, s: int, shift: int = 0) -> None:
        data = t.read_shard(s, ["weight", "best_ev"])
        w, ev = data.column("weight").to_numpy(), data.column("best_ev").to_numpy()
        u = played.unit(rules.DEFAULT)
        rounds = int(w.sum()) * u
        high = round((report.from_table.exact_float_total(w, ev) / int(w.sum()) + 3) / 13 * rounds) + shift
        played.record(t, {
            "format": "rpoker optimal results", "fingerprint": t.fingerprint, "shard": s,
            "rows": t.manifest.shards[str(s)]["rows"], "weight": int(w.sum()), "unit": u, "rounds": rounds,
            "results": {"-3": rounds - high, "10": high}, "bets": rounds, "insured": 0, "insurance": 0,
            "fees": 0, "bought": 0})

    return write
