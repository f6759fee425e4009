"""Audit figures: the batch bet counts against the deal solver, exact totals, known values."""

import json
import random
from fractions import Fraction

import numpy as np
import pytest
from typer.testing import CliRunner

from solver import _eval, report, rules
from solver.classes import enumerate_classes, rank_order
from solver.cli import app
from solver.deal import bet_counts, bet_value, kernel_settings, payout_by_strength


def _subset(r: rules.Rules, rows: list[int]):
    hands, ups, weights = enumerate_classes()
    hands, ups, weights = hands[rows], ups[rows], weights[rows]
    out = bet_counts(hands, ups, kernel_settings(r), payout_by_strength(r))
    strength = _eval.evaluate(np.ascontiguousarray(hands), False).astype(np.int64)
    p = payout_by_strength(r)[strength].astype(np.int64)
    return report.Counts(weights, strength, p, out, ups >> 2), hands, ups


@pytest.mark.parametrize("preset", ["caribbean", "russian", "oasis"])
def test_bet_counts_equal_the_deal_solver(preset):
    r = rules.load(preset)
    rng = random.Random(7)
    # runs of classes of the same ranks (the kernel reuses their rank-level part) and random ones
    hands, ups, _ = enumerate_classes()
    order = rank_order(hands, ups)
    start = rng.randrange(len(order) - 40)
    rows = list(order[start:start + 25]) + rng.sample(range(len(hands)), 15)
    c, hs, us = _subset(r, rows)
    for k in range(len(rows)):
        b = bet_value(hs[k].tolist(), int(us[k]), r)
        n, den, value = (int(c.counts[k, i]) for i in (0, 6, 7))
        assert Fraction(value, n * den) == b.ev


def test_strategy_totals_are_exact_sums():
    r = rules.load("caribbean")
    rows = random.Random(3).sample(range(5_649_150), 60)
    c, hs, us = _subset(r, rows)
    bet = report.optimal_bet(c)
    s = report.strategy("optimal", c, r, bet)
    expected = sum(int(w) * max(bet_value(h.tolist(), int(u), r).ev * report.COMPLETIONS, -report.COMPLETIONS)
                   for w, h, u in zip(c.weight, hs, us))
    assert s.total == expected
    assert sum(s.returns.values()) == sum(int(w) for w in c.weight) * report.COMPLETIONS
    assert sum(k * v for k, v in s.returns.items()) == s.total


def test_exact_total_switches_to_python_integers():
    w = np.asarray([3, 5, 7], np.int64)
    v = np.asarray([2**61, -(2**60), 12345], np.int64)
    assert report._exact_total(w, v) == 3 * 2**61 - 5 * 2**60 + 7 * 12345


def test_bonus_counts_by_exhaustion():
    b = report.bonus_return(rules.DEFAULT)
    assert b["counts"] == {"royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624, "full_house": 3744,
                           "flush": 5108, "straight": 10200, "three_sevens": 4224, "sevens_two_pair": 19008}
    paid = 4 * 1000 + 36 * 500 + 624 * 300 + 3744 * 100 + 5108 * 50 + 10200 * 40 + 4224 * 20 + 19008 * 5
    assert b["ev"] == Fraction(paid - (2598960 - 42948), 2598960)


def test_caribbean_stud_known_figures(tmp_path):
    """The published exact figures of Caribbean Stud: house edge 5.2243 %, element of risk 2.5553 %."""
    out = CliRunner().invoke(app, ["report", "--rules", "caribbean", "--out", str(tmp_path), "--jobs", "2"])
    assert out.exit_code == 0, out.output
    data = json.loads((tmp_path / "report.json").read_text())
    opt = data["optimal"]
    assert opt["house_edge"]["value"] == pytest.approx(0.052243, abs=5e-7)
    assert opt["element_of_risk"]["value"] == pytest.approx(0.025553, abs=5e-7)
    total = int(opt["net_total_over_cycle"]["exact"])
    assert Fraction(opt["ev_per_ante"]["exact"]) == Fraction(total, 19_933_230_517_200)
    assert sum(r["count"] for r in opt["returns"]) == 19_933_230_517_200
    assert "| house edge, optimal play | +5.2243" in (tmp_path / "report.md").read_text()
    assert (tmp_path / "strategy-caribbean.png").stat().st_size > 10_000
    assert (tmp_path / "results-caribbean.png").stat().st_size > 5_000


def test_comparison_of_two_rule_sets():
    rows = random.Random(11).sample(range(5_649_150), 40)
    a, b = rules.load("caribbean"), rules.load("caribbean").replace(dealer_qualifier="pair")
    fa = report.figures(a, _subset(a, rows)[0])
    fb = report.figures(b, _subset(b, rows)[0])
    text = report.to_markdown(fa, fb)
    assert "| figure | caribbean | caribbean+custom | difference |" in text
    line = next(l for l in text.splitlines() if l.startswith("| house edge, optimal play |"))
    cells = [float(c.strip().rstrip(" %")) for c in line.split("|")[2:5]]
    assert cells[2] == pytest.approx(cells[1] - cells[0], abs=1e-8)
    assert json.dumps(report.to_json(fb))  # JSON-ready
