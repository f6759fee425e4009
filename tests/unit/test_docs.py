"""The docstring examples of the package run as written, and the README's commands are CI's."""

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = ["solver", "solver.errors", "solver.manifest", "solver.cards", "solver.rules", "solver.hand",
           "solver.reference.hand", "solver.deal", "solver.classes", "solver.returns", "solver.action", "solver.counts",
           "solver.tables.schema", "solver.strategy.card", "solver.strategy.hands", "solver.toml_text"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    command = readme.split("<!-- test-command -->")[1].split("```")[1].strip().splitlines()[-1]
    assert command.startswith("pip install") and "pytest" in command
    assert command in ci
