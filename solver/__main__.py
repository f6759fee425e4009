"""``python -m solver`` is the ``rpoker`` command."""

from .cli import main

main()
