"""A strategy card derived from optimal play: at most N rule lines a person can follow, losing as
little as a greedy search finds, then checked exactly (``check``).

The search works on *cells*: the classes that every condition of a card sees alike (the same
category, ranks and up-card rank), with each action's loss against the best summed over their
deals. It grows a tree leaf by leaf: each time the leaf whose best split most lowers the loss is
split by one condition of the vocabulary (``atoms``), each side taking its best action. A tree
of N leaves is a card of N lines (``search``). The search sums floats; the card it writes is then
checked exactly, so the cost printed is exact.

So far for rules without an exchange or a sixth card, where the first decision is bet or fold and
every class's two values are counted by ``report.class_counts``; rules with draws need every
option's EV of every class (the full table) and are refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..cards import RANK_NAMES
from ..category import CATEGORIES
from ..counts import BET
from ..errors import InputError
from ..manifest import writable_directory, write_atomic
from ..report.counting import Counts, class_counts
from ..rules import Rules
from .card import StrategyCard, condition, parse
from .check import CardCheck, check, ranked_classes
from .hands import Seen

#: the cards' sizes of the cost curve
CURVE = (5, 10, 20, 40)
ACTIONS = ("bet", "fold")


def _span(a: int, b: int) -> str:
    return RANK_NAMES[a] if a == b else f"{RANK_NAMES[a]}-{RANK_NAMES[b]}"


def atoms() -> list[tuple[str, Any]]:
    """The conditions a derived card may use, as (key, value) of the card's file: categories (and
    "or better"), up-card ranges, the up-card matching or not, a card held, the pair's range, the
    up-card below the n-th card, and the AK hands' next cards."""
    out: list[tuple[str, Any]] = [("category", c) for c in CATEGORIES] + [("category", f"{c}+") for c in CATEGORIES[1:]]
    out += [("up", _span(a, b)) for a in range(13) for b in range(a, 13)]
    out += [("up_matches", True), ("up_matches", False)]
    out += [("holds", RANK_NAMES[r]) for r in range(13)]
    out += [("holds", f"{RANK_NAMES[a]},{RANK_NAMES[b]}") for a in range(13) for b in range(a)]
    out += [("group", _span(a, b)) for a in range(13) for b in range(a, 13)]
    out += [("up_below", n) for n in range(1, 6)]
    out += [("at_least", f"A K {RANK_NAMES[x]}") for x in range(11)]
    out += [("at_least", f"A K {RANK_NAMES[x]} {RANK_NAMES[y]}") for x in range(11) for y in range(x)]
    return out


@dataclass(frozen=True)
class Line:
    """A derived rule: its conditions as (key, value) and its action."""

    when: tuple[tuple[str, Any], ...]
    action: str


@dataclass(frozen=True)
class Derived:
    """A derived card: its lines in order (the last without conditions), the card parsed from
    its file, and its exact check."""

    lines: tuple[Line, ...]
    card: StrategyCard
    check: CardCheck
    text: str


def _value(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v) if isinstance(v, int) else f'"{v}"'


def card_text(lines: tuple[Line, ...], rules: Rules, name: str) -> str:
    """The card's TOML file."""
    out = [f"# Derived from optimal play by `rpoker strategy derive --rules {rules.name}`: {len(lines)} lines, the",
           "# first rule that holds decides.", f'name = "{name}"', f'rules = "{rules.name}"']
    for line in lines:
        out += ["", "[[first]]"]
        if line.when:
            out.append("when = { " + ", ".join(f"{k} = {_value(v)}" for k, v in line.when) + " }")
        out.append(f'do = "{line.action}"')
    return "\n".join(out) + "\n"


