"""Strategy tables: every suit class of (hand, up-card) solved, stored as Parquet shards.

A table is a directory: ``manifest.json`` (the rules, their fingerprint, the solver version,
the shard size and, for every finished shard, its rows, key range and SHA-256) and one file
``shard-NNNNN.parquet`` per shard of ``shard_rows`` consecutive classes (one row group each).
Shards are written to a temporary name and renamed, then the manifest is rewritten the same
way, so a build killed at any moment leaves finished shards intact and is resumed by running
it again; a shard whose file does not match the manifest is solved again.

Columns, one row per class, sorted by ``key``:

============  =========  ===================================================================
key           int64      the class (``classes.class_keys``): its rank-level deal, then the
                         representative hand (sorted, base 52), then the up-card
weight        int32      deals in the class (the weights sum to 122,151,120)
best          uint8      the best first action (its code: ``Action.code``)
best_ev       float64    its EV per ante
best_num      int64      its EV as an exact fraction ``best_num / best_den`` (reduced)
best_den      int64
second        uint8      the runner-up action and its EV
second_ev     float64
insurance     uint8      the insurance to take when betting the dealt hand, in antes
bet           float64    EV of betting the dealt hand (best insurance)
sixth         float32    EV of buying a sixth card (NaN when the rules do not allow it)
x01 ... x31   float32    EV of exchanging the cards of the representative hand at the set
                         bits of the mask (NaN when not allowed); float32 keeps 7 digits,
                         enough to rank the options; the best and the runner-up are float64
============  =========  ===================================================================

Action codes (``solver.action``): 0 fold, 1 bet, 2 sixth card, 2 + mask for an exchange (mask
1..31 over the representative hand's five cards in sorted order).

A *compact* table (``compact``; ``"compact": true`` in its manifest) keeps only the columns
``COMPACT_COLUMNS`` — key, weight, best, best_ev, second, second_ev (float32), insurance — in the
same shards: the table to ship (about 0.38 MB a shard, 33 MB for all 87 of the default rules).
"""

from .builder import CHUNK_ROWS, CHUNKS, SHARD_ROWS, BuildReport, build
from .compaction import CompactReport, compact
from .reader import Answer, Choice, MissingShard, Table, default_roots, locate, required, shipped_root, where
from .rows import solve_rows
from .schema import (
    COMPACT_COLUMNS,
    EXCHANGE_COLUMNS,
    SCHEMA_VERSION,
    Manifest,
    Plan,
    read_manifest,
    shard_path,
)
from .verification import SPOT, CheckReport, check, rebuild_folder, rebuilt

__all__ = ["CHUNK_ROWS", "CHUNKS", "COMPACT_COLUMNS", "EXCHANGE_COLUMNS", "SCHEMA_VERSION", "SHARD_ROWS", "SPOT",
           "Answer", "BuildReport", "CheckReport", "Choice", "CompactReport", "Manifest", "MissingShard", "Plan",
           "Table", "build", "check", "compact", "default_roots", "locate", "read_manifest", "rebuild_folder",
           "rebuilt", "required", "shard_path", "shipped_root", "solve_rows", "where"]
