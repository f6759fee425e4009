"""Stubs of the literal-enumeration reference kernel (``_brute.pyx``)."""

import numpy as np
import numpy.typing as npt

def outcomes(deck: npt.NDArray[np.uint8], up: int, player: int, may_buy: bool, qualifier: int,
             redraws: int) -> tuple[int, int, int, int, int, npt.NDArray[np.int64]]: ...
def buy_draws(dealer: npt.NDArray[np.uint8], stub: npt.NDArray[np.uint8], player: int, qualifier: int,
              redraws: int) -> tuple[int, int, int, int]: ...
