"""Strategy cards: the file format, the decisions, and their exact cost against optimal play."""

import json
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from solver import report, rules, strategy
from solver.cards import parse_card, parse_cards
from solver.classes import enumerate_classes
from solver.cli import app
from solver.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
CARIBBEAN = rules.load("caribbean")


@pytest.fixture(scope="module")
def counts():
    return report.class_counts(CARIBBEAN, 2)


def _card(text: str, name: str = "t.toml") -> strategy.StrategyCard:
    return strategy.parse(f'rules = "caribbean"\n{text}', name)


def test_fixed_strategies_and_optimal_play_equal_the_report(counts):
    """Cards stating the report's fixed strategies give its exact totals; a card of optimal
    actions is optimal play and costs nothing."""
    figures = report.figures(CARIBBEAN, counts)
    cards = ['[[first]]\ndo = "bet"',
             '[[first]]\nwhen = { category = "pair+" }\ndo = "bet"\n[[first]]\ndo = "fold"',
             '[[first]]\nwhen = { category = "ak+" }\ndo = "bet"\n[[first]]\ndo = "fold"']
    for text, fixed in zip(cards, figures.fixed):
        c = strategy.check(_card(text), CARIBBEAN, counts=counts)
        assert c.played.results == fixed.results and c.played.ev == fixed.ev
        assert c.cost == figures.optimal.ev - fixed.ev > 0
    best = strategy.check(_card('[[first]]\ndo = "optimal"'), CARIBBEAN, counts=counts)
    assert best.cost == 0 and best.differ == 0 and best.played.results == figures.optimal.results


def test_the_published_strategy_decides_as_its_words_say(counts):
    """The shipped published card against a plain reading of its words, card by card, on
    random classes; its cost is small and adds up from its lines."""
    card = strategy.load(ROOT / "strategies" / "caribbean-published.toml")
    hands, ups, _ = enumerate_classes()
    rows = random.Random(3).sample(range(len(hands)), 3000)
    line = card.decide(strategy.Seen.of(hands[rows], ups[rows]))
    for k, i in zip(rows, line.tolist()):
        ranks = sorted((c >> 2 for c in hands[k].tolist()), reverse=True)
        up = int(ups[k]) >> 2
        category = int(strategy.Seen.of(hands[k:k + 1], ups[k:k + 1]).category[0])
        ak = category == 1
        raise_ak = ak and ((up <= 10 and up in ranks) or (up >= 11 and (10 in ranks or 9 in ranks))
                           or (10 in ranks and up < ranks[3]))
        assert (card.first[i].action == "bet") == (category >= 2 or raise_ak), (hands[k], ups[k])
    c = strategy.check(card, CARIBBEAN, counts=counts)
    assert 0 < c.cost < 1e-4 and sum(lc.cost for lc in c.lines) == c.cost
    assert sum(lc.deals for lc in c.lines) == 122_151_120 and sum(lc.departures for lc in c.lines) == c.differ


def test_the_shipped_cards_load_by_name():
    assert {"caribbean-published", "caribbean-akj83", "caribbean-ak-matching"} <= set(strategy.shipped())
    assert strategy.load("caribbean-akj83").rules == "caribbean"


def test_every_shipped_card_decides_every_deal_under_its_rules():
    """Each card installed with rpoker names rules that load, states only decisions they offer,
    and decides every deal of a sample by one of its lines (the oasis card included, whose table
    is not shipped)."""
    hands, ups, _ = enumerate_classes()
    rows = np.random.default_rng(3).choice(len(hands), 50_000, replace=False)
    seen = strategy.Seen.of(hands[rows], ups[rows])
    names = set(strategy.shipped())
    assert {"oasis-derived", "caribbean-derived", "russian-derived"} <= names
    for name in sorted(names):
        card = strategy.load(name)
        # a rules file is named from the repository's root (docs/variants/...)
        named = card.rules if card.rules in rules.PRESETS else Path(__file__).parents[2] / card.rules
        card.check_play(rules.load(named))
        assert (card.decide(seen) >= 0).all(), name


