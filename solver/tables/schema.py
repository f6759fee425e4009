"""The file format of a strategy table: the shards' layout and columns (the actions coded by
``Action.code``), their metadata, the manifest's shape, and how a shard file is written (the package docstring gives the
columns)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..classes import N_CLASSES
from ..manifest import FORMAT, file_entry, matches, write_atomic, write_manifest
from ..manifest import read_manifest as _read_manifest
from ..rules import Rules
from ..version import __version__

SCHEMA_VERSION = 1
EXCHANGE_COLUMNS = tuple(f"x{mask:02d}" for mask in range(1, 32))
#: the compact table (``compact``): the best action and the runner-up with their EVs
COMPACT_COLUMNS = ("key", "weight", "best", "best_ev", "second", "second_ev", "insurance")
INTEGER_COLUMNS = {"key": np.int64, "weight": np.int32, "best": np.uint8, "best_num": np.int64,
                   "best_den": np.int64, "second": np.uint8, "insurance": np.uint8}


def arrow_schema(metadata: dict[bytes, bytes], compact: bool = False) -> Any:
    import pyarrow as pa

    if compact:
        # the runner-up's EV only ranks it: float32 (7 digits) halves the largest column
        return pa.schema([pa.field(name, pa.float32() if name == "second_ev" else
                                   pa.from_numpy_dtype(np.dtype(INTEGER_COLUMNS.get(name, np.float64))))
                          for name in COMPACT_COLUMNS], metadata={**metadata, b"rpoker.compact": b"true"})
    fields = [pa.field(name, pa.from_numpy_dtype(np.dtype(INTEGER_COLUMNS.get(name, np.float64))))
              for name in ("key", "weight", "best", "best_ev", "best_num", "best_den", "second",
                           "second_ev", "insurance", "bet")]
    fields += [pa.field(name, pa.float32()) for name in ("sixth", *EXCHANGE_COLUMNS)]
    return pa.schema(fields, metadata=metadata)


def shard_metadata(rules: Rules) -> dict[bytes, bytes]:
    return {b"rpoker.rules": json.dumps({"name": rules.name, **rules.to_dict()}, sort_keys=True).encode(),
            b"rpoker.fingerprint": rules.fingerprint.encode(),
            b"rpoker.solver_version": __version__.encode(),
            b"rpoker.schema_version": str(SCHEMA_VERSION).encode()}


@dataclass(frozen=True)
class Plan:
    """What a build covers: the shard size and the shards to solve."""

    shard_rows: int
    shards: tuple[int, ...]

    @property
    def n_shards(self) -> int:
        return -(-N_CLASSES // self.shard_rows)

    def rows(self, shard: int) -> range:
        return range(shard * self.shard_rows, min(N_CLASSES, (shard + 1) * self.shard_rows))


def shard_path(directory: Path, shard: int) -> Path:
    return directory / f"shard-{shard:05d}.parquet"


@dataclass
class Manifest:
    """A table's ``manifest.json``: its rules (with their fingerprint), the solver that built it,
    the layout of its shards, and the entry of every finished shard (rows, first and last class
    key, bytes, SHA-256) and results file (bytes, SHA-256, its shard's SHA-256), by shard number.
    A build adds shards and ``tables results`` adds results, each written at once (``write``).

    >>> from solver.rules import DEFAULT
    >>> m = Manifest.new(DEFAULT, 65_536, compact=True)
    >>> m.shards_total, m.name, m.complete, Manifest.from_json(m.to_json()) == m
    (87, 'russian', False, True)
    """

    rules: dict[str, Any]
    fingerprint: str
    solver_version: str
    shard_rows: int
    shards_total: int
    compact: bool = False
    shards: dict[str, dict[str, Any]] = field(default_factory=dict)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def new(cls, rules: Rules, shard_rows: int, compact: bool = False) -> Manifest:
        """The manifest of a table of ``rules`` with nothing built yet."""
        return cls({"name": rules.name, **rules.to_dict()}, rules.fingerprint, __version__, shard_rows,
                   Plan(shard_rows, ()).n_shards, compact)

    @classmethod
    def from_json(cls, m: dict[str, Any]) -> Manifest:
        """From the JSON object of a manifest verified by ``manifest.read_manifest``."""
        return cls(m["rules"], m["fingerprint"], m["solver_version"], m["shard_rows"], m["shards_total"],
                   bool(m.get("compact", False)), dict(m["shards"]), dict(m.get("results", {})))

    def to_json(self) -> dict[str, Any]:
        """The JSON object written (``manifest.write_manifest`` seals it)."""
        return {"format": FORMAT, "schema_version": SCHEMA_VERSION, "solver_version": self.solver_version,
                "rules": self.rules, "fingerprint": self.fingerprint, "classes": N_CLASSES,
                "shard_rows": self.shard_rows, "shards_total": self.shards_total, "shards": self.shards,
                **({"compact": True} if self.compact else {}), **({"results": self.results} if self.results else {})}

    @property
    def name(self) -> str:
        """The name of the table's rules."""
        return str(self.rules.get("name"))

    @property
    def complete(self) -> bool:
        """Every shard is built."""
        return len(self.shards) == self.shards_total

    def shard(self, shard: int) -> dict[str, Any] | None:
        """The entry of a finished shard, or None."""
        return self.shards.get(str(shard))

    def write(self, directory: Path) -> None:
        """Seal and write it atomically into the table ``directory``."""
        write_manifest(directory, self.to_json())


def read_manifest(directory: Path) -> Manifest:
    """The verified manifest of a table directory (``manifest.read_manifest``)."""
    return Manifest.from_json(_read_manifest(directory, SCHEMA_VERSION))


def write_shard(directory: Path, shard: int, metadata: dict[bytes, bytes], columns: dict[str, np.ndarray],
                 compact: bool = False) -> dict[str, Any]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = arrow_schema(metadata, compact)
    table = pa.table([pa.array(columns[f.name], type=f.type) for f in schema], schema=schema)
    path = shard_path(directory, shard)
    if compact:
        # made to be shipped: sorted keys as deltas, the float32 EVs split by byte (zstd finds
        # more in them), the strongest zstd level (read speed is the same)
        options: dict[str, Any] = {"use_dictionary": ["weight", "best", "second", "insurance"],
                                   "column_encoding": {"key": "DELTA_BINARY_PACKED", "second_ev": "BYTE_STREAM_SPLIT"},
                                   "compression_level": 19}
    else:
        options = {"use_dictionary": ["best", "second", "insurance"]}
    write_atomic(path, lambda p: pq.write_table(
        table, p, compression="zstd", row_group_size=len(table), write_statistics=["key"], **options))
    keys = columns["key"]
    return {"rows": len(keys), "first_key": int(keys[0]), "last_key": int(keys[-1]), **file_entry(path)}


def shard_matches(directory: Path, shard: int, entry: dict[str, Any]) -> bool:
    return matches(shard_path(directory, shard), entry)
