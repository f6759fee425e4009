"""Strategy cards under rules with an exchange and a sixth card (the shipped table of the
default rules): the departures from the best action counted exactly, as solving each deal
gives them; kept and read back; the shipped casino tips resolve on every deal."""

import json
import random
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from typer.testing import CliRunner

from solver import deal, report, rules, strategy
from solver.action import Action
from solver.classes import enumerate_classes
from solver.cli import app
from solver.errors import InputError
from solver.strategy import after_draw
from solver.strategy import departing as departing_module
from solver.strategy.departing import TableCodes, departing, departures, shard_departures, shard_losses
from solver.strategy.derive import cells
from solver.strategy.keep import NO_HAND, Keep
from solver.strategy.vocabulary import Line
from solver.tables.played import unit

RUSSIAN = rules.load("russian")


@pytest.fixture(scope="module")
def codes():
    return TableCodes.read(RUSSIAN)


@pytest.fixture(scope="module")
def seen():
    hands, ups, _ = enumerate_classes()
    return strategy.Seen.of(hands, ups)


def _card(text: str) -> strategy.StrategyCard:
    return strategy.parse(f'rules = "russian"\n{text}', "t.toml")


CARD = _card("""
[[first]]
when = { category = "straight+" }
do = "optimal"
[[first]]
when = { category = "three_of_a_kind" }
do = "exchange"
keep = "trips"
[[first]]
when = { category = "pair", up_matches = true }
do = "exchange"
keep = "pair A"
[[first]]
when = { category = "pair" }
do = "sixth_card"
[[first]]
when = { to_flush = 4 }
do = "exchange"
keep = "flush"
[[first]]
when = { to_straight = "open" }
do = "exchange"
keep = "straight"
[[first]]
when = { category = "ak" }
do = "bet"
[[first]]
when = { category = "no_game", up = "A" }
do = "fold"
[[first]]
when = { category = "no_game" }
do = "exchange"
keep = "Q+"
[[first]]
do = "optimal"
except = "sixth_card"
""")


def test_departures_equal_solving_each_deal(codes, seen):
    """Each departing class's loss and both actions' results against ``deal.solve`` of the deal:
    every kind of action (exchanges by every keep word, a sixth card, bet, fold, the runner-up)."""
    line = CARD.decide(seen)
    played = CARD.codes(seen, line, RUSSIAN, codes.best, codes.second)
    differ = np.flatnonzero(played != codes.best)
    rng = random.Random(7)
    rows = np.asarray(sorted(rng.sample(differ[line[differ] == i].tolist(), 2)
                             for i in range(len(CARD.first)) if (line[differ] == i).sum() >= 2), np.int64).ravel()
    rows.sort()
    data = shard_departures(RUSSIAN, codes.table.fingerprint, 0, rows, played[rows], codes.best[rows],
                            codes.best_ev[rows])
    hands, ups, weights = enumerate_classes()
    big = unit(RUSSIAN)
    for row, loss in zip(rows.tolist(), data["loss"]):
        hand = tuple(int(c) for c in hands[row])
        solved = deal.solve(hand, int(ups[row]))
        taken, best = (Action.from_code(int(code[row]), hand) for code in (played, codes.best))
        best_ev, taken_ev = (solved.option(a.kind, a.throw).ev for a in (best, taken))
        assert Fraction(loss, big) == best_ev - taken_ev and best_ev == solved.best.ev
    moved = sum(int(x) * k for x, k in data["results"].items())
    assert moved == -sum(int(weights[r]) * loss for r, loss in zip(rows.tolist(), data["loss"]))
    assert len({int(line[r]) for r in rows}) >= 8
    # without the results: the same losses, from the two actions' EVs alone
    alone = shard_losses(RUSSIAN, codes.table.fingerprint, 0, rows, played[rows], codes.best[rows],
                         codes.best_ev[rows])
    assert alone["loss"] == data["loss"] and "results" not in alone


AFTER = _card("""
[[first]]
when = { category = "pair" }
do = "exchange"
keep = "pair"
[[first]]
when = { to_flush = 4 }
do = "sixth_card"
[[first]]
when = { category = "no_game" }
do = "exchange"
keep = "highest"
[[first]]
do = "optimal"
[[after_draw]]
when = { category = "pair", up_below = "group" }
do = "fold"
[[after_draw]]
when = { category = "pair+" }
do = "bet"
[[after_draw]]
when = { category = "ak", up_matches = true }
do = "bet"
[[after_draw]]
when = { at_least = "A K Q", thrown_matches_up = true }
do = "bet"
[[after_draw]]
do = "fold"
""")


