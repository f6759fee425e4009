"""A damaged table is refused, never read: random bit flips in every file of a table, edits
that keep a file well-formed, and the commands that read tables (query, best, report, check)."""

import json
import random
import shutil

import pytest
from typer.testing import CliRunner

from solver import manifest, optimal, report, rules, tables
from solver.cards import format_cards, parse_card, parse_cards
from solver.classes import enumerate_classes
from solver.cli import app
from solver.errors import InputError

ROWS = 2
runner = CliRunner()


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """Shards 0 and 1 of the compact table of the default rules, 2 classes each."""
    directory = tmp_path_factory.mktemp("small") / "t"
    tables.build(rules.DEFAULT, directory, shard_rows=ROWS, shards=[0, 1], compact=True)
    return directory


@pytest.fixture(scope="module")
def complete(fake_table, write_fake_results, tmp_path_factory):
    """A complete table (made-up answers, 6 shards) with the results of every shard."""
    directory = tmp_path_factory.mktemp("complete") / "t"
    shutil.copytree(fake_table[0], directory)
    t = tables.Table(directory)
    for s in range(t.manifest.shards_total):
        write_fake_results(t, s)
    return directory


def _files(directory):
    return [p.name for p in sorted(directory.iterdir()) if p.is_file() and not p.name.startswith(".")]


