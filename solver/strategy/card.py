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

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from .. import toml_text
from ..action import KINDS, SIXTH_CARD, exchange_code
from ..cards import RANK_NAMES, format_cards
from ..category import CATEGORIES, LABELS
from ..errors import InputError, shown
from ..play import BEST, NEVER, Play
from ..rules import LIMITS, Rules
from ..rules import load as load_rules
from . import after_draw
from .after_draw import first_holding
from .hands import Seen
from .keep import NO_HAND, Keep, rank_set

#: the first actions a rule may take; ``exchange`` says what it keeps (``keep``); ``optimal``: the
#: solver's best first action for that deal (``except = "sixth_card"``: its best other than a sixth card)
FIRST_ACTIONS = ("bet", "fold", "sixth_card", "exchange", "optimal")
#: what ``except`` may leave out of ``optimal``
EXCEPT = ("sixth_card",)
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


@dataclass(frozen=True)
class Rule:
    """One line of the card: its conditions (all must hold) and the first action they take."""

    line: int                                   # the line of the file where it starts
    tests: tuple[Test, ...]
    conditions: tuple[str, ...]                 # in plain words
    action: str
    keep: Keep | None = None                    # an exchange's cards kept
    avoid: str | None = None                    # ``optimal`` except this kind of action
    when: tuple[tuple[str, Any], ...] = ()      # the conditions as the file states them (key, value)

    def holds(self, seen: Seen) -> np.ndarray:
        out = np.ones(len(seen.up), bool)
        for test in self.tests:
            out &= test(seen)
        return out

    def words(self) -> str:
        return f"{', '.join(self.conditions) or 'any hand'}: {self.action_words()}"

    def action_words(self) -> str:
        """The action in plain words: ``bet``, ``sixth card``, ``keep the pair``, ``optimal``."""
        if self.keep is not None:
            return self.keep.text()
        if self.avoid is not None:
            return f"optimal, but no {self.avoid.replace('_', ' ')}"
        return self.action.replace("_", " ")


