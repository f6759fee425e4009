"""A card in a player's words: phrases read back to the same conditions, words that leave out only
what the lines above imply (the card read back plays every deal alike), and the page of
``rpoker strategy show``."""

import hashlib
import json
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from solver import rules, strategy
from solver.cli import app
from solver.errors import InputError
from solver.strategy import words
from solver.strategy.after_draw import rule_table
from solver.strategy.card import shipped
from solver.strategy.conditions import condition
from solver.strategy.derive.writing import card_text
from solver.strategy.vocabulary import atoms

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def _sample(seen, n: int, seed: int) -> object:
    return seen.take(np.random.default_rng(seed).choice(len(seen), n, replace=False))


@pytest.mark.parametrize("called", ["pair", "pair or more", "high card", "pair or high card", "trips"])
def test_every_condition_reads_back_as_itself(called):
    """Each condition a derived card may state, in words under each name of the hand's group, reads
    back to conditions that hold on exactly the same deals (the dealt hands and the final ones);
    "trips of 4s–Ks" reads back as trips of those ranks, so it is compared on trips alone."""
    dealt = _sample(words.dealt(), 40_000, 1)
    final = _sample(words.final(False), 20_000, 2)
    for seen, vocabulary in ((dealt, atoms(draws=True)), (final, atoms(thrown=True))):
        rows = np.flatnonzero(seen.category == 4) if called == "trips" else np.arange(len(seen))
        part = seen.take(rows)
        for key, value in vocabulary:
            said = words.phrase(key, value, called)
            assert ", " not in said and ": " not in said, said
            back = words.read_condition(said)
            held = np.ones(len(part), bool)
            for k, v in back:
                held &= condition(k, v)[0](part)
            assert np.array_equal(held, condition(key, value)[0](part)), (key, value, said, back)


def _card_of(card: strategy.StrategyCard, said: words.CardWords) -> strategy.StrategyCard:
    """The card its words say, written as a card's file and read like any other."""
    lines = [tuple(words.read_line(p.text) for p in part) for part in (said.first, said.after_draw, said.insurance)]
    text = card_text(lines[0], rules.load(card.rules), card.name, lines[1], card.play, lines[2])
    return strategy.parse(text, f"{card.path} (read back)")


@pytest.mark.parametrize("name", sorted(shipped()))
def test_the_words_of_every_shipped_card_read_back_as_the_same_card(name):
    """A shipped card's words, read back into a card's file, decide every deal as the card: the same
    line's action on every hand against every up-card rank, the same bet or fold and insurance on
    every final hand; and no line's words state more than its file."""
    card = strategy.load(name)
    said = words.card_words(card)
    back = _card_of(card, said)
    seen = words.dealt()
    line, again = card.decide(seen), back.decide(seen)
    actions = np.asarray([r.action + str(r.keep) for r in card.first])
    assert np.array_equal(actions[line], np.asarray([r.action + str(r.keep) for r in back.first])[again])
    assert (card.after_table is None) == (back.after_table is None)
    if card.after_table is not None:
        assert np.array_equal(card.after_table, back.after_table)
    if card.insurance:
        assert np.array_equal(rule_table(card.insurance, "most", "", "insurance", (False, True)),
                              rule_table(back.insurance, "most", "", "insurance", (False, True)))
    assert back.play == card.play
    for rule, p in zip((*card.first, *card.after_draw, *card.insurance), (*said.first, *said.after_draw,
                                                                          *said.insurance)):
        assert len(p.conditions) <= len(rule.when)


def test_words_leave_out_what_the_lines_above_imply():
    """A condition the lines above make true goes unsaid; one they do not stays."""
    card = strategy.parse('rules = "caribbean"\n[[first]]\nwhen = { up_matches = true }\ndo = "bet"\n'
                          '[[first]]\nwhen = { up_matches = false, category = "pair+" }\ndo = "fold"\n'
                          '[[first]]\nwhen = { up_matches = false, category = "ak" }\ndo = "bet"\n'
                          '[[first]]\nwhen = { category = "no_game", up = "2-T" }\ndo = "fold"\n'
                          '[[first]]\ndo = "bet"', "t.toml")
    said = [p.text for p in words.card_words(card).first]
    assert said == ["up-card in your hand: bet", "a pair or better: fold", "an AK: bet", "up-card 2–T: fold",
                    "any other hand: bet"]


def test_the_russian_card_reads_as_a_player_says_it():
    """The shipped Russian Poker card: its "at least A K 2, pair 4–K, holding a K" is the pair of
    4s–Ks with A K; and few of its lines pass 12 words."""
    said = words.card_words(strategy.load("russian-derived"))
    assert said.first[4].text == "pair or more of 4s–Ks, with A K: bet"
    long = [p.text for p in (*said.first, *said.after_draw, *said.insurance) if len(p.text.split()) > 12]
    assert len(long) <= 2, long


def test_words_that_do_not_read_back_are_refused():
    """Words that would decide otherwise than their line are an error, never shown."""
    card = strategy.load("caribbean-published")
    said = words.card_words(card)
    wrong = words.CardWords(said.name, said.rules, (said.first[1], said.first[0], *said.first[2:]), (), (), ())
    with pytest.raises(InputError, match="do not read"):
        words.check_words(card, wrong)


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in ("meta", "br"):
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, (self.open, tag)
        self.open.pop()

    def handle_data(self, data):
        self.text.append(data)


def test_show_prints_the_words_and_writes_the_page(tmp_path):
    """`strategy show` prints the words and the exact figures shipped with the card; --html writes
    one well-formed page with every line, the legend and the figures, --png its picture."""
    page, picture = tmp_path / "card.html", tmp_path / "card.png"
    out = runner.invoke(app, ["strategy", "show", "russian-derived", "--html", str(page), "--png", str(picture)])
    assert out.exit_code == 0, out.output
    said = words.card_words(strategy.load("russian-derived"))
    for p in (*said.first, *said.after_draw, *said.insurance):
        assert p.text in out.stdout
    checked = json.loads((ROOT / "strategies" / "checked.json").read_text())["russian-derived"]
    edge = f"{float(checked['house_edge']['value']) * 100:.6f} %"
    assert edge in out.stdout
    parser = _Page()
    parser.feed(page.read_text())
    assert parser.open == []
    text = " ".join(parser.text)
    assert edge in text and "Legend" in text and all(p.action in text for p in said.first)
    assert all(p.text.rpartition(": ")[0] in text for p in said.first)
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture.stat().st_size > 20_000


@pytest.mark.parametrize("args, message", [
    (["--html", ""], "--html is empty"),
    (["--png", "{file}/x.png"], "is a file"),
    (["--check", "{missing}"], "cannot read the check"),
    (["--check", "{file}"], "not the JSON of a strategy check"),
])
def test_show_refuses_bad_paths_in_one_line(tmp_path, args, message):
    (tmp_path / "plain").write_text("not json")
    args = [a.format(file=tmp_path / "plain", missing=tmp_path / "missing.json") for a in args]
    out = runner.invoke(app, ["strategy", "show", "caribbean-published", *args])
    assert out.exit_code == 2 and message in out.stderr and len(out.stderr.splitlines()) == 1, out.output


def test_the_shipped_figures_name_their_cards():
    """Every card's figures in checked.json are of its file as shipped (a card edited since would
    need its figures counted again)."""
    entries = json.loads((ROOT / "strategies" / "checked.json").read_text())
    for name, entry in entries.items():
        text = (ROOT / "strategies" / f"{name}.toml").read_text()
        assert entry["card_sha256"] == hashlib.sha256(text.encode()).hexdigest(), name
