"""Audit figures: the batch bet counts against the deal solver, exact totals, known values."""

import json
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from solver import report, rules, tables
from solver._kernel import _eval
from solver.action import GROUPS
from solver.classes import N_DEALS, enumerate_classes, rank_order
from solver.cli import app
from solver.deal import bet_counts
from solver.errors import InputError
from solver.final_hand import bet_value
from solver.hand import STRENGTH_CATEGORY
from solver.kernel_rules import kernel_rules, payout_by_strength
from solver.reference import deal as ref
from solver.reference.deal import unseen
from solver.returns import exact_total
from solver.tables import played


def _subset(r: rules.Rules, rows: list[int]):
    hands, ups, weights = enumerate_classes()
    hands, ups, weights = hands[rows], ups[rows], weights[rows]
    out = bet_counts(hands, ups, r)
    strength = _eval.evaluate(np.ascontiguousarray(hands), False).astype(np.int64)
    p = payout_by_strength(r)[strength].astype(np.int64)
    return report.Counts(weights, strength, p, out, ups >> 2, kernel_rules(r)), hands, ups


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
    assert sum(s.results.values()) == sum(int(w) for w in c.weight) * report.COMPLETIONS
    assert sum(k * v for k, v in s.results.items()) == s.total


def test_return_table_with_buys_and_insurance_against_brute_force():
    """Rules without draws but with insurance and buying a game (Russian Poker, no exchange, no
    sixth card): each class's results as RULES §5-§7 settle them, every dealer hand and buy
    draw one by one (the brute-force reference), against the report's return table."""
    r = rules.DEFAULT.replace(exchange=False, sixth_card=False)
    hands, ups, _ = enumerate_classes()
    rng = random.Random(5)
    strength = _eval.evaluate(hands, False)
    strong = np.flatnonzero(STRENGTH_CATEGORY[strength] >= 4).tolist()
    # classes that insure: the dealer misses a game more often than the player beats or ties it
    sc, _, _ = _subset(r, strong)
    n, win, tie, nq = (sc.counts[:, i] for i in (0, 1, 2, 4))
    insuring = [strong[k] for k in np.flatnonzero(nq - win - tie > 0)]
    rows = sorted(rng.sample(strong, 8) + rng.sample(insuring, 2) + rng.sample(range(len(hands)), 4))
    c, hs, us = _subset(r, rows)
    bet = report.optimal_bet(c)
    s = report.strategy("optimal", c, r, bet)
    expected: dict[int, int] = {}
    for w, h, u in zip(c.weight.tolist(), hs.tolist(), us.tolist()):
        deck = unseen([*h, u])
        results = ref.bet_results(h, u, deck, r)
        if ref.bet_values(h, u, deck, r)["ev"] < -1:  # a tie is a bet (as solve)
            results = {-1: sum(results.values())}
        for result, rounds in results.items():
            expected[result] = expected.get(result, 0) + w * rounds
    assert s.unit == 42 * 41
    assert s.results == {k: v for k, v in sorted(expected.items()) if v}
    assert s.bought > 0 and s.insured > 0, (s.bought, s.insured)
    assert s.total == sum(w * max(bet_value(h, u, r).ev, -1) for w, h, u in zip(c.weight.tolist(), hs.tolist(),
                                                                              us.tolist())) * report.COMPLETIONS


def test_exact_total_switches_to_python_integers():
    w = np.asarray([3, 5, 7], np.int64)
    v = np.asarray([2**61, -(2**60), 12345], np.int64)
    assert exact_total(w, v) == 3 * 2**61 - 5 * 2**60 + 7 * 12345


def test_bonus_counts_by_exhaustion():
    b = report.bonus_return(rules.DEFAULT)
    assert b.counts == {"royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624, "full_house": 3744,
                       "flush": 5108, "straight": 10200, "three_sevens": 4224, "sevens_two_pair": 19008}
    paid = 4 * 1000 + 36 * 500 + 624 * 300 + 3744 * 100 + 5108 * 50 + 10200 * 40 + 4224 * 20 + 19008 * 5
    assert b.ev == Fraction(paid - (2598960 - 42948), 2598960)


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
    line = next(x for x in text.splitlines() if x.startswith("| house edge, optimal play |"))
    cells = [float(c.strip().rstrip(" %")) for c in line.split("|")[2:5]]
    assert cells[2] == pytest.approx(cells[1] - cells[0], abs=1e-8)
    assert json.dumps(report.to_json(fb))  # JSON-ready


def testexact_float_total_is_the_exact_sum():
    rng = np.random.default_rng(3)
    values = np.concatenate([rng.normal(0, 3, 5000), rng.normal(0, 1e-9, 100), [0.0, -1.0, 1e300, -1e-300, 2.5]])
    weights = rng.integers(1, 25, len(values))
    exact = sum(Fraction(int(w)) * Fraction(float(v)) for w, v in zip(weights, values))
    assert report.from_table.exact_float_total(weights, values) == exact