def _throws_up(played: np.ndarray) -> np.ndarray:
    """The classes whose ``played`` code exchanges a card of the up-card's rank."""
    hands, ups, _ = enumerate_classes()
    out = np.zeros(len(played), bool)
    for i in range(5):
        out |= (played >= 3) & (((played - 2) >> i) & 1 == 1) & (hands[:, i] >> 2 == ups >> 2)
    return out


def test_the_bet_after_a_draw_is_counted_exactly(codes, seen, tmp_path, monkeypatch):
    """A card that states the bet or fold after a draw: every class where it draws is played
    out, the best action among them (its loss: the later decisions alone); each class's loss
    and results as solving the deal with the card's decisions gives them."""
    line = AFTER.decide(seen)
    played = AFTER.codes(seen, line, RUSSIAN, codes.best, codes.second)
    chosen = departing(played, codes.best, True)
    assert (chosen == ((played != codes.best) | (played >= 2))).all()
    assert not (departing(played, codes.best, False) & (played == codes.best)).any()
    rng = random.Random(5)
    same, other = (np.flatnonzero(chosen & m) for m in (played == codes.best, played != codes.best))
    matched = np.flatnonzero(chosen & _throws_up(played))
    rows = np.sort(np.asarray(rng.sample(same.tolist(), 6) + rng.sample(other.tolist(), 4)
                              + rng.sample(matched.tolist(), 2), np.int64))
    table = AFTER.after_table
    args = (RUSSIAN, codes.table.fingerprint, 0, rows, played[rows], codes.best[rows], codes.best_ev[rows])
    data = shard_departures(*args, after=table)
    alone = shard_losses(*args, after=table)
    assert alone["loss"] == data["loss"] and alone["digest"] != shard_losses(*args)["digest"]
    hands, ups, weights = enumerate_classes()
    big = unit(RUSSIAN)
    for row, loss in zip(rows.tolist(), data["loss"]):
        hand, up = tuple(int(c) for c in hands[row]), int(ups[row])
        action = Action.from_code(int(played[row]), hand)
        taken = deal.option_values(hand, up, [action], RUSSIAN, after=after_draw.row(table, up, action))[0]
        assert Fraction(loss, big) == deal.solve(hand, up).best.ev - taken
    assert sum(1 for r, x in zip(rows.tolist(), data["loss"]) if x > 0 and played[r] == codes.best[r]) >= 3
    # the best actions' EVs kept: a second count reads them (a damaged file is not trusted)
    kept = tmp_path / "best.json"
    assert shard_losses(*args, after=table, best_file=kept)["loss"] == data["loss"]
    values = json.loads(kept.read_text())["values"]
    assert len(values) == len(rows) and "/" in next(iter(values.values()))
    calls = []
    monkeypatch.setattr(departing_module, "option_values",
                        lambda *a, **k: calls.append(1) or deal.option_values(*a, **k))
    again = shard_losses(*args, after=table, best_file=kept)
    assert again["loss"] == data["loss"] and len(calls) == len(rows)      # the card's actions alone
    damaged = json.loads(kept.read_text())
    damaged["values"][str(rows[0])] = "7/2"
    kept.write_text(json.dumps(damaged))
    assert shard_losses(*args, after=table, best_file=kept)["loss"] == data["loss"]
    assert json.loads(kept.read_text())["values"][str(rows[0])] != "7/2"
    moved = sum(int(x) * k for x, k in data["results"].items())
    assert moved == -sum(int(weights[r]) * loss for r, loss in zip(rows.tolist(), data["loss"]))


#: a card's first decision, bet or fold after the draw and buys, to which its insurance is added
PLAYING = """
[buy_game]
do = "buy"
pays_at_least = 2
[[first]]
when = { category = "pair" }
do = "sixth_card"
[[first]]
when = { category = "ak" }
do = "bet"
[[first]]
do = "optimal"
[[after_draw]]
when = { category = "pair+" }
do = "bet"
[[after_draw]]
do = "fold"
"""
PLAYED = _card('insurance = "never"' + PLAYING)
INSURING = _card(PLAYING + """
[[insurance]]
when = { category = "full_house+", up_matches = true }
do = "most"
[[insurance]]
when = { category = "three_of_a_kind", up_matches_group = true }
do = "most"
[[insurance]]
do = "none"
""")


