"""Chart cards: rows of hand groups, a cell per up-card rank, compiled into a card's rules; the
compiled card against a literal reading of the chart, the file's errors, the chart in words."""

import random

import numpy as np
import pytest
from typer.testing import CliRunner

from solver import strategy
from solver.cards import RANK_NAMES, format_cards
from solver.cli import app
from solver.errors import InputError
from solver.strategy import words
from solver.strategy.conditions import condition

CHART = '''name = "a test chart"
rules = "russian"

[codes]
P = "keep pair"
AK = "keep A K"
H = "keep highest"

[[first_row]]
when = { to_flush = 4 }
up = "6 6 6 6 6 6 6 6 6 6 6 6 6"

[[first_row]]
when = { category = "pair", group = "2-9" }
up = "P P P P P P P P P B B B B"
matched = "P P P P P P P P P P P B B"

[[first_row]]
when = { category = "pair+" }
up = "B B B B B B B B B B B B B"

[[first_row]]
when = { category = "ak" }
up = "B B B B B B B B B AK AK AK AK"

[[first_row]]
when = { group = "9-Q" }
up = "H H H H F F F F F F F F F"

[[first_row]]
up = "F F F F F F F F F F F F F"

[[after_draw_row]]
when = { category = "pair+" }
up = "B B B B B B B B B B B B B"

[[after_draw_row]]
when = { category = "ak" }
up = "F F F F F F F F F F F F F"
thrown = "B B B B B B B B B B B B B"

[[after_draw_row]]
up = "F F F F F F F F F F F F F"
'''


@pytest.fixture(scope="module")
def card(tmp_path_factory):
    path = tmp_path_factory.mktemp("chart") / "chart.toml"
    path.write_text(CHART)
    return strategy.load(path)


def _literal(card, text: str, seen, k: int) -> str:
    """The chart's action on deal ``k``, read off its rows as a person reads it: the first row
    whose conditions all hold, the cell of the up-card's rank (the split's where the up-card's rank
    is in the hand)."""
    import tomllib

    data = tomllib.loads(text)
    codes = {"B": "bet", "F": "fold", "6": "sixth_card", **data.get("codes", {})}
    one = seen.take(np.asarray([k]))
    for row in data["first_row"]:
        if all(condition(key, value)[0](one)[0] for key, value in row.get("when", {}).items()):
            cells = row["matched"] if "matched" in row and one.matches[0] else row["up"]
            return codes[cells.split()[int(one.up[0])]]
    raise AssertionError("no row decides")


def test_the_chart_decides_as_its_rows_read(card):
    """On random hands against every up-card rank, the compiled card's action is the chart's cell."""
    seen = words.dealt()
    rows = random.Random(5).sample(range(len(seen)), 3000)
    line = card.decide(seen.take(np.asarray(rows)))
    for k, i in zip(rows, line.tolist()):
        rule = card.first[i]
        kept = () if rule.keep is None else (*rule.keep.words, *(RANK_NAMES[r] for r in sorted(rule.keep.ranks,
                                                                                               reverse=True)))
        said = " ".join(("keep", *kept)) if rule.keep is not None else rule.action
        assert said == _literal(card, CHART, seen, k), (format_cards(seen.hands[k].tolist()), RANK_NAMES[seen.up[k]])


def test_the_chart_s_later_rows_are_the_bet_table(card):
    """The bet or fold after a draw is the rows' cell: an AK bets where a card of the up-card's rank
    was thrown away, and folds elsewhere."""
    table = card.after_table
    final = words.final(False)
    ak = np.flatnonzero(final.category[: len(final) // 26] == 1)[:50]
    for up in range(13):
        assert (table[0, up][ak] == 0).all() and (table[1, up][ak] == 1).all()


@pytest.mark.parametrize("change, message", [
    (("up = \"6 6 6 6 6 6 6 6 6 6 6 6 6\"", "up = \"6 6 6\""), "is the 13 cells"),
    (("up = \"6 6 6 6 6 6 6 6 6 6 6 6 6\"", "up = \"6 6 6 6 6 6 6 6 6 6 6 6 Z\""), "up-card A: unknown code 'Z'"),
    (("when = { to_flush = 4 }", "when = { to_flush = 4, up = \"2-9\" }"), "leave out up"),
    (("P = \"keep pair\"", "P = \"hold pair\""), "stands for 'hold pair'"),
    (("[[after_draw_row]]\nwhen = { category = \"pair+\" }", "[[after_draw]]\nwhen = { category = \"pair+\" }\n"
      "do = \"bet\"\n\n[[after_draw_row]]\nwhen = { category = \"pair+\" }"), "given twice"),
    (("matched = \"P P P P P P P P P P P B B\"", "thrown = \"P P P P P P P P P P P B B\""), "unknown key 'thrown'"),
])
def test_a_bad_chart_is_one_line_naming_its_row(tmp_path, change, message):
    path = tmp_path / "bad.toml"
    path.write_text(CHART.replace(*change, 1))
    with pytest.raises(InputError, match=message) as err:
        strategy.load(path)
    assert "line" in str(err.value) or "codes" in message or "twice" in message


def test_the_chart_in_words_and_on_its_page(card, tmp_path):
    """`strategy show` prints a chart as a grid: each row's hand group (what the rows above imply
    left out), its codes under the up-card's ranks, the split row; the page draws the grid."""
    out = CliRunner().invoke(app, ["strategy", "show", card.path, "--html", str(tmp_path / "c.html")])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert any(line.split()[-13:] == list(RANK_NAMES) for line in lines)
    pair = next(line for line in lines if line.strip().startswith("2. "))
    assert "pair of 2s–9s" in pair and pair.split()[-13:] == "P P P P P P P P P B B B B".split()
    assert "3. a pair or better" in out.stdout and "up-card in your hand" in out.stdout
    assert "codes: " in out.stdout and "P keep the pair" in out.stdout
    page = (tmp_path / "c.html").read_text()
    assert page.count('class="cell ') == 13 * (6 + 1 + 3 + 1)
