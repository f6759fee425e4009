"""Strategy tables: shards solved by the deal solver, atomic and resumable, queried in the user's cards."""

import json
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from solver import classes, rules, tables
from solver.action import Action
from solver.cards import format_cards, parse_card, parse_cards
from solver.classes import PERM_CARD, enumerate_classes
from solver.cli import app
from solver.deal import solve
from solver.errors import InputError
from solver.tables import played

ROWS = 2  # tiny shards: each class costs a whole deal solve
runner = CliRunner()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Shards 0 and 1 of the default table."""
    directory = tmp_path_factory.mktemp("table")
    report = tables.build(rules.DEFAULT, directory, shard_rows=ROWS, shards=[0, 1])
    assert report.solved == (0, 1) and report.classes == 2 * ROWS
    return directory


def test_action_codes_round_trip():
    hand = parse_cards("2c 7d Qh Ks As")
    s = solve(hand, parse_card("9s"))
    for o in s.options:
        code = o.action.code(hand)
        assert Action.from_code(code, hand) == o.action and Action.from_code(code, hand).label == o.label
    assert {o.action.code(hand) for o in s.options} == set(range(34))


def test_rows_are_the_solver_answers(built):
    hands, ups, weights = enumerate_classes()
    data = pq.read_table(tables.shard_path(built, 1))
    assert data.schema.metadata[b"rpoker.fingerprint"] == rules.DEFAULT.fingerprint.encode()
    assert data.num_rows == ROWS and pq.ParquetFile(tables.shard_path(built, 1)).metadata.num_row_groups == 1
    for i, row in enumerate(data.to_pylist()):
        k = ROWS + i
        hand = tuple(int(c) for c in hands[k])
        s = solve(hand, int(ups[k]))
        assert row["key"] == int(classes.class_keys(hands[k:k + 1], ups[k:k + 1])[0])
        assert row["weight"] == weights[k]
        assert Fraction(row["best_num"], row["best_den"]) == s.best.ev
        assert Action.from_code(row["best"], hand) == s.best.action
        assert Action.from_code(row["second"], hand) == s.options[1].action
        assert row["bet"] == float(s.bet.ev) and row["insurance"] == s.bet.insurance_size
        for o in s.options:
            if o.action.kind == "exchange":
                assert row[tables.EXCHANGE_COLUMNS[o.action.code(hand) - 3]] == np.float32(float(o.ev))
    manifest = tables.read_manifest(built)
    assert manifest.fingerprint == rules.DEFAULT.fingerprint and set(manifest.shards) == {"0", "1"}


def test_builds_are_byte_identical_and_resume(built, tmp_path):
    first = tables.shard_path(built, 0).read_bytes()
    report = tables.build(rules.DEFAULT, tmp_path, shard_rows=ROWS, shards=[0])
    assert tables.shard_path(tmp_path, 0).read_bytes() == first
    # a build killed after writing shard 1 but before the manifest, with a temporary file left
    (tmp_path / ".shard-00002.parquet.tmp-99").write_bytes(b"partial")
    tables.shard_path(tmp_path, 1).write_bytes(b"not parquet")
    report = tables.build(rules.DEFAULT, tmp_path, shard_rows=ROWS, shards=[0, 1])
    assert report.kept == (0,) and report.solved == (1,)
    assert not list(tmp_path.glob(".*tmp*"))
    assert tables.shard_path(tmp_path, 1).read_bytes() == tables.shard_path(built, 1).read_bytes()
    # a shard damaged after it was finished is found and solved again
    damaged = bytearray(tables.shard_path(tmp_path, 1).read_bytes())
    damaged[100] ^= 0xFF
    tables.shard_path(tmp_path, 1).write_bytes(bytes(damaged))
    report = tables.build(rules.DEFAULT, tmp_path, shard_rows=ROWS, shards=[0, 1])
    assert report.redone == (1,) and report.kept == (0,)
    assert tables.shard_path(tmp_path, 1).read_bytes() == tables.shard_path(built, 1).read_bytes()


def kill_after(rows):
    """A build's progress that stops it once ``rows`` classes are solved."""
    def progress(done, total):
        if done >= rows:
            raise KeyboardInterrupt
    return progress