@pytest.mark.parametrize("card", [PLAYED, INSURING], ids=["by P", "by the final hand"])
def test_the_insurance_and_buys_of_a_card_are_counted_exactly(codes, seen, tmp_path, card):
    """A card that states its insurance and buying a game: every class it does not fold is
    played out (a bet at once too, where it is the best first action: its loss is the later
    decisions alone); each class's loss as solving the deal under the card's decisions gives it,
    with and without the results, and the best EVs kept are read back."""
    from solver.play import NEVER, Play

    assert PLAYED.play == Play(NEVER, 2) and INSURING.play.insure_from == 0 and INSURING.play.insure_when
    line = card.decide(seen)
    played = card.codes(seen, line, RUSSIAN, codes.best, codes.second)
    chosen = departing(played, codes.best, True, card.play)
    assert (chosen == ((played != codes.best) | (played != 0))).all()
    rng = random.Random(9)
    bets = np.flatnonzero(chosen & (played == 1) & (played == codes.best) & (seen.category >= 3))
    draws = np.flatnonzero(chosen & (played >= 2) & (played == codes.best))
    other = np.flatnonzero(chosen & (played != codes.best))
    rows = np.sort(np.asarray(rng.sample(bets.tolist(), 4) + rng.sample(draws.tolist(), 3)
                              + rng.sample(other.tolist(), 3), np.int64))
    table, play = card.after_table, card.play
    args = (RUSSIAN, codes.table.fingerprint, 0, rows, played[rows], codes.best[rows], codes.best_ev[rows])
    data = shard_departures(*args, after=table, play=play)
    kept = tmp_path / "best.json"
    alone = shard_losses(*args, after=table, best_file=kept, play=play)
    assert alone["loss"] == data["loss"] == shard_losses(*args, after=table, best_file=kept, play=play)["loss"]
    assert alone["digest"] != shard_losses(*args, after=table)["digest"]
    hands, ups, weights = enumerate_classes()
    big = unit(RUSSIAN)
    for row, loss in zip(rows.tolist(), data["loss"]):
        hand, up = tuple(int(c) for c in hands[row]), int(ups[row])
        action = Action.from_code(int(played[row]), hand)
        taken = deal.option_values(hand, up, [action], RUSSIAN, after=after_draw.row(table, up, action), play=play)[0]
        assert Fraction(loss, big) == deal.solve(hand, up).best.ev - taken
    # the bets the best first action takes lose by the card's insurance and buys alone
    assert all(x > 0 for r, x in zip(rows.tolist(), data["loss"]) if played[r] == 1)
    moved = sum(int(x) * k for x, k in data["results"].items())
    assert moved == -sum(int(weights[r]) * loss for r, loss in zip(rows.tolist(), data["loss"]))


def test_the_suit_classes_of_a_rank_level_deal_counted_in_passes(codes, seen):
    """A shard's departures are counted in a pass per kernel setting (the card's insurance and
    buys, then the best), so the suit classes of a rank-level deal share the kernel's store in
    each: every class loses what counting its two actions in turn, the store made again for
    each, gives."""
    card = INSURING
    played = card.codes(seen, card.decide(seen), RUSSIAN, codes.best, codes.second)
    chosen = departing(played, codes.best, True, card.play)
    hands, ups, _ = enumerate_classes()
    # 4 4 7 J K against a king: a pair, a sixth card by the card
    same = (np.sort(hands >> 2, axis=1) == [2, 2, 5, 9, 11]).all(axis=1) & (ups >> 2 == 11)
    rows = np.flatnonzero(chosen & same)[:10]
    assert len(rows) == 10 and (played[rows] == 2).all()
    table, play = card.after_table, card.play
    got = shard_losses(RUSSIAN, codes.table.fingerprint, 0, rows, played[rows], codes.best[rows],
                       codes.best_ev[rows], after=table, play=play)
    big = unit(RUSSIAN)
    for row, loss in zip(rows.tolist(), got["loss"]):
        hand, up = tuple(int(c) for c in hands[row]), int(ups[row])
        action, best = Action.from_code(int(played[row]), hand), Action.from_code(int(codes.best[row]), hand)
        taken = deal.option_values(hand, up, [action], RUSSIAN, after=after_draw.row(table, up, action), play=play)[0]
        assert Fraction(loss, big) == deal.option_values(hand, up, [best], RUSSIAN)[0] - taken


def test_departures_equal_literal_enumeration(codes, seen):
    """A card's change of the results in departing classes against the reference, which settles
    every card drawn, every dealer hand and every buy draw one by one (actions it is quick for:
    bet, a sixth card, a one-card exchange)."""
    from solver.reference import deal as ref

    card = strategy.load("russian-tip-pair-sixth-card")
    played = card.codes(seen, card.decide(seen), RUSSIAN, codes.best, codes.second)
    quick = (codes.best == 1) | ((codes.best >= 3) & np.isin(codes.best - 2, [1, 2, 4, 8, 16]))
    candidates = np.flatnonzero((played != codes.best) & quick)
    rows = np.sort(np.asarray(random.Random(11).sample(candidates.tolist(), 2), np.int64))
    data = shard_departures(RUSSIAN, codes.table.fingerprint, 0, rows, played[rows], codes.best[rows],
                            codes.best_ev[rows])
    hands, ups, weights = enumerate_classes()
    literal: dict[int, Fraction] = {}
    for row in rows.tolist():
        hand = tuple(int(c) for c in hands[row])
        for code, sign in ((played[row], 1), (codes.best[row], -1)):
            action = Action.from_code(int(code), hand)
            for x, p in ref.option_results(hand, int(ups[row]), RUSSIAN, action.kind, action.throw).items():
                literal[x] = literal.get(x, Fraction(0)) + sign * int(weights[row]) * p
    big = unit(RUSSIAN)
    assert {int(x): Fraction(k, big) for x, k in data["results"].items()} == {x: p for x, p in literal.items() if p}


