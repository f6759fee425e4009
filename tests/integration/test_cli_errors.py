"""The command line never answers bad input with a traceback or silence: one line on stderr,
exit 2, naming the cause — the cases a hostile user tried, and a fuzz test of every command."""

import errno
import json
import os
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from solver import cli, console, manifest, report, rules, tables
from solver.errors import InputError
from solver.tables import played

runner = CliRunner()


def refused(*args, match: str, env: dict | None = None) -> str:
    out = runner.invoke(cli.app, list(args), env=env)
    assert out.exit_code == 2, (args, out.output)
    assert out.stdout == "" and len(out.stderr.strip().splitlines()) == 1, out.output
    assert "Traceback" not in out.output and match in out.stderr, out.stderr
    return out.stderr


def test_output_paths_are_checked_before_any_work(tmp_path, monkeypatch):
    def no_work(*args, **kwargs):
        raise AssertionError("work started")

    monkeypatch.setattr(tables.builder, "solve_chunks", no_work)
    monkeypatch.setattr(report.pipeline, "class_counts", no_work)
    afile = tmp_path / "afile"
    afile.write_text("x")
    for where, match in ((afile, "is a file"), (afile / "below", "afile is a file"),
                         ("/proc/rpoker-test", "cannot write")):
        refused("tables", "build", "--shards", "0", "--out", str(where), match=match)
        refused("report", "--rules", "caribbean", "--out", str(where), match=match)
        refused("tables", "compact", "--table", str(tmp_path), "--out", str(where), match="no table")
    refused("tables", "build", "--out", "", match="--out is empty")
    refused("report", "--out", " ", match="--out is empty")
    if os.geteuid() != 0:   # root writes anywhere
        locked = tmp_path / "ro"
        locked.mkdir(mode=0o500)
        refused("tables", "build", "--shards", "0", "--out", str(locked / "t"), match="cannot write")


def test_shard_lists(tmp_path):
    out = str(tmp_path / "t")
    refused("tables", "build", "--shards", "", "--out", out, match="--shards is empty")
    refused("tables", "build", "--shards", "5-3", "--out", out, match="'5-3' is empty")
    refused("tables", "build", "--shards", "0-2000000000", "--out", out, match="no shard 2000000000")
    refused("tables", "build", "--shards", "-1", "--out", out, match="bad shard list")
    refused("tables", "build", "--shards", "x" * 100_000, "--out", out, match="characters)")
    assert not (tmp_path / "t").exists()


def test_build_options_that_do_not_go_together(tmp_path):
    out = str(tmp_path / "t")
    refused("tables", "build", "--scheduler", "tcp://h:1", "--out", out, match="only with --backend dask")
    pytest.importorskip("dask.distributed")
    refused("tables", "build", "--backend", "dask", "--scheduler", "bogus", "--shards", "0", "--out", out,
            match="cannot reach the Dask scheduler 'bogus'")
    assert not (tmp_path / "t" / manifest.MANIFEST).exists()


def test_a_second_build_of_a_directory_is_refused(tmp_path):
    directory = tmp_path / "t"
    directory.mkdir()
    with manifest.writing(directory):
        refused("tables", "build", "--shards", "0", "--shard-rows", "2", "--out", str(directory),
                match="is being written by another rpoker process")
    with manifest.writing(directory):   # released when the first ends
        pass


