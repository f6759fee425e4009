"""A card on one printable page: HTML (``html``) and its picture (``png``), each line in a player's
words with its action coloured, a legend of the colours, the words it uses explained, and the
card's exact house edge and cost where a check of this very card is at hand (``figures``).
"""

from __future__ import annotations

import html as html_text
import textwrap
from collections.abc import Iterator
from pathlib import Path

from ..manifest import writable_directory, write_atomic
from ..version import __version__
from . import figures
from .card import StrategyCard
from .figures import Figures
from .words import CardWords, Phrased, card_words, check_words

#: the action kinds, their colour and their legend
KINDS = {"bet": ("#a5d6a7", "bet"), "fold": ("#ef9a9a", "fold"), "sixth_card": ("#90caf9", "sixth card"),
         "keep": ("#ffe082", "exchange: keep the cards named, draw the rest"),
         "optimal": ("#ce93d8", "the solver's best play"), "most": ("#80cbc4", "insure the most"),
         "none": ("#e0e0e0", "do not insure")}
#: the words a card may use, explained (shown where the card uses them)
GLOSSARY = {
    "open straight draw": "four cards to a straight that two ranks complete (or a straight)",
    "inside straight draw": "four cards to a straight that one rank completes",
    "double straight draw": "five cards of six ranks in a row, one missing (4 5 6 8 9), or a straight: a sixth "
                            "card can make two straights",
    " high": "without a pair: your highest card",
    "pair or more of": "your pair, or your trips (with two pair, the higher pair)",
    "or better": "\"A K 7 6 or better\": your cards from the highest, compared rank by rank",
    "your top": "your cards from the highest: top, 2nd, 3rd, 4th, 5th",
    "top two suited": "no pair, your two highest cards of one suit",
    "top card suited with": "no pair, your highest card and another of its suit",
    "in your hand": "a card of the up-card's rank is among yours",
    "rank thrown": "you exchanged away a card of the up-card's rank",
    "the suited two": "your highest card and the highest other card of its suit",
    "the high card": "your highest card that is not paired",
    "the flush draw": "the cards of the suit you hold most of",
    "the straight draw": "the four cards to a straight",
    "draw five": "exchange all five cards",
    "an AK": "an ace and a king, no pair: the AK game",
    "no game": "no pair and no AK",
}


def _kind(p: Phrased) -> str:
    return "keep" if p.do.startswith("keep") else "optimal" if p.do.startswith("optimal") else p.do


def _sections(words: CardWords) -> Iterator[tuple[str, list[tuple[str, str, str]]]]:
    """The card's decisions, each a heading and its rows (number, conditions, action kind:action)."""
    def rows(lines: tuple[Phrased, ...]) -> list[tuple[str, str, str]]:
        return [(str(p.number), p.text.rpartition(": ")[0], f"{_kind(p)}:{p.action}") for p in lines]

    yield "First decision: the first line that fits decides", rows(words.first)
    yield "After an exchange or a sixth card: your final hand", (
        rows(words.after_draw) or [("", "bet or fold as the solver does", "optimal:the solver's")])
    if words.play:
        start = len(words.first) + len(words.after_draw) + 1
        yield "When you bet", [(str(n), s, "") for n, s in enumerate(words.play, start)]
    if words.insurance:
        yield "Insurance, with trips or better", rows(words.insurance)


def _kinds(words: CardWords) -> list[str]:
    """The action kinds the card uses, in the legend's order."""
    used = {a.partition(":")[0] for _, rows in _sections(words) for _, _, a in rows}
    return [k for k in KINDS if k in used]


def _used(words: CardWords) -> dict[str, str]:
    said = " ".join(c + " " + a for _, rows in _sections(words) for _, c, a in rows)
    return {term.strip(): meaning for term, meaning in GLOSSARY.items() if term in said}


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
           "dd{margin:0 0 2pt 8pt}footer{font-size:8pt;color:#888;margin-top:6pt}" + colours + "</style></head>",
           "<body>", f"<h1>{e(words.name)}</h1>", f'<p class="figures">{e(_headline(words, figures))}</p>']
    for heading, rows in _sections(words):
        out += [f"<h2>{e(heading)}</h2>", "<table>"]
        for n, said, action in rows:
            kind, _, act = action.partition(":")
            cell = f'<td class="do {kind}">{e(act)}</td>' if action else ""
            out.append(f'<tr><td class="n">{e(n)}</td><td>{e(said)}</td>{cell}</tr>')
        out.append("</table>")
    out += ['<h2>Legend</h2><p class="legend">'] + [f'<span class="{k}">{e(KINDS[k][1])}</span>'
                                                     for k in _kinds(words)] + ["</p><dl>"]
    out += [f"<dt>{e(term)}</dt><dd>{e(meaning)}</dd>" for term, meaning in _used(words).items()]
    out += ["</dl>", f"<footer>rpoker {e(__version__)}: every figure exact; the words read back as the card "
            "(its lines decide every deal alike)</footer>", "</body></html>"]
    return "\n".join(out) + "\n"


def png(words: CardWords, figures: Figures | None, path: Path) -> None:
    """The page's picture (A4 at 110 dpi): the same lines, colours, legend and words explained."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows: list[tuple[str, str, str, str]] = [("title", words.name, "", ""), ("note", _headline(words, figures), "", "")]
    for heading, lines in _sections(words):
        rows.append(("heading", heading, "", ""))
        for n, said, action in lines:
            kind, _, act = action.partition(":")
            wrapped = textwrap.wrap(said, 72) or [""]
            rows.append(("line", n, wrapped[0], f"{kind}:{act}" if action else ""))
            rows += [("line", "", more, "") for more in wrapped[1:]]
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
        else:
            fig.text(0.07, y, a, fontsize=8, color="#888", va="top", ha="right")
            fig.text(0.09, y, b, fontsize=8, va="top")
            if c:
                k, _, act = c.partition(":")
                fig.text(0.70, y, act, fontsize=8, va="top", bbox={"facecolor": KINDS[k][0], "edgecolor": "none",
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