def test_a_killed_build_keeps_its_finished_chunks(built, tmp_path):
    """Killed in the middle of a shard, a build keeps the chunks it finished and solves the rest."""
    # rows 1 and 2 are of one rank-level deal: chunks {0}, {1, 2}, {3}
    with pytest.raises(KeyboardInterrupt):
        tables.build(rules.DEFAULT, tmp_path, shard_rows=ROWS, shards=[0, 1], chunk_rows=1, progress=kill_after(3))
    saved = list((tmp_path / tables.CHUNKS).glob("*.npz"))
    assert len(saved) == 2 and not tables.shard_path(tmp_path, 0).exists()
    # shard 0 from the chunks alone; then shard 1 finds its row in the chunk saved with both
    report = tables.build(rules.DEFAULT, tmp_path, shard_rows=ROWS, shards=[0], chunk_rows=1)
    assert report.solved == (0,) and report.reused == 2 and report.classes == 0
    report = tables.build(rules.DEFAULT, tmp_path, shard_rows=ROWS, shards=[1], chunk_rows=1)
    assert report.solved == (1,) and report.reused == 1 and report.classes == ROWS - 1
    for s in (0, 1):
        assert tables.shard_path(tmp_path, s).read_bytes() == tables.shard_path(built, s).read_bytes()
    assert not (tmp_path / tables.CHUNKS).exists()
    # a damaged chunk is solved again
    again = tmp_path / "again"
    with pytest.raises(KeyboardInterrupt):
        tables.build(rules.DEFAULT, again, shard_rows=ROWS, shards=[0], chunk_rows=1, progress=kill_after(1))
    for path in (again / tables.CHUNKS).glob("*.npz"):
        path.write_bytes(b"damaged")
    report = tables.build(rules.DEFAULT, again, shard_rows=ROWS, shards=[0], chunk_rows=1)
    assert report.reused == 0 and report.classes == ROWS
    assert tables.shard_path(again, 0).read_bytes() == tables.shard_path(built, 0).read_bytes()


def test_a_build_plays_out_its_results_in_the_same_pass(built, tmp_path):
    """With ``results``, each shard's results file is written with it, equal to what the results
    pass counts from the finished table; a killed build resumes from chunks saved with their sums
    (one of them spans both shards); chunks saved without sums are solved again."""
    R = rules.DEFAULT
    with pytest.raises(KeyboardInterrupt):
        tables.build(R, tmp_path, shard_rows=ROWS, shards=[0, 1], chunk_rows=1, progress=kill_after(3), results=True)
    report = tables.build(R, tmp_path, shard_rows=ROWS, shards=[0, 1], chunk_rows=1, results=True)
    assert report.solved == (0, 1) and report.reused == 3 and report.classes == ROWS * 2 - 3
    table = tables.Table(tmp_path)
    stored = {}
    for s in (0, 1):
        assert tables.shard_path(tmp_path, s).read_bytes() == tables.shard_path(built, s).read_bytes()
        stored[s] = json.loads(played.results_path(table.directory, s).read_text())
        assert stored[s] == played.shard_results(table, R, s) and stored[s]["rows"] == ROWS
    assert played.verify_results(table, R) == 2
    # compacted, the table keeps its results, listed with the compact shards
    small = tables.Table(tables.compact(table, tmp_path / "compact").directory)
    assert played.verify_results(small, R) == 2
    assert all(played.results_path(small.directory, s).read_text()
               == played.results_path(table.directory, s).read_text() for s in (0, 1))
    plain = tmp_path / "plain"
    with pytest.raises(KeyboardInterrupt):
        tables.build(R, plain, shard_rows=ROWS, shards=[0], chunk_rows=1, progress=kill_after(1))
    report = tables.build(R, plain, shard_rows=ROWS, shards=[0], chunk_rows=1, results=True)
    assert report.reused == 0 and report.classes == ROWS
    assert json.loads(played.results_path(tables.Table(plain).directory, 0).read_text()) == stored[0]


