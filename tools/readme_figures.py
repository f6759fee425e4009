"""Write the README's figures tables from the shipped data, or check that they match it.

The figures come from two kinds of file, both written by rpoker itself:

- ``docs/reports/<rules>.json``: the audit report's JSON (``rpoker report --rules R``);
- ``strategies/checked.json``: per shipped card, the headline figures of
  ``rpoker strategy check CARD --json`` (``house_edge``, ``cost_per_ante``, ``differ``).

Each table sits in README.md between ``<!-- figures:NAME -->`` and ``<!-- /figures:NAME -->``.

    python tools/readme_figures.py           # rewrite the tables in README.md
    python tools/readme_figures.py --check   # exit 1, naming the table, if one differs
"""
from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
REPORTS = ROOT / "docs" / "reports"
CARDS = ROOT / "strategies" / "checked.json"

GAMES = {"russian": "Russian Poker (`russian`, the default)", "caribbean": "Caribbean Stud (`caribbean`)"}
DERIVED = ["russian-derived", "russian-derived-first", "russian-derived-optimal-insurance-buy"]
CARIBBEAN = ["caribbean-published", "caribbean-derived", "caribbean-chart", "caribbean-akj83", "caribbean-ak-matching"]


def _value(figure: dict[str, Any]) -> Fraction:
    """A figure's exact fraction where the data holds one, else its float."""
    exact = figure.get("exact")
    return Fraction(exact) if exact is not None else Fraction(figure["value"])


def _percent(figure: dict[str, Any], places: int = 6) -> str:
    return f"{float(_value(figure)) * 100:.{places}f} %"


def _differ(card: dict[str, Any]) -> str:
    differ = card["differ"]
    share = Fraction(differ["deals"], differ["of"]) if differ.get("deals") is not None else Fraction(differ["share"])
    return f"{float(share) * 100:.4f} %"


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


@cache
def _cards() -> dict[str, Any]:
    """The shipped cards' figures, read once."""
    cards: dict[str, Any] = json.loads(CARDS.read_text())
    return cards


def games() -> str:
    rows = []
    for rules, title in GAMES.items():
        optimal = json.loads((REPORTS / f"{rules}.json").read_text())["optimal"]
        rows.append([title, _percent(optimal["house_edge"]), _percent(optimal["element_of_risk"]),
                     f"{optimal['std']:.6f}", f"[{rules}.json](docs/reports/{rules}.json)"])
    return _table(["game", "house edge of optimal play", "element of risk", "standard deviation of a round",
                   "report"], rows)


def derived() -> str:
    cards = _cards()
    rows = [[f"`{name}`", _percent(cards[name]["house_edge"]), _percent(cards[name]["cost_per_ante"]),
             _differ(cards[name])] for name in DERIVED]
    return _table(["card", "house edge", "cost against optimal play (per ante)",
                   "deals whose first action is not the best"], rows)


def _costed(names: list[str], words: Callable[[str], str]) -> list[list[str]]:
    cards = _cards()
    return [[f"`{name}`", words(cards[name]["strategy"]), _percent(cards[name]["house_edge"]),
             _percent(cards[name]["cost_per_ante"]), _differ(cards[name])] for name in names]


def tips() -> str:
    cards = _cards()
    names = sorted((n for n in cards if n.startswith("russian-tip-")), key=lambda n: _value(cards[n]["cost_per_ante"]))
    rows = _costed(names, lambda strategy: strategy.removeprefix("Tip: "))
    return _table(["card", "the tip", "house edge", "cost against optimal play (per ante)",
                   "deals played differently"], rows)


def caribbean() -> str:
    rows = _costed(CARIBBEAN, lambda strategy: strategy.removeprefix("Caribbean Stud: "))
    return _table(["card", "strategy", "house edge", "cost against optimal play (per ante)",
                   "deals played differently"], rows)


TABLES: dict[str, Callable[[], str]] = {"games": games, "derived": derived, "tips": tips, "caribbean": caribbean}


def _block(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- figures:{name} -->\n)(.*?)(\n<!-- /figures:{name} -->)", re.S)


def differing(text: str) -> list[str]:
    """The names of the tables whose text in ``text`` is not what the data gives (or is missing)."""
    wrong = []
    for name, make in TABLES.items():
        found = _block(name).search(text)
        if found is None or found.group(2) != make():
            wrong.append(name)
    return wrong


def written(text: str) -> str:
    """``text`` with every table written from the data."""
    for name, make in TABLES.items():
        table = make()
        text = _block(name).sub(lambda m: m.group(1) + table + m.group(3), text)  # noqa: B023 (used at once)
    return text


def main(argv: list[str]) -> int:
    text = README.read_text()
    if argv[1:] == ["--check"]:
        wrong = differing(text)
        for name in wrong:
            print(f"README.md: the figures table '{name}' differs from the data: run python tools/readme_figures.py",
                  file=sys.stderr)
        return 1 if wrong else 0
    README.write_text(written(text))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