def test_conditions():
    seen = strategy.Seen.of(np.asarray([parse_cards("Ah Kd Jc 8s 3h"), parse_cards("Ah Kd Jc 8s 2h"),
                                        parse_cards("9h 9d 4c 4s 2h")]),
                            np.asarray([parse_card("8c"), parse_card("Qc"), parse_card("3s")]))
    card = _card("\n".join(f"[[first]]\nwhen = {{ {w} }}\ndo = \"bet\"" for w in [
        'at_least = "A K J 8 3"', 'up = "Q-A", holds = "J"', 'group = "9", up_below = 4', 'up_matches = true',
        'highest_suited = 4', 'highest_suited = 5']))
    assert [card.first[i].holds(seen).tolist() for i in range(6)] == [
        [True, False, False], [False, True, False], [False, False, True], [True, False, False],
        [False, False, False], [True, True, False]]
    assert card.decide(seen).tolist() == [0, 1, 2]


def test_the_highest_card_suited():
    """``highest_suited = n`` holds where the highest card's suit has another card among the
    hand's n highest; never for a hand with a pair or the highest card alone in its suit."""
    hands = ["Ah Kh 9c 7s 3d", "Ah Kd 9h 7s 3d", "Ah Kd 9c 7s 3h", "Ah Kd 9c 7s 3c", "Ah Ad 9h 7s 3d"]
    seen = strategy.Seen.of(np.asarray([parse_cards(h) for h in hands]), np.asarray([parse_card("2c")] * 5))
    assert seen.suited_place.tolist() == [2, 3, 5, 0, 0]
    card = _card("\n".join(f"[[first]]\nwhen = {{ highest_suited = {n} }}\ndo = \"bet\"" for n in (2, 3, 4)))
    assert [card.first[i].holds(seen).tolist() for i in range(3)] == [
        [True, False, False, False, False], [True, True, False, False, False], [True, True, False, False, False]]


def test_a_double_straight_draw():
    """``to_straight = "double"``: five cards of six ranks in a row (the wheel's ace low too) or a
    straight, which a sixth card can make two straights; not four to an inside straight with
    another card, nor a pair."""
    hands = ["9h 8d 6c 5s 4h", "Ah 2d 3c 4s 6h", "Ah Kd Qc Js 9h", "9h 8d 7c 6s 5h", "9h 8d 6c 5s 2h",
             "9h 9d 8c 6s 5h", "Ah Kd Qc Js Th"]
    seen = strategy.Seen.of(np.asarray([parse_cards(h) for h in hands]), np.asarray([parse_card("2c")] * 7))
    assert seen.six_outs.tolist() == [1, 1, 1, 2, 0, 0, 1]
    card = _card('[[first]]\nwhen = { to_straight = "double" }\ndo = "sixth_card"\n[[first]]\ndo = "fold"')
    assert card.first[0].holds(seen).tolist() == [True, True, True, True, False, False, True]
    assert "two straights" in card.first[0].words()


def test_the_up_card_against_the_pair():
    """``up_above``/``up_below = "group"`` compare the up-card with the pair (or trips; the highest
    card without one); equal ranks are neither above nor below."""
    hands = ["5h 5d Kc 7s 2h", "5h 5d Kc 7s 2h", "5h 5d Kc 7s 2h", "Ah Qd Jc 8s 2h", "9h 9d 9c 4s 2h"]
    seen = strategy.Seen.of(np.asarray([parse_cards(h) for h in hands]),
                            np.asarray([parse_card(c) for c in ("9c", "5s", "3c", "Ac", "Ts")]))
    card = _card("\n".join(f"[[first]]\nwhen = {{ {w} }}\ndo = \"bet\"" for w in [
        'up_above = "group"', 'up_below = "group"', 'up_above = 2']))
    assert [card.first[i].holds(seen).tolist() for i in range(3)] == [
        [True, False, False, False, True], [False, False, True, False, False], [True, False, False, True, True]]
    assert "above the hand's pair" in card.first[0].words()


