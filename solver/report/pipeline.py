"""The report from rules to files: the optimal play of each set of rules from its strategy table
(built and played out first when asked), the counts over every class, the figures, the
Markdown, JSON and charts. ``rpoker report`` is one call of ``write``; what it shows while it
works (progress, notes, a build's summary) comes in through ``Hooks``."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

from .. import tables as tables_mod
from ..errors import InputError
from ..manifest import write_atomic
from ..rules import Rules
from ..tables import played
from .charts import charts, table_chart
from .counting import class_counts
from .figures import figures
from .from_table import TablePlay, table_first_actions, table_play
from .rendering import to_json, to_markdown

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Hooks:
    """What the caller shows while a report is made."""

    progress: Callable[[str, str], AbstractContextManager[Progress]]   # (doing, things): progress(done, total)
    note: Callable[[str], None]                                         # a line on the side (stderr)
    build: Callable[[Rules, Path, int, bool], None]                     # a table: rules, directory, jobs, compact


def optimal_play(rules: Rules, table: str | None, build: bool, jobs: int, hooks: Hooks) -> TablePlay | None:
    """The optimal play of ``rules`` from their complete strategy table (named, or found; with
    ``build``, built and played out first); None, with a note, when it cannot be had, and for
    rules without exchanges and sixth cards (counted exactly without a table)."""
    if not rules.draws:
        return None
    found = tables_mod.locate(rules, table, missing_ok=build)
    if build and (found is None or not found.complete):
        root = Path(table) if table else Path("tables")
        directory = found.directory if found is not None else root / f"{rules.name}-compact"
        hooks.build(rules, directory, jobs, found.compact if found is not None else True)
        found = tables_mod.Table(directory)
    if found is None or not found.complete:
        where = f"{found.directory} holds {len(found.manifest.shards)} of its " \
            f"{found.manifest.shards_total} shards" \
            if found is not None else "no table found in " + tables_mod.where()
        hooks.note(f"{rules.name}: optimal play needs the complete strategy table ({where}); left out. "
                   "Build it with `rpoker tables build --compact` or `rpoker report --build`.")
        return None
    if build:
        with hooks.progress("playing out", "shards") as progress:
            played.compute(found, rules, jobs, progress)
    play = table_play(found, rules)
    if play.results is None:
        hooks.note(f"{rules.name}: the return table, variance and rates of optimal play need its results, counted "
                   f"for {play.results_shards} of {found.manifest.shards_total} shards; left out. Count them with "
                   "`rpoker tables results` or `rpoker report --build`.")
    return play


def write(sets: list[Rules], directory: Path, hooks: Hooks, jobs: int = 1, table: str | None = None,
          build: bool = False) -> str:
    """The report of ``sets`` (one set of rules, or two compared) into ``directory`` (checked
    writable by the caller): report.md, report.json and the charts. Returns the Markdown."""
    if table is not None and not any(r.draws for r in sets):
        raise InputError(f"--table {table!r}: the rules {' and '.join(r.name for r in sets)} have no exchange and "
                         "no sixth card, so their report is counted exactly without a strategy table")
    found = []
    for r in sets:
        play = optimal_play(r, table, build, jobs, hooks)
        with hooks.progress(f"counting {r.name}:", "classes") as progress:
            counts = class_counts(r, jobs, progress)
        found.append(figures(r, counts, play))
        charts(found[-1], counts, directory)
        if play is not None:
            labels, deals = table_first_actions(tables_mod.Table(play.table))
            table_chart(r.name, labels, deals, directory)
    markdown = to_markdown(found[0], found[1] if len(found) > 1 else None)
    data = [to_json(f) for f in found]
    write_atomic(directory / "report.md", lambda p: p.write_text(markdown))
    text = json.dumps(data[0] if len(data) == 1 else {"a": data[0], "b": data[1]}, indent=1) + "\n"
    write_atomic(directory / "report.json", lambda p: p.write_text(text))
    return markdown
