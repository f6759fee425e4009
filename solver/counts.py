"""The kernel's counts of a bet, by name (docs/design.md §1): what ``_dealer.situation`` and
``_dealer.solve(...)["bet"]`` return (a ``Situation``), the columns of ``deal.bet_counts``
(``BET_COLUMNS``: the same with the bet's value after ``den``) and the rows of the results
(``RESULT_ROW``). Dealer hands are counted out of ``n``; a buy's excess and draws over ``den``.

>>> BET_COLUMNS[BET["value"]], [BET_COLUMNS[i] for i in RESULT_COLUMNS][:4]
('value', ['win', 'tie', 'lose', 'nq'])
"""

from __future__ import annotations

from typing import NamedTuple


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