@dataclass(frozen=True)
class StrategyCard:
    """A strategy card: its name, the rules it is for (a preset's name or a rules file), the
    rules of the first decision, in order, those of the bet or fold after a draw (none: the
    solver's decision, ``optimal``), and how it insures and buys a game (``play``; with the line
    of the file that says so, ``play_lines``, 0 where it is left optimal)."""

    name: str
    rules: str
    first: tuple[Rule, ...]
    path: str
    after_draw: tuple[Rule, ...] = ()
    play: Play = BEST
    play_lines: tuple[int, int] = (0, 0)
    insurance: tuple[Rule, ...] = ()            # the [[insurance]] rules, when the card states them so
    digest: str = ""                            # the SHA-256 of its file's text: what checked figures name

    def check_play(self, rules: Rules) -> None:
        """A rule the rules cannot play — a first action they do not offer, a decision after a draw
        without draws, insurance or buying a game they do not offer or cannot count — is an error
        naming its line, before any work."""
        for rule in self.first:
            offered = {"sixth_card": rules.sixth_card, "exchange": rules.exchange}.get(rule.action, True)
            if not offered:
                raise InputError(f"strategy file {self.path}, line {rule.line}: the rules {rules.name!r} offer no "
                                 f"{'sixth card' if rule.action == 'sixth_card' else 'exchange'}")
        if self.after_draw and not rules.draws:
            raise InputError(f"strategy file {self.path}, line {self.after_draw[0].line}: the rules {rules.name!r} "
                             "have no exchange and no sixth card, so no decision after a draw ([[after_draw]])")
        for line, stated, offered, what in ((self.play_lines[0], self.play.insure_from, rules.insurance, "insurance"),
                                            (self.play_lines[1], self.play.buy_from, rules.buy_game,
                                             "buying a game")):
            if stated is not None and not offered:
                raise InputError(f"strategy file {self.path}, line {line}: the rules {rules.name!r} offer no {what}")
            most = max(rules.paytable) * (2 if rules.second_combination else 1)
            if stated is not None and most < stated < NEVER:
                raise InputError(f"strategy file {self.path}, line {line}: no hand pays P >= {stated} under the rules "
                                 f"{rules.name!r} (at most {most}): write do = \"never\"")
        try:
            self.play.check(rules)
        except InputError as exc:
            raise InputError(f"strategy file {self.path}, line {max(self.play_lines)}: {exc}") from None

    @cached_property
    def after_table(self) -> np.ndarray | None:
        """The bet (1) or fold (0) after a draw of every final strength against every up-card
        rank, whether a card thrown away had its rank or not (``after_draw.bet_table``; resolved
        once, when the card is read); None when the solver decides."""
        return after_draw.bet_table(self) if self.after_draw else None

    def decide(self, seen: Seen) -> np.ndarray:
        """The index of the rule that decides each deal (the first that holds), -1 for none."""
        return first_holding(self.first, seen)

    def decide_after(self, seen: Seen) -> np.ndarray:
        """The index of the ``after_draw`` rule that decides each final hand, -1 for none."""
        return first_holding(self.after_draw, seen)

    def codes(self, seen: Seen, line: np.ndarray, rules: Rules, best: np.ndarray,
              second: np.ndarray | None = None) -> np.ndarray:
        """The first action each deal's rule (``line``: ``decide``) takes, as a strategy table
        codes it over the deal's cards (``Action.code``), under ``rules``; ``best`` and ``second``:
        the table codes of the best action and the runner-up. A rule whose action a deal cannot take
        (an exchange of a count the rules do not offer, a keep naming no card) is an error naming
        its line and such a deal."""
        out = np.empty(len(seen), np.int64)
        for i, rule in enumerate(self.first):
            at = np.flatnonzero(line == i)
            if not len(at):
                continue
            where = f"strategy file {self.path}, line {rule.line}"
            if rule.action == "optimal":
                code = best[at]
                if rule.avoid == "sixth_card":
                    if second is None:   # pragma: no cover - every table keeps its runner-up
                        raise InputError(f"{where}: the runner-up of each deal is not known")
                    code = np.where(code == SIXTH_CARD, second[at], code)
            elif rule.action != "exchange":   # offered by the rules: check_play
                code = np.full(len(at), KINDS.index(rule.action))
            else:
                assert rule.keep is not None
                kept = rule.keep.kept(seen.take(at))
                throw = 31 & ~kept
                counts = np.asarray([bin(t).count("1") for t in range(32)])[throw]
                bad = (kept == NO_HAND) | ~np.isin(counts, rules.exchange_counts)
                if bad.any():
                    k = int(np.argmax(bad))
                    up = RANK_NAMES[seen.up[at[k]]]
                    deal = f"{format_cards(seen.hands[at[k]].tolist())} against the up-card {up}"
                    if kept[k] == NO_HAND:
                        why = f"{rule.keep.text()} names no card of {deal}"
                    elif counts[k] == 0:
                        why = f"{rule.keep.text()} keeps all five cards of {deal}: that is no exchange"
                    else:
                        allowed = ", ".join(map(str, rules.exchange_counts)) or "none"
                        why = (f"{rule.keep.text()} exchanges {counts[k]} cards of {deal}; the rules {rules.name!r} "
                               f"allow exchanging {allowed}")
                    raise InputError(f"{where}: {why}")
                code = exchange_code(throw)
            out[at] = code
        return out


def _header_lines(text: str, table: str) -> list[int]:
    """The line numbers (from 1) of the ``[[table]]`` headers of a TOML text, in order."""
    return [n for n, raw in enumerate(text.splitlines(), 1) if raw.strip().replace(" ", "") == f"[[{table}]]"]


