import pytest
from typer.testing import CliRunner

from solver import __version__, rules
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


def test_best_text_and_json(tmp_path, monkeypatch):
    # solved, not read from the table installed with the package
    out = run("best", "Jh Jd 8c 5s 2d", "--up", "Ks", "--rules", "russian", "--solve")
    assert out.exit_code == 0, out.output
    assert "best: exchange 8c 5s 2d, keep Jh Jd" in out.output
    assert out.output.count("exchange") >= 31 and "sixth card" in out.output
    import json
    from fractions import Fraction

    data = json.loads(run("best", "Jh Jd 8c 5s 2d", "--up", "Ks", "--json", "--solve").output)
    assert data["best"]["action"] == "exchange" and data["best"]["throw"] == ["8c", "5s", "2d"]
    assert len(data["options"]) == 34
    evs = [Fraction(o["ev_exact"]) for o in data["options"]]
    assert evs == sorted(evs, reverse=True)
    assert abs(float(Fraction(data["bet"]["ev_exact"])) - 0.087109722095) < 1e-11
    assert data["rules"]["fingerprint"] == rules.DEFAULT.fingerprint


def test_after_and_buy():
    out = run("after", "Jh Jd Jc 4h 2h", "--up", "Ks", "--thrown", "8c 5s 2d")
    assert out.exit_code == 0 and "best: bet" in out.output and "insurance:" in out.output
    out = run("buy", "Ts Td Tc 4h 4s", "--dealer", "Js 9h 7c 5d 2d")
    assert out.exit_code == 0 and "best: buy a game" in out.output
    out = run("buy", "Ts Td Tc 4h 4s", "--dealer", "Js Jh 7c 5d 2d")
    assert out.exit_code == 2 and "dealer qualifies" in out.output


@pytest.mark.parametrize(
    "args, message",
    [
        (("best", "As Ks Qd 7c 2h", "--up", "As"), "both the hand and the up-card"),
        (("best", "As Ks Qd 7c", "--up", "9s"), "must have 5 cards"),
        (("best", "As Ks Qd 7c 2h", "--up", "9x"), "'9x' is not a card"),
        (("best", "As Ks Qd 7c 2h", "--up", "9s", "--dead", "Qd"), "dead cards"),
        (("after", "As Ks Qd 7c 2h", "--up", "9s", "--thrown", "As"), "thrown cards"),
        (("buy", "As Ks Qd 7c 2h", "--dealer", "9s 8s"), "must have 5 cards"),
        (("returns", "Jh Jd 8c 5s 2d", "--up", "Ks", "--play", "9c"), "not an option of this deal"),
        (("returns", "Jh Jd 8c 5s 2d", "--up", "Ks", "--play", "sixth", "--rules", "caribbean"),
         "not an option of this deal"),
    ],
)
def test_bad_deal_input(args, message):
    out = run(*args)
    assert out.exit_code == 2 and message in out.output and "Traceback" not in out.output


def test_returns_text_and_json():
    import json
    from fractions import Fraction

    out = run("returns", "Jh Jd 8c 5s 2d", "--up", "Ks")
    assert out.exit_code == 0, out.output
    assert "exchange 8c 5s 2d" in out.output and "EV +0.207718088" in out.output
    out = run("returns", "Jh Jd 8c 5s 2d", "--up", "Ks", "--play", "bet", "--json")
    data = json.loads(out.output)
    assert data["option"]["action"] == "bet"
    assert sum(Fraction(r["probability"]["exact"]) for r in data["results"]) == 1
    assert sum(Fraction(r["ev_share"]["exact"]) for r in data["results"]) == Fraction(data["ev"]["exact"])


def test_a_terminated_run_stops_its_workers(tmp_path):
    """SIGTERM to a run with workers (a strategy check counting on two) ends it as an
    interrupted one, exit 130 with one line on stderr, and its workers with it: none is left
    running without a parent."""
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    proc = Path("/proc")
    if not proc.is_dir():
        pytest.skip("needs /proc to find the workers")

    def children(pid: int) -> set[int]:
        out = set()
        for stat in proc.glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.add(int(stat.parent.name))
        return out

    # a check with nothing kept in its work folder counts its departures on the workers
    run = subprocess.Popen([sys.executable, "-m", "solver", "strategy", "check", "russian-tip-keep-high-cards",
                            "--no-returns", "--jobs", "2", "--work", str(tmp_path)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    workers: set[int] = set()
    deadline = time.monotonic() + 120
    while len(workers) < 2 and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.5)
        workers = {c for c in children(run.pid) if b"loky" in (proc / str(c) / "cmdline").read_bytes()}
    if len(workers) < 2:
        run.kill()
        pytest.fail(f"the check started no workers: {run.communicate()[1][-2000:]}")
    run.send_signal(signal.SIGTERM)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130 and "interrupted" in err and "Traceback" not in err
    deadline = time.monotonic() + 30
    while any((proc / str(w)).exists() for w in workers) and time.monotonic() < deadline:
        time.sleep(0.5)
    left = [w for w in workers if (proc / str(w)).exists()]
    assert not left, f"workers left running: {left}"
