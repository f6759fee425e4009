"""Stubs of ``_deck.pyx``: the dealer's counts for a deck, for the kernels (cimport); for Python
only the tests' view of a blind prefix."""

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

def blind_below(
    up: int, known: npt.NDArray[np.uint8], strengths: Iterable[int], new: Sequence[int] = ()
) -> list[int]: ...