def test_build_refuses_other_rules_and_bad_requests(built):
    with pytest.raises(InputError, match="other rules"):
        tables.build(rules.load("caribbean"), built, shard_rows=ROWS, shards=[0])
    with pytest.raises(InputError, match="rows per shard"):
        tables.build(rules.DEFAULT, built, shard_rows=ROWS + 1, shards=[0])
    with pytest.raises(InputError, match="no shard"):
        tables.build(rules.DEFAULT, built, shard_rows=ROWS, shards=[10**7])
    with pytest.raises(InputError, match="unknown backend"):
        tables.build(rules.DEFAULT, built, backend="spark")


def test_query_in_the_users_suits(built):
    hands, ups, _ = enumerate_classes()
    table = tables.Table(built)
    for k in range(2 * ROWS):
        for perm in (0, 5, 17, 23):
            hand = [int(PERM_CARD[perm][c]) for c in hands[k]][::-1]
            up = int(PERM_CARD[perm][ups[k]])
            answer = table.lookup(hand, up)
            s = solve(hand, up)
            assert answer.best.label == s.best.label and answer.best.ev_exact == s.best.ev
            assert answer.second.label == s.options[1].label
            # every option, at its stored EV (float32 but the best two), the rest best first
            assert {o.label: o.ev for o in answer.options[2:]} == \
                {o.label: float(np.float32(float(o.ev))) for o in s.options[2:]}
            assert [o.ev for o in answer.options[2:]] == sorted((o.ev for o in answer.options[2:]), reverse=True)


def test_query_errors(built, tmp_path):
    table = tables.Table(built)
    with pytest.raises(tables.MissingShard, match="missing from the table"):
        table.lookup(parse_cards("As Ks Qd 7c 2h"), parse_card("9s"))
    with pytest.raises(InputError, match="other rules"):
        table.check_rules(rules.load("oasis"))
    with pytest.raises(InputError, match="no strategy table"):
        tables.Table(tmp_path)
    (tmp_path / "manifest.json").write_text("{not json")
    with pytest.raises(InputError, match="damaged table manifest .*not valid JSON"):
        tables.Table(tmp_path)


def test_query_reports_a_corrupt_shard(built, tmp_path):
    for f in built.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    path = tables.shard_path(tmp_path, 0)
    data = bytearray(path.read_bytes())
    data[4:40] = bytes(36)
    path.write_bytes(bytes(data))
    hands, ups, _ = enumerate_classes()
    with pytest.raises(InputError, match="does not match its SHA-256 in the manifest: the file is damaged"):
        tables.Table(tmp_path).lookup([int(c) for c in hands[0]], int(ups[0]))


