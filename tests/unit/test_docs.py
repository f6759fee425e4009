"""The docstring examples of every module run as written, and the README's commands are CI's."""

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import solver

ROOT = Path(__file__).resolve().parents[2]
#: every module of the installed package, found by walking it (the kernel's compiled modules too),
#: but ``python -m solver``, which runs the command when imported
MODULES = sorted(m.name for m in pkgutil.walk_packages(solver.__path__, "solver.") if m.name != "solver.__main__")


def test_every_module_is_found():
    assert {"solver.deal", "solver.strategy.derive.pipeline", "solver._kernel._eval"} <= set(MODULES)


@pytest.mark.parametrize("name", ["solver", *MODULES])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_most_modules_show_an_example():
    """A module's examples are its quickest documentation: most of the package's have some."""
    finder = doctest.DocTestFinder()        # found, not run again: test_docstring_examples runs them
    tried = [sum(len(t.examples) for t in finder.find(importlib.import_module(name)))
             for name in ["solver", *MODULES]]
    assert sum(tried) >= 80 and sum(t > 0 for t in tried) >= 25


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    command = readme.split("<!-- test-command -->")[1].split("```")[1].strip().splitlines()[-1]
    assert command.startswith("pip install") and "pytest" in command
    assert command in ci
