"""The package's layout: one module map (docs/design.md §11) naming every file, every package
installed, no import circles, the layers of pyproject.toml kept, no source file too long to read."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import grimp
import pytest

from solver import toml_text

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "solver").rglob("*")
                 if p.suffix in (".py", ".pyx") and "__pycache__" not in p.parts)


def test_the_module_map_names_every_file_and_no_other():
    text = (ROOT / "docs" / "design.md").read_text()
    section = text.split("## 11. The module map")[1].split("\n## ")[0]
    mapped = re.findall(r"^\| [^|]+ \| `(solver/[^`]+)` \|", section, flags=re.M)
    assert len(mapped) == len(set(mapped))
    assert sorted(mapped) == SOURCES


def _circles(graph: grimp.ImportGraph) -> list[set[str]]:
    """The sets of modules that import each other in a circle (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[set[str]] = []

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        for w in graph.find_modules_directly_imported_by(m):
            if w not in index:
                visit(w)
                low[m] = min(low[m], low[w])
            elif w in stack:
                low[m] = min(low[m], index[w])
        if low[m] == index[m]:
            part = set()
            while True:
                w = stack.pop()
                part.add(w)
                if w == m:
                    break
            if len(part) > 1:
                out.append(part)

    for m in sorted(graph.modules):
        if m not in index:
            visit(m)
    return out


def test_every_package_of_the_source_is_installed():
    # the packages are listed by name in pyproject.toml: one left out is missing from a wheel,
    # though the tests of a source checkout import it
    project = toml_text.parse((ROOT / "pyproject.toml").read_text(), "pyproject.toml")
    listed = set(project["tool"]["setuptools"]["packages"])
    found = {p.parent.relative_to(ROOT).as_posix().replace("/", ".") for p in (ROOT / "solver").rglob("__init__.py")}
    assert found <= listed, f"not installed: {sorted(found - listed)}"


def test_no_import_circles():
    graph = grimp.build_graph("solver", cache_dir=None)
    assert _circles(graph) == []
    # the check can fail: a module that imports one that imports it back is found
    graph.add_import(importer="solver.rules", imported="solver.deal")
    assert any({"solver.rules", "solver.deal"} <= part for part in _circles(graph))


@pytest.mark.skipif(shutil.which("lint-imports") is None, reason="import-linter is not installed")
def test_the_layers_are_kept():
    out = subprocess.run(["lint-imports", "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout[-2000:]
    assert "0 broken" in out.stdout


def test_no_source_file_is_too_long_to_read():
    long = {path: n for path in SOURCES if (n := len((ROOT / path).read_text().splitlines())) > 600}
    assert long == {}