def _cells(seen: Seen, counts: Counts) -> tuple[Seen, np.ndarray]:
    """The cells (one class of each, as a Seen) and each action's loss summed over their deals,
    float64 (cells, actions)."""
    n, den, value = (counts.counts[:, BET[k]] for k in ("n", "den", "value"))
    folded = -n * den
    best = np.maximum(value, folded)
    loss = np.stack([best - value, best - folded], axis=1).astype(np.float64) / float(n[0] * den[0])
    key = ((seen.ranks @ (13 ** np.arange(4, -1, -1))) * 11 + seen.category) * 13 + seen.up
    _, first, cell = np.unique(key, return_index=True, return_inverse=True)
    summed = np.zeros((len(first), len(ACTIONS)))
    for a in range(len(ACTIONS)):
        summed[:, a] = np.bincount(cell, counts.weight * loss[:, a], len(first))
    return seen.take(first), summed


@dataclass
class _Node:
    """A node of the search's tree: its cells, the conditions written on its path (the branches
    where a condition holds), and its split (a condition's index, the side where it holds, the
    other) once split."""

    cells: np.ndarray
    path: tuple[int, ...]
    split: tuple[int, _Node, _Node] | None = None


def _impurity(pro: np.ndarray, con: np.ndarray) -> np.ndarray:
    """How mixed a set of deals is: ``pro`` what betting gains where it is the better action,
    ``con`` what folding gains where it is (Gini's index in these weights, which unlike the loss
    itself rewards a split that sorts the deals even before either side changes its action)."""
    both = np.asarray(pro + con, np.float64)
    mixed: np.ndarray = np.divide(pro * con, both, out=np.zeros_like(both), where=both > 0)
    return mixed


def search(seen: Seen, loss: np.ndarray, most: int) -> tuple[Line, ...]:
    """The card of at most ``most`` lines over cells ``seen`` whose actions (bet, fold) lose
    ``loss`` (cells, 2): a tree grown leaf by leaf, each time splitting the leaf whose best split
    (by one condition) most sorts its deals into those where betting is better and those where
    folding is, each leaf taking its better action; written as a decision list (``_lines``)."""
    vocabulary = atoms()
    masks = np.stack([condition(k, v)[0](seen) for k, v in vocabulary]).astype(np.float64)
    keys = np.asarray([k for k, _ in vocabulary])
    edge = loss[:, 1] - loss[:, 0]                 # what betting gains over folding
    sides = np.stack([np.maximum(edge, 0), np.maximum(-edge, 0)], axis=1)

    def best_split(node: _Node) -> tuple[float, int]:
        inside = node.cells.astype(np.float64)
        total = sides[node.cells].sum(axis=0)
        held = masks @ (sides * inside[:, None])
        size = masks @ inside
        gain = (_impurity(*total) - _impurity(held[:, 0], held[:, 1])
                - _impurity(total[0] - held[:, 0], total[1] - held[:, 1]))
        used = [str(keys[i]) for i in node.path]
        gain[(size == 0) | (size == inside.sum()) | np.isin(keys, used)] = -np.inf
        i = int(np.argmax(gain))
        return float(gain[i]), i

    root = _Node(np.ones(len(loss), bool), ())
    leaves = [(root, *best_split(root))]
    out = _lines(root, loss, vocabulary)
    while True:
        k = max(range(len(leaves)), key=lambda n: leaves[n][1])
        node, gain, i = leaves[k]
        if gain <= 0:
            break
        held = masks[i] > 0
        left, right = _Node(node.cells & held, (*node.path, i)), _Node(node.cells & ~held, node.path)
        node.split = (i, left, right)
        grown = _lines(root, loss, vocabulary)
        if len(grown) > most:
            node.split = None
            leaves[k] = (node, -np.inf, i)
            continue
        out = grown
        leaves[k:k + 1] = [(left, *best_split(left)), (right, *best_split(right))]
    return out


