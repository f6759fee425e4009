"""``rpoker train`` driven through a real pseudo-terminal (pexpect), as a player types: the EVs it
shows are ``solve``'s, a bad answer gets a hint and the same question, EOF and Ctrl-C end with
the summary, and the history it writes is what ``--stats`` reads."""

import json
import re
import sys

import pytest

from solver import rules, trainer
from solver.deal import solve

pexpect = pytest.importorskip("pexpect")

R = rules.DEFAULT
PROMPT = r"(your play|bet or fold|insure|take the ante or buy a game)> "
#: a safe answer to each later question, so that a round always ends
LATER = {"bet or fold": "b", "insure": "n", "take the ante or buy a game": "a"}


def _spawn(*args: str, cwd) -> "pexpect.spawn":
    return pexpect.spawn(sys.executable, ["-m", "solver", "train", *args], cwd=str(cwd), encoding="utf-8",
                         timeout=90, dimensions=(50, 200))


def _shown_evs(text: str) -> tuple[str, str]:
    mine = re.search(r"you: .* EV (\S+)", text)
    best = re.search(r"best: .* EV (\S+)", text)
    assert mine and best, text
    return mine.group(1), best.group(1)


def test_a_seeded_session_shows_solve_s_evs(tmp_path):
    history = tmp_path / "h.jsonl"
    child = _spawn("--seed", "21", "--hands", "3", "--history", str(history), cwd=tmp_path)
    deals = trainer.deals(21, R)
    firsts = iter(["b", "f", "k none"])
    child.expect("seed 21")
    child.expect(PROMPT)
    child.sendline("zz")                                   # a bad answer: the hint, the same question
    child.expect("f fold, b bet")
    child.expect("your play> ")
    for hand in range(3):
        deal = next(deals)
        assert f"hand {hand + 1}: " in child.before
        child.sendline(next(firsts))
        child.expect(r"(you gave up \S+ antes|  right)\r?\n")
        s = solve(deal.hand, deal.up_card, R)
        mine, best = _shown_evs(child.before)
        assert best == trainer.antes(s.best.ev)
        assert mine in {trainer.antes(o.ev) for o in s.options}
        while child.expect([PROMPT, r"antes given up \([^\n]*\n"]) == 0:
            child.sendline(LATER[child.match.group(1)])
        if hand < 2:
            child.expect(PROMPT)
    child.expect("session: ")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    records = [json.loads(line) for line in history.read_text().splitlines()]
    assert [r["deal"] for r in records if r["decision"] == trainer.FIRST] == [1, 2, 3]
    stats = _spawn("--stats", "--history", str(history), cwd=tmp_path)
    stats.expect("russian +3  ")
    stats.expect(pexpect.EOF)
    stats.close()
    assert stats.exitstatus == 0


@pytest.mark.parametrize("end", ["eof", "ctrl-c", "q"])
def test_eof_ctrl_c_and_q_end_with_the_summary(tmp_path, end):
    history = tmp_path / "h.jsonl"
    child = _spawn("--seed", "5", "--history", str(history), cwd=tmp_path)
    child.expect("your play> ")
    child.sendline("f")
    child.expect("your play> ")
    {"eof": child.sendeof, "ctrl-c": child.sendintr, "q": lambda: child.sendline("q")}[end]()
    child.expect(r"session: 0/1 decisions right|session: 1/1 decisions right")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in child.before
    assert len(history.read_text().splitlines()) == 1
