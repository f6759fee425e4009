"""Audit figures from exact counts over every class of (hand, up-card): house edge, return table.

What is computed here without a strategy table: every class's bet counts (the dealer's four
hidden cards counted exactly, ``_dealer.bet_counts``), so

- the **closed box** of any rules (RULES §9: bet at once, no exchange, sixth card, insurance or
  buying a game);
- the **whole optimal strategy** of rules without exchanges and sixth cards (Caribbean Stud):
  bet or fold, the bet valued with its best insurance and buy;
- the fixed strategies "raise on everything", "on a pair or better", "on AK or better";
- the bonus side bet (RULES §8) over the 2,598,960 dealt hands.

Totals are exact integers: the results of every deal against every completion of the dealer's
hand (the full cycle C(52,5) * 47 * C(46,4)), so every EV is an exact fraction of them.

Rules with exchanges or a sixth card take their optimal play from their complete strategy table
(``table_play``): the EV of optimal play from every class's best EV, and how often each first
action is best. The table holds each best EV as the float64 nearest the exact fraction, so the
EV is the exact weighted sum of those floats, within a stated bound of the exact value (the
largest |EV| times 2**-52: every float is within that of its fraction). Once every class's best
action is played out (``optimal``, ``rpoker tables results``), its exact results give the rest:
the exact EV, the return table, the variance, the element of risk and the rates of play.

The package, by step: ``counting`` (every class's bet counts, the strategies that bet from them,
the bonus), ``play`` (optimal play from a table), ``figures``, ``rendering`` (Markdown, JSON),
``charts``, and ``pipeline`` (rules to files: what ``rpoker report`` runs).
"""

from .charts import charts, table_chart
from .counting import (
                       CHUNK,
                       COMPLETIONS,
                       CYCLE,
                       Bonus,
                       Counts,
                       Strategy,
                       bonus_return,
                       class_counts,
                       optimal_bet,
                       strategy,
)
from .figures import Figures, figures, report_figures
from .from_table import TablePlay, table_first_actions, table_play
from .groups import hand_group
from .pipeline import Hooks, optimal_play, write
from .rendering import to_json, to_markdown

__all__ = ["CHUNK", "COMPLETIONS", "CYCLE", "Bonus", "Counts", "Figures", "Hooks", "Strategy", "TablePlay",
           "bonus_return", "charts", "class_counts", "figures", "hand_group", "optimal_bet", "optimal_play",
           "report_figures", "strategy", "table_chart", "table_first_actions", "table_play", "to_json",
           "to_markdown", "write"]
