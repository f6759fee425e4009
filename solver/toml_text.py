"""TOML files of rules and strategy cards, parsed within bounds: at most ``MAX_BYTES`` of text and
``MAX_DEPTH`` nested arrays or inline tables, so that a hostile file is one clear error, not a
recursion the parser cannot finish (Python's ``tomllib`` recurses once per level).

>>> parse('a = [[1, 2], { b = 3 }]', "example.toml")
{'a': [[1, 2], {'b': 3}]}
>>> parse('a = ' + '[' * 40 + ']' * 40, "deep.toml")
Traceback (most recent call last):
...
solver.errors.InputError: deep.toml: arrays or inline tables nested more than 32 deep
>>> nesting('s = "[[[[" # [[[[\\nt = [[1]]')
2
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from .errors import InputError

MAX_BYTES = 1 << 20
"""The longest file read (1 MiB: the largest card shipped is under 10 KB)."""
MAX_DEPTH = 32
"""The deepest nesting of arrays and inline tables read (a card nests 2 deep)."""


def nesting(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in a TOML text outside its strings and comments (a
    table header ``[[first]]`` counts 2)."""
    depth = deepest = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif c in "\"'":
            quote = c * 3 if text.startswith(c * 3, i) else c
            j = i + len(quote)
            while j < n and not text.startswith(quote, j):
                j += 2 if c == '"' and text[j] == "\\" else 1
                if len(quote) == 1 and j < n and text[j] == "\n":
                    break   # an unclosed string: the parser names it
            i = j + len(quote)
            continue
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth = max(0, depth - 1)
        i += 1
    return deepest


def read(path: Path, what: str) -> str:
    """The text of a rules file or a strategy card, refused unread when it is too large."""
    try:
        if path.stat().st_size > MAX_BYTES:
            raise InputError(f"{what}: the file is larger than {MAX_BYTES // 1024} KiB; a rules file or a strategy "
                             "card is a few KB")
        return path.read_text(encoding="utf-8")
    except OSError as exc:  # unreadable, a folder, or a name the system refuses
        raise InputError(f"cannot read the {what}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError(f"{what}: not valid TOML (not UTF-8 text)") from None


def parse(text: str, what: str) -> dict[str, Any]:
    """The TOML ``text`` of the file ``what`` (named in every error)."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise InputError(f"{what}: the file is larger than {MAX_BYTES // 1024} KiB; a rules file or a strategy card "
                         "is a few KB")
    if nesting(text) > MAX_DEPTH:
        raise InputError(f"{what}: arrays or inline tables nested more than {MAX_DEPTH} deep")
    try:
        data: dict[str, Any] = tomllib.loads(text)
        return data
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{what}: not valid TOML ({exc})") from None
    except RecursionError:  # pragma: no cover - the nesting bound keeps the parser shallow
        raise InputError(f"{what}: nested too deep to read") from None
