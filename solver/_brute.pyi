"""Stubs of the literal-enumeration reference kernel (``ext/_brute.pyx``)."""

import numpy as np

def outcomes(deck: np.ndarray, up: int, player: int, may_buy: bool, qualifier: int,
             redraws: int) -> tuple[int, int, int, int, int, np.ndarray]: ...
def buy_draws(dealer: np.ndarray, stub: np.ndarray, player: int, qualifier: int,
              redraws: int) -> tuple[int, int, int, int]: ...
