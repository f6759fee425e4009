"""A strategy card in a player's words, and those words read back into its lines.

Each line of a card becomes a short phrase, as video-poker strategy lists are written:
"pair or more of 4s–Ks, with A K: bet"; "6–Q high, up-card 7–A, above your 4th: fold".
The words leave out what the lines above already imply: a condition is dropped, or stated more
simply (an "at least A K 2" as "with A K"), only where the line then decides exactly the same
deals among those that reach it — every hand up to its suits against every up-card rank for the
first decision (``dealt``), every final hand against every up-card rank, a card of its rank thrown
away or not, for the later ones (``final``). So the card read back from its words (``read_line``)
plays every deal as the card does, and its exact check gives the same figures. A phrase names the
hand's pair or its high card as the deals its line decides hold them (``noun``).

>>> phrase("group", "4-K", "pair"), phrase("up_above", 4, "high card"), phrase("to_flush", 4, "")
('pair of 4s–Ks', 'up-card above your 4th', '4 to a flush')
>>> read_line("6–Q high, up-card 7–A, above your 4th: fold")
Line(when=(('group', '6-Q'), ('up', '7-A'), ('up_above', 4)), action='fold')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

import numpy as np

from ..cards import RANK_NAMES
from ..category import FOUR_OF_A_KIND, FULL_HOUSE, PAIR, THREE_OF_A_KIND, TWO_PAIR
from ..classes import hand_classes
from ..errors import InputError
from ..play import NEVER, Play
from ..rules import load as load_rules
from .after_draw import final_hands
from .card import Rule, StrategyCard
from .chart import ChartRow, entry_of
from .conditions import condition, ranks_of
from .hands import Seen
from .keep import Keep
from .vocabulary import Line

#: the hand categories as a player says them
CATEGORY_WORDS = {"no_game": "no game", "ak": "an AK", "pair": "one pair", "two_pair": "two pair",
                  "three_of_a_kind": "trips", "straight": "a straight", "flush": "a flush",
                  "full_house": "a full house", "four_of_a_kind": "four of a kind",
                  "straight_flush": "a straight flush", "royal_flush": "a royal flush"}
#: what a keep word keeps, as a player says it
KEEP_WORDS = {"pair": "the pair", "two_pair": "two pair", "trips": "the trips", "quads": "the quads",
              "highest": "the high card", "highest_suited": "the suited two", "flush": "the flush draw",
              "straight": "the straight draw", "straight_flush": "the straight flush draw",
              "royal": "the royal draw"}
#: a category "or better", where a player says it otherwise
BETTER_WORDS = {"pair": "a pair"}
#: the other actions as a player says them (an exchange is "keep ...")
ACTION_WORDS = {"bet": "bet", "fold": "fold", "sixth_card": "sixth card", "optimal": "play the best",
                "optimal except sixth_card": "play the best but no sixth card", "most": "insure the most",
                "none": "do not insure", "keep nothing": "draw five"}
STRAIGHT_WORDS = {"open": "open straight draw", "inside": "inside straight draw", "any": "4 to a straight",
                  "double": "double straight draw"}
DRAW_WORDS = {"to_flush": "a flush", "to_straight_flush": "a straight flush", "to_royal": "a royal"}
PLACES = ("", "top", "2nd", "3rd", "4th", "5th")
FLAG_WORDS = {"up_matches": ("up-card in your hand", "up-card not in your hand"),
              "up_matches_group": ("up-card of your {} rank", "up-card not of your {} rank"),
              "thrown_matches_up": ("up-card's rank thrown", "no up-card's rank thrown")}
#: the names of the hand's largest group, as ``noun`` gives them
NOUNS = ("pair", "trips", "pair or more", "high card", "pair or high card")
UP = "up-card "
ANY = ("any hand", "any other hand")


def _run_words(ranks: frozenset[int], plural: bool = False) -> str:
    """Ranks as runs, "7–A", "2–6 or 9" (``plural``: "7s–As")."""
    s = "s" if plural else ""
    runs: list[list[int]] = []
    for r in sorted(ranks):
        if runs and r == runs[-1][-1] + 1:
            runs[-1].append(r)
        else:
            runs.append([r])
    return " or ".join(f"{RANK_NAMES[a[0]]}{s}" if len(a) == 1 else f"{RANK_NAMES[a[0]]}{s}–{RANK_NAMES[a[-1]]}{s}"
                       for a in runs)


def phrase(key: str, value: Any, noun: str) -> str:
    """One condition of a card in a player's words (``noun``: what the hand's pair or high card is
    called on the deals of its line; see ``noun``)."""
    if key == "category":
        category = value.removesuffix("+")
        if value.endswith("+"):
            return f"{BETTER_WORDS.get(category, CATEGORY_WORDS[category])} or better"
        return CATEGORY_WORDS[category]
    if key in FLAG_WORDS:
        return FLAG_WORDS[key][0 if value else 1].format(_possessive(noun))
    if key == "up":
        return UP + _run_words(ranks_of(value, key))
    if key in ("holds", "holds_all"):
        ranks = sorted(ranks_of(value, key), reverse=True)
        if key == "holds_all" and len(ranks) > 1:
            return "with " + " ".join(RANK_NAMES[r] for r in ranks)
        if len(ranks) <= 2:
            return f"with {_article(ranks[0])} " + " or ".join(RANK_NAMES[r] for r in ranks)
        return "with one of " + _run_words(frozenset(ranks))
    if key == "group":
        if noun == "high card":
            return _run_words(ranks_of(value, key)) + " high"
        plural = _run_words(ranks_of(value, key), plural=True)
        return f"{noun} {_run_words(ranks_of(value, key))}" if noun == "pair or high card" else f"{noun} of {plural}"
    if key == "at_least":
        tokens = value.replace(",", " ").split()
        while len(tokens) > 1 and tokens[-1] == "2":      # at least a 2 holds of every card
            tokens.pop()
        return " ".join(tokens) + " or better"
    if key in ("up_below", "up_above"):
        place = noun if value == "group" else PLACES[value]
        return f"{UP}{key[3:]} your {place}"
    if key == "highest_suited":
        if value == 2:
            return "top two suited"
        return "top card suited with another" if value == 5 else f"top card suited with your 2nd–{PLACES[value]}"
    if key in DRAW_WORDS:
        return f"{value} to {DRAW_WORDS[key]}"
    if key == "to_straight":
        return STRAIGHT_WORDS[value]
    raise ValueError(f"no words for the condition {key!r}")


def _article(rank: int) -> str:
    return "an" if RANK_NAMES[rank] in ("A", "8") else "a"


def _possessive(noun: str) -> str:
    return f"{noun}'" if noun.endswith("s") else f"{noun}'s"


def noun(seen: Seen, decided: np.ndarray) -> str:
    """What the hand's largest group (``group``) is called on the deals ``decided``: "pair" where
    each holds one pair (or two: the higher), "trips", "pair or more", "high card" where none holds
    two cards of a rank, else "pair or high card"."""
    cats = set(np.unique(seen.category[decided]).tolist())
    paired = {PAIR, TWO_PAIR, THREE_OF_A_KIND, FULL_HOUSE, FOUR_OF_A_KIND}
    if not cats or not (cats <= paired or not cats & paired):
        return NOUNS[4]
    if cats <= {PAIR, TWO_PAIR}:
        return NOUNS[0]
    if cats == {THREE_OF_A_KIND}:
        return NOUNS[1]
    return NOUNS[2] if cats <= paired else NOUNS[3]


def _simpler(key: str, value: Any) -> list[tuple[str, Any]]:
    """Conditions that may say the same as (key, value) more simply where the lines above hold:
    "at least A K 7" as "with A", "with A K", "with A K 7"."""
    if key != "at_least":
        return []
    tokens = value.replace(",", " ").split()
    if len(set(tokens)) != len(tokens) or any("-" in t or "+" in t for t in tokens):
        return []
    return [("holds_all" if n > 1 else "holds", " ".join(tokens[:n])) for n in range(1, len(tokens) + 1)]


@dataclass(frozen=True)
class Phrased:
    """A line of the card in a player's words: its number on the card, its conditions' phrases,
    its action's, and the action (``do``, ``keep ...``), which the chart colours."""

    number: int
    conditions: tuple[str, ...]
    action: str
    do: str

    @property
    def text(self) -> str:
        """The line as one phrase: ``pair of 4s–Ks, with A K: bet``."""
        return f"{', '.join(self.conditions) or ANY[self.number > 1]}: {self.action}"


