"""rpoker: the reference exact solver for Russian Poker.

The names a program needs, from one import (loaded when first used, so that ``import solver``
costs little):

>>> import solver
>>> hand, up = solver.parse_cards("Jh Jd 8c 5s 2d"), solver.parse_card("Ks")
>>> s = solver.solve(hand, up)                       # every option, exact
>>> s.best.label, round(float(s.best.ev), 9)
('exchange 8c 5s 2d', 0.207718088)
>>> s.best.action == solver.Action("exchange", solver.parse_cards("8c 5s 2d"))
True
>>> s.option("bet").ev == s.bet.ev, s.bet.insurance_size
(True, 0)
>>> r = solver.load_rules("caribbean")               # a preset or a TOML rules file
>>> round(float(solver.solve(hand, up, r).best.ev), 9)
0.455954898
>>> table = solver.locate_table(solver.DEFAULT_RULES)    # the table installed with rpoker
>>> answer = table.lookup(hand, up)                  # read, not solved, in your own suits
>>> answer.best.label, answer.best.ev == float(s.best.ev)
('exchange 8c 5s 2d', True)
>>> solver.option_returns(hand, up, s.best).ev == s.best.ev   # every result of the round
True

Reports: ``report_figures(rules, table)`` gives every figure of ``rpoker report`` (exact
fractions), ``report_markdown`` / ``report_json`` render them. Strategy tables:
``build_table``, ``check_table``, ``Table``. Every bad input raises ``InputError`` with a
message naming the cause.

The flow of the package: ``rules`` → ``cards`` and ``hand`` (evaluation kernels) → ``deal``
(exact EV of every option of one deal) → tables and reports → ``cli``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .version import __version__

#: each public name -> (module, attribute)
_PUBLIC: dict[str, tuple[str, str]] = {
    "Card": ("cards", "Card"),
    "parse_card": ("cards", "parse_card"),
    "parse_cards": ("cards", "parse_cards"),
    "format_cards": ("cards", "format_cards"),
    "Rules": ("rules", "Rules"),
    "load_rules": ("rules", "load"),
    "DEFAULT_RULES": ("rules", "DEFAULT"),
    "InputError": ("errors", "InputError"),
    "HandValue": ("hand", "HandValue"),
    "evaluate": ("hand", "evaluate"),
    "solve": ("deal", "solve"),
    "Solution": ("deal", "Solution"),
    "Action": ("action", "Action"),
    "Option": ("deal", "Option"),
    "BetValue": ("final_hand", "BetValue"),
    "bet_value": ("final_hand", "bet_value"),
    "buy_game": ("final_hand", "buy_game"),
    "BuyDecision": ("final_hand", "BuyDecision"),
    "option_returns": ("deal", "option_returns"),
    "Returns": ("returns", "Returns"),
    "Table": ("tables", "Table"),
    "Answer": ("tables", "Answer"),
    "locate_table": ("tables", "locate"),
    "build_table": ("tables", "build"),
    "check_table": ("tables", "check"),
    "report_figures": ("report", "report_figures"),
    "report_markdown": ("report", "to_markdown"),
    "report_json": ("report", "to_json"),
}

__all__ = ["__version__", *_PUBLIC]

if TYPE_CHECKING:
    from .action import Action
    from .cards import Card, format_cards, parse_card, parse_cards
    from .deal import Option, Solution, option_returns, solve
    from .errors import InputError
    from .final_hand import BetValue, BuyDecision, bet_value, buy_game
    from .hand import HandValue, evaluate
    from .report import report_figures
    from .report import to_json as report_json
    from .report import to_markdown as report_markdown
    from .returns import Returns
    from .rules import DEFAULT as DEFAULT_RULES
    from .rules import Rules
    from .rules import load as load_rules
    from .tables import Answer, Table
    from .tables import build as build_table
    from .tables import check as check_table
    from .tables import locate as locate_table


def __getattr__(name: str) -> Any:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    module, attribute = _PUBLIC[name]
    value = getattr(import_module(f".{module}", __name__), attribute)
    globals()[name] = value   # loaded once
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))
