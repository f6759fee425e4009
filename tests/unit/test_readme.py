"""The README is the user's guide: short, its figures those of the shipped data, its links alive."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def _figures():
    spec = importlib.util.spec_from_file_location("readme_figures", ROOT / "tools" / "readme_figures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_is_short() -> None:
    assert len(README.read_text().splitlines()) <= 250


def test_readme_figures_are_the_data() -> None:
    figures = _figures()
    text = README.read_text()
    assert figures.differing(text) == []
    # the check can fail: a figure changed by one digit is found
    changed = text.replace("| 0.515453 % |", "| 0.515454 % |", 1)
    assert changed != text and figures.differing(changed) == ["games"]
    assert figures.written(changed) == text


def test_readme_and_docs_links_exist() -> None:
    for doc in [README, *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", doc.read_text()):
            assert (doc.parent / target).exists(), f"{doc.name} links to {target}, which does not exist"
