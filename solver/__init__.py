"""rpoker: the reference exact solver for Russian Poker.

The flow of the package: ``rules`` → ``cards`` and ``hand`` (evaluation kernels) → ``deal``
(exact EV of every option of one deal) → tables and reports → ``cli``.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("rpoker")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+source"
