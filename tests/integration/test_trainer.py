"""The trainer's core (``solver.trainer``): its EVs against ``solve``, ``bet_value``, ``buy_game``
and the literal reference, the rounds settled as RULES §5-7 say, the answers it reads, the
history, and ``rpoker train`` through the CLI runner."""

import json
import random
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from solver import rules, trainer
from solver.cards import parse_cards
from solver.cli import app
from solver.deal import solve
from solver.errors import InputError
from solver.final_hand import bet_value, buy_game
from solver.play import NEVER, Play
from solver.reference import deal as ref
from solver.reference import hand as ref_hand
from solver.strategy import advice, load

R = rules.DEFAULT


def _deal(text: str) -> trainer.Deal:
    """A deal whose deck starts with ``text`` (hand, up-card, the dealer's four hidden cards, then
    the stock), the other cards after it in order."""
    head = parse_cards(text)
    return trainer.Deal.of(1, [*head, *(c for c in range(52) if c not in head)])


def _answers(r: trainer.Round, *texts: str) -> list[trainer.Decision]:
    return [r.answer(t) for t in texts]


def test_the_same_seed_deals_the_same_deals():
    a = [d.hand + (d.up_card,) for _, d in zip(range(20), trainer.deals(5, R))]
    b = [d.hand + (d.up_card,) for _, d in zip(range(20), trainer.deals(5, R))]
    c = [d.hand + (d.up_card,) for _, d in zip(range(20), trainer.deals(6, R))]
    assert a == b and a != c
    assert all(len(set(d)) == 6 for d in a)


def test_the_first_decision_s_evs_are_solve_s():
    """Every answer on seeded deals: its EV is the option's as ``solve`` counts it, the best is
    ``solve``'s best, and it is right exactly where the two agree."""
    rng = random.Random(3)
    for deal in (d for _, d in zip(range(6), trainer.deals(11, R))):
        s = solve(deal.hand, deal.up_card, R)
        throw = rng.sample(deal.hand, rng.randint(1, 5))
        keep = [c for c in deal.hand if c not in throw]
        for text, kind, thrown in (("f", "fold", ()), ("bet", "bet", ()), ("s", "sixth_card", ()),
                                   ("t " + " ".join(map(_name, throw)), "exchange", throw),
                                   ("k " + (" ".join(map(_name, keep)) or "none"), "exchange", throw)):
            d = trainer.Round(deal, R).answer(text)
            mine = s.option(kind, tuple(c for c in deal.hand if c in thrown))
            assert (d.ev, d.best_ev, d.kind) == (mine.ev, s.best.ev, trainer.FIRST)
            assert d.right == (mine.ev == s.best.ev) and d.lost >= 0


def _name(card: int) -> str:
    from solver.cards import format_cards

    return format_cards([card])


def test_after_a_draw_the_bet_is_bet_value_s_and_the_reference_s():
    """The bet or fold after an exchange: the bet's EV is ``bet_value``'s with the cards thrown
    out of play (and the literal reference's), a fold −1; the fee counts in the result."""
    deal = _deal("As Ks 7d 4c 2h 9c 3d 5s 8h Jc Qh Td 6c")
    r = trainer.Round(deal, R)
    r.answer("k A K")
    assert r.question == trainer.AFTER_DRAW and r.final == parse_cards("As Ks Qh Td 6c")
    assert r.thrown == parse_cards("7d 4c 2h")
    bv = bet_value(r.final, deal.up_card, R, r.thrown)
    deck = ref.unseen([*r.final, deal.up_card, *r.thrown])
    assert bv.ev == ref.bet_values(r.final, deal.up_card, deck, R)["ev"]
    d = r.answer("f")
    assert (d.ev, d.best_ev, d.choice) == (-1, max(bv.ev, Fraction(-1)), "fold")
    assert r.question is None and r.result == -2       # the ante and the exchange's fee


