"""A damaged table is refused, never read: random bit flips in every file of a table, edits
that keep a file well-formed, and the commands that read tables (query, best, report, check)."""

import json
import random
import shutil

import pytest
from typer.testing import CliRunner

from solver import manifest, report, rules, tables
from solver.cards import format_cards, parse_card, parse_cards
from solver.classes import enumerate_classes
from solver.cli import app
from solver.errors import InputError
from solver.tables import played

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
    path = played.results_path(tables.Table(copy).directory, 3)
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
    assert played.compute(tables.Table(complete), rules.DEFAULT) == []
    assert (complete / manifest.MANIFEST).read_bytes() == before and not (complete / manifest.LOCK).exists()


# -- forgeries: files edited and sealed again -----------------------------------------------------

def _reseal_shard(directory, shard, change):
    """Shard ``shard`` of a table rewritten with ``change`` applied to its columns, and the manifest
    sealed again over it: a forgery the seals cannot tell."""
    from solver.tables import schema

    t = tables.Table(directory)
    data = t.read_shard(shard)
    columns = {name: data.column(name).to_numpy().copy() for name in data.column_names}
    change(columns)
    m = t.manifest
    m.shards[str(shard)] = schema.write_shard(directory, shard, dict(data.schema.metadata), columns,
                                              compact=t.compact)
    m.write(directory)


def test_the_released_table_is_known_by_its_manifest(tmp_path, monkeypatch):
    from solver.tables import reader

    installed = tables.shipped_root()
    source = reader.Path(__file__).resolve().parents[2] / "tables"
    for folder in (installed, source):
        t = tables.Table(folder / "russian-compact")
        assert t.released and reader.RELEASED["russian-compact"] == t.checksum
    # a copy elsewhere is the released table still; changed and sealed again it is not
    copy = tmp_path / "copy" / "russian-compact"
    shutil.copytree(installed / "russian-compact", copy)
    assert tables.Table(copy).released
    _reseal_shard(copy, 5, lambda c: c["best_ev"].__setitem__(0, c["best_ev"][0] + 1e-9))
    assert not tables.Table(copy).released
    hands, ups, _ = enumerate_classes()
    shard_rows = tables.Table(copy).manifest.shard_rows
    cards, up = format_cards(hands[5 * shard_rows]), format_cards([ups[5 * shard_rows]])
    out = runner.invoke(app, ["best", cards, "--up", up, "--table", str(copy)])
    assert out.exit_code == 0 and "not a released table" in out.stdout
    out = runner.invoke(app, ["best", cards, "--up", up, "--table", str(copy), "--json"])
    assert json.loads(out.stdout)["source"]["released"] is False
    # installed in place of the released one, it is refused
    monkeypatch.setattr(reader, "shipped_root", lambda: copy.parent)
    with pytest.raises(InputError, match="is not the one released with rpoker"):
        tables.Table(copy)
    monkeypatch.setattr(reader, "shipped_root", lambda: installed)
    out = runner.invoke(app, ["best", cards, "--up", up])
    assert out.exit_code == 0 and "released with rpoker" in out.stdout and "not a released" not in out.stdout


def test_a_check_solves_classes_of_every_shard_again(complete):
    """The made-up answers of ``complete``, well sealed, are found at once by the classes solved
    again; the seed drawn is said, and the same seed draws the same classes."""
    message = _refused(["tables", "check", "--table", str(complete)])
    assert "the table says" in message and "seed" in message
    again = [_refused(["tables", "check", "--table", str(complete), "--seed", "9"]) for _ in range(2)]
    assert again[0] == again[1] and "(seed 9)" in again[0]
    with pytest.raises(InputError, match="--recount 7: the table has the results of 6 shards"):
        tables.check(tables.Table(complete), rules.DEFAULT, spot=0, recount=7)


@pytest.fixture(scope="module")
def genuine(tmp_path_factory):
    """Shards 0 and 1 of the compact table of the default rules (2 classes each), with results."""
    directory = tmp_path_factory.mktemp("genuine") / "t"
    tables.build(rules.DEFAULT, directory, shard_rows=ROWS, shards=[0, 1], compact=True, results=True)
    return directory


def test_forged_results_are_found_by_counting_them_again(genuine, tmp_path):
    t = tables.Table(genuine)
    tables.verification.recount_results(t, rules.DEFAULT, [0, 1])   # the solver's: equal
    copy = tmp_path / "t"
    shutil.copytree(genuine, copy)
    path = played.results_path(tables.Table(copy).directory, 1)
    data = json.loads(path.read_text())
    results = {int(k): v for k, v in data["results"].items()}
    low, high = min(results), max(results)
    results[low] -= 2      # rounds moved, their sum and EV kept: low + high = (low + 1) + (high - 1)
    results[high] -= 2
    results[low + 1] = results.get(low + 1, 0) + 2
    results[high - 1] = results.get(high - 1, 0) + 2
    forged = {**data, "results": {str(k): v for k, v in sorted(results.items()) if v}}
    forged_table = tables.Table(copy)
    played.record(forged_table, forged)        # written and sealed as the results pass writes them
    assert played.stored(tables.Table(copy), rules.DEFAULT, 1)["results"] == forged["results"]
    with pytest.raises(InputError, match="the results of shard 1 of .* are not what its classes' best actions give"):
        tables.verification.recount_results(tables.Table(copy), rules.DEFAULT, [0, 1])


def test_a_table_built_again_is_compared_whole(genuine, tmp_path):
    t = tables.Table(genuine)
    assert tables.rebuilt(t, rules.DEFAULT, tmp_path / "again") == 2
    copy = tmp_path / "t"
    shutil.copytree(genuine, copy)
    _reseal_shard(copy, 1, lambda c: c["second_ev"].__setitem__(1, c["second_ev"][1] - 0.25))
    with pytest.raises(InputError, match="shard 1 of .* differs from the same shard built again"):
        tables.rebuilt(tables.Table(copy), rules.DEFAULT, tmp_path / "again")
    with pytest.raises(InputError, match="--work must be another folder"):
        tables.rebuilt(t, rules.DEFAULT, genuine)


def test_a_table_is_built_again_in_a_folder_of_its_own(genuine, tmp_path, monkeypatch):
    """Under the cache (``$RPOKER_CACHE``) or ``--work``, one folder per table, made before any work."""
    t = tables.Table(genuine)
    monkeypatch.setenv("RPOKER_CACHE", str(tmp_path / "cache"))
    folder = tables.rebuild_folder(t)
    assert folder == tmp_path / "cache" / "rebuilt" / t.checksum[:16] and folder.is_dir()
    assert tables.rebuild_folder(t, str(tmp_path / "w")) == tmp_path / "w" / t.checksum[:16]
    with pytest.raises(InputError, match="--work is empty"):
        tables.rebuild_folder(t, " ")
