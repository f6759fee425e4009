"""The conditions of a card's rules (``when``): each a test over every deal at once and its plain
words, read from a card's file with the line of each table (docs/strategy.md, "Conditions").

>>> test, words = condition("group", "2-8")
>>> words
'its pair (or more; without one, its highest card) 2–8'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..cards import RANK_NAMES
from ..category import CATEGORIES, LABELS
from ..errors import InputError
from .hands import Seen
from .keep import rank_set

_ORDINAL = ("", "highest", "second-highest", "third-highest", "fourth-highest", "lowest")


def ranks_of(spec: Any, what: str) -> frozenset[int]:
    """Ranks written as "A", "2-Q", "J+", "A,K" or "Q J" (T or 10 for ten)."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"{what} must be ranks such as \"A\", \"2-Q\" or \"Q,J\", not {spec!r}")
    out: set[int] = set()
    for token in spec.replace(",", " ").split():
        out |= rank_set(token, what)
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


def condition(key: str, value: Any) -> tuple[Test, str]:
    """A condition as a test over every deal and its plain words."""
    if key == "category":
        category = value.removesuffix("+") if isinstance(value, str) else None
        if category not in CATEGORIES:
            raise ValueError(f"category must be one of {', '.join(CATEGORIES)} (with + for that or better), "
                             f"not {value!r}")
        k = CATEGORIES.index(category)
        if value.endswith("+"):
            return (lambda s: s.category >= k), f"{LABELS[k]} or better"
        return (lambda s: s.category == k), LABELS[k]
    if key == "up":
        ranks = ranks_of(value, "up")
        return (lambda s: np.isin(s.up, list(ranks))), f"up-card {_rank_words(ranks)}"
    if key in FLAGS:
        if not isinstance(value, bool):
            raise ValueError(f"{key} must be true or false, not {value!r}")
        attribute, yes, no = FLAGS[key]
        return (lambda s: getattr(s, attribute) == value), yes if value else no
    if key == "holds":
        ranks = ranks_of(value, "holds")
        def holds(s: Seen) -> np.ndarray:
            held: np.ndarray = np.asarray(np.isin(s.ranks, list(ranks)).any(axis=1))
            return held
        named = [RANK_NAMES[r] for r in sorted(ranks, reverse=True)]
        return holds, f"holding a {' or a '.join(named)}" if len(named) <= 3 else f"holding one of {_rank_words(ranks)}"
    if key == "holds_all":
        ranks = ranks_of(value, "holds_all")

        def holds_all(s: Seen) -> np.ndarray:
            held = np.ones(len(s.ranks), bool)
            for r in ranks:
                held &= (s.ranks == r).any(axis=1)
            return held
        return holds_all, f"holding {' and '.join(RANK_NAMES[r] for r in sorted(ranks, reverse=True))}"
    if key == "group":
        ranks = ranks_of(value, "group")
        words = f"its pair (or more; without one, its highest card) {_rank_words(ranks)}"
        return (lambda s: np.isin(s.group, list(ranks))), words
    if key == "at_least":
        try:
            if not isinstance(value, str):
                raise ValueError("at_least is ranks written as text")
            sets = [rank_set(t, "at_least") for t in value.replace(",", " ").split()]
        except ValueError:
            sets = []
        floor = [min(r) if len(r) == 1 else -1 for r in sets]
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
    if key in ("up_below", "up_above"):
        return _up_against(key, value)
    if key == "highest_suited":
        return _highest_suited(value)
    if key in DRAWS:
        return _draw(key, value)
    if key == "to_straight":
        return _straight(value)
    raise ValueError(f"unknown condition {key!r} (known: {', '.join(CONDITIONS)})")


#: conditions true or false: what of ``Seen`` they read, their words when true and when false
FLAGS = {"up_matches": ("matches", "the up-card matches a card of the hand", "the up-card matches no card of the hand"),
         "up_matches_group": ("up_group", "the up-card has the rank of the hand's pair (or more)",
                              "the up-card has not the rank of the hand's pair (or more)"),
         "thrown_matches_up": ("thrown_up", "a card thrown away had the up-card's rank",
                               "no card thrown away had the up-card's rank")}
#: the conditions of a final hand alone (``[[after_draw]]``, ``[[insurance]]``): what the draw threw away
FINAL_HAND_ONLY = ("thrown_matches_up",)
#: draw conditions: the least and most cards they may ask for, what a person calls them
DRAWS = {"to_flush": (3, 5, "a flush"), "to_straight_flush": (3, 5, "a straight flush"),
         "to_royal": (2, 5, "a royal flush")}
#: straight draws: their words, what of ``Seen`` they count and the least and most of it
STRAIGHT_DRAWS = {"open": ("an open-ended straight draw (or a straight)", "straight_outs", 2, 13),
                  "inside": ("an inside straight draw", "straight_outs", 1, 1),
                  "any": ("four to a straight (or a straight)", "straight_outs", 1, 13),
                  "double": ("five cards of six ranks in a row (a sixth card of the missing rank pays two straights)"
                             " or a straight", "six_outs", 1, 2)}
CONDITIONS = ("category", "up", "up_matches", "up_matches_group", "holds", "holds_all", "group", "at_least",
              "up_below", "up_above", "highest_suited", *DRAWS, "to_straight", *FINAL_HAND_ONLY)