def test_insurance_s_evs_are_the_reference_s():
    """A three of a kind bet at once: insuring the most and not insuring are the literal
    reference's EVs with that play, and the best of them is the bet's best EV."""
    deal = _deal("7s 7d 7c Kd 2h 9c 3d 5s 8h Jc")
    r = trainer.Round(deal, R)
    r.answer("b")
    assert r.question == trainer.INSURANCE and r.insurance_size() == 2 * ref_hand.payout(deal.hand, R)
    d = r.answer("y")
    insured = ref.bet(deal.hand, deal.up_card, R, play=Play(insure_from=0))
    bare = ref.bet(deal.hand, deal.up_card, R, play=Play(insure_from=NEVER))
    assert d.ev == insured and d.best_ev == max(insured, bare) == bet_value(deal.hand, deal.up_card, R).ev


@pytest.mark.parametrize("text, result", [
    # a flush against a qualifying pair: the bet paid P:1 (+2P), not insured
    ("9s 7s 5s 3s 2s Kd 8c 8d 4h Jc", "n:2P"),
    # insured the most (I = 2P) and the dealer qualifies: the insurance lost
    ("9s 7s 5s 3s 2s Kd 8c 8d 4h Jc", "y:0"),
    # insured, the dealer does not qualify (K Q high), the ante taken: +1 + I
    ("9s 7s 5s 3s 2s Kd Qc 8d 4h Jc", "y a:1+2P"),
])
def test_a_round_is_settled_as_the_rules_say(text, result):
    deal = _deal(text)
    r = trainer.Round(deal, R)
    r.answer("b")
    for answer in result.split(":")[0].split():
        r.answer(answer)
    p = ref_hand.payout(deal.hand, R)
    assert r.question is None and r.result == eval(result.split(":")[1].replace("2P", f"{2 * p}"))


def test_buying_a_game_s_evs_are_buy_game_s():
    """The dealer K Q 9 5 3 does not qualify and A K may buy: both EVs are ``buy_game``'s, and
    the round shows the dealer's new hand."""
    deal = _deal("Ah Kh 7d 6c 2s Kd Qd 9c 5s 3h Qs")
    r = trainer.Round(deal, R)
    r.answer("b")
    assert r.question == trainer.BUY
    b = buy_game(deal.hand, deal.dealer, R)
    d = r.answer("b")
    assert (d.ev, d.best_ev, d.right) == (b.buy, max(b.buy, b.take_ante), b.buy >= b.take_ante)
    assert "Qd 9c 5s 3h Qs" in r.outcome


@pytest.mark.parametrize("hand, stock, result", [
    ("Ah Kh 7d 6c 2s", "Jc", -1),          # Q J 9 5 3: still no game, ante and bet back, the fee lost
    ("Ah Kh 7d 6c 2s", "Kc 8c", -1),       # a K again: redrawn once, free; Q 9 8 5 3 no game
    ("Ah Kh 7d 6c 2s", "Kc Ks", -1),       # K, K: one redraw only, K Q 9 5 3 no game
    ("Ah Kh 7d 6c 2s", "Qs", -4),          # a pair of Qs beats A K: −3, the fee
    ("Ah Kh Jd Js 7s", "9h", 3),           # a pair of Js (with A K, P = 2) beats 9s: +2P, the fee
    ("Ah Kh Jd Js 7s", "Kc 9h", 3),        # the same after the free redraw
])
def test_a_bought_game_ends_as_the_rules_say(hand, stock, result):
    """RULES §7 against the dealer K Q 9 5 3: the K thrown, the next card drawn."""
    r = trainer.Round(_deal(f"{hand} Kd Qd 9c 5s 3h {stock}"), R)
    _answers(r, "b", "b")
    assert r.question is None and r.result == result