def parse(text: str, path: str) -> StrategyCard:
    """A strategy card from the text of its file; one clear error naming the line otherwise."""
    data = toml_text.parse(text, f"strategy file {path}")
    unknown = set(data) - {"name", "rules", "first", "after_draw", *PLAY}
    if unknown:
        raise InputError(f"strategy file {path}: unknown key {sorted(unknown)[0]!r} (known: name, rules, first, "
                         "after_draw, insurance, buy_game)")
    if not isinstance(data.get("rules"), str) or not data["rules"]:
        raise InputError(f"strategy file {path}: it must say which rules it is for (rules = \"caribbean\", a preset "
                         "or a rules file)")
    first = data.get("first")
    if not isinstance(first, list) or not first:
        raise InputError(f"strategy file {path}: no rules for the first decision (a [[first]] table for each)")
    rules = []
    for line, where, entry in _entries(text, path, "first", first):
        extra = set(entry) - {"when", "do", "keep", "except"}
        if extra:
            raise InputError(f"{where}: unknown key {sorted(extra)[0]!r} (a rule has when, do, keep and except)")
        action = entry.get("do")
        if action not in FIRST_ACTIONS:
            raise InputError(f"{where}: do must be one of {', '.join(FIRST_ACTIONS)}, not {action!r}")
        if ("keep" in entry) != (action == "exchange"):
            raise InputError(f"{where}: " + ("an exchange says what it keeps, e.g. keep = \"pair\""
                                              if action == "exchange" else "keep goes with do = \"exchange\""))
        avoid = entry.get("except")
        if avoid is not None and (action != "optimal" or avoid not in EXCEPT):
            raise InputError(f"{where}: except goes with do = \"optimal\" and may be {', '.join(EXCEPT)}, "
                             f"not {avoid!r}")
        try:
            keep = Keep.parse(entry["keep"]) if "keep" in entry else None
        except ValueError as exc:
            raise InputError(f"{where}: {exc}") from None
        tests, words = _conditions(entry, where)
        rules.append(Rule(line, tests, words, action, keep, avoid, _when(entry)))
    insurance: tuple[Rule, ...] = ()
    when: bytes | None = None
    insure_from: int | None
    if isinstance(data.get("insurance"), list):
        insurance = _insurance_rules(text, path, data["insurance"])
        when = after_draw.rule_table(insurance, "most", path, "insurance", (False, True)).tobytes()
        insure_from, insure_line = 0, insurance[0].line
    else:
        insure_from, insure_line = _play(text, path, "insurance", data.get("insurance"))
    buy_from, buy_line = _play(text, path, "buy_game", data.get("buy_game"))
    card = StrategyCard(str(data.get("name") or Path(path).stem), data["rules"], tuple(rules), path,
                        _after_draw(text, path, data.get("after_draw")), Play(insure_from, buy_from, when),
                        (insure_line, buy_line), insurance, hashlib.sha256(text.encode()).hexdigest())
    _ = card.after_table   # a final hand no rule decides is an error now, not in the check
    return card


def _entries(text: str, path: str, table: str, entries: list[Any]) -> list[tuple[int, str, dict[str, Any]]]:
    """The entries of ``[[table]]`` with the line of each (where the error messages point)."""
    lines = _header_lines(text, table)
    out = []
    for i, entry in enumerate(entries):
        line = lines[i] if i < len(lines) else 0
        where = f"strategy file {path}, line {line}" if line else f"strategy file {path}, rule {i + 1} of [[{table}]]"
        if not isinstance(entry, dict):
            raise InputError(f"{where}: a rule is a table of when and do")
        out.append((line, where, entry))
    return out


def _conditions(entry: dict[str, Any], where: str, after: bool = False) -> tuple[tuple[Test, ...], tuple[str, ...]]:
    """A rule's ``when``: its tests and their words (``after``: a rule of the final hand after a
    draw, which has no draws but knows what was thrown away)."""
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
    return tuple(t for t, _ in parts), tuple(w for _, w in parts)


