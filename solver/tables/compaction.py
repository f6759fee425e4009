"""The compact table (the best two actions of each class) written from a full one, with the
results of optimal play counted beside it."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import InputError
from ..manifest import MANIFEST, matches, writable_directory, writing
from .played import results_path, write_results
from .reader import Table
from .schema import COMPACT_COLUMNS, Manifest, read_manifest, shard_matches, write_shard


@dataclass(frozen=True)
class CompactReport:
    """What ``compact`` did."""

    directory: Path
    written: tuple[int, ...]    # shards compacted now
    kept: tuple[int, ...]       # shards compacted before from the same source file
    shards_total: int
    bytes: int                  # size of the compact table's shards


def compact(source: Table, directory: Path, progress: Callable[[int, int], None] | None = None) -> CompactReport:
    """Write the compact table of the full table ``source`` into ``directory``: per class its
    best action and EV (float64), the runner-up and its EV (float32) and the insurance size,
    in shards and a manifest like the full table's (``"compact": true``), and the results file
    of each shard that has one (the results of optimal play: the same best actions). Shards
    compacted before from the same source file are kept, so it resumes like a build; the shards
    missing from the source are missing from the compact table too. ``progress(done, total)``
    per shard.
    """
    if source.compact:
        raise InputError(f"{source.directory} is already a compact table")
    if Path(directory).resolve() == source.directory.resolve():
        raise InputError("the compact table needs its own directory (--out)")
    directory = writable_directory(Path(directory), "compact table")
    with writing(directory):
        if (directory / MANIFEST).exists():
            manifest = read_manifest(directory)
            if not manifest.compact or manifest.fingerprint != source.fingerprint \
                    or manifest.shard_rows != source.manifest.shard_rows:
                raise InputError(f"{directory} holds another table; choose another --out")
        else:
            manifest = replace(source.manifest, compact=True, shards={}, results={})
            manifest.write(directory)
        for stray in directory.glob(".*.tmp-*"):
            stray.unlink()
        shards = sorted(int(s) for s in source.manifest.shards)
        written, kept = [], []
        for i, s in enumerate(shards):
            entry = source.manifest.shards[str(s)]
            done = manifest.shard(s)
            if done is not None and done.get("source_sha256") == entry["sha256"] and shard_matches(directory, s, done):
                kept.append(s)
            else:
                data = source.read_shard(s, COMPACT_COLUMNS)   # verified: a damaged source is refused
                columns = {name: data.column(name).to_numpy() for name in COMPACT_COLUMNS}
                metadata = {k: v for k, v in data.schema.metadata.items() if k.startswith(b"rpoker.")}
                manifest.shards[str(s)] = {**write_shard(directory, s, metadata, columns, compact=True),
                                           "source_sha256": entry["sha256"]}
                manifest.write(directory)
                written.append(s)
            _copy_results(source, s, directory, manifest)
            if progress is not None:
                progress(i + 1, len(shards))
    size = sum(int(manifest.shards[str(s)]["bytes"]) for s in shards)
    return CompactReport(directory, tuple(written), tuple(kept), manifest.shards_total, size)


def _copy_results(source: Table, shard: int, directory: Path, manifest: Manifest) -> None:
    """The source shard's results file (verified), listed with the compact shard's checksum,
    unless the compact table has it already or the source has none for this shard's file."""
    entry, have = source.manifest.results.get(str(shard)), manifest.results.get(str(shard))
    if entry is None or entry["shard_sha256"] != source.manifest.shards[str(shard)]["sha256"]:
        return
    path = results_path(directory, shard)
    if have is not None and have["shard_sha256"] == manifest.shards[str(shard)]["sha256"] and matches(path, have):
        return
    text = source.verified_bytes(results_path(source.directory, shard), entry,
                                 f"`rpoker tables results --table {source.directory}` counts them again")
    write_results(directory, manifest, json.loads(text))   # the same file, listed with the compact shard