def _flip(path, rng) -> bytes:
    """Flip one random bit of a file; its bytes before."""
    data = path.read_bytes()
    bit = rng.randrange(len(data) * 8)
    damaged = bytearray(data)
    damaged[bit // 8] ^= 1 << (bit % 8)
    path.write_bytes(bytes(damaged))
    return data


def _refused(args):
    out = runner.invoke(app, args)
    assert out.exit_code == 2, (args, out.output)
    assert out.stdout == "" and len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.output
    return out.stderr


def _deal(row):
    hands, ups, _ = enumerate_classes()
    return format_cards(hands[row]), format_cards([ups[row]])


def test_bit_flips_in_every_file_of_a_small_table(small, tmp_path):
    assert _files(small) == ["manifest.json", "shard-00000.parquet", "shard-00001.parquet"]
    rng = random.Random(15)
    for name in _files(small):
        shard = None if name == manifest.MANIFEST else int(name[6:11])
        for trial in range(4):
            copy = tmp_path / f"{name}-{trial}"
            shutil.copytree(small, copy)
            _flip(copy / name, rng)
            for s in ([shard] if shard is not None else [0, 1]):
                cards, up = _deal(s * ROWS)
                with pytest.raises(InputError, match=name):
                    tables.Table(copy).lookup(parse_cards(cards), parse_card(up))
                for extra in ([], ["--json"]):
                    _refused(["tables", "query", cards, "--up", up, "--table", str(copy), *extra])
                    _refused(["best", cards, "--up", up, "--table", str(copy), *extra])
            # the message names the file and what to do
            message = _refused(["tables", "query", *_deal((shard or 0) * ROWS)[:1], "--up",
                                _deal((shard or 0) * ROWS)[1], "--table", str(copy)])
            assert name in message and ("rpoker tables build" in message if shard is not None
                                        else "build the table again" in message)


def test_bit_flips_in_every_file_of_a_complete_table(complete, tmp_path):
    """Every shard, every results file and the manifest: report, check and queries refuse."""
    names = _files(complete)
    assert len(names) == 1 + 2 * 6
    rng = random.Random(16)
    rows = tables.read_manifest(complete).shard_rows
    for name in names:
        path = complete / name
        before = _flip(path, rng)
        try:
            with pytest.raises(InputError, match=name):
                report.table_play(tables.Table(complete), rules.DEFAULT)
            with pytest.raises(InputError, match=name):
                tables.check(tables.Table(complete), rules.DEFAULT, spot=0)
            _refused(["report", "--table", str(complete), "--out", str(tmp_path / "report")])
            if name.endswith(".parquet") or name == manifest.MANIFEST:
                cards, up = _deal(int(name[6:11]) * rows if name.endswith(".parquet") else 0)
                _refused(["tables", "query", cards, "--up", up, "--table", str(complete)])
        finally:
            path.write_bytes(before)
    assert not (tmp_path / "report").exists() or not list((tmp_path / "report").iterdir())
    # whole again: read
    assert report.table_play(tables.Table(complete), rules.DEFAULT).results is not None


def test_edits_that_keep_the_files_well_formed(complete, tmp_path):
    """Counts moved between results (their sum and EV kept), a rules block edited under the old
    fingerprint, a shard count that is not the table's, a manifest of an older rpoker."""
    copy = tmp_path / "t"
    shutil.copytree(complete, copy)
    path = optimal.results_path(tables.Table(copy), 3)
    data = json.loads(path.read_text())
    results = {int(k): v for k, v in data["results"].items()}
    # 13 rounds moved to a result of 0, from -3 (10) and +10 (3): the sum and the EV are kept
    results[-3] -= 10
    results[10] -= 3
    results[0] = 13
    assert sum(results.values()) == sum(data["results"].values())
    assert sum(k * v for k, v in results.items()) == sum(int(k) * v for k, v in data["results"].items())
    path.write_text(json.dumps({**data, "results": {str(k): v for k, v in sorted(results.items())}}, indent=1))
    with pytest.raises(InputError, match="shard-00003.results.json does not match its SHA-256"):
        report.table_play(tables.Table(copy), rules.DEFAULT)
    _refused(["tables", "check", "--table", str(copy), "--spot", "0"])

    def edited(change):
        m = json.loads((complete / manifest.MANIFEST).read_text())
        change(m)
        target = tmp_path / f"m{random.random()}"
        shutil.copytree(complete, target)
        (target / manifest.MANIFEST).write_text(json.dumps(manifest.seal(m)))
        return target

    target = edited(lambda m: m["rules"].update(buy_redraws=3))
    with pytest.raises(InputError, match="its rules do not give its fingerprint"):
        tables.Table(target)
    target = edited(lambda m: m.update(shards_total=7))
    with pytest.raises(InputError, match="it says 7 shards"):
        tables.Table(target)
    target = edited(lambda m: m["shards"]["2"].update(rows=5))
    with pytest.raises(InputError, match="entry of shard '2'"):
        tables.Table(target)
    old = json.loads((complete / manifest.MANIFEST).read_text())
    del old[manifest.CHECKSUM]
    (target / manifest.MANIFEST).write_text(json.dumps(old))
    with pytest.raises(InputError, match="no checksum"):
        tables.Table(target)
    # an edit under the old checksum
    m = json.loads((complete / manifest.MANIFEST).read_text())
    m["rules"]["buy_redraws"] = 3
    (target / manifest.MANIFEST).write_text(json.dumps(m))
    assert "does not match its contents" in _refused(["tables", "query", *_deal(0)[:1], "--up", _deal(0)[1],
                                                      "--table", str(target)])


def test_a_damaged_chunk_is_solved_again(tmp_path):
    """A chunk of an unfinished build whose bytes changed (but still loads) is not used."""
    import numpy as np

    directory = tmp_path / "t"

    def kill(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tables.build(rules.DEFAULT, directory, shard_rows=ROWS, shards=[0], chunk_rows=1, progress=kill)
    (chunk,) = (directory / tables.CHUNKS).glob("*.npz")
    with np.load(chunk) as data:
        arrays = {name: data[name] for name in data.files}
    arrays["best_ev"] = arrays["best_ev"] + 1e-9   # a wrong value, the file well-formed
    with open(chunk, "wb") as f:
        np.savez(f, **arrays)
    report_ = tables.build(rules.DEFAULT, directory, shard_rows=ROWS, shards=[0], chunk_rows=1)
    assert report_.reused == 0 and report_.classes == ROWS


def test_a_table_with_every_result_is_not_written_again(complete):
    """Counting the results of a table that has them all writes nothing (the table installed
    with rpoker may be read-only): no lock, no probe, the manifest as it was."""
    before = (complete / manifest.MANIFEST).read_bytes()
    assert optimal.compute(tables.Table(complete), rules.DEFAULT) == []
    assert (complete / manifest.MANIFEST).read_bytes() == before and not (complete / manifest.LOCK).exists()
