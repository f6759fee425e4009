"""A table directory's manifest, its files' checksums, atomic writes and the writer's lock.

A strategy table is a directory of files that are only trusted through ``manifest.json``: the
rules (and their fingerprint), the shard size and, for every finished shard and every results
file (``optimal``), its size and SHA-256. The manifest is sealed by a SHA-256 of its own
contents (``manifest_sha256``, over its canonical JSON without that key), and its rules block
must give its fingerprint, so that any change to any file — a flipped bit, an edited count —
is found on reading and refused with a message naming the file, never read as an answer.

Every file is written under a temporary name and renamed (``write_atomic``); one process at a
time writes a directory (``writing``: a lock the system releases when the process ends).

>>> m = seal({"format": FORMAT, "shards": {}})
>>> m[CHECKSUM] == digest(m), digest({**m, "shards": {"0": {}}}) == m[CHECKSUM]
(True, False)
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .classes import N_CLASSES
from .errors import InputError
from .rules import fingerprint_of

MANIFEST = "manifest.json"
FORMAT = "rpoker strategy table"
CHECKSUM = "manifest_sha256"
LOCK = ".lock"
MAX_SHARD_ROWS = 65_536 * 16
_HEX64 = re.compile(r"[0-9a-f]{64}\Z")


def digest(manifest: dict[str, Any]) -> str:
    """SHA-256 of a manifest's canonical JSON, its own checksum left out."""
    text = json.dumps({k: v for k, v in manifest.items() if k != CHECKSUM}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def seal(manifest: dict[str, Any]) -> dict[str, Any]:
    """The manifest with its checksum (in place)."""
    manifest[CHECKSUM] = digest(manifest)
    return manifest


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_entry(path: Path) -> dict[str, Any]:
    """What the manifest records of a file just written: its size and SHA-256."""
    data = path.read_bytes()
    return {"bytes": len(data), "sha256": sha256(data)}


def matches(path: Path, entry: dict[str, Any]) -> bool:
    """Whether the file is there and is the one the manifest ``entry`` records."""
    try:
        data = path.read_bytes()
    except OSError:
        return False
    return bool(len(data) == entry["bytes"] and sha256(data) == entry["sha256"])


def _shard_count(shard_rows: int) -> int:
    return -(-N_CLASSES // shard_rows)


def _problem(m: Any) -> str | None:
    """What is wrong with a manifest's contents, or None."""
    if not isinstance(m, dict) or m.get("format") != FORMAT:
        return "it is not an rpoker table manifest"
    if CHECKSUM not in m:
        return "it has no checksum (written by an older rpoker)"
    if m[CHECKSUM] != digest(m):
        return "its checksum does not match its contents (the file was edited or damaged)"
    rules = m.get("rules")
    if not isinstance(rules, dict) or fingerprint_of(rules) != m.get("fingerprint"):
        return "its rules do not give its fingerprint"
    rows = m.get("shard_rows")
    if not isinstance(rows, int) or not 1 <= rows <= MAX_SHARD_ROWS or m.get("classes") != N_CLASSES:
        return "its shard size or number of classes is not a table's"
    if m.get("shards_total") != _shard_count(rows):
        return f"it says {m.get('shards_total')} shards, where {_shard_count(rows)} of {rows} rows hold every class"
    shards, results = m.get("shards"), m.get("results", {})
    if not isinstance(shards, dict) or not isinstance(results, dict):
        return "its lists of files are not lists of files"
    for s, entry in shards.items():
        if not (s.isdigit() and int(s) < m["shards_total"] and _is_file_entry(entry)
                and all(isinstance(entry.get(k), int) for k in ("rows", "first_key", "last_key"))
                and entry["rows"] == min(N_CLASSES, (int(s) + 1) * rows) - int(s) * rows):
            return f"its entry of shard {s!r} is not a finished shard's"
    for s, entry in results.items():
        if s not in shards or not _is_file_entry(entry) or not _HEX64.match(str(entry.get("shard_sha256"))):
            return f"its entry of the results of shard {s!r} is not a results file's"
    return None


def _is_file_entry(entry: Any) -> bool:
    return (isinstance(entry, dict) and isinstance(entry.get("bytes"), int) and entry["bytes"] > 0
            and _HEX64.match(str(entry.get("sha256"))) is not None)


def read_manifest(directory: Path, schema_version: int) -> dict[str, Any]:
    """The manifest of a table directory, verified: one clear error when it is missing,
    unreadable, of another schema, or damaged in any way."""
    path = Path(directory) / MANIFEST
    if not path.is_file():
        raise InputError(f"no strategy table in {directory} (no {MANIFEST})")
    manifest: Any = None
    problem: str | None
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read the table manifest {path}: {exc.strerror}") from None
    except ValueError as exc:  # not JSON, or not UTF-8
        problem = f"it is not valid JSON ({str(exc)[:80]})"
    else:
        problem = _problem(manifest)
        if problem is None and manifest.get("schema_version") != schema_version:
            raise InputError(f"the table in {directory} has schema version {manifest.get('schema_version')}, "
                             f"this rpoker reads {schema_version}: build it again")
    if problem is not None:
        raise InputError(f"damaged table manifest {path}: {problem}; nothing of the table is read — "
                         "build the table again into a new directory")
    checked: dict[str, Any] = manifest
    return checked


def write_manifest(directory: Path, manifest: dict[str, Any]) -> None:
    """Seal the manifest and write it atomically."""
    text = json.dumps(seal(manifest), indent=1, sort_keys=True) + "\n"
    write_atomic(Path(directory) / MANIFEST, lambda p: p.write_text(text, encoding="utf-8"))


def write_atomic(path: Path, write: Callable[[Path], object]) -> None:
    """Write a file under a temporary name, flush it to disk and rename it: readers see the
    old file or the whole new one. A full disk is reported as such (what was finished stays)."""
    if path.is_dir():   # os.replace would name the temporary file, not this one
        raise InputError(f"{path} is a folder where rpoker writes a file: move it away and run the same command again")
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        write(tmp)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise InputError(f"no space left on the device writing {path}: what was finished is kept; "
                             "free some space and run the same command again") from None
        raise
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


@contextlib.contextmanager
def writing(directory: Path, what: str = "a build, compaction or results run") -> Iterator[None]:
    """Hold the directory's writer lock: a second build (or compaction, or results run, or
    strategy check of one work folder) of the same directory is refused at once instead of racing
    the first. The system releases the lock when the process ends, however it ends."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        yield
        return
    fd = os.open(Path(directory) / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise InputError(f"{directory} is being written by another rpoker process ({what}); wait for it to "
                             "end, or write elsewhere") from None
        yield
    finally:
        os.close(fd)


def cache_root() -> Path:
    """Where rpoker keeps what it may count again (a strategy check's work, a table built again
    by ``tables check --all``): ``$RPOKER_CACHE``, else ``~/.cache/rpoker``."""
    return Path(os.environ.get("RPOKER_CACHE") or Path.home() / ".cache" / "rpoker")


def writable_directory(directory: Path, what: str = "output") -> Path:
    """Create the directory (and its parents) if needed and make sure files can be written in
    it, before any work starts: one clear error otherwise."""
    directory = Path(directory)
    if str(directory) == "":
        raise InputError(f"the {what} directory is empty")
    if directory.exists() and not directory.is_dir():
        raise InputError(f"the {what} directory {directory} is a file")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / f".write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        blocking = next((p for p in [directory, *directory.parents] if p.exists() and not p.is_dir()), None)
        why = f"{blocking} is a file" if blocking is not None else (exc.strerror or str(exc))
        raise InputError(f"cannot write the {what} directory {directory}: {why}") from None
    return directory
