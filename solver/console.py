"""The command line's plumbing: every failure one line on stderr (``Group``, ``fail``), an option
given twice refused (``Command``), progress on long runs (``progress_bar``), shard lists
(``parse_shards``).

>>> parse_shards("0-3,7", 87)
[0, 1, 2, 3, 7]
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from rich.console import Console
from typer.core import TyperCommand, TyperGroup, TyperOption

try:  # Typer vendors its own click from 0.2x on
    from typer import _click as click
except ImportError:  # pragma: no cover - an older Typer, over click itself
    import click  # type: ignore[no-redef]

from .errors import InputError
from .version import __version__

if TYPE_CHECKING:
    from rich.progress import TaskID


MESSAGE_LIMIT = 400  # an error message is cut to this (an argument may be huge)


class Group(TyperGroup):
    """Turns every failure below into one line on stderr and a non-zero exit code."""

    def invoke(self, ctx: click.core.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as exc:
            fail(str(exc))
        except OSError as exc:  # the environment: a path, a device, a permission
            where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
            fail(f"{exc.strerror or exc}{where}")
        except MemoryError:
            fail("out of memory")

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, windows_expand_args: bool = True,
             **extra: Any) -> Any:
        try:
            result = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
            code = result if isinstance(result, int) else 0
        except click.exceptions.UsageError as exc:  # one line, not Typer's box
            if type(exc).__name__ == "NoArgsIsHelpError" and exc.ctx is not None:  # a bare group: its help
                typer.echo(exc.ctx.get_help())
            else:
                where = exc.ctx.command_path if exc.ctx is not None else "rpoker"
                say(f"{exc.format_message()} (see {where} -h)")
            code = 2
        except click.exceptions.ClickException as exc:
            say(exc.format_message())
            code = 2
        except typer.Abort:
            err.print("interrupted")
            code = 130
        except Exception as exc:  # a bug: said in one line unless asked for the traceback
            if os.environ.get("RPOKER_DEBUG"):
                raise
            say(f"internal error (a bug in rpoker {__version__}; please report it with the command): "
                 f"{type(exc).__name__}: {exc}")
            code = 3
        if standalone_mode:
            sys.exit(code)
        return code


class Command(TyperCommand):
    """A command that refuses an option given twice (click would keep the last without a word)."""

    def parse_args(self, ctx: click.core.Context, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing:
            _, _, order = self.make_parser(ctx).parse_args(args=list(args))
            seen: set[str | None] = set()
            for param in order:
                if isinstance(param, TyperOption) and not param.multiple:
                    if param.name in seen:
                        ctx.fail(f"{'/'.join(param.opts)} is given twice: give it once")
                    seen.add(param.name)
        return super().parse_args(ctx, args)


err = Console(stderr=True, highlight=False, soft_wrap=True, markup=False)   # messages may hold any text


def say(message: str) -> None:
    if len(message) > MESSAGE_LIMIT:
        message = message[:MESSAGE_LIMIT - 40] + f"… ({len(message):,} characters)"
    from rich.text import Text

    err.print(Text.assemble(("error:", "bold red"), " ", message))


def fail(message: str) -> NoReturn:
    """One line on stderr and exit code 2."""
    say(message.replace("\n", " "))
    raise typer.Exit(2)


def out_dir(value: str | None, default: Path) -> Path:
    """An --out option: an empty one is refused (it is not the current folder)."""
    if value is None:
        return default
    if not value.strip():
        raise InputError("--out is empty: name a directory")
    return Path(value)


@contextlib.contextmanager
def progress_bar(doing: str, things: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr, or a line a minute when stderr is not a terminal (a log); shown
    from the first report of work, so that a request refused at once prints its error alone.
    The remaining time is projected from the rate since the first report (which leaves out the
    start-up). An interrupted run (Ctrl-C) says how to go on and exits with 130."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    start = time.monotonic()
    first: list[tuple[float, int]] = []   # when the first report came, and what was done then
    last = [start]
    bar = Progress(TextColumn(f"{doing} {things}", markup=False), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=err)
    task: list[TaskID] = []

    live = err.is_terminal   # a bar on a terminal; in a log, the lines below alone

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if not first:
            first.append((now, done))
            if live:
                bar.start()
                task.append(bar.add_task(doing, total=total))
        if live:
            bar.update(task[0], completed=done, total=total)
        elif (now - last[0] >= 60 or (done == total and done > first[0][1])):
            last[0] = now
            since, done_then = first[0]
            rate = (done - done_then) / (now - since) if now > since and done > done_then else 0.0
            eta = f"ETA {(total - done) / rate / 3600:.2f} h" if rate > 0 else "ETA unknown yet"
            err.print(f"{doing} {done:,}/{total:,} {things} ({100 * done / max(total, 1):.1f} %), "
                       f"{(now - start) / 3600:.2f} h, {eta}", highlight=False)

    try:
        yield progress
    except KeyboardInterrupt:
        # every long run is resumable: what it finished is on disk, whole
        err.print("interrupted: what was finished is kept; run the same command again to go on")
        raise typer.Exit(130) from None
    finally:
        if task:
            bar.stop()


SHARD = re.compile(r"[0-9]+")   # ASCII digits alone: int() would take "٣", "1_0" and "+1"


def parse_shards(text: str, n_shards: int) -> list[int]:
    """A shard list such as ``0-3,7``: each range checked against the table's shards before it
    is expanded."""
    from .errors import shown

    out: list[int] = []
    if not text.strip():
        raise InputError("--shards is empty (e.g. 0-3,7; leave it out to build every shard)")
    for part in text.split(","):
        lo_text, dash, hi_text = part.strip().partition("-")
        if not all(SHARD.fullmatch(t) for t in (lo_text, hi_text if dash else lo_text)):
            raise InputError(f"bad shard list {shown(text)} (e.g. 0-3,7)")
        lo, hi = int(lo_text), int(hi_text if dash else lo_text)
        if lo > hi:
            raise InputError(f"shard range {shown(part.strip())} is empty: write the lower shard first")
        if lo < 0 or hi >= n_shards:
            raise InputError(f"no shard {hi if hi >= n_shards else lo}: the table has shards 0..{n_shards - 1}")
        out.extend(range(lo, hi + 1))
    return sorted(set(out))