def _when(entry: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """A rule's conditions (read by ``_conditions`` first, which names any error) as (key, value)."""
    return tuple(entry.get("when", {}).items())


def _after_draw(text: str, path: str, entries: Any) -> tuple[Rule, ...]:
    """The rules of ``[[after_draw]]``: bet or fold the final hand after a draw; none (or
    ``after_draw = "optimal"``): the solver's decision."""
    if entries is None or entries == "optimal":
        return ()
    if not isinstance(entries, list) or not entries:
        raise InputError(f"strategy file {path}: after_draw is \"optimal\" or a list of rules ([[after_draw]] "
                         f"tables), not {entries!r}")
    rules = []
    for line, where, entry in _entries(text, path, "after_draw", entries):
        extra = set(entry) - {"when", "do"}
        if extra:
            raise InputError(f"{where}: unknown key {sorted(extra)[0]!r} (a rule after the draw has when and do)")
        if entry.get("do") not in after_draw.ACTIONS:
            raise InputError(f"{where}: after the draw do must be one of {', '.join(after_draw.ACTIONS)}, "
                             f"not {entry.get('do')!r}")
        tests, words = _conditions(entry, where, after=True)
        rules.append(Rule(line, tests, words, entry["do"], when=_when(entry)))
    return tuple(rules)


#: what an [[insurance]] rule may do with a final hand that may insure
INSURE = ("most", "none")


def _insurance_rules(text: str, path: str, entries: list[Any]) -> tuple[Rule, ...]:
    """``[[insurance]]``: insure the most or not, by the final hand, the up-card and whether a
    card thrown away had its rank (the first rule that holds decides; a hand of less than three
    of a kind never insures: RULES §6)."""
    rules = []
    for line, where, entry in _entries(text, path, "insurance", entries):
        extra = set(entry) - {"when", "do"}
        if extra:
            raise InputError(f"{where}: unknown key {sorted(extra)[0]!r} (an insurance rule has when and do)")
        if entry.get("do") not in INSURE:
            raise InputError(f"{where}: an insurance rule's do must be one of {', '.join(INSURE)}, "
                             f"not {entry.get('do')!r}")
        tests, words = _conditions(entry, where, after=True)
        rules.append(Rule(line, tests, words, entry["do"], when=_when(entry)))
    return tuple(rules)


#: the highest payout multiple any rules can pay: a main and a second combination each at the most a
#: paytable may pay
MOST_PAID = 2 * LIMITS["paytable"][1]

#: the later decisions of a bet a card may state, and what each may do (the second, "the most"
#: or "buy", may be limited to the hands that pay P >= k: ``pays_at_least``)
PLAY = {"insurance": ("never", "most", "optimal"), "buy_game": ("never", "buy", "optimal")}


def _play(text: str, path: str, key: str, value: Any) -> tuple[int | None, int]:
    """``insurance`` / ``buy_game``: "optimal" (or absent), "never", the most insurance / a game
    bought whenever the dealer does not qualify ("most" / "buy"), as a word or as a table with
    ``do`` and ``pays_at_least``: the ``Play`` threshold (None optimal) and the line it is on."""
    lines = [n for n, raw in enumerate(text.splitlines(), 1)
             if raw.strip().replace(" ", "") == f"[{key}]" or raw.strip().replace(" ", "").startswith(f"{key}=")]
    line = lines[0] if lines else 0
    where = f"strategy file {path}, line {line}" if line else f"strategy file {path}"
    if value is None:
        return None, 0
    choices = PLAY[key]
    entry = value if isinstance(value, dict) else {"do": value}
    extra = set(entry) - {"do", "pays_at_least"}
    if extra:
        raise InputError(f"{where}: unknown key {sorted(extra)[0]!r} ({key} has do and pays_at_least)")
    do, least = entry.get("do"), entry.get("pays_at_least")
    if do not in choices:
        raise InputError(f"{where}: {key} must be one of {', '.join(choices)}, not {do!r}")
    if least is not None and (do != choices[1] or not isinstance(least, int) or isinstance(least, bool)
                              or not 1 <= least <= MOST_PAID):
        raise InputError(f"{where}: pays_at_least goes with do = \"{choices[1]}\" and is a payout multiple "
                         f"from 1 to {MOST_PAID:,} (the hand pays P to 1), not {shown(least)}")
    if do == "optimal":
        return None, line
    return (NEVER if do == "never" else least or 0), line


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
    return parse(toml_text.read(p, f"strategy file {p}"), str(p))


def load_for(path: str | Path, rules: Rules | None = None) -> StrategyCard:
    """The card :func:`load` reads, which must be for ``rules`` (None: any rules; the card's own
    are ``load_rules(card.rules)``): a card played under other rules would answer for another game."""
    card = load(path)
    if rules is not None and load_rules(card.rules).fingerprint != rules.fingerprint:
        raise InputError(f"the card {path} is for the rules {load_rules(card.rules).name!r}, the deals are played "
                         f"under {rules.name!r}: add --rules {card.rules}")
    return card
