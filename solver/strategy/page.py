"""A card on one printable page: HTML (``html``) and its picture (``png``), each line in a player's
words with its action coloured, a legend of the colours, the words it uses explained, and the
card's exact house edge and cost where a check of this very card is at hand (``figures``).
"""

from __future__ import annotations

import html as html_text
import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..cards import RANK_NAMES
from ..manifest import writable_directory, write_atomic
from ..version import __version__
from . import figures
from .card import StrategyCard
from .figures import Figures
from .words import EMPTY, SPLIT_WORDS, CardWords, Phrased, card_words, check_words

#: the action kinds, their colour and their legend
KINDS = {"bet": ("#a5d6a7", "bet"), "fold": ("#ef9a9a", "fold"), "sixth_card": ("#90caf9", "sixth card"),
         "keep": ("#ffe082", "exchange: keep the cards named, draw the rest"),
         "optimal": ("#ce93d8", "the solver's best play"), "most": ("#80cbc4", "insure the most"),
         "none": ("#e0e0e0", "do not insure"), "empty": ("#f5f5f5", "no deal reaches the cell")}
#: the words a card may use, explained (shown where the card uses them: the pattern finds them)
GLOSSARY = {
    "open straight draw": ("open straight draw", "four cards to a straight that two ranks complete (or a straight)"),
    "inside straight draw": ("inside straight draw", "four cards to a straight that one rank completes"),
    "double straight draw": ("double straight draw", "five cards of six ranks in a row, one missing (4 5 6 8 9), "
                             "or a straight: a sixth card can make two straights"),
    "high": (r"[2-9TJQKA] high", "without a pair: your highest card"),
    "pair or more of": ("pair or more of", "your pair, or your trips (with two pair, the higher pair)"),
    "A K 7 6 or better": (r"[2-9TJQKA] or better", "your cards from the highest, compared rank by rank"),
    "your top, 2nd, ...": (r"your (top|2nd|3rd|4th|5th)\b", "your cards from the highest: top, 2nd, 3rd, 4th, 5th"),
    "top two suited": ("top two suited", "no pair, your two highest cards of one suit"),
    "top card suited with": ("top card suited with", "no pair, your highest card and another of its suit"),
    "in your hand": ("in your hand", "a card of the up-card's rank is among yours"),
    "rank thrown": ("rank thrown", "you exchanged away a card of the up-card's rank"),
    "the suited two": ("the suited two", "your highest card and the highest other card of its suit"),
    "the high card": ("the high card", "your highest card that is not paired"),
    "the flush draw": ("the flush draw", "the cards of the suit you hold most of"),
    "the straight draw": ("the straight draw", "the four cards to a straight"),
    "draw five": ("draw five", "exchange all five cards"),
    "an AK": ("an AK", "an ace and a king, no pair: the AK game"),
    "no game": ("no game", "no pair and no AK"),
}


@dataclass(frozen=True)
class _Row:
    """A row of the page: its number, its words, its action (kind and words; "" for none), and a
    chart row's cells (kind and code of each up-card rank; None for a line)."""

    number: str
    said: str
    action: tuple[str, str] | None = None
    cells: tuple[tuple[str, str], ...] | None = None


def kind_of(action: str) -> str:
    """The colour's kind of an action in a player's words (``KINDS``)."""
    if action.startswith(("keep", "draw five")):
        return "keep"
    return {"sixth card": "sixth_card", "insure the most": "most", "do not insure": "none"}.get(
        action, "optimal" if action.startswith("play the best") else action)


def _sections(words: CardWords) -> Iterator[tuple[str, list[_Row], bool]]:
    """The card's decisions, each a heading, its rows and whether they are a chart's."""
    grids = dict(words.grids)
    code = {a: c for c, a in words.codes}

    def cells(actions: tuple[str | None, ...]) -> tuple[tuple[str, str], ...]:
        return tuple(("empty", EMPTY) if a is None else (kind_of(a), code[a]) for a in actions)

    def rows(section: str, lines: tuple[Phrased, ...]) -> list[_Row]:
        if section not in grids:
            return [_Row(str(p.number), p.text.rpartition(": ")[0], (kind_of(p.action), p.action)) for p in lines]
        out = []
        for r in grids[section]:
            out.append(_Row(str(r.number), r.words, None, cells(r.cells)))
            if r.split is not None:
                out.append(_Row("", SPLIT_WORDS[section], None, cells(r.split)))
        return out

    def heading(section: str, text: str) -> str:
        how = "the first row that fits decides, in the up-card's column" if section in grids else \
            "the first line that fits decides"
        return f"{text}: {how}"

    yield heading("first", "First decision"), rows("first", words.first), "first" in grids
    if words.draws:
        yield (heading("after_draw", "After an exchange or a sixth card, your final hand"),
               rows("after_draw", words.after_draw) or [_Row("", "bet or fold as the solver does",
                                                              ("optimal", "the solver's"))], "after_draw" in grids)
    if words.play:
        start = len(words.first) + len(words.after_draw) + 1
        yield "When you bet", [_Row(str(n), s) for n, s in enumerate(words.play, start)], False
    if words.insurance:
        yield heading("insurance", "Insurance, with trips or better"), rows("insurance", words.insurance), \
            "insurance" in grids


