"""A chart card: rows of hand groups, and in each row one cell per up-card rank (2 to A), as
blackjack's basic strategy is printed. A row may split its cells by whether the up-card's rank is
in the hand (``matched``; after a draw, ``thrown``: whether a card of its rank was thrown away).
The first row whose hand group holds decides, by the up-card's cell.

A chart is compiled into the card's rules (``compiled``): a row becomes one rule for each of its
actions, its conditions and the up-card ranks of that action's cells. So a chart is checked,
advised and practised as any card.

>>> row = ChartRow(4, (("category", "ak"),), ("fold",) * 10 + ("bet",) * 3, None)
>>> [entry["when"] for _, _, entry in compiled([row], "t.toml", "first")]
[{'category': 'ak', 'up': '2,3,4,5,6,7,8,9,T,J'}, {'category': 'ak', 'up': 'Q,K,A'}]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import RANK_NAMES
from ..errors import InputError
from .conditions import read_when, table_entries

#: the cells' codes every chart knows; ``[codes]`` adds others (``P = "keep pair"``)
CODES = {"B": "bet", "F": "fold", "6": "sixth_card", "O": "optimal", "M": "most", "N": "none"}
#: the row tables of each decision, the rule tables they stand for, and the key that splits a row's cells
SECTIONS = {"first_row": ("first", "matched", "up_matches"),
            "after_draw_row": ("after_draw", "thrown", "thrown_matches_up"),
            "insurance_row": ("insurance", "thrown", "thrown_matches_up")}
#: the up-card's ranks, the columns of every row
COLUMNS = RANK_NAMES


@dataclass(frozen=True)
class ChartRow:
    """A row of a chart: the line of its table, its hand group (conditions as (key, value)), the
    action of each up-card rank's cell (``do`` of a rule, or ``keep ...``), and those where the
    row is split (``matched``/``thrown``; None: not split)."""

    line: int
    when: tuple[tuple[str, Any], ...]
    cells: tuple[str, ...]
    split: tuple[str, ...] | None


def codes_of(data: Any, path: str) -> dict[str, str]:
    """The codes of a chart: ``CODES`` and the card's ``[codes]`` (a code: an action, ``keep ...``)."""
    if data is None:
        return dict(CODES)
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise InputError(f"strategy file {path}: codes is a table of a code and its action, e.g. P = \"keep pair\"")
    for code, action in data.items():
        if not code or " " in code:
            raise InputError(f"strategy file {path}: the code {code!r} must be one word")
        if action.split()[0] not in ("bet", "fold", "sixth_card", "optimal", "keep", "most", "none"):
            raise InputError(f"strategy file {path}: the code {code} stands for {action!r}: an action is bet, fold, "
                             "sixth_card, optimal, keep and the cards kept, most or none")
    return {**CODES, **data}


def rows(text: str, path: str, table: str, entries: Any, codes: dict[str, str]) -> tuple[ChartRow, ...]:
    """The rows of ``[[table]]`` (a key of ``SECTIONS``), each checked: its conditions (not the
    up-card's, which are its columns), 13 cells of known codes."""
    if not isinstance(entries, list) or not entries:
        raise InputError(f"strategy file {path}: {table} is a list of rows ([[{table}]] tables)")
    _, split_key, flag = SECTIONS[table]
    out = []
    for line, where, entry in table_entries(text, path, table, entries):
        extra = set(entry) - {"when", "up", split_key}
        if extra:
            raise InputError(f"{where}: unknown key {sorted(extra)[0]!r} (a row has when, up and {split_key})")
        read_when(entry, where, after=table != "first_row")      # names a bad condition
        when = tuple(entry.get("when", {}).items())
        own = {k for k, _ in when} & {"up", flag}
        if own:
            raise InputError(f"{where}: a row's cells are the up-card's ranks: its conditions leave out "
                             f"{sorted(own)[0]}")
        cells = _cells(entry.get("up"), "up", where, codes)
        split = _cells(entry[split_key], split_key, where, codes) if split_key in entry else None
        out.append(ChartRow(line, when, cells, split))
    return tuple(out)


def _cells(value: Any, key: str, where: str, codes: dict[str, str]) -> tuple[str, ...]:
    if not isinstance(value, str) or len(value.split()) != len(COLUMNS):
        raise InputError(f"{where}: {key} is the {len(COLUMNS)} cells of the up-card's ranks "
                         f"{' '.join(COLUMNS)}, codes separated by spaces, e.g. {key} = \"{' '.join(['F'] * 13)}\"")
    out = []
    for rank, code in zip(COLUMNS, value.split()):
        if code not in codes:
            raise InputError(f"{where}: {key}, up-card {rank}: unknown code {code!r} (known: {', '.join(codes)})")
        out.append(codes[code])
    return tuple(out)


def entry_of(action: str) -> dict[str, str]:
    """A cell's action as a rule's keys: ``keep pair`` as do = "exchange", keep = "pair";
    ``optimal except sixth_card`` as do = "optimal", except = "sixth_card"."""
    do, _, rest = action.partition(" ")
    if do == "keep":
        return {"do": "exchange", "keep": rest}
    return {"do": do, "except": rest.removeprefix("except ")} if rest else {"do": do}


def compiled(chart: list[ChartRow] | tuple[ChartRow, ...], path: str, table: str
             ) -> list[tuple[int, str, dict[str, Any]]]:
    """The rules the rows stand for, as entries of the rule table (line, where, entry): for each
    row, one rule per action and side of its split, its cells' up-card ranks added to its
    conditions."""
    flag = SECTIONS[f"{table}_row"][2]
    out = []
    for row in chart:
        sides = [(row.cells, None)] if row.split is None else [(row.cells, False), (row.split, True)]
        for cells, side in sides:
            for action in dict.fromkeys(cells):
                ranks = ",".join(r for r, a in zip(COLUMNS, cells) if a == action)
                when: dict[str, Any] = {**dict(row.when), "up": ranks}
                if side is not None:
                    when[flag] = side
                out.append((row.line, f"strategy file {path}, line {row.line}", {"when": when, **entry_of(action)}))
    return out