def test_what_a_derived_card_s_actions_lose(codes, seen):
    """The losses the search of ``strategy derive`` reads from the compact table: none for the
    best action, the runner-up's gap, a fold's exact distance, at least the gap for any other,
    never an action a deal cannot take."""
    import dataclasses

    from solver.strategy import derive
    rows = np.asarray(random.Random(5).sample(range(len(codes.best)), 4000), np.int64)
    part = dataclasses.replace(codes, **{f: getattr(codes, f)[rows] for f in ("weight", "best", "second", "best_ev",
                                                                               "second_ev")})
    names = derive.actions(RUSSIAN)
    loss = cells.table_losses(seen.take(rows), part, RUSSIAN, names, np.full((len(rows), len(names)), np.nan))
    gap = (part.best_ev - part.second_ev).astype(np.float32)
    sub = seen.take(rows)
    for a, name in enumerate(names):
        if name.startswith("keep "):
            kept = Keep.parse(name[5:]).kept(sub)
            code = np.where((kept == NO_HAND) | (kept == 31), -1, 2 + (31 & ~kept))
        else:
            code = np.full(len(rows), ("fold", "bet", "sixth_card").index(name))
        for i in range(len(rows)):
            if name == "fold":
                assert loss[i, a] == np.float32(part.best_ev[i] + 1)
            elif code[i] == part.best[i]:
                assert loss[i, a] == 0
            elif loss[i, a] != derive.IMPOSSIBLE:
                assert loss[i, a] >= gap[i] and code[i] >= 0
    assert (loss.min(axis=1) == 0).mean() > 0.5
    lines = (Line((("to_flush", 4),), "keep flush"), Line((("category", "pair"),), "sixth_card"),
             Line((), "keep nothing"))
    card = strategy.parse(derive.card_text(lines, RUSSIAN, "t"), "t.toml")
    assert [r.words() for r in card.first] == ["4 or more cards to a flush: keep flush", "pair: sixth card",
                                                "any hand: exchange all five"] and not card.after_draw
    after = (Line((("category", "pair+"),), "bet"), Line((), "fold"))
    card = strategy.parse(derive.card_text(lines, RUSSIAN, "t", after), "t.toml")
    assert [r.words() for r in card.after_draw] == ["pair or better: bet", "any hand: fold"]
    assert [r.words() for r in card.first][0] == "4 or more cards to a flush: keep flush"
    from solver.play import NEVER, Play

    for play in (Play(NEVER, 4), Play(3, NEVER), Play(2, 5), Play(None, 1)):
        card = strategy.parse(derive.card_text(lines, RUSSIAN, "t", after, play), "t.toml")
        assert card.play == play and len(card.after_draw) == 2 and len(card.first) == 3
    insurance = (Line((("category", "full_house"), ("up_matches", True)), "most"), Line((), "none"))
    text = derive.card_text(lines, RUSSIAN, "t", after, Play(NEVER, 4), insurance)
    card = strategy.parse(text, "t.toml")
    assert [r.words() for r in card.insurance] == ["full house, the up-card matches a card of the hand: most",
                                                   "any hand: none"]
    assert (card.play.insure_from, card.play.buy_from) == (0, 4) and "insurance =" not in text
    assert text.splitlines()[0].endswith(" 8 lines, the")      # 3 + 2 + 2 insurance + 1 buying a game