def _action(rule: Rule) -> tuple[str, str]:
    """A rule's action as a player says it, and as ``Line.action`` writes it."""
    if rule.keep is not None:
        spec = " ".join([*rule.keep.words, *(RANK_NAMES[r] for r in sorted(rule.keep.ranks, reverse=True))])
        if spec == "nothing":
            return ACTION_WORDS["keep nothing"], "keep nothing"
        parts = [KEEP_WORDS[w] for w in rule.keep.words]
        if rule.keep.ranks:      # "keep A K"; a run of three ranks or more: every card of them, "keep every J–A"
            ranks = rule.keep.ranks
            run = len(ranks) >= 3 and max(ranks) - min(ranks) == len(ranks) - 1
            parts.append(f"every {_run_words(ranks)}" if run else " ".join(RANK_NAMES[r] for r in sorted(ranks,
                                                                                                      reverse=True)))
        return "keep " + " and ".join(parts), f"keep {spec}"
    do = f"{rule.action} except {rule.avoid}" if rule.avoid else rule.action
    return ACTION_WORDS[do], do


def simplified(rules: Sequence[Rule], seen: Seen) -> list[tuple[tuple[tuple[str, Any], ...], np.ndarray]]:
    """Each rule's conditions with those the rules above imply left out or said more simply
    (``_simpler``), and the deals of ``seen`` it decides: the same deals as the rule as written."""
    reach = np.ones(len(seen), bool)
    out = []
    for rule in rules:
        when = list(rule.when)
        masks = [condition(k, v)[0](seen) for k, v in when]
        decided = reach.copy()
        for m in masks:
            decided &= m
        # the longest words first: leaving them out saves most
        for item in sorted(rule.when, key=lambda kv: -len(condition(*kv)[1])):
            i = when.index(item)
            others = reach.copy()
            for m in masks[:i] + masks[i + 1:]:
                others &= m
            if np.array_equal(others, decided):
                del when[i], masks[i]
                continue
            for simpler in _simpler(*item):
                m = condition(*simpler)[0](seen)
                if np.array_equal(others & m, decided):
                    when[i], masks[i] = simpler, m
                    break
        out.append((_held_together(when), decided))
        reach &= ~decided
    return out