def test_cli_query_and_best_from_a_table(built, tmp_path):
    hands, ups, _ = enumerate_classes()
    cards, up = format_cards(hands[1]), format_cards([ups[1]])
    out = runner.invoke(app, ["tables", "query", cards, "--up", up, "--table", str(built), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    s = solve(hands[1], int(ups[1]))
    assert data["best"]["ev_exact"] == f"{s.best.ev.numerator}/{s.best.ev.denominator}"
    out = runner.invoke(app, ["best", cards, "--up", up, "--table", str(built)])
    assert out.exit_code == 0 and "from the strategy table" in out.output
    out = runner.invoke(app, ["tables", "query", cards, "--up", up, "--table", str(tmp_path)])
    assert out.exit_code == 2 and "no table of the rules russian" in out.output, out.output
    out = runner.invoke(app, ["tables", "query", cards, "--up", up, "--table", str(built), "--rules", "oasis"])
    assert out.exit_code == 2 and "other rules" in out.output


def test_compact_table_answers_like_the_full_one(built, tmp_path):
    full, out = tables.Table(built), tmp_path / "compact"
    report = tables.compact(full, out)
    assert report.written == (0, 1) and report.kept == () and report.shards_total == full.manifest.shards_total
    small = tables.Table(out)
    assert small.compact and not full.compact and small.fingerprint == full.fingerprint
    assert pq.read_table(tables.shard_path(out, 0)).column_names == list(tables.COMPACT_COLUMNS)
    hands, ups, _ = enumerate_classes()
    for k in range(2 * ROWS):
        for perm in (0, 9):
            hand, up = [int(PERM_CARD[perm][c]) for c in hands[k]], int(PERM_CARD[perm][ups[k]])
            a, b = full.lookup(hand, up), small.lookup(hand, up)
            assert (b.best.label, b.second.label, b.insurance, b.weight) == \
                (a.best.label, a.second.label, a.insurance, a.weight)
            assert b.best.ev == a.best.ev == float(a.best.ev_exact) and b.best.ev_exact is None
            assert b.second.ev == np.float32(a.second.ev) and len(b.options) == 2
    # run again: nothing to do; a damaged compact shard is written again
    assert tables.compact(full, out).kept == (0, 1)
    tables.shard_path(out, 1).write_bytes(b"damaged")
    assert tables.compact(full, out).written == (1,)
    with pytest.raises(InputError, match="already a compact"):
        tables.compact(small, tmp_path / "again")
    with pytest.raises(InputError, match="own directory"):
        tables.compact(full, built)
    with pytest.raises(InputError, match="compact table"):
        tables.build(rules.DEFAULT, out, shard_rows=ROWS, shards=[0])
    with pytest.raises(InputError, match="full table"):
        tables.build(rules.DEFAULT, built, shard_rows=ROWS, shards=[0], compact=True)
    # built compact at once: the same bytes
    direct = tables.build(rules.DEFAULT, tmp_path / "direct", shard_rows=ROWS, shards=[0, 1], compact=True)
    assert direct.solved == (0, 1) and tables.Table(direct.directory).compact
    for s in (0, 1):
        assert tables.shard_path(direct.directory, s).read_bytes() == tables.shard_path(out, s).read_bytes()
    cards, up = format_cards(hands[1]), format_cards([ups[1]])
    result = runner.invoke(app, ["tables", "query", cards, "--up", up, "--table", str(out)])
    assert result.exit_code == 0 and "from the compact strategy table" in result.output, result.output
    result = runner.invoke(app, ["tables", "compact", "--table", str(built), "--out", str(tmp_path / "cli")])
    assert result.exit_code == 0 and "2 of" in result.output and "not complete" in result.output, result.output


def test_dask_backend_on_a_local_cluster(built, tmp_path):
    pytest.importorskip("dask.distributed")
    report = tables.build(rules.DEFAULT, tmp_path, jobs=2, backend="dask", shard_rows=ROWS, shards=[1])
    assert report.solved == (1,)
    assert tables.shard_path(tmp_path, 1).read_bytes() == tables.shard_path(built, 1).read_bytes()


def test_parallel_loky_build_matches(built, tmp_path):
    tables.build(rules.DEFAULT, tmp_path, jobs=2, shard_rows=1, shards=[0, 1, 2, 3])
    data = pq.read_table(tables.shard_path(tmp_path, 3)).to_pylist()[0]
    reference = pq.read_table(tables.shard_path(built, 1)).to_pylist()[1]
    assert data == reference


def test_shards_of_several_chunks(built, tmp_path):
    report = tables.build(rules.DEFAULT, tmp_path, jobs=2, shard_rows=ROWS, shards=[1], chunk_rows=1)
    assert report.solved == (1,)
    assert tables.shard_path(tmp_path, 1).read_bytes() == tables.shard_path(built, 1).read_bytes()


def test_rows_without_options_are_counted_in_batches():
    """Rules without exchanges or sixth cards: the batch bet counts give solve()'s answers."""
    r = rules.load("caribbean")
    hands, ups, _ = enumerate_classes()
    rows = np.random.default_rng(5).choice(len(hands), 40, replace=False)
    rows = np.concatenate([rows, np.arange(1000, 1040)])  # consecutive classes: shared ranks
    out = tables.solve_rows(hands[rows], ups[rows], r)
    for i, k in enumerate(rows):
        hand = tuple(int(c) for c in hands[k])
        s = solve(hand, int(ups[k]), r)
        assert Fraction(int(out["best_num"][i]), int(out["best_den"][i])) == s.best.ev
        assert Action.from_code(out["best"][i], hand) == s.best.action
        assert Action.from_code(out["second"][i], hand) == s.options[1].action
        assert out["bet"][i] == float(s.bet.ev) and out["insurance"][i] == s.bet.insurance_size
        assert np.isnan(out["sixth"][i]) and np.isnan(out["x31"][i])


@pytest.mark.slow
def test_full_caribbean_table_builds_and_checks(tmp_path):
    """A whole table (rules without options: minutes), then `tables check`."""
    r = rules.load("caribbean")
    tables.build(r, tmp_path, jobs=2)
    result = tables.check(tables.Table(tmp_path), r, spot=50)
    assert result.rows == 5_649_150 and result.weight == 122_151_120
    compact = tables.compact(tables.Table(tmp_path), tmp_path / "compact")
    assert len(compact.written) == compact.shards_total and compact.bytes < 60e6
    result = tables.check(tables.Table(tmp_path / "compact"), r, spot=50)
    assert result.rows == 5_649_150 and result.weight == 122_151_120


def test_check_refuses_an_incomplete_table(built):
    with pytest.raises(InputError, match="not complete"):
        tables.check(tables.Table(built), rules.DEFAULT)


def test_build_from_the_command_line(built, tmp_path):
    out = tmp_path / "small"
    result = runner.invoke(app, ["tables", "build", "--compact", "--shards", "0-1", "--shard-rows", str(ROWS),
                                 "--out", str(out)])
    assert result.exit_code == 0 and "2 shards solved" in result.output, result.output
    assert tables.Table(out).compact and set(tables.read_manifest(out).shards) == {"0", "1"}
    result = runner.invoke(app, ["tables", "build", "--compact", "--shards", "0", "--shard-rows", str(ROWS),
                                 "--out", str(built)])
    assert result.exit_code == 2 and "holds a full table" in result.output, result.output
    result = runner.invoke(app, ["tables", "build", "--shards", "zero", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and "bad shard list" in result.output, result.output
    result = runner.invoke(app, ["tables", "build", "--shards", "87", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and "no shard 87" in result.output, result.output
    assert not (tmp_path / "x").exists()  # refused before anything is written


def test_an_interrupted_build_says_how_to_go_on(tmp_path, monkeypatch):
    def interrupted(*args, **kwargs):
        next(a for a in args if callable(a))(1, 10)   # some work done, then Ctrl-C
        raise KeyboardInterrupt

    monkeypatch.setattr(tables, "build", interrupted)
    result = runner.invoke(app, ["tables", "build", "--out", str(tmp_path)])
    assert result.exit_code == 130, result.output
    assert "interrupted: what was finished is kept; run the same command again" in result.output


SHIPPED = Path(__file__).resolve().parents[2] / "tables" / "russian-compact"


@pytest.mark.skipif(not (SHIPPED / "manifest.json").is_file(), reason="the default table is not shipped here")
def test_shipped_table_answers_like_the_solver():
    """The shipped table is complete, of the default rules, and answers random deals (in random
    suits; the README's deal first) with the solver's best option and runner-up and their EVs."""
    table = tables.Table(SHIPPED)
    table.check_rules(rules.DEFAULT)
    assert table.compact and len(table.manifest.shards) == table.manifest.shards_total
    rng = random.Random(2026)
    deals = [(parse_cards("As Ks Qd 7c 2h"), parse_card("9s"))]
    for _ in range(8):
        cards = rng.sample(range(52), 6)
        deals.append((cards[:5], cards[5]))
    for hand, up in deals:
        answer, s = table.lookup(hand, up), solve(hand, up)
        assert answer.best.label == s.best.label and answer.best.ev == float(s.best.ev)
        assert answer.second.label == s.options[1].label
        assert answer.second.ev == np.float32(float(s.options[1].ev))


@pytest.mark.skipif(not (SHIPPED / "manifest.json").is_file(), reason="the default table is not shipped here")
def test_tables_load_lazily(tmp_path):
    """Importing the package and its command line reads no table (pyarrow is not even imported);
    opening a table reads its manifest alone; a query reads the one shard of its class."""
    import subprocess
    import sys

    code = ("import sys, solver.cli, solver.tables, solver.report, solver.tables.played; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pyarrow', 'joblib', 'matplotlib')))")
    # away from the repository, so that the installed package is the one imported
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    table = tables.Table(SHIPPED)
    assert table._shards == {}
    table.lookup(parse_cards("As Ks Qd 7c 2h"), parse_card("9s"))
    table.lookup(parse_cards("Ah Kh Qc 7d 2s"), parse_card("9h"))  # the same class in other suits
    assert len(table._shards) == 1


@pytest.mark.skipif(len(list(SHIPPED.glob("shard-*.results.json"))) < 87, reason="the results are not all shipped here")
def test_shipped_results_are_complete_and_give_the_tables_ev():
    """The results played out beside the shipped table: every shard's, summed, of the table's EV
    (``table_play`` refuses them otherwise), and one shard played out again equal to its file."""
    from solver import report
    from solver.tables import played

    table = tables.Table(SHIPPED)
    play = report.table_play(table, rules.DEFAULT)
    assert play.results_shards == table.manifest.shards_total and play.results is not None
    assert sum(play.results.results.values()) == play.results.rounds
    last = table.manifest.shards_total - 1
    stored = json.loads(played.results_path(table.directory, last).read_text())
    again = played.shard_results(table, rules.DEFAULT, last)
    assert {k: v for k, v in again.items() if k != "solver_version"} == \
        {k: v for k, v in stored.items() if k != "solver_version"}


def test_the_shipped_table_is_installed_with_the_package(tmp_path):
    """From a folder without ./tables, the commands find the table installed with rpoker
    (package data, through importlib.resources); --table and $RPOKER_TABLES still choose."""
    import os
    import subprocess
    import sys

    root = tables.shipped_root()
    assert root is not None and (root / "russian-compact" / "manifest.json").is_file()
    code = ("import sys; from solver.cli import app; sys.argv = ['rpoker'] + sys.argv[1:]; app()")
    done = subprocess.run([sys.executable, "-c", code, "tables", "query", "As Ks Qd 7c 2h", "--up", "9s"],
                          capture_output=True, text=True, cwd=tmp_path,
                          env={k: v for k, v in os.environ.items() if k != "RPOKER_TABLES"})
    assert done.returncode == 0, done.stderr
    assert str(root / "russian-compact") in done.stdout and "best: exchange Qd 7c 2h" in done.stdout
    assert tables.locate(rules.DEFAULT).directory.resolve() in (Path("tables/russian-compact").resolve(),
                                                                (root / "russian-compact").resolve())


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads through Linux's /proc")
def test_reading_shards_starts_no_thread(tmp_path):
    """Arrow's thread pools can abort a process at exit ("terminate called without an active
    exception", exit 134: apache/arrow#34314, seen in 1 of 30 `tables check` runs of a damaged
    table): shards are read on the calling thread, so reading them leaves no native thread behind."""
    import subprocess
    import sys

    code = ("import os; import pyarrow.parquet; from solver import rules, tables; "
            "before = len(os.listdir('/proc/self/task')); t = tables.locate(rules.DEFAULT); "
            "[t.read_shard(s) for s in range(t.manifest.shards_total)]; "
            "print(before, len(os.listdir('/proc/self/task')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    before, after = map(int, done.stdout.split())
    assert after == before, f"{after - before} threads started by reading the shards"