def test_a_derived_line_that_loses_more_than_betting_at_once_bets(codes, seen):
    """A derive's repair after the check (``at_once.whole_lines``): a first-decision line whose
    deals lose more as the card plays them than betting (or folding) them at once, under the
    card's own insurance and buys, bets (or folds) them; a line below both keeps its action. What
    betting loses is counted here class by class (``deal.option_values``), apart from
    ``AtOnce.of``'s ``bet_counts``; under the solver's insurance betting three of a kind or better
    would lose less, so the line just below what the card's own play loses tells the two apart."""

    from solver.play import BEST, NEVER, Play
    from solver.strategy import derive
    from solver.strategy.at_once import AtOnce, whole_lines
    hands, ups, weight = enumerate_classes()
    rows = np.asarray(sorted(random.Random(8).sample(range(len(hands)), 1500)), np.int64)
    lines = (Line((("category", "three_of_a_kind+"),), "sixth_card"),
             Line((("category", "pair"),), "keep pair"),
             Line((("category", "ak"),), "sixth_card"),
             Line((), "keep highest"))
    after = (Line((("category", "pair+"),), "bet"), Line((), "fold"))
    insurance = (Line((("category", "full_house+"),), "most"), Line((), "none"))
    card = strategy.parse(derive.card_text(lines, RUSSIAN, "t", after, Play(NEVER, 4), insurance), "t.toml")
    part = seen.take(rows)
    line = card.decide(part)
    w = weight[rows]
    bet = np.empty(len(rows))
    solvers = 0.0            # betting the first line's deals with the solver's insurance and buys
    for i, r in enumerate(rows.tolist()):
        hand, up = tuple(int(c) for c in hands[r]), int(ups[r])
        bet[i] = float(deal.option_values(hand, up, [Action("bet")], RUSSIAN, play=card.play)[0])
        if line[i] == 0:
            solvers += w[i] * (codes.best_ev[r] - float(deal.option_values(hand, up, [Action("bet")], RUSSIAN,
                                                                            play=BEST)[0]))
    best_ev = codes.best_ev[rows]
    counted = AtOnce.of(np.zeros(len(rows)), RUSSIAN, card.play, hands[rows], ups[rows], best_ev)
    assert np.allclose(counted.bet, best_ev - bet, rtol=0, atol=1e-12) and (counted.fold == best_ev + 1).all()
    lost = np.asarray([[np.dot(w[line == k], loss[line == k]) for loss in (counted.bet, counted.fold)]
                       for k in range(len(lines))])
    assert (np.bincount(line, minlength=len(lines)) > 10).all() and solvers < lost[0, 0] - 1e-6
    # below betting and folding both: kept; above the cheaper of the two: that one
    costs = [lost[0].min() - 1e-9, lost[1].min() + 1e-9, lost[2].min() + 1e-9, lost[3].min() - 1e-9]
    each = np.asarray(costs)[line] / np.bincount(line)[line] / w       # a line's cost spread over its deals
    touched = whole_lines(lines, line, replace(counted, card=each), w)
    assert [t.action for t in touched] == ["sixth_card", ("bet", "fold")[int(np.argmin(lost[1]))],
                                            ("bet", "fold")[int(np.argmin(lost[2]))], "keep highest"]
    assert [t.when for t in touched] == [x.when for x in lines]
    assert whole_lines(lines, line, counted, w) == lines


def test_the_insurance_and_buys_a_derived_card_states():
    """``later_play``: the threshold of P from which doing it gains most over never (none when
    nothing does), and, over a sample of classes, a choice no other threshold beats on them."""
    from solver.play import NEVER, Play
    from solver.strategy import later_play

    p = np.asarray([1, 2, 3, 4, 5, 5])
    assert later_play._threshold(np.asarray([-1.0, -2, -0.5, 3, 1, -0.2]), p) == 4
    assert later_play._threshold(np.asarray([-1.0, -2, -0.5, -3, -1, -0.2]), p) == NEVER
    assert later_play._threshold(np.asarray([1.0, 2, 0.5, 3, 1, 0.2]), p) == 1
    hands, ups, weight = enumerate_classes()
    rows = np.asarray(random.Random(4).sample(range(len(hands)), 40_000))
    play = later_play.choose(RUSSIAN, hands[rows], ups[rows], weight[rows])
    assert play.insure_from is not None and play.buy_from is not None and play.buy_from < NEVER
    assert later_play.lines(play) == 2 and later_play.choose(rules.load("caribbean"), hands[:9], ups[:9],
                                                             weight[:9]).best

    def total(candidate: Play) -> float:
        from solver.counts import BET

        c = deal.bet_counts(hands[rows], ups[rows], RUSSIAN, candidate)
        return float((c[:, BET["value"]] / (c[:, BET["n"]] * c[:, BET["den"]]) * weight[rows]).sum())

    chosen = total(play)
    for other in (Play(play.insure_from, NEVER), Play(play.insure_from, 1), Play(play.insure_from, play.buy_from + 1),
                  Play(play.insure_from, max(1, play.buy_from - 1))):
        assert chosen >= total(other) - 1e-9


