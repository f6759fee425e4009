"""Text and JSON renderings of deal answers for people and programs (used by the CLI).

JSON keys (``rpoker best --json``): ``hand``, ``up_card``, ``dead`` (card lists); ``rules``
(``name``, ``fingerprint``); ``best`` (one option); ``options`` (every option, best first), each
``{"action": "fold"|"bet"|"sixth_card"|"exchange", "throw": [cards], "ev": float,
"ev_exact": "num/den"}``; ``bet`` (``ev``, ``ev_exact``, ``no_insurance``, ``insurance_unit``,
``insurance_size`` in antes, ``p_dealer_no_game``, each float with an ``_exact`` twin);
``advice`` (sentences). Exact values are fractions as strings, floats only for display.

Answers read from a strategy table (``rpoker tables query --json``, or ``rpoker best --json``
when a table is used): ``hand``, ``up_card``; ``source`` (``table`` directory, ``fingerprint``,
``solver_version``); ``best`` and ``second`` (``action`` in words with the user's cards, ``ev``;
``best`` has ``ev_exact``); ``insurance_size``; ``options`` (``action``, ``ev``), best first.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .cards import Card, format_cards
from .tables import Answer, Table
from .deal import BetValue, BuyDecision, Option, Solution
from .hand import HandValue
from .returns import Returns


def fraction_json(x: Fraction) -> dict[str, Any]:
    """A figure for JSON: its float and its exact fraction."""
    return {"value": float(x), "exact": exact(x)}


def exact(x: Fraction) -> str:
    """A fraction as ``num/den`` (``num`` when whole)."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _ev(x: Fraction | float) -> str:
    return f"{float(x):+.9f}"


def option_json(o: Option) -> dict[str, Any]:
    return {"action": o.action, "throw": format_cards(o.throw).split(), "ev": float(o.ev), "ev_exact": exact(o.ev)}


def bet_json(b: BetValue) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("ev", "no_insurance", "insurance_unit", "p_dealer_no_game"):
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
    best = s.best
    if best.action == "exchange":
        keep = [c for c in s.hand if c not in best.throw]
        words = f"exchange {format_cards(best.throw)}" + (f", keep {format_cards(keep)}" if keep else " (all five)")
    else:
        words = {"fold": "fold", "bet": "bet", "sixth_card": "buy a sixth card"}[best.action]
    lines = [f"best: {words} (EV {_ev(best.ev)} antes)"]
    allowed = s.rules.insurance and hand.category >= s.rules.insurance_category
    lines.append(insurance_advice(s.bet, allowed) + " — if you bet these five cards")
    lines.append(buy_advice(hand.payout, s.rules.buy_game and hand.category >= 1))
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


def solution_json(s: Solution, hand: HandValue) -> dict[str, Any]:
    return {
        "hand": format_cards(s.hand).split(),
        "up_card": format_cards([s.up_card]),
        "dead": format_cards(s.dead).split(),
        "rules": {"name": s.rules.name, "fingerprint": s.rules.fingerprint},
        "best": option_json(s.best),
        "options": [option_json(o) for o in s.options],
        "bet": bet_json(s.bet),
        "advice": advice(s, hand),
    }


def after_text(b: BetValue, hand: HandValue, allowed: bool) -> str:
    decision = "bet" if b.ev > -1 else "fold"
    return "\n".join([
        f"hand {format_cards(hand.cards)}: {hand.category_label}, P = {hand.payout}",
        f"bet:  EV {_ev(b.ev)}" + (f" (insured {b.insurance_size}; {_ev(b.no_insurance)} without)" if b.insurance_size else ""),
        f"fold: EV {_ev(Fraction(-1))}",
        f"best: {decision}",
        insurance_advice(b, allowed),
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


def answer_json(a: Answer, table: Table) -> dict[str, Any]:
    return {"hand": format_cards(a.hand).split(), "up_card": format_cards([a.up_card]),
            "source": {"table": str(table.directory), "fingerprint": table.fingerprint,
                       "solver_version": table.manifest["solver_version"]},
            "best": {"action": a.best, "ev": float(a.best_ev),
                     "ev_exact": exact(a.best_ev) if isinstance(a.best_ev, Fraction) else None},
            "second": {"action": a.second, "ev": a.second_ev}, "insurance_size": a.insurance,
            "options": [{"action": label, "ev": ev} for label, ev in a.options]}


def answer_text(a: Answer, table: Table) -> str:
    kind = "compact strategy table" if table.compact else "strategy table"
    lines = [f"{format_cards(a.hand)} | dealer shows {format_cards([a.up_card])}",
             f"from the {kind} {table.directory} (rules {table.manifest['rules'].get('name')}, "
             f"{table.fingerprint}); solve it (rpoker best --solve) for the exact value of every option", ""]
    if a.options:
        lines += [f"  {ev:+.6f}  {label}" for label, ev in a.options] + [""]
    best_ev = f"{_ev(a.best_ev)} = {exact(a.best_ev)}" if isinstance(a.best_ev, Fraction) else _ev(a.best_ev)
    lines += [f"best: {a.best}  (EV {best_ev})", f"runner-up: {a.second}  (EV {a.second_ev:+.6f})"]
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