def test_a_full_disk_leaves_the_table_resumable(tmp_path, monkeypatch):
    """The disk fills while the second shard is written: one line says so; run again, the build
    finishes with the first shard kept, byte-identical to a build without the failure."""
    calls = []
    real = os.replace

    def full(src, dst):
        calls.append(dst)
        if str(dst).endswith("shard-00001.parquet"):
            raise OSError(errno.ENOSPC, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(manifest.os, "replace", full)
    args = ["tables", "build", "--compact", "--shards", "0-1", "--shard-rows", "2", "--out", str(tmp_path / "t")]
    refused(*args, match="no space left on the device writing")
    assert tables.shard_path(tmp_path / "t", 0).exists() and not tables.shard_path(tmp_path / "t", 1).exists()
    monkeypatch.setattr(manifest.os, "replace", real)
    out = runner.invoke(cli.app, args)
    assert out.exit_code == 0 and "1 already built" in out.stderr, out.output
    tables.build(rules.DEFAULT, tmp_path / "u", shard_rows=2, shards=[0, 1], compact=True)
    for s in (0, 1):
        assert tables.shard_path(tmp_path / "t", s).read_bytes() == tables.shard_path(tmp_path / "u", s).read_bytes()


def test_rules_files_with_bad_values_name_the_key(tmp_path):
    cases = {'exchange_min = "1"': "'exchange_min': must be a whole number from 1 to 5, not '1'",
             "exchange_forces_bet = 5": "'exchange_forces_bet': must be a list",
             "buy_game_fee = 2147483647": "'buy_game_fee': must be a whole number from 0 to 100",
             "buy_game_fee = 2147483648": "'buy_game_fee': must be a whole number from 0 to 100",
             "buy_game = 1": "'buy_game': must be true or false",
             "exchange_fees = [1, 1, -1, 1, 1]": "'exchange_fees': must be a list of whole numbers from 0 to 100",
             "[paytable]\nroyal_flush = 1.5": "'paytable'",
             "no_such_setting = 1": "unknown rule setting 'no_such_setting'"}
    for i, (text, match) in enumerate(cases.items()):
        f = tmp_path / f"r{i}.toml"
        f.write_text(text + "\n")
        refused("rules", "show", str(f), match=match)
        refused("best", "As Ks Qd 7c 2h", "--up", "9s", "--rules", str(f), match=match)
    (tmp_path / "bad.toml").write_bytes(b"\xff\xfe = 1")
    refused("rules", "show", str(tmp_path / "bad.toml"), match="not valid TOML")
    refused("rules", "show", str(tmp_path), match="neither a rules preset")


def test_named_tables_must_exist(tmp_path):
    refused("report", "--table", "/nonexistent", match="--table '/nonexistent': no such directory")
    refused("tables", "query", "As Ks Qd 7c 2h", "--up", "9s", match="$RPOKER_TABLES '/nonexistent'",
            env={"RPOKER_TABLES": "/nonexistent"})
    refused("best", "As Ks Qd 7c 2h", "--up", "9s", "--table", str(tmp_path), match="no table of the rules russian")
    # a table named for rules that need none is not ignored without a word
    refused("report", "--rules", "caribbean", "--table", str(tmp_path), match="without a strategy table")


def test_final_hands_the_rules_cannot_make():
    refused("after", "As Ks Qd 7c 2h", "--up", "9s", "--thrown", "2c 3c 4c 5c 6c 7c",
            match="do not allow exchanging 6 cards")
    refused("after", "As Ks Qd 7c 2h 3h", "--up", "9s", "--thrown", "2c", match="no cards are thrown")
    refused("after", "As Ks Qd 7c 2h 3h", "--up", "9s", "--rules", "caribbean", match="have no sixth card")
    refused("after", "As Ks Qd 7c 2h", "--up", "9s", "--thrown", "2c", "--rules", "caribbean",
            match="do not allow exchanging 1 cards (allowed: none)")
    refused("buy", "As Ks Qd 7c 2h 3h", "--dealer", "Js 9h 7d 5d 2d", "--thrown", "2c", match="no cards are thrown")


def test_the_up_card_in_the_hand_is_said_as_such():
    for command in (["best"], ["tables", "query"]):
        refused(*command, "2c 3d Qh Kd Ah", "--up", "Ah", match="'Ah' is in both the hand and the up-card")


def test_markup_in_an_argument_is_text():
    refused("hand", "[/]", match="'[/]' is not a card")
    refused("hand", "[bold]x", match="'[bold]x' is not a card")
    refused("best", "As Ks Qd 7c 2h", "--up", "9s", "--rules", "[red]nowhere[/]", match="'[red]nowhere[/]'")


def test_a_huge_argument_is_not_echoed():
    message = refused("hand", "A" * 130_000, match="characters)")
    assert len(message) < 300


def test_usage_errors_are_one_line():
    refused("best", "As Ks Qd 7c 2h", match="Missing option '--up'")
    refused("nosuch", match="No such command 'nosuch'")
    refused("tables", "check", "--spot", "99999999", match="--spot")
    refused("tables", "build", "--jobs", "0", match="--jobs")
    refused("best", "As Ks Qd 7c 2h", "--up", "9s", "--bogus", match="No such option: --bogus")


def test_best_json_has_one_shape(tmp_path):
    solved = json.loads(runner.invoke(cli.app, ["best", "As Ks Qd 7c 2h", "--up", "9s", "--json", "--solve"]).stdout)
    read = json.loads(runner.invoke(cli.app, ["best", "As Ks Qd 7c 2h", "--up", "9s", "--json"]).stdout)
    assert solved.keys() == read.keys() and solved["bet"].keys() == read["bet"].keys()
    assert solved["source"]["kind"] == "solver" and read["source"]["kind"] == "table"
    assert solved["source"].keys() == read["source"].keys()
    assert solved["best"].keys() == read["best"].keys() == {"action", "throw", "ev", "ev_exact"}
    assert (solved["best"]["action"], solved["best"]["throw"]) == (read["best"]["action"], read["best"]["throw"])
    assert (solved["second"]["action"], sorted(solved["second"]["throw"])) == \
        (read["second"]["action"], sorted(read["second"]["throw"]))
    assert read["best"]["ev"] == solved["best"]["ev"] and read["best"]["ev_exact"] is None
    assert read["dead"] == [] and read["rules"] == solved["rules"]


def test_a_logged_progress_line_projects_from_the_work_done(monkeypatch, capsys):
    """The first line of a log waits a minute; its ETA comes from the rate since work began."""
    clock = [0.0]
    monkeypatch.setattr(console.time, "monotonic", lambda: clock[0])
    with console.progress_bar("solving", "classes") as progress:
        clock[0] = 30.0
        progress(100, 10_000)       # the first chunk, after 30 s of start-up
        clock[0] = 50.0
        progress(200, 10_000)       # within the minute: no line
        clock[0] = 130.0
        progress(1_100, 10_000)     # 1,000 classes in 100 s: 8,900 left, 890 s
    lines = [line for line in capsys.readouterr().err.splitlines() if "%)," in line]
    assert lines == ["solving 1,100/10,000 classes (11.0 %), 0.04 h, ETA 0.25 h"]


# -- fuzz: arbitrary arguments to every command -----------------------------------------------

COMMANDS = [["hand"], ["best"], ["after"], ["buy"], ["returns"], ["rules", "show"], ["tables", "query"],
            ["tables", "build"], ["tables", "check"], ["tables", "results"], ["tables", "compact"], ["report"],
            ["tables"], ["rules"], []]
OPTIONS = ["--up", "--dead", "--rules", "--table", "--json", "--solve", "--thrown", "--dealer", "--play", "--out",
           "--shards", "--jobs", "--backend", "--scheduler", "--spot", "--vs", "--build", "--compact", "-h",
           "--version", "--shard-rows", "-u", "-t", "-r", "-o", "-j"]
_CARD = st.builds(lambda r, s: r + s, st.sampled_from(list("23456789TJQKA") + ["10", "1", "X"]),
                  st.sampled_from(list("cdhs♣♦♥♠") + ["x", "C"]))


@pytest.fixture(scope="module")
def paths(tmp_path_factory):
    base = tmp_path_factory.mktemp("fuzz")
    (base / "file.txt").write_text("x")
    (base / "good.toml").write_text('preset = "caribbean"\n')
    (base / "bad.toml").write_text("buy_redraws = 99\n")
    (base / "garbage.toml").write_bytes(b"\x00\xff[[[")
    (base / "table").mkdir()
    (base / "table" / manifest.MANIFEST).write_text("{}")
    return [str(base / name) for name in ("file.txt", "good.toml", "bad.toml", "garbage.toml", "table", "none")]


def _values(paths):
    cards = st.lists(_CARD, min_size=0, max_size=7).map(" ".join)
    return st.one_of(cards, st.sampled_from(paths + ["russian", "caribbean", "oasis", "dask", "loky", "0", "-1",
                                                     "0-3", "5-3", "", "best", "bet", "sixth", "fold", "[/]",
                                                     "[bold]As"]),
                     st.integers(-5, 10**12).map(str), st.text(string.printable + "♠é\x00", max_size=30))


@pytest.fixture()
def no_long_work(monkeypatch, tmp_path):
    """What would take minutes (a build, the counting of a report, the results pass, a check) is
    stood in for by a quick answer once the arguments passed every check; default output
    directories go to a temporary folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tables.builder, "solve_chunks", lambda *a, **k: tables.BuildReport(a[1], (), (), (), 0, 0.0))
    monkeypatch.setattr(tables.builder, "workers", lambda *a: __import__("contextlib").nullcontext())
    monkeypatch.setattr(report.pipeline, "class_counts", lambda *a, **k: (_ for _ in ()).throw(InputError("stand-in")))
    monkeypatch.setattr(played, "compute", lambda *a, **k: [])
    monkeypatch.setattr(tables, "check", lambda *a, **k: tables.CheckReport(0, 0, 0, 0, 0))


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzz_every_command(data, paths, no_long_work, tmp_path_factory):
    command = data.draw(st.sampled_from(COMMANDS))
    words = data.draw(st.lists(st.one_of(st.sampled_from(OPTIONS), _values(paths)), max_size=8))
    out = runner.invoke(cli.app, command + words, env={"RPOKER_TABLES": None})
    assert out.exit_code in (0, 2), (command + words, out.exit_code, out.output)
    assert "Traceback" not in out.output and "internal error" not in out.output, out.output
    if out.exit_code == 2 and not out.stdout.startswith("\n Usage") and "Usage" not in out.stdout:
        assert len(out.stderr.strip().splitlines()) == 1, (command + words, out.stderr)


_CARDS = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def _cards(n_min: int, n_max: int):
    return st.lists(st.sampled_from(_CARDS), min_size=n_min, max_size=n_max).map(" ".join)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzz_well_formed_commands(data, paths, no_long_work):
    """Commands of the right form with cards drawn at random (repeats, up-cards in the hand,
    too many dead cards, ...) and one value of any kind: an answer or one line."""
    five, card, some = _cards(5, 5), st.sampled_from(_CARDS), _cards(0, 6)
    value = _values(paths)
    template = data.draw(st.sampled_from([
        lambda: ["best", data.draw(five), "--up", data.draw(card), "--dead", data.draw(some),
                 "--rules", data.draw(st.sampled_from(["russian", "caribbean", "oasis", *paths]))],
        lambda: ["after", data.draw(_cards(5, 6)), "--up", data.draw(card), "--thrown", data.draw(some)],
        lambda: ["buy", data.draw(_cards(5, 6)), "--dealer", data.draw(five), "--thrown", data.draw(some)],
        lambda: ["returns", data.draw(five), "--up", data.draw(card), "--play",
                 data.draw(st.one_of(st.sampled_from(["best", "bet", "fold", "sixth"]), some))],
        lambda: ["tables", "query", data.draw(five), "--up", data.draw(card), "--table",
                 data.draw(st.sampled_from(paths))],
        lambda: ["tables", "build", "--shards", data.draw(value), "--out", data.draw(st.sampled_from(paths))],
        lambda: ["report", "--rules", data.draw(st.sampled_from(["caribbean", *paths])), "--out",
                 data.draw(st.sampled_from(paths)), "--table", data.draw(value)],
    ]))
    args = template()
    if data.draw(st.booleans()):
        args[data.draw(st.integers(0, len(args) - 1))] = data.draw(value)
    out = runner.invoke(cli.app, args, env={"RPOKER_TABLES": None})
    assert out.exit_code in (0, 2), (args, out.exit_code, out.output)
    assert "Traceback" not in out.output and "internal error" not in out.output, out.output
    if out.exit_code == 2 and "Usage" not in out.stdout:
        assert len(out.stderr.strip().splitlines()) == 1, (args, out.stderr)


# -- the cases of a hostile user, each refused when read, before any work ------------------------

def _other_cards(*known: str) -> str:
    from solver.cards import format_cards, parse_cards

    used = set(parse_cards(" ".join(known)))
    return format_cards([c for c in range(52) if c not in used])


CARD_HEAD = 'name = "x"\nrules = "caribbean"\n'


@pytest.fixture()
def no_counting(monkeypatch):
    """A count started is a failure: these inputs are refused before it."""
    import importlib

    check_mod = importlib.import_module("solver.strategy.check")
    derive_mod = importlib.import_module("solver.strategy.derive.pipeline")

    def no_work(*args, **kwargs):
        raise AssertionError("work started")

    monkeypatch.setattr(check_mod, "class_counts", no_work)
    monkeypatch.setattr(derive_mod, "class_counts", no_work)
    monkeypatch.setattr(check_mod, "TableCodes", type("NoTable", (), {"read": staticmethod(no_work)}))


def test_deep_toml_is_refused(tmp_path, no_counting):
    for name, text in (("arrays", "x = " + "[" * 5000 + "]" * 5000), ("tables", "x = " + "{a = " * 2000 + "1"
                                                                          + "}" * 2000)):
        f = tmp_path / f"{name}.toml"
        f.write_text(text + "\n")
        refused("rules", "show", str(f), match="nested more than 32 deep")
        refused("best", "As Ks Qd 7c 2h", "--up", "9s", "--rules", str(f), match="nested more than 32 deep")
        f.write_text(CARD_HEAD + text + "\n")
        refused("strategy", "check", str(f), match="nested more than 32 deep")
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (1 << 20) + "\n")
    refused("rules", "show", str(big), match="larger than 1024 KiB")


def test_a_buy_with_no_card_left_to_draw():
    hand, dealer = "Ts Td Tc 4h 4s", "Js 9h 7c 5d 2d"
    refused("buy", hand, "--dealer", dealer, "--dead", _other_cards(hand, dealer),
            match="a buy needs 2 unseen cards, 0 are left")


@pytest.mark.parametrize("when, match", [
    ('category = "pair++"', "not 'pair++'"),
    ("at_least = 5", "at_least must be up to five ranks"),
])
def test_card_conditions_are_read_as_written(tmp_path, when, match):
    f = tmp_path / "card.toml"
    f.write_text(CARD_HEAD + f'[[first]]\nwhen = {{ {when} }}\ndo = "bet"\n[[first]]\ndo = "fold"\n')
    refused("strategy", "check", str(f), match=match)


@pytest.mark.parametrize("least", ["100000000000", str(2**63 - 1), "100000000000000000000"])
def test_a_payout_threshold_out_of_range_is_refused_when_read(tmp_path, least, no_counting):
    f = tmp_path / "card.toml"
    f.write_text(f'name = "x"\nrules = "russian"\nbuy_game = {{ do = "buy", pays_at_least = {least} }}\n'
                 '[[first]]\ndo = "bet"\n')
    refused("strategy", "check", str(f), match="a payout multiple from 1 to 20,000")
    f.write_text('name = "x"\nrules = "russian"\nbuy_game = { do = "buy", pays_at_least = 500 }\n'
                 '[[first]]\ndo = "bet"\n')
    refused("strategy", "check", str(f), match="no hand pays P >= 500 under the rules 'russian' (at most 200)")


def test_numbers_int_would_take_are_not_shards(tmp_path):
    for text in ("٣", "1_0", "+1", "0-٣"):
        refused("tables", "build", "--shards", text, "--out", str(tmp_path / "t"), match="bad shard list")
    assert not (tmp_path / "t").exists()


def test_an_option_given_twice_is_refused():
    refused("best", "As Ks Qd 7c 2h", "--up", "9s", "--up", "8s", match="--up/-u is given twice")
    refused("best", "As Ks Qd 7c 2h", "-u", "9s", "--up", "8s", match="--up/-u is given twice")
    refused("tables", "check", "--spot", "1", "--spot", "2", match="--spot is given twice")


def test_six_cards_under_rules_without_a_sixth_card():
    refused("hand", "Ah Ad Ac As 7d 7c", "--rules", "caribbean", match="the rules 'caribbean' have no sixth card")
    out = runner.invoke(cli.app, ["hand", "Ah Ad Ac As 7d 7c"])
    assert out.exit_code == 0 and "P:      27" in out.stdout


def test_a_card_the_rules_cannot_play_is_refused_before_any_count(tmp_path, no_counting):
    refused("strategy", "check", "russian-tip-pair-sixth-card", "--rules", "caribbean",
            match="the rules 'caribbean' offer no sixth card")
    refused("strategy", "check", "russian-tip-trips-exchange-two", "--rules", "caribbean",
            match="the rules 'caribbean' offer no exchange")
    refused("strategy", "derive", "--from", "caribbean-published", "--lines", "2", "--out", str(tmp_path / "out"),
            match="lines, more than --lines 2")


def test_a_folder_in_place_of_a_file_is_named(tmp_path):
    target = tmp_path / "shard-00000.json"
    target.mkdir()
    with pytest.raises(InputError, match=f"{target} is a folder where rpoker writes a file"):
        manifest.write_atomic(target, lambda p: p.write_text("x"))
    assert [p.name for p in tmp_path.iterdir()] == ["shard-00000.json"]


_TOML_VALUE = st.recursive(
    st.one_of(st.integers(-(2**70), 2**70).map(str), st.sampled_from(['"pair+"', '"A K"', "true", "1.5", "'x'"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3).map(lambda v: "[" + ", ".join(v) + "]"),
                            st.lists(inner, max_size=2).map(lambda v: "{ " + ", ".join(f"k{i} = {x}" for i, x
                                                                                          in enumerate(v)) + " }")),
    max_leaves=60)
_KEYS = ["buy_redraws", "exchange_forces_bet", "paytable", "preset", "insurance", "when", "do", "pays_at_least",
         "name", "rules", "first", "buy_game", "insurance_from", "exchange_max"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzz_rules_files_and_cards(data, tmp_path_factory, no_counting):
    """TOML of any shape and depth, as a rules file and as a card: an answer or one line, exit 2."""
    lines = data.draw(st.lists(st.tuples(st.sampled_from(_KEYS), _TOML_VALUE), max_size=4))
    text = "\n".join(f"{k} = {v}" for k, v in lines)
    if data.draw(st.booleans()):
        depth = data.draw(st.integers(1, 3000))
        text += "\nx = " + "[" * depth + "]" * depth
    f = tmp_path_factory.mktemp("toml") / "f.toml"
    f.write_text(text + "\n")
    for args in (["rules", "show", str(f)], ["strategy", "check", str(f)]):
        out = runner.invoke(cli.app, args)
        assert out.exit_code in (0, 2), (args, text[:200], out.output)
        assert "Traceback" not in out.output and "internal error" not in out.output, out.output