def test_the_representatives_losses_are_exact(codes, seen, tmp_path, monkeypatch):
    """What a derive solves of one class per cell: each action's loss against the table's best is
    the difference of ``deal.solve``'s EVs; betting, folding, exchanging all five and what a
    class cannot take are not counted; a second derive reads them back from the work folder."""

    from solver.strategy import derive
    rows = np.sort(np.asarray(random.Random(3).sample(range(len(codes.best)), 12), np.int64))
    names = derive.actions(RUSSIAN)
    part = seen.take(rows)

    def losses() -> np.ndarray:
        values = derive.representative_values(rows, RUSSIAN, codes, work=tmp_path)
        return derive.representative_losses(part, values, codes.best_ev[rows], names, RUSSIAN)

    loss = losses()
    hands, ups, _ = enumerate_classes()
    counted = 0
    for i, row in enumerate(rows.tolist()):
        hand = tuple(int(c) for c in hands[row])
        solved = deal.solve(hand, int(ups[row]))
        for a, name in enumerate(names):
            code, impossible = (x[0] for x in cells.action_codes(seen.take(rows[i:i + 1]), RUSSIAN, name))
            if impossible or code <= 1 or code == derive.ALL_FIVE:
                assert np.isnan(loss[i, a])
                continue
            action = Action.from_code(int(code), hand)
            assert loss[i, a] == pytest.approx(float(solved.best.ev - solved.option(action.kind, action.throw).ev),
                                               abs=1e-12)
            counted += 1
    assert counted >= 12 * 5
    solve = cells.solve_representatives
    monkeypatch.setattr(cells, "solve_representatives", None)      # read back, not solved again
    again = losses()
    assert np.array_equal(np.isnan(again), np.isnan(loss)) and np.allclose(again[~np.isnan(loss)],
                                                                           loss[~np.isnan(loss)])
    kept = sorted(p for p in tmp_path.rglob("representatives-*.npy"))
    assert kept
    raw = kept[0].read_bytes()
    kept[0].write_bytes(raw[:200] + bytes([raw[200] ^ 1]) + raw[201:])     # damaged: counted again, not read
    solved = []
    monkeypatch.setattr(cells, "solve_representatives", lambda *a: solved.append(1) or solve(*a))
    assert np.allclose(losses()[~np.isnan(loss)], loss[~np.isnan(loss)]) and solved == [1]


def test_an_optimal_card_is_optimal_play(tmp_path):
    c = strategy.check(_card('[[first]]\ndo = "optimal"'), RUSSIAN, work=tmp_path)
    play = report.table_play(TableCodes.read(RUSSIAN).table, RUSSIAN)
    assert c.cost == 0 and c.differ == 0 and c.played.results == c.optimal.results
    assert play.results is not None and c.optimal.ev == play.results.ev


def test_departures_are_kept_and_read_back(codes, tmp_path):
    """A second count reads the first's files; a damaged file is counted again, not trusted."""
    played = codes.best.copy()
    rows = np.flatnonzero(codes.best != 0)[[5, 70_000, 70_001, 400_000]]
    played[rows] = 0
    first = departures(RUSSIAN, codes, played, work=tmp_path)
    files = sorted((tmp_path / codes.table.fingerprint).glob("shard-*.json"))
    assert len(files) == 3 and first.rows.tolist() == rows.tolist() and (first.loss > 0).all()
    seen_progress = []
    again = departures(RUSSIAN, codes, played, progress=lambda d, t: seen_progress.append((d, t)), work=tmp_path)
    assert seen_progress == [(4, 4)] and again.results == first.results and again.fields == first.fields
    assert again.loss.tolist() == first.loss.tolist()
    damaged = json.loads(files[0].read_text())
    damaged["loss"][0] += 1
    files[0].write_text(json.dumps(damaged))
    seen_progress.clear()
    third = departures(RUSSIAN, codes, played, progress=lambda d, t: seen_progress.append((d, t)), work=tmp_path)
    assert seen_progress[0][0] < 4 and third.loss.tolist() == first.loss.tolist()
    # the losses alone: files of their own (the others are not read for them), the same losses
    seen_progress.clear()
    alone = departures(RUSSIAN, codes, played, progress=lambda d, t: seen_progress.append((d, t)), work=tmp_path,
                       returns=False)
    assert seen_progress[0] == (0, 4) and alone.results is None and alone.loss.tolist() == first.loss.tolist()
    assert len(list((tmp_path / codes.table.fingerprint).glob("shard-*.json"))) == 6


def test_the_shipped_russian_cards_resolve_on_every_deal(codes, seen):
    cards = [name for name in strategy.shipped() if name.startswith("russian-")]
    assert len(cards) >= 9 and "russian-derived" in cards
    for name in cards:
        card = strategy.load(name)
        played = card.codes(seen, card.decide(seen), RUSSIAN, codes.best, codes.second)
        assert ((played >= 0) & (played < 34)).all()


def test_a_keep_a_deal_cannot_take_names_its_line(codes, seen):
    card = _card('[[first]]\nwhen = { category = "ak" }\ndo = "exchange"\nkeep = "A K Q J T 9 8 7 6 5 4 3 2"\n'
                 '[[first]]\ndo = "optimal"')
    with pytest.raises(InputError, match=r"t.toml, line 2: keep A K Q J T 9 8 7 6 5 4 3 2 keeps all five cards of "):
        card.codes(seen, card.decide(seen), RUSSIAN, codes.best, codes.second)
    low = RUSSIAN.replace(exchange_min=2)
    card = _card('[[first]]\nwhen = { to_flush = 4 }\ndo = "exchange"\nkeep = "flush"\n[[first]]\ndo = "optimal"')
    with pytest.raises(InputError, match=r"line 2: keep flush exchanges 1 cards of .* allow exchanging 2, 3, 4, 5"):
        card.codes(seen, card.decide(seen), low, codes.best, codes.second)


