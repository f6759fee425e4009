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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np

from . import _eval, optimal
from .action import GROUPS, group_of_codes
from .category import (
    AK,
    CATEGORIES,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    PAIR,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
)
from .classes import N_DEALS, enumerate_classes, rank_order
from .deal import bet_counts, kernel_settings, payout_by_strength
from .errors import InputError
from .hand import STRENGTH_CATEGORY
from .report_deal import fraction_json
from .returns import Returns, bets_returns
from .rules import Rules
from .tables import Table

COMPLETIONS = comb(46, 4)            # the dealer's hidden cards for a deal without dead cards
CYCLE = N_DEALS * COMPLETIONS         # 19,933,230,517,200
CHUNK = 200_000


@dataclass(frozen=True)
class Counts:
    """Per class: weight, strength of the dealt hand, P, the bet counts of ``bet_counts``, up rank,
    and the kernel settings they were counted with."""

    weight: np.ndarray
    strength: np.ndarray
    p: np.ndarray
    counts: np.ndarray  # int64 [N, 12]: as ``deal.bet_counts``
    up_rank: np.ndarray
    settings: dict[str, int]


def class_counts(rules: Rules, jobs: int = 1, progress: Callable[[int, int], None] | None = None) -> Counts:
    """The bet counts of every class, ordered by ranks (the kernel shares work between them)."""
    import joblib

    hands, ups, weights = enumerate_classes()
    order = rank_order(hands, ups)
    hands, ups, weights = hands[order], ups[order], weights[order]
    settings, p5 = kernel_settings(rules), payout_by_strength(rules)
    if rules.exchange or rules.sixth_card:
        # only bets without options are figured here (closed box, fixed strategies): no
        # insurance, no buy, so the kernel skips them
        settings = {**settings, "buy_on": 0, "insurance_from": len(STRENGTH_CATEGORY)}
    starts = list(range(0, len(hands), CHUNK))
    parts: list[np.ndarray] = []
    tasks = (joblib.delayed(bet_counts)(hands[s:s + CHUNK], ups[s:s + CHUNK], settings, p5) for s in starts)
    done = 0
    for part in joblib.Parallel(n_jobs=jobs, return_as="generator")(tasks):
        parts.append(part)
        done += len(part)
        if progress is not None:
            progress(done, len(hands))
    strength = _eval.evaluate(hands, False).astype(np.int64)
    return Counts(weights, strength, p5[strength].astype(np.int64), np.concatenate(parts), ups >> 2, settings)