def test_the_fees_and_payouts_of_other_rules():
    """Oasis prices an exchange of three at 3 antes; exchanging five forces the bet (no question
    after the draw); Caribbean Stud pays the ante too when the player wins (+2P + 1)."""
    oasis = rules.load("oasis")
    r = trainer.Round(_deal("As Ks 7d 4c 2h 9c 3d 5s 8h Jc Qh Td 6c"), oasis)
    _answers(r, "t 7d 4c 2h", "f")
    assert r.result == -1 - 3
    r = trainer.Round(_deal("As Ks 7d 4c 2h 9c 3d 5s 8h Jc Qh Td 6c 6d 6h"), oasis)
    r.answer("k none")
    assert r.question is None and r.final == parse_cards("Qh Td 6c 6d 6h") and r.result is not None
    caribbean = rules.load("caribbean")
    r = trainer.Round(_deal("9s 7s 5s 3s 2s Kd 8c 8d 4h Jc"), caribbean)
    r.answer("b")
    assert r.result == 2 * ref_hand.payout(parse_cards("9s 7s 5s 3s 2s"), caribbean) + 1


@pytest.mark.parametrize("text, words", [
    ("fold", "fold"), ("B", "bet"), ("six", "buy a sixth card"), ("s card", "buy a sixth card"),
    ("k As Ks", "exchange 7d 4c 2h, keep As Ks"), ("A K", "exchange 7d 4c 2h, keep As Ks"),
    ("keep a, k", "exchange 7d 4c 2h, keep As Ks"), ("t 2h", "exchange 2h, keep As Ks 7d 4c"),
    ("k none", "exchange As Ks 7d 4c 2h (all five)"),
])
def test_a_first_answer_in_a_player_s_words(text, words):
    hand = parse_cards("As Ks 7d 4c 2h")
    assert trainer.parse_first(text, hand, R).words(hand) == words


@pytest.mark.parametrize("text, hint", [
    ("", "f fold"), ("hello", "f fold"), ("k Qs", "Qs is not in your hand"), ("k Q", "holds no Q"),
    ("k As As", "named twice"), ("k As Ks 7d 4c 2h", "answer b or f"),
])
def test_a_malformed_first_answer_is_a_hint(text, hint):
    with pytest.raises(InputError, match=hint):
        trainer.parse_first(text, parse_cards("As Ks 7d 4c 2h"), R)


def test_answers_the_rules_do_not_allow_are_hints():
    hand = parse_cards("As Ad 7d 4c 2h")
    with pytest.raises(InputError, match="name the card"):
        trainer.parse_first("k A", hand, R)
    with pytest.raises(InputError, match="no sixth card"):
        trainer.parse_first("s", hand, rules.load("oasis"))
    with pytest.raises(InputError, match="do not allow exchanging"):
        trainer.parse_first("t 2h", hand, rules.load("caribbean"))
    r = trainer.Round(_deal("7s 7d 7c Kd 2h 9c 3d 5s 8h Jc"), R)
    r.answer("b")
    with pytest.raises(InputError, match="y insure"):
        r.answer("maybe")
    assert r.question == trainer.INSURANCE and len(r.decisions) == 1


@pytest.mark.parametrize("hand, group", [
    ("As Ad Kc 7h 2s", "pair of As"), ("2s 2d Ac Kh 9s", "pair of 2s with A K"), ("As Kd 2c 3h 7s", "A K 7"),
    ("Ks Kd 7c 7h 2s", "two pair"), ("Ks Kd Kc 7h 2s", "three of a kind"), ("9s 8s 7s 6s 5s", "straight flush"),
    ("As 2d 3c 4h 9s", "inside straight draw"), ("Ks Qd Jc Th 2s", "open straight draw"),
    ("As Kd Qc Jh 2s", "A K Q"), ("Qs Jd Tc 9h 2s", "open straight draw"), ("Qs Jd Tc 8h 2s", "inside straight draw"),
    ("Qs Jd Tc 9h 8s", "straight"), ("Qs 3s Tc 9s 8s", "four to a flush"), ("Qs 7d 5c 3h 2s", "no pair, Q high"),
])
def test_hand_groups(hand, group):
    assert trainer.hand_group(parse_cards(hand), R) == group


