"""A card's exact figures, kept beside it: ``checked.json`` among the cards installed with rpoker
(strategies/ of the source), or the JSON a check writes (``rpoker strategy check CARD --json``).
Each names the card's file by its SHA-256 (``card_sha256``): figures are shown only beside the very
card they were counted for, never beside one edited since.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import InputError
from .card import StrategyCard, shipped


@dataclass(frozen=True)
class Figures:
    """The house edge a card's player faces and what it costs against optimal play, per ante
    (exact where the data holds the fraction), and the deals whose first action is not the best."""

    house_edge: Fraction
    cost: Fraction
    differ: int | None
    of: int
    source: str

    def text(self) -> str:
        """One line: ``house edge 1.012211 %, 0.496758 % more than optimal play``."""
        differ = f"; first action not the best in {self.differ / self.of * 100:.2f} % of deals" if self.differ else ""
        return (f"house edge {float(self.house_edge) * 100:.6f} %, {float(self.cost) * 100:.6f} % of the ante more "
                f"than optimal play{differ} (exact check)")


def _figure(entry: Any) -> Fraction:
    exact = entry.get("exact")
    return Fraction(exact) if exact is not None else Fraction(str(entry["value"]))


def of_entry(entry: dict[str, Any], card: StrategyCard, where: str) -> Figures | None:
    """The figures of a check's JSON (or of an entry of ``checked.json``) when they are the card's
    (the same SHA-256), else None; a malformed entry is an error naming ``where``."""
    try:
        if entry.get("card_sha256") != card.digest:
            return None
        differ = entry["differ"]
        return Figures(_figure(entry["house_edge"]), _figure(entry["cost_per_ante"]), differ.get("deals"),
                       int(differ["of"]), str(entry.get("source") or where))
    except (KeyError, TypeError, ValueError, ZeroDivisionError, AttributeError):
        raise InputError(f"{where}: not the JSON of a strategy check (rpoker strategy check CARD --json)") from None


def read(path: Path, card: StrategyCard) -> Figures:
    """The figures of the check JSON at ``path``, which must be of ``card``: one error otherwise."""
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read the check {path}: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError):
        raise InputError(f"{path}: not the JSON of a strategy check (rpoker strategy check CARD --json)") from None
    if not isinstance(entry, dict):
        raise InputError(f"{path}: not the JSON of a strategy check (rpoker strategy check CARD --json)")
    figures = of_entry(entry, card, str(path))
    if figures is None:
        raise InputError(f"{path} is the check of another card, or of {card.path} before it was changed: "
                         f"check it again (rpoker strategy check {card.path} --json)")
    return figures


def shipped_figures(card: StrategyCard) -> Figures | None:
    """The figures ``checked.json`` holds for the card, if it is one installed with rpoker (or the
    same text)."""
    cards = shipped()
    if not cards:       # pragma: no cover - not installed with its cards
        return None
    path = next(iter(cards.values())).with_name("checked.json")
    entries: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    for name, entry in entries.items():
        figures = of_entry(entry, card, f"{path}, {name}")
        if figures is not None:
            return figures
    return None
