"""Arrays a derive keeps in its work folder as it counts them, each sealed by the SHA-256 of its
bytes: a run stopped and started again reads back what it finished, and never a damaged file.

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
from pathlib import Path

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


def read_sealed(path: Path, shape: tuple[int, ...]) -> np.ndarray | None:
    """A kept array, or None where it is missing, damaged (its seal does not match) or not of
    ``shape``: it is counted again."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    data, seal = raw[:-_SEAL], raw[-_SEAL:]
    if hashlib.sha256(data).digest() != seal:
        return None
    got: np.ndarray = np.load(io.BytesIO(data), allow_pickle=False)
    return got if got.shape == shape else None
