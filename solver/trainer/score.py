"""The trainer's score: the running score of a session, the history file of every decision
(JSON lines, appended as they are made), progress across sessions, and the hand groups a
player loses most on (``--focus``)."""

from __future__ import annotations

import json
import os
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..cards import RANKS, Card, format_cards
from ..errors import InputError
from ..fraction_text import fraction_json
from .round import FIRST, QUESTIONS, Decision, Round


@dataclass
class Score:
    """The running score: decisions right, antes won, EV given up, and the mistakes by kind
    (decision, hand group, up-card rank)."""

    hands: int = 0
    decisions: int = 0
    right: int = 0
    lost: Fraction = Fraction(0)
    won: int = 0
    kinds: dict[tuple[str, str, str], list[Any]] = field(default_factory=lambda: defaultdict(lambda: [0, Fraction(0)]))

    def add(self, d: Decision, up_card: Card) -> None:
        self.decisions += 1
        self.right += d.right
        self.lost += d.lost
        if not d.right:
            kind = self.kinds[(d.kind, d.group, RANKS[up_card >> 2])]
            kind[0] += 1
            kind[1] += d.lost

    def end_round(self, r: Round) -> None:
        self.hands += 1
        self.won += r.result or 0

    def costliest(self, n: int = 5) -> list[tuple[tuple[str, str, str], int, Fraction]]:
        """The kinds of mistakes that gave up the most EV, costliest first."""
        ranked = sorted(self.kinds.items(), key=lambda kv: (-kv[1][1], kv[0]))
        return [(key, count, lost) for key, (count, lost) in ranked[:n]]

    def line(self) -> str:
        if not self.decisions:
            return "no decisions yet"
        per_hand = float(self.lost) / max(self.hands, 1)
        return (f"{self.right}/{self.decisions} decisions right ({100 * self.right / self.decisions:.1f} %), "
                f"{float(self.lost):.4f} antes given up ({per_hand:.4f} a hand over {self.hands} hands)")

    def summary(self) -> str:
        out = [f"session: {self.line()}; the deals' results {self.won:+d} antes"]
        worst = self.costliest()
        if worst:
            out.append("costliest mistakes (decision, hand, up-card: times, EV given up):")
            out += [f"  {QUESTIONS[kind]}, {group}, up-card {up}: {count}×, {float(lost):.4f} antes"
                    for (kind, group, up), count, lost in worst]
        return "\n".join(out) + "\n"


def history_path() -> Path:
    """The default history file: ``$XDG_DATA_HOME/rpoker/train-history.jsonl`` (else under
    ``~/.local/share``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rpoker" / "train-history.jsonl"


class History:
    """The history file: one JSON line per decision, appended as it is made (so an interrupted
    session keeps what it played)."""

    def __init__(self, path: Path, session: str) -> None:
        self.path, self.session = path, session
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file = path.open("a", encoding="utf-8")
        except OSError as e:
            raise InputError(f"cannot write the history file {path}: {e.strerror or e}") from None

    def add(self, d: Decision, r: Round, seed: int, card: str | None) -> None:
        record = {"session": self.session, "rules": r.rules.name, "card": card, "seed": seed,
                  "deal": r.deal.index, "decision": d.kind, "group": d.group, "up": RANKS[r.deal.up_card >> 2],
                  "hand": format_cards(r.final if d.kind != FIRST else r.deal.hand), "choice": d.choice,
                  "best": d.best, "ev": fraction_json(d.ev), "best_ev": fraction_json(d.best_ev),
                  "lost": fraction_json(d.lost)}
        self._file.write(json.dumps(record) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def read_history(path: Path) -> list[dict[str, Any]]:
    """The decisions of a history file; a damaged line is an error naming it."""
    if not path.exists():
        return []
    out = []
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read the history file {path}: {e.strerror or e}") from None
    for n, line in enumerate(text.splitlines(), 1):
        try:
            record = json.loads(line)
            record["lost_value"] = Fraction(record["lost"]["exact"])
            if not all(key in record for key in ("session", "rules", "decision", "group", "up", "deal")):
                raise KeyError
        except (ValueError, KeyError, TypeError):
            raise InputError(f"the history file {path} is damaged at line {n}") from None
        out.append(record)
    return out


def focus_groups(records: Iterable[dict[str, Any]], n: int = 4) -> list[str]:
    """The hand groups of the first decisions where the history lost most EV (at most ``n``)."""
    lost: dict[str, Fraction] = defaultdict(Fraction)
    for r in records:
        if r["decision"] == FIRST and r["lost_value"] > 0:
            lost[r["group"]] += r["lost_value"]
    return [g for g, _ in sorted(lost.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]


def stats(records: Sequence[dict[str, Any]]) -> str:
    """Progress across sessions (``rpoker train --stats``): each session's hands, decisions right
    and EV given up a hand, then the costliest kinds of mistakes over all of them."""
    if not records:
        return "no history yet: play a session with rpoker train\n"
    sessions: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        sessions[r["session"]].append(r)
    out = ["session              rules      hands  decisions  right     EV given up a hand"]
    for name, rs in sessions.items():
        hands = len({r["deal"] for r in rs})
        right = sum(r["lost_value"] == 0 for r in rs)
        lost = sum((r["lost_value"] for r in rs), Fraction(0))
        out.append(f"{name:<20} {rs[0]['rules']:<10} {hands:>5}  {len(rs):>9}  {100 * right / len(rs):5.1f} %  "
                   f"{float(lost) / hands:>12.4f}")
    kinds: dict[tuple[str, str, str], list[Any]] = defaultdict(lambda: [0, Fraction(0)])
    for r in records:
        if r["lost_value"] > 0:
            kind = kinds[(r["decision"], r["group"], r["up"])]
            kind[0] += 1
            kind[1] += r["lost_value"]
    worst = sorted(kinds.items(), key=lambda kv: (-kv[1][1], kv[0]))[:8]
    if worst:
        out.append("costliest mistakes over all sessions (decision, hand, up-card: times, EV given up):")
        out += [f"  {QUESTIONS[k]}, {g}, up-card {u}: {c}×, {float(v):.4f} antes" for (k, g, u), (c, v) in worst]
    return "\n".join(out) + "\n"


def session_name() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S")