def _up_against(key: str, value: Any) -> tuple[Test, str]:
    """``up_below = 4``: the up-card ranks below the hand's 4th highest card; ``"group"``: below
    its pair (or trips; its highest card without one). ``up_above``: above them."""
    if value == "group":
        def card(s: Seen) -> np.ndarray:
            group: np.ndarray = s.group
            return group
        named = "pair (or more; without one, its highest card)"
    elif isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 5:
        def card(s: Seen) -> np.ndarray:
            nth: np.ndarray = s.ranks[:, value - 1]
            return nth
        named = f"{_ORDINAL[value]} card"
    else:
        raise ValueError(f"{key} must be a card's place in the hand from the highest, 1 to 5, or \"group\" (the "
                         f"hand's pair or trips), not {value!r}")
    if key == "up_below":
        return (lambda s: s.up < card(s)), f"the up-card below the hand's {named}"
    return (lambda s: s.up > card(s)), f"the up-card above the hand's {named}"


def _highest_suited(value: Any) -> tuple[Test, str]:
    """``highest_suited = 3``: a hand without a pair whose highest card shares its suit with its
    second- or third-highest card (``Seen.suited_place``)."""
    if not isinstance(value, int) or isinstance(value, bool) or not 2 <= value <= 5:
        raise ValueError(f"highest_suited must be a card's place in the hand from the highest, 2 to 5, not {value!r}")
    companion = "its second-highest" if value == 2 else f"its {_ORDINAL[value]} card or a higher one"
    words = f"no pair, the highest card suited with {companion}"
    return (lambda s: (s.suited_place >= 2) & (s.suited_place <= value)), words


def _draw(key: str, value: Any) -> tuple[Test, str]:
    """``to_flush = 4`` (n or more cards of one suit), ``to_straight_flush``, ``to_royal``."""
    least, most, name = DRAWS[key]
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= most:
        raise ValueError(f"{key} must be a number of cards, {least} to {most}, not {value!r}")

    def holds(s: Seen) -> np.ndarray:
        held: np.ndarray = getattr(s, key) >= value
        return held
    return holds, f"{value} or more cards to {name}"


def _straight(value: Any) -> tuple[Test, str]:
    """``to_straight = "open"``: four cards to a straight, completed by two ranks (or a straight
    made); ``"inside"``: by one rank; ``"any"``: either; ``"double"``: five cards one rank short
    of six in a row (4 5 6 8 9), or a straight, which a sixth card can make two straights."""
    if value not in STRAIGHT_DRAWS:
        raise ValueError(f"to_straight must be one of {', '.join(STRAIGHT_DRAWS)}, not {value!r}")
    words, counted, low, high = STRAIGHT_DRAWS[value]

    def holds(s: Seen) -> np.ndarray:
        outs: np.ndarray = getattr(s, counted)
        return (outs >= low) & (outs <= high)
    return holds, words


def header_lines(text: str, table: str) -> list[int]:
    """The line numbers (from 1) of the ``[[table]]`` headers of a TOML text, in order."""
    return [n for n, raw in enumerate(text.splitlines(), 1) if raw.strip().replace(" ", "") == f"[[{table}]]"]


def table_entries(text: str, path: str, table: str, entries: list[Any]) -> list[tuple[int, str, dict[str, Any]]]:
    """The entries of ``[[table]]`` with the line of each (where the error messages point)."""
    lines = header_lines(text, table)
    out = []
    for i, entry in enumerate(entries):
        line = lines[i] if i < len(lines) else 0
        where = f"strategy file {path}, line {line}" if line else f"strategy file {path}, rule {i + 1} of [[{table}]]"
        if not isinstance(entry, dict):
            raise InputError(f"{where}: a rule is a table of when and do")
        out.append((line, where, entry))
    return out


def read_when(entry: dict[str, Any], where: str, after: bool = False
              ) -> tuple[tuple[Test, ...], tuple[str, ...], tuple[tuple[str, Any], ...]]:
    """A rule's ``when``: its tests, their words and the conditions as (key, value) (``after``: a
    rule of the final hand after a draw, which has no draws but knows what was thrown away)."""
    when = entry.get("when", {})
    if not isinstance(when, dict):
        raise InputError(f"{where}: when must be a table of conditions, e.g. when = {{ category = \"pair+\" }}")
    # a final hand is played by its strength: its draws and its suits are not read
    unread = set(when) & {*DRAWS, "to_straight", "highest_suited"}
    if after and unread:
        raise InputError(f"{where}: a final hand has no draws, nor suits a rule reads ({sorted(unread)[0]})")
    if not after and (set(when) & set(FINAL_HAND_ONLY)):
        raise InputError(f"{where}: {sorted(set(when) & set(FINAL_HAND_ONLY))[0]} is a condition of the final hand "
                         "([[after_draw]], [[insurance]]); nothing is thrown away before the first decision")
    try:
        parts = [condition(key, value) for key, value in when.items()]
    except ValueError as exc:
        raise InputError(f"{where}: {exc}") from None
    return tuple(t for t, _ in parts), tuple(w for _, w in parts), tuple(when.items())
