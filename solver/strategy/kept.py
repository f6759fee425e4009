"""What a check or a derive keeps in its work folder as it counts it, shard by shard: a run
stopped and started again reads back what it finished, and never a damaged file. Arrays are
sealed by the SHA-256 of their bytes (``write_sealed``); ``count_shards`` runs the shards not
kept yet and keeps each as it finishes.

>>> import tempfile
>>> from pathlib import Path
>>> path = Path(tempfile.mkdtemp()) / "part.npy"
>>> write_sealed(path, np.arange(6.0).reshape(2, 3))
>>> read_sealed(path, (2, 3)).sum(), read_sealed(path, (3, 2))
(np.float64(15.0), None)
>>> _ = path.write_bytes(path.read_bytes()[:-1] + b"x")      # damaged: counted again
>>> read_sealed(path, (2, 3)) is None
True
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

import numpy as np

from ..manifest import write_atomic

_SEAL = 32
"""The bytes of the SHA-256 digest that ends a kept array."""


def write_sealed(path: Path, a: np.ndarray) -> None:
    """Write ``a`` to ``path`` (atomically), sealed."""
    buffer = io.BytesIO()
    np.save(buffer, a, allow_pickle=False)
    data = buffer.getvalue()
    write_atomic(path, lambda p: p.write_bytes(data + hashlib.sha256(data).digest()))


def read_sealed(path: Path, shape: tuple[int, ...] | None) -> np.ndarray | None:
    """A kept array, or None where it is missing, damaged (its seal does not match) or not of
    ``shape`` (None: of any shape): it is counted again."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    data, seal = raw[:-_SEAL], raw[-_SEAL:]
    if hashlib.sha256(data).digest() != seal:
        return None
    got: np.ndarray = np.load(io.BytesIO(data), allow_pickle=False)
    return got if shape is None or got.shape == shape else None


T = TypeVar("T")


@dataclass(frozen=True)
class Shard(Generic[T]):
    """One shard's count: how many classes it plays, how to read it back (None: not kept, or
    damaged), the joblib task that counts it, and how to keep what it counted."""

    classes: int
    read: Callable[[], T | None]
    task: Any
    keep: Callable[[T], None]


def count_shards(shards: Sequence[Shard[T]], jobs: int = 1,
                 progress: Callable[[int, int], None] | None = None) -> list[T]:
    """Every shard's count, in the order of ``shards``: read back where kept, else counted by
    ``jobs`` workers and kept as each finishes; ``progress(classes done, classes)``."""
    import joblib

    found = [s.read() for s in shards]
    todo = [i for i, got in enumerate(found) if got is None]
    total = sum(s.classes for s in shards)
    counted = total - sum(shards[i].classes for i in todo)
    if progress is not None:
        progress(counted, total)
    if todo:       # an empty generator of joblib warns of tasks cancelled
        results = joblib.Parallel(n_jobs=jobs, return_as="generator")(shards[i].task for i in todo)
        for i, got in zip(todo, results):
            shards[i].keep(got)
            found[i] = got
            counted += shards[i].classes
            if progress is not None:
                progress(counted, total)
    return [got for got in found if got is not None]