def _kinds(words: CardWords) -> list[str]:
    """The action kinds the card uses, in the legend's order."""
    used = {k for _, rows, _ in _sections(words) for r in rows
            for k, _ in ([r.action] if r.action else []) + list(r.cells or ())}
    return [k for k in KINDS if k in used]


def _used(words: CardWords) -> dict[str, str]:
    said = " ".join(f"{r.said} {r.action[1] if r.action else ''}" for _, rows, _ in _sections(words) for r in rows)
    said += " " + " ".join(a for _, a in words.codes)
    return {term: meaning for term, (pattern, meaning) in GLOSSARY.items() if re.search(pattern, said)}


def _headline(words: CardWords, figures: Figures | None) -> str:
    if figures is None:
        return f"rules {words.rules}; not checked: rpoker strategy check gives its exact house edge and cost"
    return f"rules {words.rules}; {figures.text()}"


def html(words: CardWords, figures: Figures | None) -> str:
    """The card as one printable HTML page (A4), self-contained."""
    e = html_text.escape
    colours = "".join(f".{k}{{background:{c}}}" for k, (c, _) in KINDS.items())
    out = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">', f"<title>{e(words.name)}</title>",
           "<style>@page{size:A4;margin:12mm}body{font:10pt/1.35 'DejaVu Sans',Arial,sans-serif;color:#222;"
           "max-width:190mm;margin:auto}h1{font-size:15pt;margin:0 0 2pt}h2{font-size:11pt;margin:9pt 0 2pt}"
           "p.figures{margin:0 0 4pt;color:#444}table{border-collapse:collapse;width:100%}"
           "td{padding:1.5pt 5pt;border-bottom:1px solid #e4e4e4;vertical-align:top}td.n{color:#888;width:2em;"
           "text-align:right}td.do{width:34%;border-radius:3pt}.legend span{display:inline-block;padding:0 5pt;"
           "margin:0 4pt 3pt 0;border-radius:3pt}dl{columns:2;font-size:8.5pt;margin:3pt 0}dt{font-weight:bold}"
           "dd{margin:0 0 2pt 8pt}footer{font-size:8pt;color:#888;margin-top:6pt}td.cell{width:1.6em;"
           "text-align:center;border:1px solid #fff}td.split{padding-left:1.5em;color:#555}th{font-weight:normal;"
           "color:#666}p.codes{font-size:8.5pt;margin:3pt 0}" + colours + "</style></head>",
           "<body>", f"<h1>{e(words.name)}</h1>", f'<p class="figures">{e(_headline(words, figures))}</p>']
    for heading, rows, grid in _sections(words):
        out += [f"<h2>{e(heading)}</h2>", "<table>"]
        if grid:
            out.append('<tr><td></td><td></td>' + "".join(f'<th>{r}</th>' for r in RANK_NAMES) + "</tr>")
        for r in rows:
            if r.cells is not None:
                cells = "".join(f'<td class="cell {k}">{e(c)}</td>' for k, c in r.cells)
            else:
                cells = f'<td class="do {r.action[0]}">{e(r.action[1])}</td>' if r.action else ""
            split = r.cells is not None and not r.number
            said = f'<td class="split">{e(r.said)}</td>' if split else f"<td>{e(r.said)}</td>"
            out.append(f'<tr><td class="n">{e(r.number)}</td>{said}{cells}</tr>')
        out.append("</table>")
    if words.codes:
        out.append('<p class="codes">' + e(", ".join(f"{c} {a}" for c, a in words.codes)) + "</p>")
    out += ['<h2>Legend</h2><p class="legend">'] + [f'<span class="{k}">{e(KINDS[k][1])}</span>'
                                                     for k in _kinds(words)] + ["</p><dl>"]
    out += [f"<dt>{e(term)}</dt><dd>{e(meaning)}</dd>" for term, meaning in _used(words).items()]
    out += ["</dl>", f"<footer>rpoker {e(__version__)}: every figure exact; the words read back as the card "
            "(its lines decide every deal alike)</footer>", "</body></html>"]
    return "\n".join(out) + "\n"


#: where a chart's first column stands on the picture, and how far apart its columns are
GRID, CELL = 0.49, 0.037


