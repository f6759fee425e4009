"""Text and JSON renderings of deal answers for people and programs (used by the CLI).

JSON of ``rpoker best --json`` and ``rpoker tables query --json`` — one shape whether the deal
is solved or read from a table (``source`` says which; what a source does not give is null):

- ``hand``, ``dead`` (card lists), ``up_card``; ``rules`` (``name``, ``fingerprint``);
- ``source``: ``kind`` (``"solver"`` or ``"table"``), ``table`` (its directory, or null),
  ``compact`` (whether the table is compact, or null), ``solver_version`` (of the solver that
  computed the values), ``released`` (whether the table is one released with rpoker, its
  manifest recorded in the code; false for a table built elsewhere, which only ``rpoker tables
  check`` vouches for; null when solved);
- ``best``, ``second`` (the runner-up) and ``options`` (best first: every option when solved
  or read from a full table, the best two from a compact one), each ``{"action": "fold" |
  "bet" | "sixth_card" | "exchange", "throw": [cards], "ev": float, "ev_exact": "num/den" or
  null}`` (a table stores exact values for its best option only, and not when compact);
- ``bet``: betting the dealt hand — ``ev``, ``no_insurance``, ``insurance_unit``,
  ``p_dealer_no_game``, each a float with an ``_exact`` twin, and ``insurance_size`` in antes
  (from a table: the size, and the ``ev`` of a full table; the rest null);
- ``advice``: sentences.

Exact values are fractions as strings, floats only for display.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .cards import Card, format_cards
from .deal import Option, Solution
from .final_hand import BetValue, BuyDecision
from .fraction_text import exact, fraction_json
from .hand import HandValue
from .returns import Returns
from .rules import Rules
from .tables import Answer, Choice, Table
from .version import __version__


def _ev(x: Fraction | float) -> str:
    return f"{float(x):+.9f}"


def option_json(o: Option | Choice) -> dict[str, Any]:
    """An option for JSON: its action, the cards thrown, its EV and (when known) exact EV."""
    exact_ev = o.ev if isinstance(o, Option) else o.ev_exact
    return {"action": o.action.kind, "throw": format_cards(o.action.throw).split(), "ev": float(o.ev),
            "ev_exact": exact(exact_ev) if exact_ev is not None else None}


_BET_VALUES = ("ev", "no_insurance", "insurance_unit", "p_dealer_no_game")


def bet_json(b: BetValue) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in _BET_VALUES:
        out[key] = float(getattr(b, key))
        out[key + "_exact"] = exact(getattr(b, key))
    out["insurance_size"] = b.insurance_size
    return out


def insurance_advice(b: BetValue, allowed: bool) -> str:
    if not allowed:
        return "insurance: not offered with this hand"
    if b.insurance_size:
        return (f"insurance: insure {b.insurance_size} antes, the maximum "
                f"(each unit is worth {_ev(b.insurance_unit)})")
    return f"insurance: do not insure (each unit would be worth {_ev(b.insurance_unit)})"


def buy_advice(p: int, may_buy: bool) -> str:
    if not may_buy:
        return "buying a game: not possible with this hand"
    if p <= 1:
        return "buying a game: never with this hand (P = 1: taking the ante is always better)"
    return (f"buying a game: only when the dealer's chance to qualify after the buy exceeds 1/{p}; "
            "ask `rpoker buy` with the dealer's cards")


def advice(s: Solution, hand: HandValue) -> list[str]:
    lines = [f"best: {s.best.action.words(s.hand)} (EV {_ev(s.best.ev)} antes)"]
    lines.append(insurance_advice(s.bet, s.rules.may_insure(hand.category)) + " — if you bet these five cards")
    lines.append(buy_advice(hand.payout, s.rules.may_buy(hand.category)))
    return lines


def solution_text(s: Solution, hand: HandValue) -> str:
    head = [
        f"hand {format_cards(s.hand)}  up-card {format_cards([s.up_card])}"
        + (f"  dead {format_cards(s.dead)}" if s.dead else ""),
        f"rules {s.rules.name} ({s.rules.fingerprint}); hand: {hand.category_label}, P = {hand.payout}",
        "",
        f"{'#':>3}  {'option':<26}{'EV (antes)':>15}",
    ]
    rows = [f"{i:>3}  {o.label:<26}{_ev(o.ev):>15}" for i, o in enumerate(s.options, 1)]
    return "\n".join(head + rows + [""] + advice(s, hand)) + "\n"


def _answer(hand: Sequence[Card], up_card: Card, dead: Sequence[Card], rules: Rules, source: dict[str, Any],
            options: Sequence[Option | Choice], bet: dict[str, Any], lines: list[str]) -> dict[str, Any]:
    """The one JSON shape of an answer (see the module's docstring)."""
    return {"hand": format_cards(hand).split(), "up_card": format_cards([up_card]), "dead": format_cards(dead).split(),
            "rules": {"name": rules.name, "fingerprint": rules.fingerprint}, "source": source,
            "best": option_json(options[0]), "second": option_json(options[1]),
            "options": [option_json(o) for o in options], "bet": bet, "advice": lines}


def solution_json(s: Solution, hand: HandValue) -> dict[str, Any]:
    source = {"kind": "solver", "table": None, "compact": None, "solver_version": __version__, "released": None}
    return _answer(s.hand, s.up_card, s.dead, s.rules, source, s.options, bet_json(s.bet), advice(s, hand))


def answer_json(a: Answer, table: Table, rules: Rules, hand: HandValue) -> dict[str, Any]:
    source = {"kind": "table", "table": str(table.directory), "compact": table.compact,
              "solver_version": table.manifest.solver_version, "released": table.released}
    bet: dict[str, Any] = {key: None for name in _BET_VALUES for key in (name, name + "_exact")}
    bet["ev"], bet["insurance_size"] = a.bet_ev, a.insurance
    lines = [f"best: {a.best.action.words(a.hand)} (EV {_ev(a.best.ev)} antes)",
             (f"insurance: insure {a.insurance} antes, the maximum" if a.insurance
              else "insurance: do not insure" if rules.may_insure(hand.category)
              else "insurance: not offered with this hand") + " — if you bet these five cards",
             buy_advice(hand.payout, rules.may_buy(hand.category))]
    return _answer(a.hand, a.up_card, (), rules, source, a.options, bet, lines)


def after_text(b: BetValue, hand: HandValue, rules: Rules) -> str:
    decision = "bet" if b.should_bet else "fold"
    return "\n".join([
        f"hand {format_cards(hand.cards)}: {hand.category_label}, P = {hand.payout}",
        f"bet:  EV {_ev(b.ev)}"
        + (f" (insured {b.insurance_size}; {_ev(b.no_insurance)} without)" if b.insurance_size else ""),
        f"fold: EV {_ev(Fraction(-1))}",
        f"best: {decision}",
        insurance_advice(b, rules.may_insure(hand.category)),
        f"dealer does not qualify with probability {float(b.p_dealer_no_game):.9f}",
    ]) + "\n"


def buy_text(d: BuyDecision) -> str:
    return "\n".join([
        f"take the ante: EV {_ev(d.take_ante)}",
        f"buy a game:    EV {_ev(d.buy)}  (dealer qualifies after the buy with probability "
        f"{float(d.p_dealer_qualifies):.9f})",
        f"best: {'buy a game' if d.should_buy else 'take the ante'}",
    ]) + "\n"


def buy_json(d: BuyDecision) -> dict[str, Any]:
    return {"take_ante": float(d.take_ante), "buy": float(d.buy), "buy_exact": exact(d.buy),
            "p_dealer_qualifies": float(d.p_dealer_qualifies),
            "p_dealer_qualifies_exact": exact(d.p_dealer_qualifies), "should_buy": d.should_buy}


def answer_text(a: Answer, table: Table) -> str:
    kind = "compact strategy table" if table.compact else "strategy table"
    lines = [f"{format_cards(a.hand)} | dealer shows {format_cards([a.up_card])}",
             f"from the {kind} {table.directory} (rules {table.rules_name}, "
             f"{table.fingerprint}; {table.provenance}); "
             "solve it (rpoker best --solve) for the exact value of every option", ""]
    if not table.compact:
        lines += [f"  {o.ev:+.6f}  {o.label}" for o in a.options] + [""]
    best_ev = _ev(a.best.ev) + (f" = {exact(a.best.ev_exact)}" if a.best.ev_exact is not None else "")
    lines += [f"best: {a.best.label}  (EV {best_ev})", f"runner-up: {a.second.label}  (EV {a.second.ev:+.6f})"]
    if a.insurance:
        lines.append(f"when betting this hand, insure {a.insurance} antes if the dealer has no game")
    return "\n".join(lines) + "\n"


def returns_json(hand: Sequence[Card], up_card: Card, option: Option, r: Returns) -> dict[str, Any]:
    """JSON of an option's return table (``rpoker returns --json``): every figure as a float
    and an exact fraction."""
    frac = fraction_json
    return {"hand": format_cards(hand).split(), "up_card": format_cards([up_card]), "option": option_json(option),
            "ev": frac(r.ev), "std": r.std(), "average_wager": frac(r.average_wager),
            "bet_rate": frac(r.bet_rate), "insured_rate": frac(r.insured_rate), "buy_rate": frac(r.buy_rate),
            "rounds": r.rounds,
            "results": [{"result": x, "rounds": k, "probability": frac(r.probability(k)),
                         "ev_share": frac(r.probability(x * k))} for x, k in r.results.items()]}


def returns_text(hand: Sequence[Card], up_card: Card, option: Option, r: Returns) -> str:
    lines = [f"{format_cards(hand)} | dealer shows {format_cards([up_card])} | {option.label}",
             f"EV {_ev(r.ev)} antes, standard deviation {r.std():.9f}, average wager {float(r.average_wager):.9f}",
             f"bets {float(r.bet_rate) * 100:.6f} %, insured {float(r.insured_rate) * 100:.6f} %, "
             f"buys a game {float(r.buy_rate) * 100:.6f} % of rounds "
             f"(a round: the cards drawn, the dealer's hand and a buy's draws; {r.rounds:,} in all)", "",
             f"{'net result':>10}  {'probability':>15}  {'share of EV':>15}"]
    lines += [f"{x:>+10d}  {float(r.probability(k)):>15.12f}  {float(r.probability(x * k)):>+15.12f}"
              for x, k in r.results.items()]
    return "\n".join(lines) + "\n"