def test_the_command_with_draws(tmp_path):
    out = CliRunner().invoke(app, ["strategy", "check", "russian-tip-made-hands-sixth-card", "--json",
                                   "--work", str(tmp_path)])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["rules"] == "russian" and data["cost_per_ante"]["value"] == 0
    assert data["ev_per_ante"] == data["played"]["ev_per_ante"] == data["optimal"]["ev_per_ante"]


def test_the_ev_alone_equals_the_full_check(tmp_path):
    """``--no-returns``: the same exact EV, cost and lines as the check with the results, and no
    return table (said so in the text)."""
    card = _card('[[first]]\nwhen = { category = "full_house" }\ndo = "sixth_card"\n[[first]]\ndo = "optimal"')
    full = strategy.check(card, RUSSIAN, work=tmp_path)
    alone = strategy.check(card, RUSSIAN, work=tmp_path, returns=False)
    # each class's loss (what the derive's repairs read): the same both ways, adding up to the cost
    _, _, weight = enumerate_classes()
    assert (full.losses == alone.losses).all() and full.unit == alone.unit and full.losses.any()
    assert Fraction(int((weight.astype(object) * full.losses.astype(object)).sum()),
                    int(weight.sum()) * full.unit) == full.cost
    assert full.played is not None and alone.played is None and full.cost > 0
    assert (alone.ev, alone.cost, alone.differ, alone.lines, alone.departures) == (
        full.ev, full.cost, full.differ, full.lines, full.departures)
    assert full.ev == full.played.ev
    assert "return table: not counted" in strategy.to_text(alone) and strategy.to_json(alone)["played"] is None


def _checked(name: str) -> dict:
    """The shipped figures of a card (strategies/checked.json, what the README's tables show)."""
    import json
    from pathlib import Path

    return json.loads((Path(__file__).resolve().parents[2] / "strategies" / "checked.json").read_text())[name]


def _agrees(figure: dict, value: Fraction) -> bool:
    """A shipped figure is ``value``: exactly where it holds the fraction, else to its six decimals of a percent."""
    if figure["exact"] is not None:
        return Fraction(figure["exact"]) == value
    return f"{figure['value'] * 100:.6f}" == f"{float(value) * 100:.6f}"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["russian-tip-made-hands-sixth-card", "russian-tip-trips-exchange-two",
                                  "russian-tip-pair-ak-sixth-card", "caribbean-published", "caribbean-derived",
                                  "caribbean-akj83", "caribbean-ak-matching", "caribbean-chart"])
def test_the_shipped_card_figures_are_what_check_gives(name, tmp_path):
    """The figures of a card that the README shows are what ``strategy check`` gives (a fresh work folder)."""
    shipped = _checked(name)
    card = strategy.load(name)
    c = strategy.check(card, rules.load(card.rules), jobs=2, work=tmp_path)
    assert _agrees(shipped["house_edge"], -c.ev) and _agrees(shipped["cost_per_ante"], c.cost)
    differ = shipped["differ"]
    assert differ["deals"] == c.differ if differ["deals"] is not None else (
        f"{differ['share'] * 100:.4f}" == f"{c.differ / differ['of'] * 100:.4f}")


