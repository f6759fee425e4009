"""Stubs of the literal-enumeration reference kernel (``ext/_brute.pyx``)."""

import numpy as np

def situation(deck: np.ndarray, up: int, player: int, p: int, may_buy: bool, qualifier: int, win_extra: int,
              buy_fee: int, redraws: int) -> tuple[int, ...]: ...
def results(deck: np.ndarray, up: int, player: int, p: int, may_buy: bool, qualifier: int, win_extra: int,
            buy_fee: int, redraws: int, insurance: int, tie_loses: bool) -> dict[int, int]: ...
def buy_game(dealer: np.ndarray, stub: np.ndarray, player: int, p: int, qualifier: int, win_extra: int,
             redraws: int) -> tuple[int, int]: ...
