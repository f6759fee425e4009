"""Stubs of ``_buy.pyx``: buying the dealer a game (the kernels cimport the rest)."""

import numpy as np
import numpy.typing as npt

def seen_buy(dealer: npt.NDArray[np.uint8], stub: npt.NDArray[np.uint8], player: int, qualifier: int,
             redraws: int) -> tuple[int, int, int, int]: ...
