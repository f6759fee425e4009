import pytest
from typer.testing import CliRunner

from solver import __version__
from solver.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def test_hand_five_and_six_cards():
    out = run("hand", "As Ah Kd 9c 8s")
    assert out.exit_code == 0
    assert "main:   pair A K 9 8" in out.output and "P:      2" in out.output
    out = run("hand", "Ah Ad Ac As 7d 7c")
    assert out.exit_code == 0 and "full house" in out.output and "P:      27" in out.output


def test_hand_with_rules_option(tmp_path):
    out = run("hand", "9h 8d 7c 6s 5h 5d", "--rules", "russian")
    assert "P:      8" in out.output
    f = tmp_path / "nr.toml"
    f.write_text('second_rule = "new_rank"\n')
    out = run("hand", "9h 8d 7c 6s 5h 5d", "--rules", str(f))
    assert out.exit_code == 0 and "P:      5" in out.output


@pytest.mark.parametrize(
    "args, message",
    [
        (("hand", "As Ah Kd 9c 8x"), "'8x' is not a card"),
        (("hand", "As Ah Kd 9c"), "must have 5 or 6 cards, not 4"),
        (("hand", "As Ah Kd 9c As"), "'As' twice"),
        (("hand", "As Ah Kd 9c 8s", "--rules", "texas"), "neither a rules preset"),
        (("rules", "show", "nowhere.toml"), "neither a rules preset"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    out = run(*args)
    assert out.exit_code == 2
    assert message in out.output
    assert "Traceback" not in out.output
    assert len(out.output.strip().splitlines()) == 1


def test_version_and_help():
    assert run("--version").output.strip() == f"rpoker {__version__}"
    for args in (("-h",), ("hand", "-h"), ("rules", "show", "-h")):
        out = run(*args)
        assert out.exit_code == 0 and "Usage" in out.output


def test_rules_show():
    out = run("rules", "show", "caribbean")
    assert out.exit_code == 0
    assert 'ante_on_win = "paid"' in out.output and "fingerprint" in out.output
