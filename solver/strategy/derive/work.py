"""The search's cards kept in the work folder, sealed, so that a derive resumes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..kept import read_sealed, write_sealed
from ..vocabulary import Line
from .refinement import Found


def keep_card(folder: Path | None, name: str, found: Found) -> None:
    """Keep a search's card and its loss in ``folder`` (if any) as ``name``, sealed (JSON's float
    text reads back the same double)."""
    if folder is None:
        return
    lines, loss = found
    text = json.dumps({"lines": [[[list(c) for c in line.when], line.action] for line in lines], "loss": loss})
    write_sealed(folder / f"{name}.npy", np.frombuffer(text.encode(), np.uint8))


def kept_card(path: Path) -> Found | None:
    """A card ``keep_card`` kept, or None where it is missing or damaged."""
    got = read_sealed(path, None)
    if got is None:
        return None
    found = json.loads(got.tobytes().decode())
    lines = tuple(Line(tuple((k, v) for k, v in when), action) for when, action in found["lines"])
    return lines, float(found["loss"])


def kept_cards(folder: Path | None, sizes: tuple[int, ...], stage: str, key: str) -> dict[int, Found]:
    """The cards of ``sizes`` a search's ``stage`` kept in ``folder`` under ``key``, by size."""
    if folder is None:
        return {}
    found = {size: kept_card(folder / f"{stage}-{size}-{key}.npy") for size in sizes}
    return {size: card for size, card in found.items() if card is not None}
