"""Reading a table: opened lazily, every file verified as it is read, answers in the user's cards;
where tables are found."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from ..action import Action, exchange_code
from ..cards import Card, check_disjoint
from ..classes import canonical, class_keys
from ..errors import InputError
from ..manifest import MANIFEST, digest, sha256
from ..rules import PRESETS, Rules
from ..version import __version__
from .schema import EXCHANGE_COLUMNS, read_manifest, shard_path


@dataclass(frozen=True)
class Choice:
    """A first action as a table lists it, in the user's cards: its EV as stored (float64 for
    the best and the runner-up, float32 for the others) and, for the best action of a full
    table, the exact fraction."""

    action: Action
    ev: float
    ev_exact: Fraction | None = None

    @property
    def label(self) -> str:
        return self.action.label


@dataclass(frozen=True)
class Answer:
    """One class read from a table, in the user's own cards."""

    hand: tuple[Card, ...]
    up_card: Card
    key: int
    weight: int
    options: tuple[Choice, ...]   # best first: every option (a full table) or the best two (compact)
    insurance: int                # the insurance to take when betting the dealt hand, antes
    bet_ev: float | None          # EV of betting the dealt hand (full tables)

    @property
    def best(self) -> Choice:
        return self.options[0]

    @property
    def second(self) -> Choice:
        return self.options[1]


class MissingShard(InputError):
    """The shard of a deal's class is not built yet (an unfinished table)."""


