"""A strategy card: the ordered rules a person follows at the table, read from a TOML file
(docs/strategy.md). The first rule whose conditions all hold for the dealt hand and the up-card
decides the first action.

>>> card = parse('''
... name = "pair or better"
... rules = "caribbean"
... [[first]]
... when = { category = "pair+" }
... do = "bet"
... [[first]]
... do = "fold"
... ''', "example.toml")
>>> [r.words() for r in card.first]
['pair or better: bet', 'any hand: fold']
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from ..cards import RANK_NAMES, RANKS
from ..category import CATEGORIES, LABELS
from ..errors import InputError
from .hands import Seen

#: the first actions a rule may take; ``optimal``: the solver's best first action for that deal
FIRST_ACTIONS = ("bet", "fold", "optimal")
_ORDINAL = ("", "highest", "second-highest", "third-highest", "fourth-highest", "lowest")


def _ranks(spec: Any, what: str) -> frozenset[int]:
    """Ranks written as "A", "2-Q", "A,K" or "Q J" (T or 10 for ten)."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"{what} must be ranks such as \"A\", \"2-Q\" or \"Q,J\", not {spec!r}")
    out: set[int] = set()
    for token in spec.replace(",", " ").split():
        low, _, high = token.partition("-")
        try:
            a = RANKS.index(low.upper().replace("10", "T"))
            b = RANKS.index(high.upper().replace("10", "T")) if high else a
        except ValueError:
            raise ValueError(f"{what}: {token!r} is not a rank or a range of ranks (2-9, T, J, Q, K, A)") from None
        if b < a:
            raise ValueError(f"{what}: the range {token!r} runs from the higher rank to the lower")
        out.update(range(a, b + 1))
    return frozenset(out)


def _rank_words(ranks: frozenset[int]) -> str:
    ordered = sorted(ranks)
    runs: list[list[int]] = []
    for r in ordered:
        if runs and r == runs[-1][-1] + 1:
            runs[-1].append(r)
        else:
            runs.append([r])
    return ", ".join(RANK_NAMES[run[0]] if len(run) == 1 else f"{RANK_NAMES[run[0]]}–{RANK_NAMES[run[-1]]}"
                     for run in runs)


Test = Callable[[Seen], np.ndarray]


def _condition(key: str, value: Any) -> tuple[Test, str]:
    """A condition as a test over every deal and its plain words."""
    if key == "category":
        if not isinstance(value, str) or value.rstrip("+") not in CATEGORIES:
            raise ValueError(f"category must be one of {', '.join(CATEGORIES)} (with + for that or better), "
                             f"not {value!r}")
        k = CATEGORIES.index(value.rstrip("+"))
        if value.endswith("+"):
            return (lambda s: s.category >= k), f"{LABELS[k]} or better"
        return (lambda s: s.category == k), LABELS[k]
    if key == "up":
        ranks = _ranks(value, "up")
        return (lambda s: np.isin(s.up, list(ranks))), f"up-card {_rank_words(ranks)}"
    if key == "up_matches":
        if not isinstance(value, bool):
            raise ValueError(f"up_matches must be true or false, not {value!r}")
        return ((lambda s: s.matches) if value else (lambda s: ~s.matches),
                "the up-card matches a card of the hand" if value else "the up-card matches no card of the hand")
    if key == "holds":
        ranks = _ranks(value, "holds")
        def holds(s: Seen) -> np.ndarray:
            held: np.ndarray = np.asarray(np.isin(s.ranks, list(ranks)).any(axis=1))
            return held
        named = [RANK_NAMES[r] for r in sorted(ranks, reverse=True)]
        return holds, f"holding a {' or a '.join(named)}" if len(named) <= 3 else f"holding one of {_rank_words(ranks)}"
    if key == "group":
        ranks = _ranks(value, "group")
        return (lambda s: np.isin(s.group, list(ranks))), f"pair (or more) of {_rank_words(ranks)}"
    if key == "at_least":
        floor = [RANKS.index(t.upper().replace("10", "T")) if t.upper().replace("10", "T") in RANKS else -1
                 for t in str(value).replace(",", " ").split()]
        if not 1 <= len(floor) <= 5 or -1 in floor or floor != sorted(floor, reverse=True):
            raise ValueError(f"at_least must be up to five ranks from the highest, e.g. \"A K J 8 3\", not {value!r}")

        def at_least(s: Seen) -> np.ndarray:
            above = np.zeros(len(s.ranks), bool)
            equal = np.ones(len(s.ranks), bool)
            for i, r in enumerate(floor):
                above |= equal & (s.ranks[:, i] > r)
                equal &= s.ranks[:, i] == r
            return above | equal
        return at_least, f"cards at least {' '.join(RANK_NAMES[r] for r in floor)}"
    if key == "up_below":
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 5:
            raise ValueError(f"up_below must be a card's place in the hand from the highest, 1 to 5, not {value!r}")
        return (lambda s: s.up < s.ranks[:, value - 1]), f"the up-card below the hand's {_ORDINAL[value]} card"
    raise ValueError(f"unknown condition {key!r} (known: category, up, up_matches, holds, group, at_least, "
                     "up_below)")


