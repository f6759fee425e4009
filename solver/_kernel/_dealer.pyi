"""Stubs of the counting kernel's entry points (``_dealer.pyx``)."""

import numpy as np
import numpy.typing as npt

from solver._kernel._settle import KernelRules
from solver._kernel._store import SharedState
from solver.counts import Bet, Solved

def clear_shared() -> None: ...
def shared_state() -> SharedState: ...
def situation(final: npt.NDArray[np.uint8], up: int, known: npt.NDArray[np.uint8], rules: KernelRules,
              p: int) -> Bet: ...
def solve(hand: npt.NDArray[np.uint8], up: int, dead: npt.NDArray[np.uint8], rules: KernelRules,
          exchange_counts: tuple[int, ...] = (), sixth_card: bool = False, *, bound_counts: tuple[int, ...] = (),
          wanted: int = 0xFFFFFFFF, card_by_card: bool = False, results: bool = False,
          after: npt.NDArray[np.uint8] | None = None, gains: bool = False,
          gains_into: npt.NDArray[np.float64] | None = None, gains_weight: float = 1.0) -> Solved: ...
def bet_counts(hands: npt.NDArray[np.uint8], up_cards: npt.NDArray[np.uint8], rules: KernelRules,
               out: npt.NDArray[np.int64]) -> None: ...