def png(words: CardWords, figures: Figures | None, path: Path) -> None:
    """The page's picture (A4 at 110 dpi): the same lines, colours, legend and words explained."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows: list[tuple[str, Any, Any, Any]] = [("title", words.name, "", ""), ("note", _headline(words, figures), "", "")]
    for heading, lines, grid in _sections(words):
        rows.append(("heading", heading, "", ""))
        if grid:
            rows.append(("columns", "", "", ""))
        for r in lines:
            wrapped = textwrap.wrap(r.said, 44 if grid else 72) or [""]
            rows.append(("line", r.number, wrapped[0], r.cells if r.cells is not None else r.action))
            rows += [("line", "", more, None) for more in wrapped[1:]]
    if words.codes:
        rows += [("line", "", text, None) for text in textwrap.wrap(
            "codes: " + ", ".join(f"{c} {a}" for c, a in words.codes), 100)]
    rows.append(("heading", "Legend", "", ""))
    rows.append(("legend", "", "", ""))
    explained = [f"{term}: {meaning}" for term, meaning in _used(words).items()]
    half = (len(explained) + 1) // 2
    left = [w for t in explained[:half] for w in textwrap.wrap(t, 58, subsequent_indent="   ")]
    right = [w for t in explained[half:] for w in textwrap.wrap(t, 58, subsequent_indent="   ")]
    rows += [("glossary", a, b, "") for a, b in zip(left + [""] * (len(right) - len(left)),
                                                     right + [""] * (len(left) - len(right)))]
    step = min(0.0185, 0.95 / len(rows))
    fig = plt.figure(figsize=(8.27, 11.69))
    renderer = fig.canvas.get_renderer()      # type: ignore[attr-defined]
    y = 0.975
    for kind, a, b, c in rows:
        if kind == "title":
            fig.text(0.05, y, a, fontsize=13, weight="bold", va="top")
            y -= step * 0.4
        elif kind == "note":
            fig.text(0.05, y, a, fontsize=7.5, color="#444", va="top")
        elif kind == "heading":
            y -= step * 0.3
            fig.text(0.05, y, a, fontsize=9.5, weight="bold", va="top")
        elif kind == "legend":
            x = 0.07
            for k in _kinds(words):
                shown = fig.text(x, y, KINDS[k][1], fontsize=8, va="top",
                                 bbox={"facecolor": KINDS[k][0], "edgecolor": "none", "boxstyle": "round,pad=0.25"})
                x += shown.get_window_extent(renderer).width / fig.bbox.width + 0.02
        elif kind == "glossary":
            fig.text(0.07, y, a, fontsize=7, va="top")
            fig.text(0.52, y, b, fontsize=7, va="top")
            y += step * 0.3     # small print: closer lines
        elif kind == "columns":
            for i, rank in enumerate(RANK_NAMES):
                fig.text(GRID + i * CELL, y, rank, fontsize=8, color="#666", va="top", ha="center")
        else:
            grid = isinstance(c, tuple) and bool(c) and isinstance(c[0], tuple)      # a chart row's cells
            fig.text(0.07, y, a, fontsize=8, color="#888", va="top", ha="right")
            fig.text(0.11 if grid and not a else 0.09, y, b, fontsize=8, va="top")
            if grid:
                for i, (k, code) in enumerate(c):
                    fig.text(GRID + i * CELL, y, code, fontsize=7.5, va="top", ha="center",
                             bbox={"facecolor": KINDS[k][0], "edgecolor": "none", "boxstyle": "square,pad=0.3"})
            elif c:
                fig.text(0.70, y, c[1], fontsize=8, va="top", bbox={"facecolor": KINDS[c[0]][0], "edgecolor": "none",
                                                                   "boxstyle": "round,pad=0.25"})
        y -= step
    write_atomic(path, lambda p: fig.savefig(p, dpi=110, format="png", metadata={"Software": None}))
    plt.close(fig)


def show(card: StrategyCard, check: Path | None = None, html_path: Path | None = None,
         png_path: Path | None = None) -> str:
    """The card in a player's words with its exact figures (those of ``check``, a check's JSON of
    this card, else those shipped for it), read back before it is shown; the page written as HTML
    and as PNG where asked. Returns the words as text."""
    for path in (html_path, png_path):
        if path is not None:
            writable_directory(path.parent if str(path.parent) else Path("."), "page")
    said = card_words(card)
    check_words(card, said)
    found = figures.read(check, card) if check is not None else figures.shipped_figures(card)
    if html_path is not None:
        text = html(said, found)
        write_atomic(html_path, lambda p: p.write_text(text, encoding="utf-8"))
    if png_path is not None:
        png(said, found, png_path)
    return said.text() + "\n" + _headline(said, found) + "\n"
