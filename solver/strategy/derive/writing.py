"""A derived card written out: its TOML file, read back, in plain words (Markdown) and its cost
curve (PNG)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ... import toml_text
from ...manifest import writable_directory, write_atomic
from ...play import BEST, Play
from ...rules import Rules
from .. import later_play
from ..card import StrategyCard, parse
from ..check import CardCheck
from ..hands import Seen
from ..rendering import later_words
from ..vocabulary import Line
from .cells import ALL_FIVE, action_codes


@dataclass(frozen=True)
class Derived:
    """A derived card: its lines of the first decision in order (the last without conditions),
    the card parsed from its file, its exact check, its lines of the bet or fold after a draw
    (none: the solver's) and of its insurance (none: a word, or the solver's)."""

    lines: tuple[Line, ...]
    card: StrategyCard
    check: CardCheck
    text: str
    after: tuple[Line, ...] = ()
    insurance: tuple[Line, ...] = ()

    @property
    def size(self) -> int:
        """The card's lines: both decisions, its insurance and buying a game."""
        return len(self.lines) + len(self.after) + later_play.lines(self.card.play, len(self.insurance))


def toml_value(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v) if isinstance(v, int) else f'"{v}"'


def card_text(lines: tuple[Line, ...], rules: Rules, name: str, after: tuple[Line, ...] = (),
              play: Play = BEST, insurance: tuple[Line, ...] = ()) -> str:
    """The card's TOML file: its insurance and buying a game (``play``; the solver's where it
    does not say), the first decision's ``lines``, then the bet or fold after a draw (``after``;
    none: the solver's), then the insurance's rules (``insurance``; none: ``play``'s)."""
    out = [f"# Derived from optimal play by `rpoker strategy derive --rules {rules.name}`: "
           f"{len(lines) + len(after) + later_play.lines(play, len(insurance))} lines, the",
           "# first rule that holds decides.", f'name = "{name}"', f'rules = "{rules.name}"']
    if insurance:
        play = replace(play, insure_from=None, insure_when=None)     # its rules say it, below
    if not play.best:
        out += ["", *later_play.toml(play)]
    for table, block in (("first", lines), ("after_draw", after), ("insurance", insurance)):
        for line in block:
            out += ["", f"[[{table}]]"]
            if line.when:
                out.append("when = { " + ", ".join(f"{k} = {toml_value(v)}" for k, v in line.when) + " }")
            if line.action.startswith("keep "):
                out += ['do = "exchange"', f'keep = "{line.action[5:]}"']
            elif line.action.startswith("optimal except "):
                out += ['do = "optimal"', f'except = "{line.action.removeprefix("optimal except ")}"']
            else:
                out.append(f'do = "{line.action}"')
    return "\n".join(out) + "\n"


def card_lines(text: str) -> tuple[tuple[Line, ...], tuple[Line, ...], tuple[Line, ...]]:
    """The lines of a card's file (``card_text``; read by ``card.parse`` first, which names any
    error): its first decision's, its bet or fold after a draw's and its insurance's.

    >>> card_lines('[[first]]\\nwhen = { up_below = 2 }\\ndo = "exchange"\\nkeep = "A K"')[0]
    (Line(when=(('up_below', 2),), action='keep A K'),)
    """
    data = toml_text.parse(text, "strategy card")

    def lines(table: str) -> tuple[Line, ...]:
        return tuple(Line(tuple(rule.get("when", {}).items()),
                          f"keep {rule['keep']}" if rule["do"] == "exchange" else rule["do"])
                     for rule in data.get(table, []))
    return lines("first"), lines("after_draw"), lines("insurance")


def plain(lines: tuple[Line, ...], rules: Rules, seen: Seen) -> tuple[Line, ...]:
    """The first decision's ``lines`` as a person reads them: a keep of ranks that no hand the
    line decides holds (the search's "keep A" for hands without an ace) says what it does, keep
    nothing (the same cards thrown: all five); and a line whose every deal the lines below it
    play the same way is left out (the search tells keeps apart by their words), until neither
    changes a line.

    >>> from solver.cards import parse_cards, parse_card
    >>> from solver.rules import preset
    >>> seen = Seen.of(np.asarray([parse_cards("Qh Jd 8c 5s 3h"), parse_cards("Ah Jd 8c 5s 3h")]),
    ...                np.asarray([parse_card("9d"), parse_card("9d")]))
    >>> lines = (Line((("holds", "A"),), "keep K"), Line((("holds", "J"),), "keep A"), Line((), "keep K"))
    >>> [line.action for line in plain(lines, preset("oasis"), seen)]
    ['keep nothing']
    """
    def deciding(rules_: list[Line], part: Seen) -> np.ndarray:
        return parse(card_text(tuple(rules_), rules, rules.name), "first decision").decide(part)

    def played(action: str, part: Seen) -> np.ndarray:
        """The table code of ``action`` in each deal (-1 where a keep names no card of it)."""
        code, impossible = action_codes(part, rules, action)
        out: np.ndarray = np.where(impossible, -1, code)
        return out

    out = list(lines)
    before: list[Line] = []
    while out != before:
        before = list(out)
        line = deciding(out, seen)
        for k, rule in enumerate(out):
            rows = np.flatnonzero(line == k)
            keeps = rule.action.startswith("keep ")
            if keeps and len(rows) and (played(rule.action, seen.take(rows)) == ALL_FIVE).all():
                out[k] = replace(rule, action="keep nothing")
        for k in range(len(out) - 2, -1, -1):
            rows = np.flatnonzero(line == k)
            part = seen.take(rows)
            rest = out[:k] + out[k + 1:]
            below = deciding(rest, part)
            if all(np.array_equal(played(out[k].action, part.take(np.flatnonzero(below == j))),
                                  played(rest[j].action, part.take(np.flatnonzero(below == j))))
                   for j in np.unique(below).tolist()):
                del out[k]
                line[line > k] -= 1          # the lines below move up; line k's deals go to theirs
                line[rows] = below
    return tuple(out)