def test_optimal_play_read_from_a_complete_table(fake_table, tmp_path, monkeypatch):
    from solver import tables

    r = rules.DEFAULT
    table, weights, best, best_ev, insurance = fake_table
    n = len(weights)
    play = report.table_play(tables.Table(table))
    assert play.total == report.from_table.exact_float_total(weights, best_ev)
    assert abs(float(play.ev) - float(np.dot(weights, best_ev)) / N_DEALS) < 1e-12
    assert play.error == float(np.abs(best_ev).max()) * 2.0**-52
    thrown = np.array([bin(max(int(b) - 2, 0)).count("1") for b in range(34)])[best]
    assert play.first_action["fold"] == weights[best == 0].sum()
    assert play.first_action["sixth card"] == weights[best == 2].sum()
    for k in range(1, 6):
        assert play.first_action[f"exchange {k}"] == weights[(best >= 3) & (thrown == k)].sum()
    assert sum(play.first_action.values()) == N_DEALS
    assert play.insured == weights[(best == 1) & (insurance > 0)].sum()
    # the report takes it from the table named or found; without a table it is left out
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RPOKER_TABLES", raising=False)
    monkeypatch.setattr(tables.reader, "shipped_root", lambda: None)  # the table installed with the package
    notes = []
    assert report.optimal_play(r, str(table), False, 1, _hooks(notes)) == play
    assert report.optimal_play(r, None, False, 1, _hooks(notes)) is None
    assert "optimal play needs the complete strategy table" in notes[-1]
    rows = random.Random(5).sample(range(n), 30)
    figures = report.figures(r, _subset(r, rows)[0], play)
    data = report.to_json(figures)
    assert data["optimal_from_table"]["first_action"]["fold"]["deals"] == play.first_action["fold"]
    assert Fraction(data["optimal_from_table"]["ev_per_ante"]["exact"]) == play.ev
    text = report.to_markdown(figures)
    assert f"| house edge, optimal play | {float(-play.ev) * 100:+.9f} % |" in text
    assert "## Optimal play from the strategy table (russian)" in text


def test_report_builds_a_missing_table_when_asked(fake_table, tmp_path, monkeypatch):
    """--build: the compact table is built (here: a made-up one is copied) where it belongs, then
    its results are played out."""
    import shutil

    from solver import tables

    built = []

    def fake_build(r, directory, jobs, compact):
        built.append((directory, compact))
        shutil.copytree(fake_table[0], directory)

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RPOKER_TABLES", raising=False)
    monkeypatch.setattr(tables.reader, "shipped_root", lambda: None)  # the table installed with the package
    monkeypatch.setattr(played, "compute", lambda table, r, jobs, progress: built.append(table.directory))
    play = report.optimal_play(rules.DEFAULT, None, True, 2, _hooks([], fake_build))
    # built, then its results played out (here: not)
    assert built == [(Path("tables") / "russian-compact", True), Path("tables") / "russian-compact"]
    assert play.table == "tables/russian-compact"
    assert play.total == report.table_play(tables.Table(fake_table[0])).total
    assert report.optimal_play(rules.load("caribbean"), None, True, 2, _hooks([])) is None  # needs no table


def _hooks(notes, build=None):
    """Quiet hooks: notes kept, no progress shown, no build unless one is given."""
    from contextlib import nullcontext

    def no_build(*args):
        raise AssertionError("no build was asked for")

    return report.Hooks(progress=lambda doing, things: nullcontext(lambda done, total: None),
                        note=notes.append, build=build or no_build)


def test_strategy_chart_from_a_table(fake_table, tmp_path):
    from solver import tables

    table, weights, best, _, _ = fake_table
    labels, deals = report.table_first_actions(tables.Table(table))
    assert deals.shape == (len(labels), 13, len(GROUPS)) and deals.sum() == N_DEALS
    play = report.table_play(tables.Table(table))
    assert [int(deals[:, :, k].sum()) for k in range(len(GROUPS))] == list(play.first_action.values())
    path = report.table_chart("russian", labels, deals, tmp_path)
    assert path.name == "strategy-russian.png" and path.stat().st_size > 10_000


def test_results_files_make_the_report(fake_table, write_fake_results, tmp_path):
    """Made-up results of every shard (each shard's EV that of its rows, results -3 and +10 only)
    are summed, checked against the table (the fingerprint, the rows, the EV) and give the
    report's optimal play."""
    import shutil

    R = rules.DEFAULT
    table_dir = tmp_path / "t"
    shutil.copytree(fake_table[0], table_dir)
    t = tables.Table(table_dir)
    u = played.unit(R)

    def write(s: int, shift: int = 0) -> None:
        write_fake_results(t, s, shift)

    for s in range(t.manifest.shards_total):
        write(s)
    play = report.table_play(t, R)
    assert play.results_shards == t.manifest.shards_total
    assert sum(play.results.results.values()) == play.results.rounds == N_DEALS * u
    assert abs(float(play.results.ev - play.ev)) < 1e-15
    counts = _subset(R, list(range(0, 5_649_150, 200_000)))[0]
    figures = report.figures(R, counts, play)
    assert figures.optimal.ev == play.results.ev and figures.optimal.bet_rate == 1
    text = report.to_markdown(figures)
    assert "## Return table of optimal play (russian)" in text and "| +10 |" in text
    assert "Every class's best action played out" in text
    # results whose EV is not the table's: refused
    write(2, shift=10**12 * u)
    with pytest.raises(InputError, match="not the table's"):
        report.table_play(t, R)
    # a damaged file is refused, naming it; a shard whose results are not listed is not counted
    write(2)
    good = played.results_path(t.directory, 2).read_bytes()
    played.results_path(t.directory, 2).write_bytes(good.replace(b'"-3": ', b'"-3":  '))
    with pytest.raises(InputError, match="shard-00002.results.json does not match its SHA-256"):
        report.table_play(t, R)
    del t.manifest.results["2"]
    play = report.table_play(t, R)
    assert play.results is None and play.results_shards == t.manifest.shards_total - 1
    text = report.to_markdown(report.figures(R, counts, play))
    assert f"the results of {t.manifest.shards_total - 1} of the table's shards" in text


def test_results_refuse_a_table_whose_evs_are_not_its_actions(fake_table, tmp_path):
    """The made-up table's best EVs are not those of its actions: played out, they disagree."""
    R = rules.DEFAULT
    t = tables.Table(fake_table[0])
    with pytest.raises(InputError, match="not that of playing its action"):
        played.shard_results(t, R, t.manifest.shards_total - 1)
