"""The installed version of rpoker, in its own module so that any module can read it without
importing the package's face (``solver/__init__``).

>>> from solver.version import __version__
>>> isinstance(__version__, str) and len(__version__) > 0
True
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("rpoker")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+source"