def _held_together(when: list[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
    """Single ranks held, said together: "with an A", "with a K" as "with A K" (``holds_all``)."""
    single = [v for k, v in when if k in ("holds", "holds_all") and len(ranks_of(v, k)) == 1
              or k == "holds_all"]
    if len(single) < 2:
        return tuple(when)
    ranks = frozenset().union(*(ranks_of(v, "holds") for v in single))
    rest = [(k, v) for k, v in when if v not in single or k not in ("holds", "holds_all")]
    return (*rest, ("holds_all", " ".join(RANK_NAMES[r] for r in sorted(ranks, reverse=True))))


def _phrases(when: tuple[tuple[str, Any], ...], called: str) -> tuple[str, ...]:
    """A line's conditions in words, the up-card's first (after the first, without "up-card");
    "trips" goes without saying beside "trips of 2s–Qs" (which reads back as both)."""
    if called == NOUNS[1] and any(k == "group" for k, _ in when):
        when = tuple(c for c in when if c != ("category", "three_of_a_kind"))
    # the up-card's ranks first: "up-card 2–J, in your hand"
    said = [phrase(k, v, called) for k, v in sorted(when, key=lambda c: c[0] != "up")]
    held = [p for p in said if p.startswith("with ")]
    if len(held) == 2 and sum(p.startswith(("with a ", "with an ", "with one of ")) for p in held) == 1:
        both, some = sorted(held, key=lambda p: p.startswith(("with a ", "with an ", "with one of ")))
        said = [p for p in said if p not in held] + [f"{both} and {some.removeprefix('with ')}"]
    ups = [p for p in said if p.startswith(UP)]
    rest = [p for p in said if not p.startswith(UP)]
    return (*rest, *ups[:1], *(p[len(UP):] for p in ups[1:]))


def _concatenated(parts: Sequence[Seen]) -> Seen:
    return Seen(**{f.name: np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(Seen)})


@cache
def dealt() -> Seen:
    """Every hand up to its suits against every up-card rank it leaves in the deck (1,747,811
    rows): all a first decision's rule reads of every deal."""
    hands, _ = hand_classes()
    held = ((hands[:, :, None] >> 2) == np.arange(13)).sum(axis=1)
    rows, up = np.nonzero(held < 4)
    return Seen.of(hands[rows], (4 * up).astype(np.uint8))


@cache
def final(insuring: bool) -> Seen:
    """Every final hand (one of each strength) against every up-card rank, a card of its rank
    thrown away or not; ``insuring``: those of three of a kind or better, the hands that insure."""
    hands = final_hands()
    base = Seen.of(hands, np.zeros(len(hands), np.uint8))
    if insuring:
        base = base.take(np.flatnonzero(base.category >= THREE_OF_A_KIND))
    return _concatenated([base.facing(up, thrown) for thrown in (False, True) for up in range(13)])


@dataclass(frozen=True)
class GridRow:
    """A chart's row in a player's words: its number, its hand group's words, the action of each
    up-card rank's cell (a player's words), and of its split cells (None: not split)."""

    number: int
    words: str
    cells: tuple[str | None, ...]
    split: tuple[str | None, ...] | None


#: a cell no deal reaches, as the grid prints it
EMPTY = "·"
#: what a chart's split cells are, by decision
SPLIT_WORDS = {"first": "up-card in your hand", "after_draw": "up-card's rank thrown",
               "insurance": "up-card's rank thrown"}


@dataclass(frozen=True)
class CardWords:
    """A card in a player's words: its name and rules, the lines of each decision it states
    (``first``, ``after_draw``, ``insurance``; ``after_draw`` empty where the solver decides), its
    insurance and buying a game, each a sentence (``play``); a chart's rows by decision (``grids``)
    with the codes its cells are printed in."""

    name: str
    rules: str
    first: tuple[Phrased, ...]
    after_draw: tuple[Phrased, ...]
    insurance: tuple[Phrased, ...]
    play: tuple[str, ...]
    grids: tuple[tuple[str, tuple[GridRow, ...]], ...] = ()
    codes: tuple[tuple[str, str], ...] = ()
    draws: bool = True                          # its rules have an exchange or a sixth card

    def text(self) -> str:
        """The card as a strategy list: a heading for each decision, a numbered line (or a chart's
        row) each."""
        out = [f"{self.name} (rules {self.rules})"]
        out += ["", *self._section("first", "First decision", self.first)]
        if self.draws:
            out += ["", *self._section("after_draw", "After an exchange or a sixth card, your final hand",
                                       self.after_draw)]
        if self.play:
            first = len(self.first) + len(self.after_draw) + 1
            out += ["", "When you bet:"] + [f"{n:>3}. {sentence}" for n, sentence in enumerate(self.play, first)]
        if self.insurance:
            out += ["", *self._section("insurance", "Insurance, with trips or better", self.insurance)]
        if self.grids:
            out += ["", "codes: " + ", ".join(f"{c} {a}" for c, a in self.codes)]
        return "\n".join(out) + "\n"

    def _section(self, section: str, heading: str, lines: tuple[Phrased, ...]) -> list[str]:
        grid = dict(self.grids).get(section)
        if grid is None:
            return [f"{heading}: the first line that fits decides."] + (
                [f"{p.number:>3}. {p.text}" for p in lines] or ["     bet or fold as the solver does"])
        code: dict[str | None, str] = {a: c for c, a in self.codes}
        width = max(len(r.words) for r in grid) + 1
        if any(r.split is not None for r in grid):
            width = max(width, len(SPLIT_WORDS[section]) + 3)
        out = [f"{heading}: the first row that fits decides, in the up-card's column.",
               " " * (width + 5) + " ".join(f"{r:>2}" for r in RANK_NAMES)]
        for r in grid:
            out.append(f"{r.number:>3}. {r.words:<{width}}" + " ".join(f"{code.get(a, EMPTY):>2}" for a in r.cells))
            if r.split is not None:
                out.append(f"     {'  ' + SPLIT_WORDS[section]:<{width}}"
                           + " ".join(f"{code.get(a, EMPTY):>2}" for a in r.split))
        return out


def _lines(rules: Sequence[Rule], seen: Seen, start: int) -> tuple[Phrased, ...]:
    out = []
    for n, (rule, (when, decided)) in enumerate(zip(rules, simplified(rules, seen)), start):
        words, do = _action(rule)
        out.append(Phrased(n, _phrases(when, noun(seen, decided)), words, do))
    return tuple(out)


def play_words(play: Play, insurance_rules: bool) -> tuple[str, ...]:
    """The card's insurance and buying a game, each a sentence (none where the solver decides;
    the insurance left out where its own lines say it)."""
    out = []
    for k, thing, what in ((None if insurance_rules else play.insure_from, "insure", "insure the most"),
                           (play.buy_from, "buy a game", "buy a game")):
        if k is None:
            continue
        if k >= NEVER:
            out.append(f"never {thing}")
        elif k == 0:
            out.append(f"{what} whenever you may")
        else:
            out.append(f"{what} when your hand pays {k} to 1 or more")
    return tuple(out)


def card_words(card: StrategyCard) -> CardWords:
    """The card in a player's words, numbered as its lines are counted (the first decision's, the
    bet or fold after a draw, insuring and buying a game, the insurance's lines)."""
    first = _lines(card.first, dealt(), 1)
    after = _lines(card.after_draw, final(False), len(first) + 1)
    play = play_words(card.play, bool(card.insurance))
    insurance = _lines(card.insurance, final(True), len(first) + len(after) + len(play) + 1)
    seen = {"first_row": dealt(), "after_draw_row": final(False), "insurance_row": final(True)}
    grids = tuple((table.removesuffix("_row"), _grid(rows, seen[table], _split_side(seen[table], table)))
                  for table, rows in card.chart)
    used = {a for _, grid in grids for r in grid for a in (*r.cells, *(r.split or ()))}
    codes = tuple((c, a) for c, a in _codes(card) if a in used)
    return CardWords(card.name, card.rules, first, after, insurance, play, grids, codes,
                     load_rules(card.rules).draws)


def _split_side(seen: Seen, table: str) -> np.ndarray:
    """Each deal's side of a row's split: the up-card's rank in the hand, or (after a draw) thrown."""
    side = seen.matches if table == "first_row" else seen.thrown_up
    assert side is not None          # ``final`` knows what was thrown
    return side


def _codes(card: StrategyCard) -> list[tuple[str, str]]:
    """A chart's codes, each with its action in a player's words."""
    return [(code, _action(_cell_rule(action))[0]) for code, action in card.chart_codes]


def _cell_rule(action: str) -> Rule:
    """A chart's cell as the rule it stands for, without conditions."""
    entry = entry_of(action)
    return Rule(0, (), (), entry["do"], Keep.parse(entry["keep"]) if "keep" in entry else None, entry.get("except"))


def _said_cells(actions: tuple[str, ...], at: np.ndarray, seen: Seen) -> tuple[str | None, ...]:
    """Cells in a player's words, None where no deal of ``at`` has the up-card of its rank."""
    reached = np.bincount(seen.up[at], minlength=13) > 0
    return tuple(_action(_cell_rule(a))[0] if reached[r] else None for r, a in enumerate(actions))


def _grid(rows: Sequence[ChartRow], seen: Seen, flag: np.ndarray) -> tuple[GridRow, ...]:
    """A chart's rows in words: each row's hand group leaving out what the rows above imply, and
    its cells' actions, None where no deal reaches the cell (``flag``: each deal's side of a split)."""
    rules = [Rule(row.line, (), (), "", when=row.when) for row in rows]
    out = []
    for n, (row, (when, decided)) in enumerate(zip(rows, simplified(rules, seen)), 1):
        said = ", ".join(_phrases(when, noun(seen, decided))) or ANY[n > 1]

        split = _said_cells(row.split, decided & flag, seen) if row.split is not None else None
        out.append(GridRow(n, said, _said_cells(row.cells, decided if row.split is None else decided & ~flag, seen),
                           split))
    return tuple(out)


# reading back: each phrase's pattern, and the condition it says

_RANK = r"(?:10|[2-9TJQKA])"
_RANKS = rf"{_RANK}s?(?:–{_RANK}s?)?(?: or {_RANK}s?(?:–{_RANK}s?)?)*"


def _spec(words: str) -> str:
    """Ranks in words ("7s–As or 9s") in a card's file syntax ("7-A,9")."""
    return ",".join(run.replace("s", "").replace("–", "-") for run in words.split(" or "))


_PATTERNS: tuple[tuple[str, Any], ...] = (
    (rf"up-card ({_RANKS})", lambda m: ("up", _spec(m[1]))),
    (rf"with an? ({_RANK}(?: or {_RANK})?)", lambda m: ("holds", _spec(m[1]))),
    (rf"with one of ({_RANKS})", lambda m: ("holds", _spec(m[1]))),
    (rf"with ({_RANK}(?: {_RANK})+)", lambda m: ("holds_all", m[1])),
    (rf"(?:pair|pair or more) of ({_RANKS})", lambda m: ("group", _spec(m[1]))),
    (rf"pair or high card ({_RANKS})", lambda m: ("group", _spec(m[1]))),
    (rf"({_RANKS}) high", lambda m: ("group", _spec(m[1]))),
    (rf"({_RANK}(?: {_RANK})*) or better", lambda m: ("at_least", m[1])),
    (rf"up-card (below|above) your ({'|'.join(PLACES[1:])})", lambda m: (f"up_{m[1]}", PLACES.index(m[2]))),
    (rf"up-card (below|above) your (?:{'|'.join(NOUNS)})", lambda m: (f"up_{m[1]}", "group")),
    (r"top two suited", lambda m: ("highest_suited", 2)),
    (r"top card suited with your 2nd–(3rd|4th)", lambda m: ("highest_suited", int(m[1][0]))),
    (r"top card suited with another", lambda m: ("highest_suited", 5)),
    (r"([2-5]) to (a flush|a straight flush|a royal)",
     lambda m: ({v: k for k, v in DRAW_WORDS.items()}[m[2]], int(m[1]))),
)


def read_condition(words: str) -> tuple[tuple[str, Any], ...]:
    """The conditions of a phrase (``phrase``; "trips of 2s–Qs": trips, and their rank); ValueError
    where no condition reads so."""
    if words.startswith("with ") and " and " in words:      # "with A K and a Q or J"
        both, _, some = words.partition(" and ")
        return (*read_condition(both), *read_condition(f"with {some}"))
    if words.startswith(f"{NOUNS[1]} of "):
        return ("category", "three_of_a_kind"), *read_condition(words.replace(NOUNS[1], NOUNS[2], 1))
    for category in CATEGORY_WORDS:
        for value in (category, category + "+"):
            if words == phrase("category", value, ""):
                return (("category", value),)
    for key in FLAG_WORDS:
        for flag in (True, False):
            if words in (phrase(key, flag, called) for called in NOUNS):
                return ((key, flag),)
    for value, said in STRAIGHT_WORDS.items():
        if words == said:
            return (("to_straight", value),)
    for pattern, make in _PATTERNS:
        m = re.fullmatch(pattern, words)
        if m:
            return (make(m),)
    raise ValueError(f"no condition reads {words!r}")


def read_action(words: str) -> str:
    """An action from its words, as ``Line.action`` writes it ("bet", "keep pair A K")."""
    for do, said in ACTION_WORDS.items():
        if words == said:
            return do
    if words.startswith("keep "):
        named = {v: k for k, v in KEEP_WORDS.items()}

        def kept(part: str) -> str | None:
            every = re.fullmatch(f"every ({_RANKS})", part)
            if every:
                return " ".join(RANK_NAMES[r] for r in sorted(ranks_of(_spec(every[1]), "keep"), reverse=True))
            return named.get(part) or (part if re.fullmatch(rf"{_RANK}(?: {_RANK})*", part) else None)
        parts = [kept(p) for p in words[5:].split(" and ")]
        if None not in parts:
            Keep.parse(" ".join(str(p) for p in parts))     # names a bad word
            return "keep " + " ".join(str(p) for p in parts)
    raise ValueError(f"no action reads {words!r}")


def read_line(text: str) -> Line:
    """A line of the card from its words (``Phrased.text``). An up-card's phrase after the first
    leaves out "up-card"; it is read with it."""
    said, sep, action = text.rpartition(": ")
    if not sep:
        raise ValueError(f"a line reads 'conditions: action', not {text!r}")
    when: list[tuple[str, Any]] = []
    if said not in ANY:
        for part in said.split(", "):
            try:
                when += read_condition(part)
            except ValueError:
                when += read_condition(UP + part)
    return Line(tuple(when), read_action(action))


def check_words(card: StrategyCard, words: CardWords) -> None:
    """The words read back must decide every deal as the card does: an error names the first line
    where they do not (a phrase this module writes ambiguously)."""
    for rules, said, seen in ((card.first, words.first, dealt()), (card.after_draw, words.after_draw, final(False)),
                              (card.insurance, words.insurance, final(True))):
        reach = np.ones(len(seen), bool)
        for rule, p in zip(rules, said):
            line = read_line(p.text)
            decided = reach.copy()
            for key, value in line.when:
                decided &= condition(key, value)[0](seen)
            if not np.array_equal(decided, reach & rule.holds(seen)) or line.action != p.do:
                raise InputError(f"strategy file {card.path}, line {rule.line}: its words {p.text!r} do not read "
                                 "back as the line (a bug: please report it)")
            reach &= ~decided