def test_the_gains_of_a_first_decision_s_draws(codes, seen, tmp_path, monkeypatch):
    """What a derive searches the bet or fold after a draw with: the gains of the classes where
    the first decision draws, by up rank and final strength, are each class's exact gains times
    its deals; a card's bet or fold after the draw changes the EV of those classes by the gains
    of the cells it bets; a second count reads them back, a damaged file is counted again."""
    from solver.classes import N_DEALS
    from solver.strategy import draw_gains as gains_module

    played = AFTER.codes(seen, AFTER.decide(seen), RUSSIAN, codes.best, codes.second)
    rng = random.Random(11)
    rows = np.sort(np.asarray(rng.sample(np.flatnonzero(played >= 2).tolist(), 8)
                              + rng.sample(np.flatnonzero(_throws_up(played)).tolist(), 4)
                              + rng.sample(range(len(played) - 60000, len(played)), 40), np.int64))
    only = np.zeros_like(played)         # the other classes fold: no draw
    only[rows] = played[rows]
    gains = gains_module.draw_gains(RUSSIAN, codes, only, work=tmp_path)
    hands, ups, weights = enumerate_classes()
    expected, changed = np.zeros(gains_module.SHAPE), Fraction(0)
    table, fold = AFTER.after_table, np.zeros(7462, np.uint8)
    for row in rows[only[rows] >= 2].tolist():
        hand, up = tuple(int(c) for c in hands[row]), int(ups[row])
        action = Action.from_code(int(only[row]), hand)
        exact = deal.option_gains(hand, up, action, RUSSIAN)
        thrown = int(any(c >> 2 == up >> 2 for c in action.throw))
        for s, v in exact.numerators.items():
            expected[thrown, up >> 2, s] += int(weights[row]) * v / exact.denominator / N_DEALS
        after = after_draw.row(table, up, action)
        card, folded = deal.option_values(hand, up, [action], RUSSIAN, after=after)[0], deal.option_values(
            hand, up, [action], RUSSIAN, after=fold)[0]
        assert card - folded == exact.of(after)
        changed += int(weights[row]) * (card - folded)
    assert np.count_nonzero(expected) > 100 and np.count_nonzero(expected[1]) > 10
    np.testing.assert_allclose(gains, expected, rtol=1e-9, atol=1e-18)
    assert float(changed) / N_DEALS == pytest.approx(float((gains * table).sum()), rel=1e-9)
    kept = sorted(tmp_path.rglob("gains-*.npy"))
    assert len(kept) >= 2
    count = gains_module._shard_gains
    monkeypatch.setattr(gains_module, "_shard_gains", None)        # read back, not counted again
    assert np.array_equal(gains_module.draw_gains(RUSSIAN, codes, only, work=tmp_path), gains)
    raw = kept[0].read_bytes()
    kept[0].write_bytes(raw[:200] + bytes([raw[200] ^ 1]) + raw[201:])
    counted = []
    monkeypatch.setattr(gains_module, "_shard_gains", lambda *a: counted.append(1) or count(*a))
    assert np.allclose(gains_module.draw_gains(RUSSIAN, codes, only, work=tmp_path), gains, rtol=1e-12, atol=0)
    assert counted == [1]


def test_the_insurance_gains_of_a_card_s_bets(codes, seen, tmp_path):
    """What a derive searches ``[[insurance]]`` rules with: by whether a card thrown away had the
    up-card's rank, up rank and final strength, what insuring the most adds over never over the
    hands a card bets, at once and after its draws.
    Any insurance table then changes the EV of those classes by the gains of the cells it
    insures, exactly as the kernel counts each class under it."""
    from solver._kernel import _eval
    from solver.action import KINDS
    from solver.category import CATEGORIES
    from solver.classes import N_DEALS
    from solver.hand import N_STRENGTH
    from solver.kernel_rules import payout_by_strength
    from solver.play import NEVER, Play
    from solver.strategy import later_play

    played = AFTER.codes(seen, AFTER.decide(seen), RUSSIAN, codes.best, codes.second)
    hands, ups, weights = enumerate_classes()
    trips = payout_by_strength(RUSSIAN)[_eval.evaluate(hands, False)] >= 3
    rng = random.Random(17)
    pair = seen.category == CATEGORIES.index("pair")
    # pairs that keep the pair: half of them throw a card of the up-card's rank away
    thrown = seen.matches & ~seen.up_group
    rows = np.sort(np.asarray(rng.sample(np.flatnonzero((played == KINDS.index("bet")) & trips).tolist(), 6)
                              + rng.sample(np.flatnonzero((played >= 2) & pair & thrown).tolist(), 3)
                              + rng.sample(np.flatnonzero((played >= 2) & pair & ~thrown).tolist(), 3), np.int64))
    only = np.zeros_like(played)          # the other classes fold: no bet
    only[rows] = played[rows]
    play = Play(NEVER, 4)
    gains = later_play.insurance_gains(RUSSIAN, codes, only, AFTER.after_table, play, work=tmp_path)
    assert gains.shape == (2, 13, N_STRENGTH) and np.count_nonzero(gains[0]) > 5 and np.count_nonzero(gains[1]) > 5
    insured = np.random.default_rng(3).integers(0, 2, (2, 13, N_STRENGTH), dtype=np.uint8)
    rule = Play(0, 4, insured.tobytes())
    changed = Fraction(0)
    for row in rows.tolist():
        hand, up = tuple(int(c) for c in hands[row]), int(ups[row])
        action = Action.from_code(int(only[row]), hand)
        after = after_draw.row(AFTER.after_table, up, action) if action.kind != "bet" else None
        with_rule, never = (deal.option_values(hand, up, [action], RUSSIAN, after=after, play=p)[0]
                            for p in (rule, play))
        changed += int(weights[row]) * (with_rule - never)
    assert changed != 0
    assert float(changed) / N_DEALS == pytest.approx(float((gains * insured).sum()), rel=1e-9)