@dataclass(frozen=True)
class Rule:
    """One line of the card: its conditions (all must hold) and the first action they take."""

    line: int                                   # the line of the file where it starts
    tests: tuple[Test, ...]
    conditions: tuple[str, ...]                 # in plain words
    action: str

    def holds(self, seen: Seen) -> np.ndarray:
        out = np.ones(len(seen.up), bool)
        for test in self.tests:
            out &= test(seen)
        return out

    def words(self) -> str:
        return f"{', '.join(self.conditions) or 'any hand'}: {self.action}"


@dataclass(frozen=True)
class StrategyCard:
    """A strategy card: its name, the rules it is for (a preset's name or a rules file) and the
    rules of the first decision, in order."""

    name: str
    rules: str
    first: tuple[Rule, ...]
    path: str

    def decide(self, seen: Seen) -> np.ndarray:
        """The index of the rule that decides each deal (the first that holds), -1 for none."""
        line = np.full(len(seen.up), -1, np.int64)
        for i, rule in enumerate(self.first):
            line[(line < 0) & rule.holds(seen)] = i
        return line


def _header_lines(text: str, table: str) -> list[int]:
    """The line numbers (from 1) of the ``[[table]]`` headers of a TOML text, in order."""
    return [n for n, raw in enumerate(text.splitlines(), 1) if raw.strip().replace(" ", "") == f"[[{table}]]"]


def parse(text: str, path: str) -> StrategyCard:
    """A strategy card from the text of its file; one clear error naming the line otherwise."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"strategy file {path}: not valid TOML ({exc})") from None
    unknown = set(data) - {"name", "rules", "first"}
    if unknown:
        raise InputError(f"strategy file {path}: unknown key {sorted(unknown)[0]!r} (known: name, rules, first)")
    if not isinstance(data.get("rules"), str) or not data["rules"]:
        raise InputError(f"strategy file {path}: it must say which rules it is for (rules = \"caribbean\", a preset "
                         "or a rules file)")
    first = data.get("first")
    if not isinstance(first, list) or not first:
        raise InputError(f"strategy file {path}: no rules for the first decision (a [[first]] table for each)")
    lines = _header_lines(text, "first")
    rules = []
    for i, entry in enumerate(first):
        line = lines[i] if i < len(lines) else 0
        where = f"strategy file {path}, line {line}" if line else f"strategy file {path}, rule {i + 1} of [[first]]"
        extra = set(entry) - {"when", "do"}
        if extra:
            raise InputError(f"{where}: unknown key {sorted(extra)[0]!r} (a rule has when and do)")
        action = entry.get("do")
        if action not in FIRST_ACTIONS:
            raise InputError(f"{where}: do must be one of {', '.join(FIRST_ACTIONS)}, not {action!r}")
        when = entry.get("when", {})
        if not isinstance(when, dict):
            raise InputError(f"{where}: when must be a table of conditions, e.g. when = {{ category = \"pair+\" }}")
        try:
            parts = [_condition(key, value) for key, value in when.items()]
        except ValueError as exc:
            raise InputError(f"{where}: {exc}") from None
        rules.append(Rule(line, tuple(t for t, _ in parts), tuple(w for _, w in parts), action))
    return StrategyCard(str(data.get("name") or Path(path).stem), data["rules"], tuple(rules), path)


def shipped() -> dict[str, Path]:
    """The cards installed with rpoker (``strategies/`` of the source), by name."""
    from importlib.resources import files

    try:
        root = Path(str(files("solver.strategies")))
    except (ModuleNotFoundError, TypeError):  # pragma: no cover - not installed with its cards
        return {}
    return {p.stem: p for p in sorted(root.glob("*.toml"))}


def load(path: str | Path) -> StrategyCard:
    """A strategy card from its file, or one installed with rpoker by its name
    (``caribbean-published``)."""
    p = Path(path)
    if not p.exists() and str(path) in shipped():
        p = shipped()[str(path)]
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read the strategy file {p}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError(f"strategy file {p}: not a text file (UTF-8)") from None
    return parse(text, str(p))