class Table:
    """A strategy table directory, opened lazily: the manifest is read (and verified) when the
    table is opened, a shard when it is first needed — every file checked against the
    manifest's SHA-256 as it is read, so that a damaged table is refused, never read."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self.manifest = read_manifest(self.directory)
        self._first = sorted((entry["first_key"], int(s)) for s, entry in self.manifest.shards.items())
        self._shards: dict[int, tuple[Any, np.ndarray]] = {}
        self.compact = self.manifest.compact
        self.checksum = digest(self.manifest.to_json())
        """The manifest's SHA-256 (its seal): which table this is, file by file."""
        if _installed(self.directory) and RELEASED.get(self.directory.name) != self.checksum:
            raise InputError(f"the table installed with rpoker in {self.directory} is not the one released with "
                             f"rpoker {__version__} (its manifest's SHA-256 is {self.checksum[:16]}…); reinstall "
                             "rpoker from its source (pip install --force-reinstall .)")

    @property
    def released(self) -> bool:
        """Whether this is a table released with rpoker (installed, or a copy of one): its manifest
        is the one recorded in the code (``RELEASED``), and so is every file the manifest seals."""
        return self.checksum in RELEASED.values()

    @property
    def provenance(self) -> str:
        """Whether the table is one released with rpoker, in words."""
        if self.released:
            return "released with rpoker"
        return "not a released table: rpoker tables check re-solves a sample"

    @property
    def fingerprint(self) -> str:
        return self.manifest.fingerprint

    @property
    def rules_name(self) -> str:
        return self.manifest.name

    @property
    def complete(self) -> bool:
        return self.manifest.complete

    def check_rules(self, rules: Rules) -> None:
        if rules.fingerprint != self.fingerprint:
            raise InputError(f"the table in {self.directory} was built for other rules "
                             f"({self.rules_name}, fingerprint {self.fingerprint}), "
                             f"not {rules.name} ({rules.fingerprint})")

    def rebuild_command(self) -> str:
        """How to solve a damaged shard again (the shipped table: reinstall the package)."""
        if _installed(self.directory):
            return ("reinstall rpoker from its source (pip install --force-reinstall .): this is the table "
                    "installed with it")
        name = self.rules_name if self.rules_name in PRESETS else f"<the rules file of fingerprint {self.fingerprint}>"
        return (f"`rpoker tables build{' --compact' if self.compact else ''} --rules {name} --out {self.directory}` "
                "solves damaged shards again")

    def verified_bytes(self, path: Path, entry: dict[str, Any], remedy: str) -> bytes:
        """A file of the table, read whole and checked against its manifest ``entry``."""
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise InputError(f"{path} is missing from the table in {self.directory}; {remedy}") from None
        except OSError as exc:
            raise InputError(f"cannot read {path}: {exc.strerror}") from None
        if len(data) != entry["bytes"] or sha256(data) != entry["sha256"]:
            raise InputError(f"{path} does not match its SHA-256 in the manifest: the file is damaged, and "
                             f"nothing is read from it; {remedy}")
        return data

    def read_shard(self, shard: int, columns: Sequence[str] | None = None) -> Any:
        """A shard as a pyarrow table (some ``columns``, or all), verified."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        path = shard_path(self.directory, shard)
        entry = self.manifest.shard(shard)
        if entry is None:
            raise MissingShard(f"shard {shard} is not in the table in {self.directory} "
                               f"({len(self.manifest.shards)} of {self.manifest.shards_total} shards built); "
                               "run `rpoker tables build` to finish it")
        raw = self.verified_bytes(path, entry, self.rebuild_command())
        try:
            # read by ParquetFile on this thread (read_table starts Arrow's thread pools, whose threads
            # can abort the process at exit: apache/arrow#34314); a 0.4 MB shard reads as fast so
            data = pq.ParquetFile(pa.BufferReader(raw)).read(list(columns) if columns else None, use_threads=False)
        except Exception as exc:  # pyarrow raises several types; the checksum matched, so it was written so
            raise InputError(f"{path} cannot be read ({str(exc)[:80]}); {self.rebuild_command()}") from None
        meta = data.schema.metadata or {}
        if (meta.get(b"rpoker.fingerprint", b"").decode() != self.fingerprint or data.num_rows != entry["rows"]
                or (meta.get(b"rpoker.compact") == b"true") != self.compact):
            raise InputError(f"{path} does not belong to the table in {self.directory}; {self.rebuild_command()}")
        return data

    def _shard_of(self, key: int) -> int:
        for first, s in reversed(self._first):
            if key >= first:
                if key <= self.manifest.shards[str(s)]["last_key"]:
                    return int(s)
                break
        raise MissingShard(f"the shard of this deal's class is missing from the table in {self.directory} "
                           f"({len(self.manifest.shards)} of {self.manifest.shards_total} shards built); "
                           "run `rpoker tables build` to finish it")

    def lookup(self, hand: Sequence[Card], up_card: Card) -> Answer:
        """The table's row of a deal, translated into the user's suits."""
        if len(hand) != 5:
            raise InputError(f"the hand must have 5 cards, not {len(hand)}")
        check_disjoint([("hand", hand), ("up-card", [up_card])])
        c = canonical(hand, up_card)
        key = int(class_keys(np.asarray([c.hand], np.uint8), np.asarray([c.up_card]))[0])
        shard = self._shard_of(key)
        if shard not in self._shards:  # read once: its key column finds the row
            data = self.read_shard(shard)
            self._shards[shard] = (data, data.column("key").to_numpy())
        table, keys = self._shards[shard]
        row = int(np.searchsorted(keys, key))
        if row >= len(keys) or keys[row] != key:
            raise InputError(f"class {key} is not in {shard_path(self.directory, shard)}, whose key range holds it: "
                             f"the table is not a table of every class; {self.rebuild_command()}")
        data = table.slice(row, 1).to_pylist()[0]
        rep = c.hand

        def choice(code: int, ev: float, exact: Fraction | None = None) -> Choice:
            action = Action.from_code(code, rep)
            thrown = set(c.to_user(list(action.throw)))
            in_hand = Action(action.kind, tuple(x for x in hand if x in thrown))   # in the hand's order
            return Choice(in_hand, float(ev), exact)

        best_exact = None if self.compact else Fraction(data["best_num"], data["best_den"])
        options = [choice(data["best"], data["best_ev"], best_exact), choice(data["second"], data["second_ev"])]
        if not self.compact:
            others = [(1, data["bet"])] + ([(2, data["sixth"])] if data["sixth"] is not None else [])
            others += [(exchange_code(mask), data[EXCHANGE_COLUMNS[mask - 1]]) for mask in range(1, 32)]
            rest = [(code, ev) for code, ev in [(0, -1.0), *others]
                    if ev is not None and not np.isnan(ev) and code not in (data["best"], data["second"])]
            options += [choice(code, ev) for code, ev in sorted(rest, key=lambda o: -o[1])]
        return Answer(tuple(hand), up_card, key, data["weight"], tuple(options), data["insurance"],
                      None if self.compact else float(data["bet"]))


#: the manifest SHA-256 of each table released with this version, by its folder's name (the tables
#: installed with rpoker): an installed table that differs is refused, and an answer read from a
#: table says whether it is the released one. A table released again changes this line.
RELEASED: dict[str, str] = {
    "russian-compact": "dde7bea1b7a3331f33fa5224badb6ae96bdd4d2110a30b6bdb3897c2bf0b6e2a",
}


def _installed(directory: Path) -> bool:
    """Whether ``directory`` is one of the tables installed with rpoker."""
    shipped = shipped_root()
    return shipped is not None and directory.resolve().parent == shipped.resolve()


def shipped_root() -> Path | None:
    """The folder of the tables installed with the package (``tables/`` of the source)."""
    from importlib.resources import files

    try:
        root = Path(str(files("solver.shipped")))
    except (ModuleNotFoundError, TypeError):  # pragma: no cover - not installed with its tables
        return None
    return root if root.is_dir() else None


def default_roots() -> list[Path]:
    """Where tables are looked for when none is named: ./tables, then the tables installed
    with the package."""
    shipped = shipped_root()
    return [Path("tables"), *([shipped] if shipped is not None else [])]


def _candidates(root: Path) -> list[Path]:
    if (root / MANIFEST).is_file():
        return [root]
    return sorted(p.parent for p in root.glob(f"*/{MANIFEST}")) if root.is_dir() else []


def locate(rules: Rules, table: Path | str | None = None, missing_ok: bool = False) -> Table | None:
    """The strategy table of ``rules``.

    Named by ``table`` (else ``$RPOKER_TABLES``): that directory must exist and hold it (a table
    directory, or a directory of tables), else an error says what it holds (``missing_ok``: a
    directory of tables without it gives None, for a build to fill). Not named: the
    first of ``default_roots`` that holds it, or None. A damaged table is an error as soon as
    its manifest is read; a damaged candidate that might have been it is named when none is
    found.
    """
    named, option = (table, "--table") if table is not None else (os.environ.get("RPOKER_TABLES") or None,
                                                                  "$RPOKER_TABLES")
    if named is not None:
        root = Path(named)
        if str(named) == "" or not root.exists():
            raise InputError(f"{option} {str(named)!r}: no such directory")
        if (root / MANIFEST).is_file():
            found = Table(root)
            found.check_rules(rules)
            return found
        others = []
        for directory in _candidates(root):
            t = Table(directory)     # damage is an error: the table was named
            if t.fingerprint == rules.fingerprint:
                return t
            others.append(f"{directory.name} ({t.rules_name})")
        if missing_ok:
            return None
        raise InputError(f"no table of the rules {rules.name} ({rules.fingerprint}) in {root}"
                         + (f": it holds {', '.join(others)}" if others else ""))
    damaged: list[str] = []
    for root in default_roots():
        for directory in _candidates(root):
            try:
                t = Table(directory)
            except InputError as exc:
                damaged.append(str(exc))
                continue
            if t.fingerprint == rules.fingerprint:
                return t
    if damaged:
        raise InputError(f"no table of the rules {rules.name} could be read: {damaged[0]}")
    return None


def required(rules: Rules, table: Path | str | None = None) -> Table:
    """The table of ``rules`` that a command needs: named, or found (``locate``); an error naming
    where it looked when there is none."""
    found = locate(rules, table)
    if found is None:
        raise InputError(f"no table of the rules {rules.name} ({rules.fingerprint}) in {where()}; "
                         f"use --table, or build one with `rpoker tables build --rules {rules.name} --compact`")
    return found


def where() -> str:
    """Where ``locate`` looks when no table is named, in words."""
    return ", ".join(str(p) for p in default_roots())
