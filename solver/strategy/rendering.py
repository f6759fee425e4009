"""A strategy check as plain text (the card, its exact cost, where it loses) and as JSON."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..classes import N_DEALS
from ..fraction_text import fraction_json
from ..report.counting import CYCLE
from ..report.rendering import strategy_json
from .check import CardCheck


def _total(t: Fraction) -> str:
    """An integer as it is; a fraction (buys make rounds finer than pairs) to 3 decimals."""
    return f"{t.numerator:+,}" if t.denominator == 1 else f"{float(t):+,.3f}"


def to_text(c: CardCheck) -> str:
    """The card with its exact figures next to optimal play, in the manner of a game analysis."""
    p, o, ev = c.played, c.optimal, c.ev
    lines = [f"strategy {c.card.name!r} ({c.card.path}), rules {c.rules.name!r}", "",
             f"EV per ante     {float(ev):+.9f}   (exact {ev.numerator}/{ev.denominator})",
             f"house edge      {float(-ev) * 100:.6f} %",
             f"net total       {_total(ev * CYCLE)} antes over the cycle's {CYCLE:,} (deal, dealer completion) pairs",
             f"optimal play    {float(o.ev):+.9f}   (house edge {float(-o.ev) * 100:.6f} %)",
             f"cost            {float(c.cost):.9f} per ante ({float(c.cost) * 100:.6f} % of the ante)",
             f"first action not the best in {c.differ:,} of {N_DEALS:,} deals ({c.differ / N_DEALS * 100:.4f} %)"]
    if c.card.after_draw or not c.card.play.best:
        lines.append(f"of the cost, {later_words(c)} where the first action is the best: "
                     f"{float(c.after_draw_cost):.9f}")
    if p is not None:
        lines.append(f"bet rate {float(p.bet_rate) * 100:.4f} %, element of risk "
                     f"{float(p.element_of_risk) * 100:.6f} %, standard deviation {p.std():.6f}")
    lines += ["", "rules (line of the file: deals it decides, departures from the best, cost per ante):"]
    for lc in c.lines:
        lines.append(f"  line {lc.rule.line:>3}  {lc.rule.words()}")
        lines.append(f"            {lc.deals:,} deals, {lc.departures:,} departures, cost {float(lc.cost):.9f}")
    if c.card.after_draw:
        lines += ["", "after an exchange or a sixth card (line of the file: the final hand's rule):"]
        lines += [f"  line {r.line:>3}  {r.words()}" for r in c.card.after_draw]
    else:
        lines += ["", "after an exchange or a sixth card: bet or fold as the solver does (optimal)"]
    if c.rules.insurance or c.rules.buy_game:
        lines += ["", f"when betting: {c.card.play.describe()}"
                  + (" (the solver's: the best)" if c.card.play.best else "")]
    if c.card.insurance:
        lines += ["insurance, with three of a kind or better (line of the file: the final hand's rule):"]
        lines += [f"  line {r.line:>3}  {r.words()}" for r in c.card.insurance]
    if c.departures:
        lines += ["", "costliest departures (hand, up-card: the card's action, the best; deals; loss per deal; "
                      "share of the cost):"]
        for d in c.departures:
            lines.append(f"  {d.hand}, up {d.up}: {d.action}, best {d.best}; {d.deals:,} deals; "
                         f"{float(d.loss):.6f}; {float(d.cost) * 100:.2f} %")
    if p is None:
        lines += ["", "return table: not counted (the check was asked for the EV alone: --no-returns)"]
    else:
        lines += ["", "return table (net result: probability):"]
        lines += [f"  {r:+d}: {float(p.probability(k)):.12f}" for r, k in p.results.items()]
    return "\n".join(lines) + "\n"


def later_words(c: CardCheck) -> str:
    """What the card decides after its first action, in words (what ``after_draw_cost`` is lost by)."""
    stated = [w for w, on in (("the bet or fold after the draw", bool(c.card.after_draw)),
                              ("the insurance and buying a game", not c.card.play.best)) if on]
    return " and ".join(stated)


def to_json(c: CardCheck) -> dict[str, Any]:
    """The check as JSON data: exact fractions as "num/den" strings next to floats."""
    frac = fraction_json
    return {
        "strategy": c.card.name, "file": c.card.path, "card_sha256": c.card.digest, "rules": c.rules.name,
        "fingerprint": c.rules.fingerprint,
        "ev_per_ante": frac(c.ev), "house_edge": frac(-c.ev), "net_total_over_cycle": frac(c.ev * CYCLE),
        "played": strategy_json(c.played) if c.played is not None else None, "optimal": strategy_json(c.optimal),
        "cost_per_ante": frac(c.cost),
        "differ": {"deals": c.differ, "of": N_DEALS},
        "after_draw": [{"line": r.line, "rule": r.words()} for r in c.card.after_draw] or "optimal",
        "after_draw_cost_per_ante": frac(c.after_draw_cost),
        "when_betting": c.card.play.describe(),
        "insurance": [{"line": r.line, "rule": r.words()} for r in c.card.insurance],
        "lines": [{"line": lc.rule.line, "rule": lc.rule.words(), "deals": lc.deals, "departures": lc.departures,
                   "cost_per_ante": frac(lc.cost)} for lc in c.lines],
        "departures": [{"hand": d.hand, "up": d.up, "action": d.action, "best": d.best, "deals": d.deals,
                        "loss_per_deal": frac(d.loss), "share_of_cost": frac(d.cost)} for d in c.departures],
    }