@dataclass(frozen=True)
class Strategy(Returns):
    """A first-action strategy's returns over the (deal, dealer completion) pairs of its
    classes (the full cycle in a report): each pair is ``unit`` rounds (with buys of a game,
    the buy's draws; with the draws of exchanges and sixth cards, their common multiple)."""

    name: str = ""
    unit: int = 1

    @classmethod
    def of(cls, name: str, r: Returns, pairs: int) -> Strategy:
        """The returns ``r`` of ``pairs`` (deal, dealer completion) pairs, named."""
        return cls(**vars(r), name=name, unit=r.rounds // pairs)

    @property
    def total(self) -> Fraction:
        """The net result summed over the pairs (an integer without buys)."""
        return Fraction(sum(r * k for r, k in self.results.items()), self.unit)


def strategy(name: str, c: Counts, rules: Rules, bet: np.ndarray, closed: bool = False) -> Strategy:
    """Totals of betting the classes where ``bet`` is true and folding the others.

    ``closed``: the bet without insurance or buying a game (a closed box); otherwise the bet
    takes its best insurance (as the kernel chooses it) and buys where buying beats the ante.
    """
    if not (c.counts[:, 0] == COMPLETIONS).all():
        raise AssertionError("every class of a full deck has the same denominators")
    r = bets_returns(c.counts[bet], c.p[bet], c.weight[bet], c.settings, rules.buy_game_fee,
                     int(c.weight[~bet].sum()), closed)
    return Strategy.of(name, r, int(c.weight.sum()) * COMPLETIONS)


@dataclass(frozen=True)
class TablePlay:
    """Optimal play read from a complete strategy table (rules with exchanges or a sixth card)."""

    table: str
    total: Fraction                 # sum over the classes of weight * best EV (as stored)
    error: float                    # |total / N_DEALS - the exact EV| is at most this
    first_action: dict[str, int]    # deals by best first action: fold, bet, sixth card, exchange k
    insured: int                    # deals whose best action is to bet the dealt hand insured
    results: Returns | None = None  # every result of optimal play (``optimal``), once counted
    results_shards: int = 0         # the shards whose results are counted

    @property
    def ev(self) -> Fraction:
        return self.total / N_DEALS


def _exact_float_total(weight: np.ndarray, values: np.ndarray) -> Fraction:
    """The exact sum of weight * value over float64 values (each the binary fraction it is)."""
    mantissa, exponent = np.frexp(values)
    m = (mantissa * 2.0**53).astype(np.int64)   # exact: values = m * 2**(exponent - 53)
    hi, lo = m >> 26, m & ((1 << 26) - 1)        # halves, so that the int64 sums cannot overflow
    w = weight.astype(np.int64)
    total = Fraction(0)
    for e in np.unique(exponent).tolist():
        sel = exponent == e
        part = (int((w[sel] * hi[sel]).sum()) << 26) + int((w[sel] * lo[sel]).sum())
        total += part * Fraction(2) ** (e - 53)
    return total


def table_play(table: Table, rules: Rules | None = None) -> TablePlay:
    """The optimal play of a complete table: its EV and its first actions, weighted by deals;
    with the ``rules``, its results where they are counted (``optimal``, ``rpoker tables results``)."""
    if not table.complete:
        raise InputError(f"the table in {table.directory} is not complete: {len(table.manifest['shards'])} of "
                         f"{table.manifest['shards_total']} shards")
    total, largest, insured = Fraction(0), 0.0, 0
    first = np.zeros(len(GROUPS), np.int64)
    for s in range(table.manifest["shards_total"]):
        data = table.read_shard(s, ["weight", "best", "best_ev", "insurance"])
        weight, best, ev = (data.column(n).to_numpy() for n in ("weight", "best", "best_ev"))
        total += _exact_float_total(weight, ev)
        largest = max(largest, float(np.abs(ev).max()))
        first += np.bincount(group_of_codes(best), weights=weight, minlength=len(GROUPS)).astype(np.int64)
        insured += int(weight[(best == 1) & (data.column("insurance").to_numpy() > 0)].sum())
    results, shards = optimal.table_results(table, rules) if rules is not None else (None, 0)
    if results is not None and abs(float(results.ev - total / N_DEALS)) > largest * 2.0**-52:
        raise InputError(f"the results counted beside the table in {table.directory} give the EV "
                         f"{float(results.ev):+.12f}, not the table's {float(total / N_DEALS):+.12f}: "
                         "remove the shard-*.results.json files and run `rpoker tables results` again")
    return TablePlay(str(table.directory), total, largest * 2.0**-52,
                     {name: int(d) for name, d in zip(GROUPS, first)}, insured, results, shards)


def optimal_bet(c: Counts) -> np.ndarray:
    """Bet where the bet (with its best insurance and buy) beats folding."""
    n, den, value = c.counts[:, 0], c.counts[:, 6], c.counts[:, 7]
    bet: np.ndarray = value > -n * den
    return bet


def bonus_return(rules: Rules) -> dict[str, Any]:
    """The bonus side bet (RULES §8) per unit staked, over the 2,598,960 dealt hands."""
    hands = _eval.all_hands(5)
    category = STRENGTH_CATEGORY[_eval.evaluate(hands, False)]
    sevens = ((hands >> 2) == 5).sum(axis=1)
    kinds = {"royal_flush": category == ROYAL_FLUSH, "straight_flush": category == STRAIGHT_FLUSH,
             "four_of_a_kind": category == FOUR_OF_A_KIND, "full_house": category == FULL_HOUSE,
             "flush": category == FLUSH, "straight": category == STRAIGHT,
             "three_sevens": (category == THREE_OF_A_KIND) & (sevens == 3),
             "sevens_two_pair": (category == TWO_PAIR) & (sevens == 2)}
    counts = {k: int(v.sum()) for k, v in kinds.items()}
    total = len(hands)
    paid = sum(counts[k] * m for k, m in zip(kinds, rules.bonus_paytable))
    ev = Fraction(paid - (total - sum(counts.values())), total)
    return {"counts": counts, "hands": total, "ev": ev, "return": 1 + ev}


def figures(rules: Rules, c: Counts, table: TablePlay | None = None) -> dict[str, Any]:
    """Every figure of the report for these rules, exact (fractions and integers); ``table``:
    the optimal play of rules with exchanges or a sixth card, from their strategy table."""
    strength_cat = STRENGTH_CATEGORY[c.strength]
    out: dict[str, Any] = {"rules": rules, "cycle": CYCLE}
    out["closed_box"] = strategy("closed box (bet at once, no options)", c, rules, np.ones(len(c.weight), bool),
                                 closed=True)
    fixed = [("raise on everything", strength_cat >= 0), ("raise on a pair or better", strength_cat >= PAIR),
             ("raise on AK or better", strength_cat >= AK)]
    out["fixed"] = [strategy(name, c, rules, bet) for name, bet in fixed]
    out["optimal"] = None
    if not rules.exchange and not rules.sixth_card:
        bet = optimal_bet(c)
        out["optimal"] = strategy("optimal", c, rules, bet)
        out["bet_by_category"] = {CATEGORIES[k]: Fraction(int(c.weight[bet & (strength_cat == k)].sum()),
                                                          int(c.weight[strength_cat == k].sum()))
                                  for k in range(len(CATEGORIES)) if (strength_cat == k).any()}
    if table is not None and table.results is not None:
        out["optimal"] = Strategy.of("optimal (played out from the table)", table.results, CYCLE)
    out["table_play"] = table
    out["bonus"] = bonus_return(rules)
    return out


def report_figures(rules: Rules, table: Table | None = None, jobs: int = 1,
                   progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Every figure of the report of ``rules`` (as ``figures``): counted over every class, and
    for rules with exchanges or a sixth card the optimal play of their complete ``table``
    (``tables.locate`` finds it; without one those figures are left out)."""
    play = None
    if table is not None and (rules.exchange or rules.sixth_card):
        table.check_rules(rules)
        play = table_play(table, rules)
    return figures(rules, class_counts(rules, jobs, progress), play)


def _pct(x: Fraction) -> str:
    return f"{float(x) * 100:+.9f} %"


def to_json(f: dict[str, Any]) -> dict[str, Any]:
    """The figures as JSON data: exact fractions as "num/den" strings next to floats."""
    frac = fraction_json

    def strat(s: Strategy) -> dict[str, Any]:
        return {"name": s.name, "net_total_over_cycle": frac(s.total), "ev_per_ante": frac(s.ev),
                "house_edge": frac(-s.ev), "average_wager": frac(s.average_wager),
                "element_of_risk": frac(s.element_of_risk), "bet_rate": frac(s.bet_rate),
                "insured_rate": frac(s.insured_rate), "buy_rate": frac(s.buy_rate), "std": s.std(),
                "rounds_per_deal_completion": s.unit,
                "returns": [{"result": r, "count": k, "probability": frac(s.probability(k)),
                             "ev_share": frac(s.probability(r * k))} for r, k in s.results.items()]}

    def play(t: TablePlay) -> dict[str, Any]:
        return {"table": t.table, "ev_per_ante": frac(t.ev), "house_edge": frac(-t.ev), "error_bound": t.error,
                "weighted_best_ev_total": frac(t.total), "deals": N_DEALS,
                "first_action": {k: {"deals": v, "share": frac(Fraction(v, N_DEALS))}
                                 for k, v in t.first_action.items()},
                "bet_insured": {"deals": t.insured, "share": frac(Fraction(t.insured, N_DEALS))},
                "results_shards": t.results_shards}

    r: Rules = f["rules"]
    return {"rules": {"name": r.name, "fingerprint": r.fingerprint, **r.to_dict()}, "cycle": CYCLE,
            "optimal": strat(f["optimal"]) if f["optimal"] else None,
            "optimal_from_table": play(f["table_play"]) if f.get("table_play") else None,
            "bet_by_category": {k: frac(v) for k, v in f.get("bet_by_category", {}).items()},
            "closed_box": strat(f["closed_box"]), "fixed_strategies": [strat(s) for s in f["fixed"]],
            "bonus": {"counts": f["bonus"]["counts"], "hands": f["bonus"]["hands"], "ev": frac(f["bonus"]["ev"]),
                      "return": frac(f["bonus"]["return"])}}


def to_markdown(f: dict[str, Any], other: dict[str, Any] | None = None) -> str:
    """The report as Markdown; with ``other``, two rule sets side by side and their difference."""
    sets = [f] if other is None else [f, other]
    names = [s["rules"].name for s in sets]
    lines = [f"# rpoker report: {' vs '.join(names)}", ""]
    for s in sets:
        lines.append(f"- `{s['rules'].name}`: fingerprint `{s['rules'].fingerprint}`")
    lines += ["", f"Exact over the full cycle of {CYCLE:,} (deal, dealer completion) pairs: C(52,5) x 47 x "
              "C(46,4). EVs per ante; the exact fractions are in the JSON report.", ""]

    def row(label: str, values: list[str]) -> str:
        return f"| {label} | " + " | ".join(values) + " |"

    head = ["figure", *names, *(["difference"] if other else [])]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def add(label: str, get: Callable[[dict[str, Any]], Fraction | None], fmt: Callable[[Fraction], str]) -> None:
        vals = [get(s) for s in sets]
        # with the table, what is missing needs its results played out (``optimal``)
        cells = [fmt(v) if v is not None else _missing_results(s["table_play"]) if s.get("table_play")
                 else "needs the strategy table" for v, s in zip(vals, sets)]
        if other:
            a, b = vals
            cells.append(fmt(b - a) if a is not None and b is not None else "")
        lines.append(row(label, cells))

    def opt(s: dict[str, Any]) -> Any:
        return s["optimal"]

    def played(s: dict[str, Any]) -> Any:
        return s.get("table_play")

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
    add("house edge, closed box", lambda s: -s["closed_box"].ev, _pct)
    for i, strat in enumerate(f["fixed"]):
        add(f"house edge, {strat.name}", lambda s, i=i: -s["fixed"][i].ev, _pct)  # type: ignore[misc]
    add("bonus side bet: house edge", lambda s: -s["bonus"]["ev"], _pct)
    for s in sets:
        t = s.get("table_play")
        if t is None:
            continue
        lines += ["", f"## Optimal play from the strategy table ({s['rules'].name})", "",
                  f"From `{t.table}`: the EV per ante {float(t.ev):+.12f} is the deals' average of every "
                  f"class's best EV as stored (float64), within {t.error:.1e} of the exact value.", "",
                  "| best first action | deals | share |", "|---|---|---|"]
        lines += [f"| {k} | {v:,} | {v / N_DEALS * 100:.6f} % |" for k, v in t.first_action.items()]
        lines.append(f"| bet the dealt hand, insured | {t.insured:,} | {t.insured / N_DEALS * 100:.6f} % |")
        if t.results is not None:
            lines += ["", f"Every class's best action played out (`rpoker tables results`): the exact EV per ante "
                          f"{float(t.results.ev):+.12f}, {float(abs(t.results.ev - t.ev)):.1e} from the table's."]
    for s in sets:
        o = s["optimal"]
        if o is None:
            continue
        rounds = "deal-completions" if o.unit == 1 else \
            f"rounds (a deal-completion counts {o.unit:,}: the cards drawn, the buys' draws)"
        lines += ["", f"## Return table of optimal play ({s['rules'].name})", "",
                  "Every net result of a round, fees, insurance and buying a game included.", "",
                  f"| net result (antes) | {rounds} | probability | share of EV |", "|---|---|---|---|"]
        for r, k in o.results.items():
            lines.append(f"| {r:+d} | {k:,} | {float(o.probability(k)):.12f} | {float(o.probability(r * k)):+.12f} |")
        if "bet_by_category" in s:
            lines += ["", "How often the player bets, by the category of the dealt hand:", "",
                      "| hand | bets |", "|---|---|"]
            lines += [f"| {k} | {float(v) * 100:.6f} % |" for k, v in s["bet_by_category"].items()]
    return "\n".join(lines) + "\n"


def _missing_results(t: TablePlay) -> str:
    return (f"not computed: the results of {t.results_shards} of the table's shards are counted "
            "(`rpoker tables results`)")


def hand_group(strength: int) -> str:
    """A row of the strategy chart: the category, with the ranks that matter for the decision."""
    from .cards import RANK_NAMES
    from .hand import strength_ranks

    category, ranks = int(STRENGTH_CATEGORY[strength]), strength_ranks(strength)
    if category == 0:
        return f"no game, {RANK_NAMES[ranks[0]]} high"
    if category == AK:
        return f"A K {RANK_NAMES[ranks[2]]}"
    if category == PAIR:
        return f"pair of {RANK_NAMES[ranks[0]]}"
    return CATEGORIES[category].replace("_", " ")


def charts(f: dict[str, Any], c: Counts, directory: Any) -> list[Any]:
    """PNG charts: the strategy (bet rate by hand group and up-card rank) and the results."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .cards import RANK_NAMES

    written = []
    name = f["rules"].name
    if f["optimal"] is not None and f.get("table_play") is None:  # else: table_chart
        groups = [hand_group(s) for s in range(len(STRENGTH_CATEGORY))]
        labels = list(dict.fromkeys(groups[s] for s in range(len(groups))))
        row_of = np.asarray([labels.index(g) for g in groups])[c.strength]
        bet = optimal_bet(c)
        total = np.zeros((len(labels), 13))
        betting = np.zeros((len(labels), 13))
        np.add.at(total, (row_of, c.up_rank), c.weight)
        np.add.at(betting, (row_of, c.up_rank), np.where(bet, c.weight, 0))
        share = np.divide(betting, total, out=np.full_like(total, np.nan), where=total > 0)
        fig, ax = plt.subplots(figsize=(8, 11))
        image = ax.imshow(share, cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
        ax.set_xticks(range(13), RANK_NAMES)
        ax.set_yticks(range(len(labels)), labels, fontsize=7)
        ax.set_xlabel("dealer's up-card")
        ax.set_title(f"{name}: share of deals where the best first action is to bet")
        fig.colorbar(image, ax=ax, fraction=0.04)
        fig.tight_layout()
        path = directory / f"strategy-{name}.png"
        fig.savefig(path, dpi=110, metadata={"Software": None})
        plt.close(fig)
        written.append(path)
    shown = f["optimal"] if f["optimal"] is not None else f["closed_box"]
    if shown.results:
        results = list(shown.results)
        fig, ax = plt.subplots(figsize=(min(16, max(9, len(results) * 0.35)), 4.5))
        ax.bar([str(r) for r in results], [float(shown.probability(shown.results[r])) for r in results])
        ax.tick_params(axis="x", labelsize=7 if len(results) <= 50 else 5, rotation=90 if len(results) > 25 else 0)
        ax.set_yscale("log")
        ax.set_xlabel("net result of a round (antes)")
        ax.set_ylabel("probability")
        ax.set_title(f"{name}: results of a round, {shown.name} (house edge {float(-shown.ev) * 100:.4f} %)")
        fig.tight_layout()
        path = directory / f"results-{name}.png"
        fig.savefig(path, dpi=110, metadata={"Software": None})
        plt.close(fig)
        written.append(path)
    return written


def table_first_actions(table: Table) -> tuple[list[str], np.ndarray]:
    """Deals by hand group (rows, as ``hand_group``), up-card rank and best first action
    (``GROUPS``), from a complete table: weights int64[groups, 13, 8]."""
    hands, ups, weights = enumerate_classes()   # in key order: the order of the table's rows
    strength = _eval.evaluate(hands, False)
    groups = [hand_group(s) for s in range(len(STRENGTH_CATEGORY))]
    labels = list(dict.fromkeys(groups))
    row_of = np.asarray([labels.index(g) for g in groups])[strength]
    action = group_of_codes(np.concatenate([table.read_shard(s, ["best"]).column("best").to_numpy()
                                          for s in range(table.manifest["shards_total"])]))
    out = np.zeros((len(labels), 13, len(GROUPS)), np.int64)
    np.add.at(out, (row_of, ups >> 2, action), weights)
    return labels, out


def table_chart(name: str, labels: list[str], deals: np.ndarray, directory: Any) -> Any:
    """PNG: the most frequent best first action of each hand group and up-card rank, shaded by
    its share of the cell's deals (rules with exchanges or a sixth card, from their table)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Rectangle

    from .cards import RANK_NAMES

    total = deals.sum(axis=2)
    top = deals.argmax(axis=2)
    share = np.divide(deals.max(axis=2), total, out=np.zeros(total.shape), where=total > 0)
    colours = [plt.get_cmap("tab10")(k) for k in range(len(GROUPS))]
    fig, ax = plt.subplots(figsize=(9, 11))
    ax.imshow(np.where(total > 0, top, np.nan), cmap=ListedColormap(colours), vmin=-0.5,
              vmax=len(GROUPS) - 0.5, aspect="auto", alpha=None)
    ax.imshow(np.zeros_like(share), cmap="Greys", alpha=np.clip(1 - share, 0, 1) * 0.6, aspect="auto", vmin=0, vmax=1)
    ax.set_xticks(range(13), RANK_NAMES)
    ax.set_yticks(range(len(labels)), labels, fontsize=7)
    ax.set_xlabel("dealer's up-card")
    ax.set_title(f"{name}: most frequent best first action (paler: a smaller share of the cell)")
    ax.legend(handles=[Rectangle((0, 0), 1, 1, color=c) for c in colours], labels=list(GROUPS),
              loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    fig.tight_layout()
    path = directory / f"strategy-{name}.png"
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    return path