def test_focus_deals_more_of_the_groups_asked():
    groups = ["four to a flush", "pair of 9s"]
    focused = [trainer.hand_group(d.hand, R) in groups for _, d in zip(range(200), trainer.deals(2, R, groups))]
    plain = [trainer.hand_group(d.hand, R) in groups for _, d in zip(range(200), trainer.deals(2, R))]
    assert sum(focused) > 80 > 20 > sum(plain)


def test_a_card_s_action_is_shown_beside_each_answer():
    card = load("russian-derived")
    deal = _deal("As Ks 7d 4c 2h 9c 3d 5s 8h Jc Qh Td 6c")
    d = trainer.Round(deal, R, card).answer("f")
    a = advice.first(card, deal.hand, deal.up_card, R)    # the card's EV as it plays on (advise's tests judge it)
    assert (d.card, d.card_ev) == (a.card_action, a.card_ev) and d.card_ev <= d.best_ev


def test_the_history_records_each_decision_and_the_stats_read_it(tmp_path):
    path = tmp_path / "deep" / "h.jsonl"
    history = trainer.History(path, "one")
    answers = iter(["f", "b", "n", "a", "b", "b", "f"] * 5)
    score = trainer.play(lambda _: next(answers), lambda _: None, R, 4, 3, None, history)
    history.close()
    records = trainer.read_history(path)
    assert len(records) == score.decisions >= 3 and {r["session"] for r in records} == {"one"}
    assert sum(r["lost_value"] for r in records) == score.lost
    text = trainer.stats(records)
    assert text.startswith("session") and "one" in text and "    3  " in text
    path.write_text(path.read_text() + "{not json\n")
    with pytest.raises(InputError, match=f"damaged at line {len(records) + 1}"):
        trainer.read_history(path)


def test_focus_takes_the_groups_of_the_costliest_first_decisions():
    def record(decision, group, lost):
        return {"decision": decision, "group": group, "lost_value": Fraction(lost)}

    records = [record("first", "A K Q", "0.1"), record("first", "pair of 2s", "0.3"), record("first", "A K Q", "0.25"),
               record("after_draw", "two pair", "2"), record("first", "no pair, K high", "0")]
    assert trainer.focus_groups(records) == ["A K Q", "pair of 2s"]
    assert trainer.focus_groups(records, 1) == ["A K Q"]


def test_a_history_that_cannot_be_written_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(InputError, match="cannot write the history file"):
        trainer.History(blocker / "h.jsonl", "x")


def test_rpoker_train_plays_and_shows_its_stats(tmp_path):
    history = tmp_path / "h.jsonl"
    runner = CliRunner()
    got = runner.invoke(app, ["train", "--seed", "9", "--hands", "2", "--history", str(history)], input="f\nf\n")
    assert got.exit_code == 0, got.output
    assert "seed 9" in got.output and "session: " in got.output and got.output.count("your play> ") == 2
    deal = next(trainer.deals(9, R))
    assert f"EV {trainer.antes(solve(deal.hand, deal.up_card, R).best.ev)}" in got.output
    stats = runner.invoke(app, ["train", "--stats", "--history", str(history)])
    assert stats.exit_code == 0 and "russian" in stats.output
    assert [json.loads(line)["deal"] for line in history.read_text().splitlines()] == [1, 2]


@pytest.mark.parametrize("args, message", [
    (["--card", "caribbean-published", "--rules", "russian"], "add --rules caribbean"),
    (["--rules", "nowhere.toml"], "nowhere.toml"),
    (["--stats", "--history", "DAMAGED"], "damaged at line 1"),
])
def test_rpoker_train_refuses(tmp_path, args, message):
    damaged = tmp_path / "d.jsonl"
    damaged.write_text("[]\n")
    got = CliRunner().invoke(app, ["train", *[str(damaged) if a == "DAMAGED" else a for a in args]], input="q\n")
    assert got.exit_code == 2 and message in got.output and "Traceback" not in got.output
