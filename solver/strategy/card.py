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
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from .. import toml_text
from ..action import KINDS, SIXTH_CARD, exchange_code
from ..cards import RANK_NAMES, format_cards
from ..errors import InputError, shown
from ..play import BEST, NEVER, Play
from ..rules import LIMITS, Rules
from ..rules import load as load_rules
from . import after_draw, chart
from .after_draw import first_holding
from .chart import ChartRow
from .conditions import Test, read_when, table_entries
from .hands import Seen
from .keep import NO_HAND, Keep

#: the first actions a rule may take; ``exchange`` says what it keeps (``keep``); ``optimal``: the
#: solver's best first action for that deal (``except = "sixth_card"``: its best other than a sixth card)
FIRST_ACTIONS = ("bet", "fold", "sixth_card", "exchange", "optimal")
#: what ``except`` may leave out of ``optimal``
EXCEPT = ("sixth_card",)
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
    chart: tuple[tuple[str, tuple[ChartRow, ...]], ...] = ()    # a chart's rows, by their table, if it is one
    chart_codes: tuple[tuple[str, str], ...] = ()   # a chart's codes and the actions they stand for

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


def parse(text: str, path: str) -> StrategyCard:
    """A strategy card from the text of its file; one clear error naming the line otherwise."""
    data = toml_text.parse(text, f"strategy file {path}")
    unknown = set(data) - {"name", "rules", "first", "after_draw", *PLAY, "codes", *chart.SECTIONS}
    if unknown:
        raise InputError(f"strategy file {path}: unknown key {sorted(unknown)[0]!r} (known: name, rules, first, "
                         f"after_draw, insurance, buy_game; a chart's codes, {', '.join(chart.SECTIONS)})")
    if not isinstance(data.get("rules"), str) or not data["rules"]:
        raise InputError(f"strategy file {path}: it must say which rules it is for (rules = \"caribbean\", a preset "
                         "or a rules file)")
    codes = chart.codes_of(data.get("codes"), path)
    rows = {t: chart.rows(text, path, t, data[t], codes) for t in chart.SECTIONS if t in data}
    first = _entries_or_rows(text, path, data, "first", rows)
    if not first:
        raise InputError(f"strategy file {path}: no rules for the first decision (a [[first]] table for each, or "
                         "a chart's [[first_row]] rows)")
    rules = []
    for line, where, entry in first:
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
        tests, words, conditions = read_when(entry, where)
        rules.append(Rule(line, tests, words, action, keep, avoid, conditions))
    insurance: tuple[Rule, ...] = ()
    insured: bytes | None = None
    insure_from: int | None
    if isinstance(data.get("insurance"), list) or "insurance_row" in rows:
        insurance = _insurance_rules(_entries_or_rows(text, path, data, "insurance", rows) or [])
        insured = after_draw.rule_table(insurance, "most", path, "insurance", (False, True)).tobytes()
        insure_from, insure_line = 0, insurance[0].line
    else:
        insure_from, insure_line = _play(text, path, "insurance", data.get("insurance"))
    buy_from, buy_line = _play(text, path, "buy_game", data.get("buy_game"))
    card = StrategyCard(str(data.get("name") or Path(path).stem), data["rules"], tuple(rules), path,
                        _after_draw(text, path, data, rows), Play(insure_from, buy_from, insured),
                        (insure_line, buy_line), insurance, hashlib.sha256(text.encode()).hexdigest(),
                        tuple(rows.items()), tuple(codes.items()) if rows else ())
    _ = card.after_table   # a final hand no rule decides is an error now, not in the check
    return card


def _entries_or_rows(text: str, path: str, data: dict[str, Any], table: str,
                     rows: dict[str, tuple[chart.ChartRow, ...]]) -> list[tuple[int, str, dict[str, Any]]] | None:
    """The rules of ``[[table]]`` (line, where, entry), or those its chart's rows stand for; None
    where the card gives neither."""
    if f"{table}_row" in rows:
        if table in data:
            raise InputError(f"strategy file {path}: {table} is given twice, as [[{table}]] rules and as "
                             f"[[{table}_row]] rows: keep one")
        return chart.compiled(rows[f"{table}_row"], path, table)
    entries = data.get(table)
    if entries is None:
        return None
    if not isinstance(entries, list):
        raise InputError(f"strategy file {path}: {table} is a list of rules ([[{table}]] tables)")
    return table_entries(text, path, table, entries)


def _after_draw(text: str, path: str, data: dict[str, Any], rows: dict[str, tuple[chart.ChartRow, ...]]
                ) -> tuple[Rule, ...]:
    """The rules of ``[[after_draw]]`` (or a chart's ``[[after_draw_row]]``): bet or fold the final
    hand after a draw; none (or ``after_draw = "optimal"``): the solver's decision."""
    entries = data.get("after_draw")
    if "after_draw_row" not in rows and (entries is None or entries == "optimal"):
        return ()
    if "after_draw_row" not in rows and (not isinstance(entries, list) or not entries):
        raise InputError(f"strategy file {path}: after_draw is \"optimal\" or a list of rules ([[after_draw]] "
                         f"tables), not {entries!r}")
    rules = []
    for line, where, entry in _entries_or_rows(text, path, data, "after_draw", rows) or []:
        extra = set(entry) - {"when", "do"}
        if extra:
            raise InputError(f"{where}: unknown key {sorted(extra)[0]!r} (a rule after the draw has when and do)")
        if entry.get("do") not in after_draw.ACTIONS:
            raise InputError(f"{where}: after the draw do must be one of {', '.join(after_draw.ACTIONS)}, "
                             f"not {entry.get('do')!r}")
        tests, words, when = read_when(entry, where, after=True)
        rules.append(Rule(line, tests, words, entry["do"], when=when))
    return tuple(rules)


#: what an [[insurance]] rule may do with a final hand that may insure
INSURE = ("most", "none")


def _insurance_rules(entries: list[tuple[int, str, dict[str, Any]]]) -> tuple[Rule, ...]:
    """``[[insurance]]``: insure the most or not, by the final hand, the up-card and whether a
    card thrown away had its rank (the first rule that holds decides; a hand of less than three
    of a kind never insures: RULES §6)."""
    rules = []
    for line, where, entry in entries:
        extra = set(entry) - {"when", "do"}
        if extra:
            raise InputError(f"{where}: unknown key {sorted(extra)[0]!r} (an insurance rule has when and do)")
        if entry.get("do") not in INSURE:
            raise InputError(f"{where}: an insurance rule's do must be one of {', '.join(INSURE)}, "
                             f"not {entry.get('do')!r}")
        tests, words, when = read_when(entry, where, after=True)
        rules.append(Rule(line, tests, words, entry["do"], when=when))
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
    if rules is not None:
        own = load_rules(card.rules)
        if own.fingerprint != rules.fingerprint:
            raise InputError(f"the card {path} is for the rules {own.name!r}, not {rules.name!r}: add --rules "
                             f"{card.rules}")
    return card