def _lines(root: _Node, loss: np.ndarray, vocabulary: list[tuple[str, Any]]) -> tuple[Line, ...]:
    """The tree as a decision list: a leaf is a line of the conditions that hold on its path,
    the side where a condition holds before the other, so that the other needs no "not" (its
    deals are taken above). A line whose action is that of the next, more general line is left
    out."""
    def lines(node: _Node) -> list[Line]:
        if node.split is None:
            action = ACTIONS[int(np.argmin(loss[node.cells].sum(axis=0)))]
            return [Line(tuple(vocabulary[i] for i in node.path), action)]
        return lines(node.split[1]) + lines(node.split[2])

    out: list[Line] = []
    for line in reversed(lines(root)):
        if out and out[0].action == line.action and set(out[0].when) <= set(line.when):
            continue
        out.insert(0, line)
    return tuple(out)


def derive(rules: Rules, most: int, jobs: int = 1, progress: Callable[[int, int], None] | None = None,
           counts: Counts | None = None, curve: tuple[int, ...] = ()) -> list[Derived]:
    """The derived card of at most ``most`` lines, and those of each size of ``curve``, each
    checked exactly."""
    if rules.draws:
        raise InputError(f"the rules {rules.name!r} offer an exchange or a sixth card: deriving a card for them needs "
                         "every option's EV of every class (a full table), which strategy derive does not read yet")
    if not 2 <= most <= 200:
        raise InputError(f"--lines must be 2 to 200, not {most}")
    c = counts if counts is not None else class_counts(rules, jobs, progress)
    _, _, seen = ranked_classes()
    cells, loss = _cells(seen, c)
    out: list[Derived] = []
    for size in sorted({most, *curve}):
        chosen = search(cells, loss, size)
        if out and len(chosen) == len(out[-1].lines):
            continue                          # no condition lowers the loss further
        name = f"{rules.name}: derived card of {len(chosen)} lines"
        text = card_text(chosen, rules, name)
        card = parse(text, f"{rules.name}-derived-{len(chosen)}.toml")
        out.append(Derived(chosen, card, check(card, rules, counts=c), text))
    return out


def markdown(d: Derived, curve: list[Derived], most: int) -> str:
    """The card in plain words with its exact figures, and the cost curve (``most``: the lines
    asked for)."""
    c = d.check
    out = [f"# {d.card.name}", "",
           f"Rules `{c.rules.name}`. House edge **{float(-c.played.ev) * 100:.6f} %** (optimal play "
           f"{float(-c.optimal.ev) * 100:.6f} %); cost against optimal play **{float(c.cost) * 100:.6f} %** of the "
           f"ante (exact: {c.cost.numerator}/{c.cost.denominator}); first action not the best in "
           f"{c.differ:,} of 122,151,120 deals.", "", "The first rule that holds decides:", ""]
    for i, rule in enumerate(d.card.first, 1):
        out.append(f"{i}. {rule.words()}")
    if len(d.lines) < most:
        out += ["", f"No condition of the search's vocabulary lowers the loss further: the card stops at "
                    f"{len(d.lines)} of the {most} lines allowed."]
    if curve:
        out += ["", "| lines | house edge | cost against optimal play (% of the ante) |", "|---|---|---|"]
        out += [f"| {len(x.lines)} | {float(-x.check.played.ev) * 100:.6f} % | {float(x.check.cost) * 100:.6f} % |"
                for x in curve]
    return "\n".join(out) + "\n"


def chart(curve: list[Derived], path: Path) -> None:
    """PNG: the exact cost of the derived cards by their number of lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.8))
    sizes = [str(len(x.lines)) for x in curve]
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
    main = max((d for d in derived if len(d.lines) <= most), key=lambda d: len(d.lines))
    name = f"{main.check.rules.name}-derived-{len(main.lines)}"
    toml, md, png = folder / f"{name}.toml", folder / f"{name}.md", folder / f"{name}-curve.png"
    write_atomic(toml, lambda p: p.write_text(main.text))
    write_atomic(md, lambda p: p.write_text(markdown(main, derived if len(derived) > 1 else [], most)))
    chart(derived, png)
    return [toml, md, png]