def markdown(d: Derived, curve: list[Derived], most: int) -> str:
    """The card in plain words with its exact figures, and the cost curve (``most``: the lines
    asked for)."""
    c = d.check
    out = [f"# {d.card.name}", "",
           f"Rules `{c.rules.name}`. House edge **{float(-c.ev) * 100:.6f} %** (optimal play "
           f"{float(-c.optimal.ev) * 100:.6f} %); cost against optimal play **{float(c.cost) * 100:.6f} %** of the "
           f"ante (exact: {c.cost.numerator}/{c.cost.denominator}); first action not the best in "
           f"{c.differ:,} of 122,151,120 deals.", "", "The first rule that holds decides:", ""]
    for i, rule in enumerate(d.card.first, 1):
        out.append(f"{i}. {rule.words()}")
    if d.card.after_draw:
        out += ["", "After an exchange or a sixth card, bet or fold the final hand (its five cards that play); the "
                    "first rule that holds decides:", ""]
        out += [f"{i}. {rule.words()}" for i, rule in enumerate(d.card.after_draw, len(d.card.first) + 1)]
    elif c.rules.draws:
        out += ["", "After an exchange or a sixth card, bet or fold as the solver does (optimal)."]
    if not d.card.play.best:
        # the insurance's rules are lines of the card too, numbered on
        play = replace(d.card.play, insure_from=None, insure_when=None) if d.card.insurance else d.card.play
        n = len(d.card.first) + len(d.card.after_draw) + 1
        out += ["", "Every bet, at once or after a draw (P: what the hand pays to 1):", ""]
        out += [f"{i}. {words}" for i, words in enumerate(play.words(stated=True), n)]
        if d.card.insurance:
            out += ["", "Insure (three of a kind or better) the most or not, as the first of these rules that holds "
                        "says:", ""]
            out += [f"{i}. {rule.words()}" for i, rule in enumerate(d.card.insurance, n + len(play.words(stated=True)))]
    if d.card.after_draw or not d.card.play.best:
        out += ["", f"Of the cost, {float(c.after_draw_cost) * 100:.6f} % is lost by {later_words(c)} where the "
                    "first action is the best."]
    if d.size < most:
        out += ["", f"The card takes {d.size} of the {most} lines allowed: the search finds no line that lowers "
                    "its loss in the lines left, or a line played its deals as the lines below it do."]
    if curve:
        out += ["", "| lines | house edge | cost against optimal play (% of the ante) |", "|---|---|---|"]
        out += [f"| {x.size} | {float(-x.check.ev) * 100:.6f} % | {float(x.check.cost) * 100:.6f} % |"
                for x in curve]
    return "\n".join(out) + "\n"


def chart(curve: list[Derived], path: Path) -> None:
    """PNG: the exact cost of the derived cards by their number of lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.8))
    sizes = [str(x.size) for x in curve]
    costs = [float(x.check.cost) * 100 for x in curve]
    ax.bar(sizes, costs)
    for i, v in enumerate(costs):
        ax.annotate(f"{v:.4f} %", (i, v), ha="center", va="bottom", fontsize=8)
    ax.set_xlabel("lines of the card")
    ax.set_ylabel("cost against optimal play (% of the ante)")
    ax.set_title(f"{curve[0].check.rules.name}: derived cards, exact cost")
    fig.tight_layout()
    write_atomic(path, lambda p: fig.savefig(p, dpi=110, format="png", metadata={"Software": None}))
    plt.close(fig)


def write(derived: list[Derived], most: int, directory: Path) -> list[Path]:
    """The card of ``most`` lines as TOML and Markdown, and the curve's chart, in ``directory``."""
    folder = writable_directory(directory, "strategy")
    main = max((d for d in derived if d.size <= most), key=lambda d: d.size)
    name = f"{main.check.rules.name}-derived-{main.size}"
    toml, md, png = folder / f"{name}.toml", folder / f"{name}.md", folder / f"{name}-curve.png"
    write_atomic(toml, lambda p: p.write_text(main.text))
    write_atomic(md, lambda p: p.write_text(markdown(main, derived if len(derived) > 1 else [], most)))
    chart(derived, png)
    return [toml, md, png]