@pytest.mark.parametrize("text, message", [
    ('[[first]]\nwhen = { colour = "red" }\ndo = "bet"', "line 2: unknown condition 'colour'"),
    ('[[first]]\ndo = "bet"\n[[first]]\nwhen = { up = "2-X" }\ndo = "bet"', "line 4: up: '2-X' is not a rank"),
    ('[[first]]\nwhen = { up = "Q-2" }\ndo = "bet"', "line 2: up: the range 'Q-2' runs from the higher"),
    ('[[first]]\ndo = "raise"', "line 2: do must be one of bet, fold, sixth_card, exchange, optimal, not 'raise'"),
    ('[[first]]\nwhen = { category = "pair" }\ndo = "bet"', "no rule decides"),
    ('[[first]\ndo = "bet"', "not valid TOML"),
    ('[[first]]\ndo = "sixth_card"', "line 2: the rules 'caribbean' offer no sixth card"),
    ('[[first]]\nwhen = { category = "pair" }\ndo = "exchange"\nkeep = "pair"\n[[first]]\ndo = "fold"',
     "line 2: the rules 'caribbean' offer no exchange"),
    ('[[first]]\ndo = "exchange"', "line 2: an exchange says what it keeps"),
    ('[[first]]\ndo = "bet"\nkeep = "pair"', "line 2: keep goes with do = \"exchange\""),
    ('[[first]]\ndo = "fold"\nexcept = "sixth_card"', "line 2: except goes with do = \"optimal\""),
    ('[[first]]\ndo = "exchange"\nkeep = "pair Z"', "line 2: keep: 'Z' is not a rank"),
    ('[[first]]\nwhen = { to_flush = 6 }\ndo = "bet"', "line 2: to_flush must be a number of cards, 3 to 5"),
    ('[[first]]\nwhen = { to_straight = "gutshot" }\ndo = "bet"', "line 2: to_straight must be one of open"),
    ('[[first]]\nwhen = { up_above = "pair" }\ndo = "bet"', "line 2: up_above must be a card's place"),
    ('[[first]]\nwhen = { highest_suited = 1 }\ndo = "bet"', "line 2: highest_suited must be a card's place .* 2 to 5"),
    ('[[first]]\ndo = "bet"\n[[after_draw]]\nwhen = { highest_suited = 2 }\ndo = "bet"\n[[after_draw]]\ndo = "fold"',
     "line 4: a final hand has no draws, nor suits a rule reads .highest_suited"),
    ('[[first]]\ndo = "bet"\n[[after_draw]]\ndo = "bet"', "line 4: the rules 'caribbean' have no exchange and no "
     "sixth card"),
    ('[[first]]\ndo = "bet"\n[[after_draw]]\nwhen = { to_flush = 4 }\ndo = "bet"\n[[after_draw]]\ndo = "fold"',
     "line 4: a final hand has no draws"),
    ('[[first]]\ndo = "bet"\n[[after_draw]]\ndo = "sixth_card"', "line 4: after the draw do must be one of bet, fold"),
    ('[[first]]\ndo = "bet"\n[[after_draw]]\ndo = "bet"\nkeep = "pair"', "line 4: unknown key 'keep'"),
    ('[[first]]\ndo = "bet"\n[[after_draw]]\nwhen = { category = "pair+" }\ndo = "bet"',
     "no \\[\\[after_draw\\]\\] rule decides the final hand"),
    ('after_draw = "never"\n[[first]]\ndo = "bet"', "after_draw is \"optimal\" or a list of rules"),
    ('[[first]]\nwhen = { thrown_matches_up = true }\ndo = "bet"\n[[first]]\ndo = "fold"',
     "line 2: thrown_matches_up is a condition of the final hand"),
    ('[[first]]\ndo = "bet"\n[[after_draw]]\nwhen = { thrown_matches_up = "yes" }\ndo = "bet"',
     "line 4: thrown_matches_up must be true or false"),
    ('[[first]]\ndo = "bet"\n[[after_draw]]\nwhen = { thrown_matches_up = false }\ndo = "bet"',
     "no \\[\\[after_draw\\]\\] rule decides the final hand .* after throwing a card of its rank away"),
    ('insurance = "always"\n[[first]]\ndo = "bet"', "line 2: insurance must be one of never, most, optimal"),
    ('[[first]]\ndo = "bet"\n[buy_game]\ndo = "never"\npays_at_least = 2',
     "line 4: pays_at_least goes with do = \"buy\""),
    ('[[first]]\ndo = "bet"\n[insurance]\ndo = "most"\npays_at_least = 0', "line 4: pays_at_least .* not 0"),
    ('[[first]]\ndo = "bet"\n[insurance]\ndo = "most"\nsize = 3', "line 4: unknown key 'size'"),
    ('buy_game = "buy"\n[[first]]\ndo = "bet"', "line 2: the rules 'caribbean' offer no buying a game"),
    ('[[first]]\ndo = "bet"\n[[insurance]]\ndo = "always"', "line 4: an insurance rule's do must be one of most"),
    ('[[first]]\ndo = "bet"\n[[insurance]]\nwhen = { thrown_matches_up = false }\ndo = "most"',
     "no \\[\\[insurance\\]\\] rule decides the final hand .* after throwing a card of its rank away"),
    ('[[first]]\ndo = "bet"\n[[insurance]]\nwhen = { category = "full_house" }\ndo = "most"',
     "no \\[\\[insurance\\]\\] rule decides the final hand"),
    ('[[first]]\ndo = "bet"\n[[insurance]]\ndo = "most"', "line 4: the rules 'caribbean' offer no insurance"),
])
def test_a_bad_card_is_one_line_naming_its_place(tmp_path, counts, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(f'rules = "caribbean"\n{text}\n')
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        strategy.check(strategy.load(path), CARIBBEAN, counts=counts)


def test_insurance_and_buying_a_game_as_the_card_says():
    """``insurance`` and ``buy_game`` as a word or a table: the ``Play`` the kernel counts, the
    line each is on, and their words; absent, the solver's."""
    from solver.play import NEVER, Play

    card = _card('insurance = "never"\n[[first]]\ndo = "bet"\n[buy_game]\ndo = "buy"\npays_at_least = 2\n')
    assert card.play == Play(NEVER, 2) and card.play_lines == (2, 5)
    assert card.play.describe() == "insurance: never; buying a game: always when P >= 2, else never"
    assert _card('[[first]]\ndo = "bet"\n[insurance]\ndo = "most"').play == Play(0, None)
    assert _card('buy_game = "optimal"\n[[first]]\ndo = "bet"').play.best
    russian = strategy.parse('rules = "russian"\nbuy_game = "never"\n[[first]]\ndo = "bet"', "r.toml")
    with pytest.raises(InputError, match="line 2: the rules .* set a table maximum payout"):
        russian.check_play(rules.load("russian").replace(max_payout=100))


def test_insurance_rules_are_the_rules_on_every_final_hand():
    """``[[insurance]]``: where the card insures, by whether a card thrown away had the up-card's
    rank, up rank and final strength, is what its rules say of each final hand itself (random
    hands, six-card hands by their best five)."""
    from solver.hand import strengths

    card = _card('[[first]]\ndo = "bet"\n[[insurance]]\nwhen = { category = "full_house+", up_matches = true }\n'
                 'do = "most"\n[[insurance]]\nwhen = { category = "three_of_a_kind", up_matches_group = true }\n'
                 'do = "most"\n[[insurance]]\nwhen = { up = "A" }\ndo = "most"\n[[insurance]]\n'
                 'when = { category = "three_of_a_kind", thrown_matches_up = true, up = "2-9" }\ndo = "most"\n'
                 '[[insurance]]\ndo = "none"')
    assert card.play.insure_from == 0 and card.play_lines[0] == 4 and len(card.insurance) == 5
    rng = random.Random(8)
    deals = [rng.sample(range(52), 6) for _ in range(2000)]
    for _ in range(1000):       # three of a kind (and full houses), the up-card often of its rank
        r = rng.randrange(13)
        rest = rng.sample([c for c in range(52) if c >> 2 != r], 3)
        up = 4 * r + 3 if rng.random() < 0.5 else rest[2]
        paired = rest[0] ^ 1       # a full house when it is not the up-card
        deals.append([4 * r, 4 * r + 1, 4 * r + 2, rest[0], paired if rng.random() < 0.2 and paired != up else rest[1],
                      up])
    hands = np.asarray([d[:5] for d in deals], np.uint8)
    ups = np.asarray([d[5] for d in deals], np.uint8)
    thrown = np.asarray([rng.random() < 0.5 for _ in deals])

    def expected(thrown: np.ndarray) -> np.ndarray:
        line = strategy.card.first_holding(card.insurance, strategy.Seen.of(hands, ups, thrown))
        return np.asarray([card.insurance[i].action == "most" for i in line])

    got = np.asarray([card.play.insure_row(int(u) >> 2, bool(t))[s] == 1
                      for u, t, s in zip(ups, thrown, strengths(hands))])
    assert (got == expected(thrown)).all() and 0.1 < got.mean() < 0.4
    # the thrown card decides some hands: with none thrown they are not insured
    assert (expected(thrown) & ~expected(np.zeros(len(deals), bool))).sum() > 20
    assert card.play.insures(7, int(strengths(hands[:1])[0]), int(ups[0]) >> 2, bool(thrown[0])) == got[0]


AFTER_TEXT = ('[[first]]\ndo = "bet"\n[[after_draw]]\nwhen = { category = "pair", up_below = "group" }\ndo = "fold"'
              '\n[[after_draw]]\nwhen = { category = "pair+" }\ndo = "bet"\n[[after_draw]]\n'
              'when = { at_least = "A K J", up_matches = true }\ndo = "bet"\n[[after_draw]]\n'
              'when = { category = "ak", thrown_matches_up = true }\ndo = "bet"\n[[after_draw]]\ndo = "fold"')


def test_the_bet_after_a_draw_is_the_rules_on_every_final_hand():
    """The table of a card's bet or fold after a draw (by a card of the up-card's rank thrown or
    not, up rank and final strength) says what its rules say of each final hand itself: random
    hands of every category, six-card hands by their best five."""
    from solver.action import Action
    from solver.hand import strengths
    from solver.strategy.after_draw import row

    card = _card(AFTER_TEXT)
    table = card.after_table
    assert table is not None and table.shape == (2, 13, 7462)
    rng = random.Random(5)
    deals = [rng.sample(range(52), 6) for _ in range(3000)]
    hands = np.asarray([d[:5] for d in deals], np.uint8)
    ups = np.asarray([d[5] for d in deals], np.uint8)
    thrown = np.asarray([rng.random() < 0.5 for _ in deals])
    seen = strategy.Seen.of(hands, ups, thrown)
    decided = np.asarray([card.after_draw[i].action == "bet" for i in card.decide_after(seen)])
    assert (table[thrown.astype(int), ups >> 2, strengths(hands)] == decided).all()
    assert 0.2 < decided.mean() < 0.8 and (table[0] != table[1]).any()
    six = parse_cards("Ah Kd Jc 7s 3d 2c")
    for up, throw, bets in (("Kh", (), 1), ("Qh", (), 0), ("Qh", ("Qc",), 1), ("Qh", ("Jc",), 0)):
        # A K J 7 3 plays: bet when the up-card matches it, or a card of its rank was thrown away
        action = Action("exchange", parse_cards(" ".join(throw))) if throw else Action("sixth_card")
        assert row(table, parse_card(up), action)[strengths([six])[0]] == bets


@pytest.mark.parametrize("text, up, throw", [("Ah Kd 9c 5s 3d", "9h", "9c"), ("Ah Kd 9c 5s 3d", "9h", "3d"),
                                             ("Ah Ks Qs Js 2s", "2h", "2s")])
def test_an_exchange_plays_the_card_s_rules_on_each_final_hand(text, up, throw):
    """An exchange counted with the card's bet or fold (its row for the up-card and the cards
    thrown) equals the literal reference asking the card's rules of each final hand it draws,
    told whether a card of the up-card's rank was thrown away."""
    from itertools import combinations

    from solver import deal
    from solver.action import Action
    from solver.reference import deal as ref
    from solver.reference import hand as ref_hand
    from solver.strategy.after_draw import row

    russian = rules.load("russian")
    card = strategy.parse(f'rules = "russian"\n{AFTER_TEXT}', "t.toml")
    hand, u, thrown = parse_cards(text), parse_card(up), parse_cards(throw)
    matched = any(c >> 2 == u >> 2 for c in thrown)

    def bets(final) -> bool:
        five = max(combinations(final, 5), key=ref_hand.strength)
        seen = strategy.Seen.of(np.asarray([five], np.uint8), np.asarray([u], np.uint8), np.asarray([matched]))
        return card.after_draw[int(card.decide_after(seen)[0])].action == "bet"

    action = Action("exchange", tuple(thrown))
    value = deal.option_values(hand, u, [action], russian, after=row(card.after_table, u, action))[0]
    assert value == ref.exchange(hand, u, tuple(thrown), russian, after=bets)


def test_a_derived_card_is_checked_exactly(counts, tmp_path):
    """Cards derived within their number of lines, each cost as an independent check of the
    card's own file gives it, lower with more lines; the files written parse back."""
    derived = strategy.derive_card(CARIBBEAN, 6, counts=counts, curve=(3,))
    # (a card may stop short of its size: the search's near ties fall as the floats' sums do)
    assert len(derived) == 2 and len(derived[0].lines) <= 3 < len(derived[1].lines) <= 6
    assert not derived[-1].lines[-1].when
    again = strategy.check(strategy.parse(derived[0].text, "again.toml"), CARIBBEAN, counts=counts)
    assert again.cost == derived[0].check.cost and all(len(d.card.first) == len(d.lines) for d in derived)
    assert 0 < derived[1].check.cost < derived[0].check.cost and derived[1].check.cost < Fraction(1, 10_000)
    toml, md, png = strategy.write_derived(derived, 6, tmp_path)
    assert strategy.load(toml).first[0].words() == derived[1].card.first[0].words()
    assert "| 3 |" in md.read_text() and png.read_bytes().startswith(b"\x89PNG")
    # started from the card it wrote (``--from``): its lines read back, checked alike
    again = strategy.derive_card(CARIBBEAN, 6, counts=counts, start=strategy.load(toml))
    assert len(again) == 1 and again[0].lines == derived[1].lines and again[0].check.cost == derived[1].check.cost
    with pytest.raises(InputError, match=f"has {derived[1].size} lines, more than --lines 3"):
        strategy.derive_card(CARIBBEAN, 3, counts=counts, start=strategy.load(toml))


def test_a_derived_chart_is_checked_exactly_and_more_rows_lose_less(counts, tmp_path):
    """A chart derived for Caribbean Stud is a card of rows (the last for every hand), checked
    exactly; a chart of more rows refines one of fewer (its rows split, each cell chosen exactly),
    so it loses no more; the command refuses a chart with a curve in one line."""
    from solver.strategy.derive.charting import derive_chart

    _, small = derive_chart(CARIBBEAN, 3, counts=counts)
    text, big = derive_chart(CARIBBEAN, 6, counts=counts)
    card = strategy.parse(text, "chart.toml")
    assert dict(card.chart)["first_row"][-1].when == () and len(dict(card.chart)["first_row"]) <= 6
    assert 0 < big.cost <= small.cost and big.ev == big.optimal.ev - big.cost
    assert strategy.check(card, CARIBBEAN, counts=counts).cost == big.cost
    out = CliRunner().invoke(app, ["strategy", "derive", "--chart", "--curve", "--out", str(tmp_path)])
    assert out.exit_code == 2 and "leave out --from, --curve" in out.stderr and len(out.stderr.splitlines()) == 1


def test_figures_are_shown_only_for_the_card_they_were_counted_for(tmp_path, counts):
    """An edited copy of a shipped card has no figures until checked; its check's JSON (naming the
    card's SHA-256) gives them to `strategy show --check`, and a check of another card is refused."""
    edited = tmp_path / "edited.toml"
    edited.write_text((ROOT / "strategies" / "caribbean-published.toml").read_text() + "\n# edited\n")
    out = CliRunner().invoke(app, ["strategy", "show", str(edited)])
    assert out.exit_code == 0 and "not checked" in out.stdout
    card = strategy.load(edited)
    data = strategy.to_json(strategy.check(card, CARIBBEAN, counts=counts))
    assert data["card_sha256"] == card.digest != strategy.load("caribbean-published").digest
    (tmp_path / "check.json").write_text(json.dumps(data))
    out = CliRunner().invoke(app, ["strategy", "show", str(edited), "--check", str(tmp_path / "check.json")])
    assert out.exit_code == 0 and f"{data['house_edge']['value'] * 100:.6f} %" in out.stdout
    other = CliRunner().invoke(app, ["strategy", "show", "caribbean-derived", "--check", str(tmp_path / "check.json")])
    assert other.exit_code == 2 and "check of another card" in other.stderr and len(other.stderr.splitlines()) == 1


@pytest.mark.slow
def test_the_command_end_to_end():
    out = CliRunner().invoke(app, ["strategy", "check", str(ROOT / "strategies" / "caribbean-ak-matching.toml"),
                                   "--json", "--jobs", "2"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["rules"] == "caribbean" and data["played"]["ev_per_ante"]["value"] < data["optimal"]["ev_per_ante"][
        "value"]


def test_the_command_refuses(tmp_path):
    bad = tmp_path / "draws.toml"
    bad.write_text('rules = "oasis"\n[[first]]\ndo = "bet"\n')
    out = CliRunner().invoke(app, ["strategy", "check", str(bad), "--table", str(tmp_path)])
    assert out.exit_code == 2 and "no table of the rules oasis" in out.stderr
    out = CliRunner().invoke(app, ["strategy", "check", str(bad), "--work", " "])
    assert out.exit_code == 2 and "--work is empty" in out.stderr
    out = CliRunner().invoke(app, ["strategy", "check", str(tmp_path / "none.toml")])
    assert out.exit_code == 2 and "cannot read the strategy file" in out.stderr
    out = CliRunner().invoke(app, ["strategy", "derive", "--from", "caribbean-derived", "--curve"])
    assert out.exit_code == 2 and "leave out --from" in out.stderr
    for sizes, says in (("10,x", "whole numbers"), ("10,1", "2 to 200")):
        out = CliRunner().invoke(app, ["strategy", "derive", "--sizes", sizes])
        assert out.exit_code == 2 and says in out.stderr
    out = CliRunner().invoke(app, ["strategy", "derive", "--from", "caribbean-derived", "--rules", "russian",
                                   "--out", str(tmp_path)])
    assert out.exit_code == 2 and "is for the rules 'caribbean', not 'russian'" in out.stderr
