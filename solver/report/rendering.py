"""The report as Markdown and as JSON (exact fractions beside the floats)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ..classes import N_DEALS
from ..fraction_text import fraction_json
from .counting import CYCLE, Strategy
from .figures import Figures
from .from_table import TablePlay


def _pct(x: Fraction) -> str:
    return f"{float(x) * 100:+.9f} %"


def strategy_json(s: Strategy) -> dict[str, Any]:
    """A strategy's totals, rates and return table as JSON data (exact fractions beside floats)."""
    frac = fraction_json
    return {"name": s.name, "net_total_over_cycle": frac(s.total), "ev_per_ante": frac(s.ev),
            "house_edge": frac(-s.ev), "average_wager": frac(s.average_wager),
            "element_of_risk": frac(s.element_of_risk), "bet_rate": frac(s.bet_rate),
            "insured_rate": frac(s.insured_rate), "buy_rate": frac(s.buy_rate), "std": s.std(),
            "rounds_per_deal_completion": s.unit,
            "returns": [{"result": r, "count": k, "probability": frac(s.probability(k)),
                         "ev_share": frac(s.probability(r * k))} for r, k in s.results.items()]}


def to_json(f: Figures) -> dict[str, Any]:
    """The figures as JSON data: exact fractions as "num/den" strings next to floats."""
    frac = fraction_json
    strat = strategy_json

    def play(t: TablePlay) -> dict[str, Any]:
        return {"table": t.table, "ev_per_ante": frac(t.ev), "house_edge": frac(-t.ev), "error_bound": t.error,
                "weighted_best_ev_total": frac(t.total), "deals": N_DEALS,
                "first_action": {k: {"deals": v, "share": frac(Fraction(v, N_DEALS))}
                                 for k, v in t.first_action.items()},
                "bet_insured": {"deals": t.insured, "share": frac(Fraction(t.insured, N_DEALS))},
                "results_shards": t.results_shards}

    r = f.rules
    return {"rules": {"name": r.name, "fingerprint": r.fingerprint, **r.to_dict()}, "cycle": CYCLE,
            "optimal": strat(f.optimal) if f.optimal else None,
            "optimal_from_table": play(f.table_play) if f.table_play else None,
            "bet_by_category": {k: frac(v) for k, v in f.bet_by_category.items()},
            "closed_box": strat(f.closed_box), "fixed_strategies": [strat(s) for s in f.fixed],
            "bonus": {"counts": f.bonus.counts, "hands": f.bonus.hands, "ev": frac(f.bonus.ev),
                      "return": frac(f.bonus.total_return)}}


def to_markdown(f: Figures, other: Figures | None = None) -> str:
    """The report as Markdown; with ``other``, two rule sets side by side and their difference."""
    sets = [f] if other is None else [f, other]
    names = [s.rules.name for s in sets]
    lines = [f"# rpoker report: {' vs '.join(names)}", ""]
    for s in sets:
        lines.append(f"- `{s.rules.name}`: fingerprint `{s.rules.fingerprint}`")
    lines += ["", f"Exact over the full cycle of {CYCLE:,} (deal, dealer completion) pairs: C(52,5) x 47 x "
              "C(46,4). EVs per ante; the exact fractions are in the JSON report.", ""]

    def row(label: str, values: list[str]) -> str:
        return f"| {label} | " + " | ".join(values) + " |"

    head = ["figure", *names, *(["difference"] if other else [])]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def add(label: str, get: Callable[[Figures], Fraction | None], fmt: Callable[[Fraction], str]) -> None:
        vals = [get(s) for s in sets]
        # with the table, what is missing needs its results played out (``optimal``)
        cells = [fmt(v) if v is not None else _missing_results(s.table_play) if s.table_play
                 else "needs the strategy table" for v, s in zip(vals, sets)]
        if other:
            a, b = vals
            cells.append(fmt(b - a) if a is not None and b is not None else "")
        lines.append(row(label, cells))

    def opt(s: Figures) -> Any:
        return s.optimal

    def played(s: Figures) -> Any:
        return s.table_play

    add("house edge, optimal play", lambda s: -opt(s).ev if opt(s) else -played(s).ev if played(s) else None, _pct)
    add("element of risk, optimal play", lambda s: opt(s).element_of_risk if opt(s) else None, _pct)
    add("average total wager (antes)", lambda s: opt(s).average_wager if opt(s) else None, lambda x: f"{float(x):.9f}")
    add("bet (raise) rate", lambda s: opt(s).bet_rate if opt(s) else None, lambda x: f"{float(x) * 100:.9f} %")
    add("insured bets", lambda s: opt(s).insured_rate if opt(s) else None, lambda x: f"{float(x) * 100:.9f} %")
    add("games bought for the dealer", lambda s: opt(s).buy_rate if opt(s) else None,
        lambda x: f"{float(x) * 100:.9f} %")
    lines.append(row("standard deviation of a round", [f"{opt(s).std():.9f}" if opt(s) else "-"
                                                       for s in sets] + ([""] if other else [])))
    lines.append(row("net total of optimal play over the cycle",
                     [str(opt(s).total) if opt(s) else "-" for s in sets] + ([""] if other else [])))
    add("house edge, closed box", lambda s: -s.closed_box.ev, _pct)
    for i, strat in enumerate(f.fixed):
        add(f"house edge, {strat.name}", lambda s, i=i: -s.fixed[i].ev, _pct)  # type: ignore[misc]
    add("bonus side bet: house edge", lambda s: -s.bonus.ev, _pct)
    for s in sets:
        t = s.table_play
        if t is None:
            continue
        lines += ["", f"## Optimal play from the strategy table ({s.rules.name})", "",
                  f"From `{t.table}`: the EV per ante {float(t.ev):+.12f} is the deals' average of every "
                  f"class's best EV as stored (float64), within {t.error:.1e} of the exact value.", "",
                  "| best first action | deals | share |", "|---|---|---|"]
        lines += [f"| {k} | {v:,} | {v / N_DEALS * 100:.6f} % |" for k, v in t.first_action.items()]
        lines.append(f"| bet the dealt hand, insured | {t.insured:,} | {t.insured / N_DEALS * 100:.6f} % |")
        if t.results is not None:
            lines += ["", f"Every class's best action played out (`rpoker tables results`): the exact EV per ante "
                          f"{float(t.results.ev):+.12f}, {float(abs(t.results.ev - t.ev)):.1e} from the table's."]
    for s in sets:
        o = s.optimal
        if o is None:
            continue
        rounds = "deal-completions" if o.unit == 1 else \
            f"rounds (a deal-completion counts {o.unit:,}: the cards drawn, the buys' draws)"
        lines += ["", f"## Return table of optimal play ({s.rules.name})", "",
                  "Every net result of a round, fees, insurance and buying a game included.", "",
                  f"| net result (antes) | {rounds} | probability | share of EV |", "|---|---|---|---|"]
        for r, k in o.results.items():
            lines.append(f"| {r:+d} | {k:,} | {float(o.probability(k)):.12f} | {float(o.probability(r * k)):+.12f} |")
        if s.bet_by_category:
            lines += ["", "How often the player bets, by the category of the dealt hand:", "",
                      "| hand | bets |", "|---|---|"]
            lines += [f"| {k} | {float(v) * 100:.6f} % |" for k, v in s.bet_by_category.items()]
    return "\n".join(lines) + "\n"


def _missing_results(t: TablePlay) -> str:
    return (f"not computed: the results of {t.results_shards} of the table's shards are counted "
            "(`rpoker tables results`)")
