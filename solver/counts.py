"""What the kernel returns, by name (docs/design.md §1): the counts of a bet (``Situation``,
with its value a ``Bet``: ``_dealer.situation``), the columns of ``deal.bet_counts``
(``BET_COLUMNS``: the same with the bet's value after ``den``), an option's results (``Results``,
rows of ``RESULT_ROW``) and every option of a deal (``Solved``: ``_dealer.solve``). Dealer hands
are counted out of ``n``; a buy's excess and draws over ``den``.

>>> BET_COLUMNS[BET["value"]], [BET_COLUMNS[i] for i in RESULT_COLUMNS][:4]
('value', ['win', 'tie', 'lose', 'nq'])
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Situation(NamedTuple):
    """Betting one final hand against every dealer hand (and every draw of a buy)."""

    n: int               # dealer hands
    win: int             # qualifying dealer hands below the player
    tie: int
    lose: int
    nq: int              # dealer hands that do not qualify
    buy_excess: int      # over den: the sum of what buying a game adds over taking the ante
    den: int             # the draws of a buy (1 without buying)
    buys: int            # dealer hands the player buys a game for
    buy_win: int         # their draws (over den) the player wins, ties, loses
    buy_tie: int
    buy_lose: int
    insurance: int       # the insurance taken, antes (0: none)
    insured_excess: int  # buy_excess with that insurance


#: the columns of ``deal.bet_counts``: a situation, with the bet's value (over n * den) after den
BET_COLUMNS = (*Situation._fields[:7], "value", *Situation._fields[7:])
#: a column's index by name
BET = {name: i for i, name in enumerate(BET_COLUMNS)}
#: the rows of results (``returns.bet_results``): the dealer hands by how they end, the buys' split
RESULT_ROW = ("win", "tie", "lose", "nq", "buys", "buy_win", "buy_tie", "buy_lose")
#: where those are among ``BET_COLUMNS``
RESULT_COLUMNS = [BET[name] for name in RESULT_ROW]


def bet_evs(rows: np.ndarray) -> np.ndarray:
    """The EV per deal of each row of ``deal.bet_counts`` (its value over n * den), as floats."""
    out: np.ndarray = rows[:, BET["value"]] / (rows[:, BET["n"]] * rows[:, BET["den"]]).astype(np.float64)
    return out


class Bet(NamedTuple):
    """Betting one final hand: its counts, and its value with the best insurance (over n * den)."""

    counts: Situation
    value: int


class Results(NamedTuple):
    """The results of one option: outcomes ``folded``, and for the outcomes bet, by the final
    hand's ``P << 16 | insurance``, the sums of ``RESULT_ROW``; an outcome is ``n`` dealer hands
    of ``den`` draw sequences each."""

    folded: int
    rows: dict[int, tuple[int, ...]]
    n: int
    den: int


class Solved(NamedTuple):
    """Every option of one deal as exact numerators (``_dealer.solve``): the bet of the dealt
    hand; a sixth card and each exchange (by discard mask) as (numerator, denominator) of the
    average over their outcomes of max(fold, bet), fees excluded; upper bounds of exchanges
    (``exchange_bound``); the results of the sixth card and of the exchanges, when asked for; what
    betting each final strength of one option adds over folding it, when asked for."""

    bet: Bet
    sixth_card: tuple[int, int] | None
    exchange: dict[int, tuple[int, int]]
    exchange_bound: dict[int, tuple[int, int]]
    sixth_card_results: Results | None
    exchange_results: dict[int, Results]
    gains: dict[int, int] | None = None
