"""A strategy card derived from optimal play: at most N rule lines a person can follow, losing as
little as a greedy search finds, then checked exactly.

The search works on *cells*: the classes that every condition of a card sees alike (the same
category, ranks, up-card rank and draws), with each action's loss against the best summed over
their deals (``cells``). It grows a tree leaf by leaf, each split by one condition of the
vocabulary, each leaf taking the action of least loss; a tree of N leaves is a card of N lines
(``tree``), refined line by line (``refinement``), the sizes lending each other their lines and
shaken out of where the refine stopped (``shaking``), each stage kept in the work folder
(``searching``, ``work``). The search sums floats; the card it writes (``writing``) is then checked
exactly, so the cost printed is exact, and repaired where its own later rules make a line lose
more than betting or folding at once (``repairs``). ``pipeline.derive`` runs it all.

What each action loses in each class: without draws, from every class's bet counts
(``report.class_counts``: bet and fold, exactly). With draws, from the rules' compact table, which
holds each class's best action and runner-up with their EVs, and the kernel counts every class's
bet (about a minute): an action that is the best loses nothing, the runner-up its gap, a fold or a
bet its EV's distance from the best. Any other action's loss is that of the same action in one
class of the same cell (its *representative*, solved exactly: ``representative_losses``), and at
least the runner-up's gap; where that class would exchange all five cards (a keep naming ranks it
does not hold: 5 ms a class, as much as every other action together), the runner-up's gap plus
``UNKNOWN``. These are the search's estimates: only the exact check says what the card loses.

With draws a card also states the bet or fold after a draw, searched over the cells (a card of
the up-card's rank thrown away or not, up rank, final strength) of its first decision's draws,
each weighted by what betting it gains over folding (``draw_gains``): what those rules lose is
exact there, up to the floats' rounding.
"""

from .cells import ALL_FIVE, IMPOSSIBLE, KEEPS, UNKNOWN, actions, representative_losses, representative_values
from .pipeline import CURVE, INSURANCE_LINES, after_draw_lines, derive, parse_sizes
from .repairs import AFTER_LINES
from .searching import final_rules, search
from .writing import Derived, card_lines, card_text, chart, markdown, plain, write

__all__ = ["ALL_FIVE", "AFTER_LINES", "CURVE", "IMPOSSIBLE", "INSURANCE_LINES", "KEEPS", "UNKNOWN", "Derived",
           "actions", "after_draw_lines", "card_lines", "card_text", "chart", "derive", "final_rules", "markdown",
           "parse_sizes", "plain", "representative_losses", "representative_values", "search", "write"]
