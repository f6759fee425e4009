"""The work folder's shards: what is kept is read back, not counted again; what is missing or
damaged is counted and kept; the results come in the shards' order."""

from functools import partial
from pathlib import Path

import joblib
import numpy as np

from solver.strategy.kept import Shard, count_shards, read_sealed, write_sealed


def _counted(value: float) -> np.ndarray:
    return np.full(3, value)


def _shards(folder: Path) -> list[Shard[np.ndarray]]:
    paths = [folder / f"part-{i}.npy" for i in range(4)]
    return [Shard(i + 1, partial(read_sealed, p, (3,)), joblib.delayed(_counted)(float(i)), partial(write_sealed, p))
            for i, p in enumerate(paths)]


def test_count_shards_reads_back_and_counts_the_rest(tmp_path: Path) -> None:
    write_sealed(tmp_path / "part-1.npy", np.full(3, 10.0))          # kept: read back, not counted
    damaged = tmp_path / "part-2.npy"
    write_sealed(damaged, np.full(3, 20.0))
    damaged.write_bytes(damaged.read_bytes()[:-1] + b"?")             # counted again
    steps: list[tuple[int, int]] = []
    got = count_shards(_shards(tmp_path), jobs=1, progress=lambda done, total: steps.append((done, total)))
    assert [float(g[0]) for g in got] == [0.0, 10.0, 2.0, 3.0]
    assert steps[0] == (2, 10) and steps[-1] == (10, 10) and len(steps) == 4
    again = count_shards(_shards(tmp_path))                          # now all kept
    assert [float(g[0]) for g in again] == [0.0, 10.0, 2.0, 3.0]
