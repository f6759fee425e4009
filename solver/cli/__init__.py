"""The ``rpoker`` command: thin Typer commands, one core call each; errors to stderr, exit 2.

Every failure is one line on stderr and a non-zero exit code: bad input, a damaged table, a
usage error, a path that cannot be written or a full disk (2); an interrupted run (130, what
it finished is kept). A traceback would be a bug: it is reported as such (exit 3), in full
only with ``RPOKER_DEBUG=1``.
"""

from __future__ import annotations

import json
import os
import signal
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .. import report_deal
from .. import rules as rules_mod
from .. import tables as tables_mod
from ..cards import parse_card, parse_cards
from ..console import Command, Group, err, out_dir, parse_shards, progress_bar
from ..deal import option_returns, solve
from ..errors import InputError
from ..final_hand import bet_value, buy_game
from ..hand import evaluate
from ..manifest import MAX_SHARD_ROWS, writable_directory
from ..version import __version__
from .options import CONTEXT, DeadOption, JsonOption, RulesOption, TableOption, ThrownOption, UpOption
from .strategy import strategy_app

if TYPE_CHECKING:
    from ..report import Hooks



app = typer.Typer(
    cls=Group,
    help="Exact solver for Russian Poker: best play, EVs, strategy tables.",
    context_settings=CONTEXT,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
rules_app = typer.Typer(help="Show rule settings.", context_settings=CONTEXT, no_args_is_help=True)
app.add_typer(rules_app, name="rules")
tables_app = typer.Typer(help="Build and query strategy tables.", context_settings=CONTEXT, no_args_is_help=True)
app.add_typer(tables_app, name="tables")
app.add_typer(strategy_app, name="strategy")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"rpoker {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Exact solver for Russian Poker: best play, EVs, strategy tables."""


@app.command(cls=Command)
def hand(
    cards: Annotated[str, typer.Argument(help='Five or six cards, e.g. "As Ah Kd 9c 8s".')],
    rules: RulesOption = "russian",
) -> None:
    """Main combination, second combination and payout multiple P of 5 or 6 cards."""
    value = evaluate(parse_cards(cards, count=(5, 6), what="hand"), rules_mod.load(rules))
    typer.echo(value.summary())


@app.command(cls=Command)
def best(
    cards: Annotated[str, typer.Argument(help='The five dealt cards, e.g. "As Ks Qd 7c 2h".')],
    up: UpOption,
    dead: DeadOption = "",
    rules: RulesOption = "russian",
    as_json: JsonOption = False,
    table: TableOption = None,
    exact: Annotated[bool, typer.Option("--solve", help="Solve the deal even when a table has it.")] = False,
    card: Annotated[str | None, typer.Option("--card", help="A strategy card (file or installed name): its "
                                             "action on this deal beside the best, and what it costs.")] = None,
) -> None:
    """Exact EV of every option of a deal, sorted, with the best action and the advice.

    With a strategy table of the same rules at hand (and no dead cards), the answer is read
    from it, and says so; otherwise (or with --solve) the deal is solved. --json has one shape
    either way (its "source" says which), with "card" (as `strategy advise --json`) when --card
    names one.
    """
    r = rules_mod.load(rules)
    hand_cards = parse_cards(cards, count=5, what="hand")
    up_card = parse_card(up)
    dead_cards = parse_cards(dead, what="dead cards")
    value = evaluate(hand_cards, r)
    beside = _card_advice(card, hand_cards, up_card, r, dead_cards) if card else None
    if not exact and not dead_cards:
        found = tables_mod.locate(r, table)
        if found is not None:
            try:
                answer = found.lookup(hand_cards, up_card)
            except tables_mod.MissingShard as exc:
                if table is not None or os.environ.get("RPOKER_TABLES"):
                    raise   # the table was named: its gaps are an error
                err.print(f"note: {exc}; solving the deal instead", highlight=False)
            else:
                _print_answer(found, answer, r, as_json, beside)
                return
    elif dead_cards and table is not None:
        err.print("note: a deal with dead cards is solved (tables hold deals without them)", highlight=False)
    solution = solve(hand_cards, up_card, r, dead_cards)
    if as_json:
        typer.echo(json.dumps({**report_deal.solution_json(solution, value), **_card_json(beside)}, indent=1))
    else:
        typer.echo(report_deal.solution_text(solution, value) + _card_text(beside), nl=False)


if TYPE_CHECKING:
    from ..strategy import StrategyCard
    from ..strategy.advice import Advice

    Beside = tuple[StrategyCard, Advice] | None


def _card_advice(file: str, hand: tuple[int, ...], up_card: int, r: rules_mod.Rules,
                 dead: tuple[int, ...]) -> Beside:
    """A card's first decision on the deal (``best --card``), under the rules asked."""
    from ..strategy import advice, load_for

    card = load_for(file, r)
    return card, advice.first(card, hand, up_card, r, dead)


def _card_json(beside: Beside) -> dict[str, object]:
    from ..strategy import advice

    return {} if beside is None else {"card": advice.to_json(*beside)}


def _card_text(beside: Beside) -> str:
    from ..strategy import advice

    return "" if beside is None else "\n" + advice.to_text(*beside)


@app.command(cls=Command)
def returns(
    cards: Annotated[str, typer.Argument(help='The five dealt cards, e.g. "Jh Jd 8c 5s 2d".')],
    up: UpOption,
    play: Annotated[str, typer.Option(
        "--play", "-p", help='The option: best, fold, bet, sixth, or the cards to exchange, e.g. "8c 5s 2d".'
    )] = "best",
    dead: DeadOption = "",
    rules: RulesOption = "russian",
    as_json: JsonOption = False,
) -> None:
    """The return table of one option of a deal: every net result with its exact probability.

    The option is played as the solver plays it: each final hand bet or folded by its EV, the
    best insurance, a game bought where it pays. Also its EV, standard deviation, average wager
    and how often it bets, insures and buys a game.
    """
    r = rules_mod.load(rules)
    hand_cards = parse_cards(cards, count=5, what="hand")
    up_card = parse_card(up)
    dead_cards = parse_cards(dead, what="dead cards")
    solution = solve(hand_cards, up_card, r, dead_cards)
    words = play.strip().lower()
    try:
        if words == "best":
            option = solution.best
        elif words in ("fold", "bet", "sixth", "sixth_card", "sixth card"):
            option = solution.option("sixth_card" if words.startswith("sixth") else words)
        else:
            option = solution.option("exchange", parse_cards(play, what="cards to exchange"))
    except KeyError:
        from ..errors import shown

        raise InputError(f"{shown(play)} is not an option of this deal under the rules {r.name!r}") from None
    result = option_returns(hand_cards, up_card, option, r, dead_cards)
    if as_json:
        typer.echo(json.dumps(report_deal.returns_json(hand_cards, up_card, option, result), indent=1))
    else:
        typer.echo(report_deal.returns_text(hand_cards, up_card, option, result), nl=False)


@app.command(cls=Command)
def after(
    cards: Annotated[str, typer.Argument(help="The final hand: 5 cards after an exchange or 6 after a sixth card.")],
    up: UpOption,
    thrown: ThrownOption = "",
    dead: DeadOption = "",
    rules: RulesOption = "russian",
    as_json: JsonOption = False,
) -> None:
    """Bet or fold (and insure?) with the final hand, after an exchange or a sixth card."""
    r = rules_mod.load(rules)
    final = parse_cards(cards, count=(5, 6), what="hand")
    value = evaluate(final, r)
    b = bet_value(final, parse_card(up), r, parse_cards(thrown, what="thrown cards"),
                  parse_cards(dead, what="dead cards"))
    if as_json:
        typer.echo(json.dumps({**report_deal.bet_json(b), "decision": "bet" if b.should_bet else "fold"}, indent=1))
    else:
        typer.echo(report_deal.after_text(b, value, r), nl=False)


@app.command(cls=Command)
def buy(
    cards: Annotated[str, typer.Argument(help="The player's final hand (5 or 6 cards).")],
    dealer: Annotated[str, typer.Option("--dealer", "-d", help="The dealer's five cards.")],
    thrown: ThrownOption = "",
    dead: DeadOption = "",
    rules: RulesOption = "russian",
    as_json: JsonOption = False,
) -> None:
    """The dealer does not qualify: take the ante or buy the dealer a game?"""
    d = buy_game(parse_cards(cards, count=(5, 6), what="hand"), parse_cards(dealer, count=5, what="dealer's hand"),
                 rules_mod.load(rules), parse_cards(thrown, what="thrown cards"), parse_cards(dead, what="dead cards"))
    typer.echo(json.dumps(report_deal.buy_json(d), indent=1) if as_json else report_deal.buy_text(d), nl=False)


def _print_answer(table: tables_mod.Table, answer: tables_mod.Answer, r: rules_mod.Rules, as_json: bool,
                  beside: Beside = None) -> None:
    if as_json:
        typer.echo(json.dumps({**report_deal.answer_json(answer, table, r, evaluate(answer.hand, r)),
                               **_card_json(beside)}, indent=1))
    else:
        typer.echo(report_deal.answer_text(answer, table) + _card_text(beside), nl=False)


@tables_app.command("build", cls=Command)
def tables_build(
    rules: RulesOption = "russian",
    out: Annotated[str | None, typer.Option("--out", "-o", help="Table directory (default: tables/<rules>, "
                                               "tables/<rules>-compact with --compact).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, max=1024, help="Worker processes (loky; dask "
                                      "without --scheduler: of a local cluster).")] = 1,
    backend: Annotated[str, typer.Option("--backend", help="loky (this machine) or dask (a cluster).")] = "loky",
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Dask scheduler address "
                                                     "(with --backend dask).")] = None,
    shards: Annotated[str | None, typer.Option("--shards", help="Only these shards, e.g. 0-3,7.")] = None,
    compact: Annotated[bool, typer.Option("--compact", help="Only the columns of the compact table "
                                          "(best, runner-up, insurance): the table to ship.")] = False,
    results: Annotated[bool, typer.Option("--results", help="Play out the best action of each class as it is "
                                          "solved and write each shard's results with it (as `tables "
                                          "results` does afterwards): one pass for the report.")] = False,
    shard_rows: Annotated[int, typer.Option("--shard-rows", hidden=True)] = tables_mod.SHARD_ROWS,
) -> None:
    """Solve every suit class of (hand, up-card) into Parquet shards; resumable."""
    r = rules_mod.load(rules)
    directory = out_dir(out, Path("tables") / (f"{r.name}-compact" if compact else r.name))
    chosen = parse_shards(shards, tables_mod.Plan(shard_rows, ()).n_shards if shard_rows >= 1 else 0) \
        if shards is not None else None
    _build(r, directory, jobs, backend, scheduler, shard_rows, chosen, compact, results)


def _build(r: rules_mod.Rules, directory: Path, jobs: int, backend: str = "loky", scheduler: str | None = None,
           shard_rows: int = tables_mod.SHARD_ROWS, chosen: list[int] | None = None, compact: bool = False,
           results: bool = False) -> None:
    """A table build with a progress bar."""
    with progress_bar("solving and playing out" if results else "solving", "classes") as progress:
        report = tables_mod.build(r, directory, jobs, backend, scheduler, shard_rows, chosen, progress,
                                  compact=compact, results=results)
    err.print(f"{directory}: {len(report.solved)} shards solved{' and played out' if results else ''} "
               f"({report.classes:,} classes in "
               f"{report.seconds:.1f} s"
               + (f", {report.reused:,} more from the chunks of an earlier build" if report.reused else "")
               + f"), {len(report.kept)} already built"
               + (f", {len(report.redone)} redone (file did not match the manifest)" if report.redone else ""),
               highlight=False)


@tables_app.command("check", cls=Command)
def tables_check(
    table: TableOption = None,
    rules: RulesOption = "russian",
    spot: Annotated[int, typer.Option("--spot", min=0, max=MAX_SHARD_ROWS,
                                      help="Random classes of every shard to solve again and compare.")]
        = tables_mod.SPOT,
    recount: Annotated[int, typer.Option("--recount", min=0, max=100_000, help="Random shards whose results "
                                         "to count again and compare (about a minute each).")] = 0,
    seed: Annotated[int | None, typer.Option("--seed", min=0, max=2**32 - 1, help="The seed of the random "
                                             "classes and shards (default: a new one, printed).")] = None,
    everything: Annotated[bool, typer.Option("--all", help="Build the whole table again (with its results) into "
                                             "--work and compare every shard and results file (about an hour on two "
                                             "cores for the shipped table).")] = False,
    work: Annotated[str | None, typer.Option("--work", help="With --all: the folder of the table built again "
                                             "(resumable; default: $RPOKER_CACHE, else ~/.cache/rpoker).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, max=1024, help="With --all: worker processes.")] = 1,
) -> None:
    """Verify a complete table: checksums, classes and weights, results, classes solved again;
    with --all, everything built again and compared."""
    r = rules_mod.load(rules)
    if work is not None and not everything:
        raise InputError("--work goes with --all")
    found = tables_mod.required(r, table)
    folder = tables_mod.rebuild_folder(found, work) if everything else None   # checked before any work
    result = tables_mod.check(found, r, spot, seed, recount)
    typer.echo(f"{found.directory}: {result.shards} shards, {result.rows:,} classes of total weight "
               f"{result.weight:,}, checksums and classes verified, the results of {result.results} shards "
               f"verified; {result.spot_checked} classes solved again and equal"
               + (f", the results of shards {', '.join(map(str, result.recounted))} counted again and equal"
                  if result.recounted else "")
               + f" (seed {result.seed}; {found.provenance})")
    if folder is not None:
        with progress_bar("building again", "classes") as progress:
            n = tables_mod.rebuilt(found, r, folder, jobs, progress)
        typer.echo(f"{found.directory}: all {n} shards built again in {folder} and equal, with their results")


@tables_app.command("results", cls=Command)
def tables_results(
    table: TableOption = None,
    rules: RulesOption = "russian",
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, max=1024, help="Worker processes (loky).")] = 1,
) -> None:
    """Play out the best action of every class of a complete table and count its results
    exactly, shard by shard (for the report's return table, variance and rates); resumable."""
    from ..tables import played

    r = rules_mod.load(rules)
    found = tables_mod.required(r, table)
    with progress_bar("playing out", "shards") as progress:
        done = played.compute(found, r, jobs, progress)
    err.print(f"{found.directory}: results of {len(done)} shards counted, "
               f"{found.manifest.shards_total - len(done)} had them already", highlight=False)


@tables_app.command("compact", cls=Command)
def tables_compact(
    table: TableOption = None,
    out: Annotated[str | None, typer.Option("--out", "-o", help="Directory of the compact table "
                                               "(default: tables/<rules>-compact).")] = None,
    rules: RulesOption = "russian",
) -> None:
    """Write the compact table of a full one: best action and EV, runner-up and EV, insurance."""
    r = rules_mod.load(rules)
    found = tables_mod.required(r, table)
    directory = out_dir(out, Path("tables") / f"{r.name}-compact")
    with progress_bar("compacting", "shards") as progress:
        result = tables_mod.compact(found, directory, progress)
    n = len(result.written) + len(result.kept)
    err.print(f"{directory}: {n} of {result.shards_total} shards ({len(result.written)} written, "
               f"{len(result.kept)} already there), {result.bytes / 1e6:.1f} MB"
               + ("" if n == result.shards_total else "; the source table is not complete"), highlight=False)


@tables_app.command("query", cls=Command)
def tables_query(
    cards: Annotated[str, typer.Argument(help='The five dealt cards, e.g. "As Ks Qd 7c 2h".')],
    up: UpOption,
    table: TableOption = None,
    rules: RulesOption = "russian",
    as_json: JsonOption = False,
) -> None:
    """The best action of a deal, read from a strategy table (no solving)."""
    r = rules_mod.load(rules)
    hand_cards, up_card = parse_cards(cards, count=5, what="hand"), parse_card(up)
    found = tables_mod.required(r, table)
    _print_answer(found, found.lookup(hand_cards, up_card), r, as_json)


@app.command(cls=Command)
def report(
    rules: RulesOption = "russian",
    vs: Annotated[str | None, typer.Option("--vs", help="Other rules to compare with (preset or file).")] = None,
    out: Annotated[str | None, typer.Option("--out", "-o", help="Directory for report.md, report.json "
                                               "and the charts (default: reports/<rules>).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, max=1024, help="Worker processes.")] = 1,
    table: TableOption = None,
    build: Annotated[bool, typer.Option("--build", help="Build the compact strategy table of rules with options "
                                        "when it is missing or unfinished, and play out its results "
                                        "(hours: see tables build, tables results).")] = False,
) -> None:
    """Exact house edge, element of risk, return table, charts, over every class of deal.

    Rules with exchanges or a sixth card take their optimal play from their strategy table
    (--table, else $RPOKER_TABLES, else ./tables and the installed tables).
    """
    from .. import report as report_mod

    sets = [rules_mod.load(rules)] + ([rules_mod.load(vs)] if vs else [])
    directory = writable_directory(out_dir(out, Path("reports") / "-vs-".join(r.name for r in sets)), "report")
    markdown = report_mod.write(sets, directory, _report_hooks(), jobs, table, build)
    typer.echo(markdown, nl=False)
    err.print(f"written: {directory}/report.md, report.json and the charts", highlight=False)


@app.command(cls=Command)
def train(
    rules: Annotated[str | None, typer.Option("--rules", "-r", help="Preset (russian, caribbean, oasis) or a TOML "
                                              "rules file; default: the card's own, else russian.")] = None,
    card: Annotated[str | None, typer.Option("--card", help="A strategy card (file or installed name): what it "
                                             "would have done, beside each answer.")] = None,
    seed: Annotated[int | None, typer.Option("--seed", min=0, help="The deals' seed (the same seed, the same "
                                             "deals); default: a new one, shown.")] = None,
    hands: Annotated[int | None, typer.Option("--hands", "-n", min=1, help="Deals to play (default: until q, "
                                              "Ctrl-D or Ctrl-C).")] = None,
    focus: Annotated[bool, typer.Option("--focus", help="Deal more of the hand groups where the history lost "
                                        "most.")] = False,
    history: Annotated[str | None, typer.Option("--history", help="The history file (JSON lines; default: "
                                                "$XDG_DATA_HOME/rpoker/train-history.jsonl).")] = None,
    show_stats: Annotated[bool, typer.Option("--stats", help="Show progress across the history's sessions, "
                                             "and stop.")] = False,
) -> None:
    """Practise: random deals, each decision scored by its exact EV against the best play.

    Answers: f fold, b bet, s sixth card, k and the cards to keep (k As Ks; k A K where the hand
    holds one of each rank; k none), t and the cards to throw; after a draw b or f; y or n to
    insure; a (take the ante) or b (buy a game). q, Ctrl-D or Ctrl-C end with the summary.
    """
    from .. import trainer

    path = Path(history) if history else trainer.history_path()
    if show_stats:
        typer.echo(trainer.stats(trainer.read_history(path)), nl=False)
    else:
        trainer.train(input, typer.echo, path, rules, card, seed, hands, focus)


def _report_hooks() -> Hooks:
    """A report's progress bars and notes on stderr; its table builds as `rpoker tables build`'s."""
    from .. import report as report_mod

    return report_mod.Hooks(progress=progress_bar, note=lambda line: err.print(line, highlight=False),
                            build=lambda r, directory, jobs, compact: _build(r, directory, jobs, compact=compact,
                                                                             results=True))


@rules_app.command("show", cls=Command)
def rules_show(
    source: Annotated[str, typer.Argument(help="Preset (russian, caribbean, oasis) or a TOML rules file.")] = "russian",
) -> None:
    """Print every setting of a preset or rules file, with its fingerprint."""
    typer.echo(rules_mod.describe(rules_mod.load(source)), nl=False)


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM as Ctrl-C: the run stops as an interrupted one (what it finished is kept) and
    joblib stops its workers, which the default SIGTERM would leave running without a parent."""
    raise KeyboardInterrupt


def main() -> None:
    """Entry point of the ``rpoker`` console script."""
    signal.signal(signal.SIGTERM, _terminated)
    # joblib's workers restart once their memory has grown (after a derive's searches) and say so;
    # the tasks queued go to the new worker, nothing is lost
    warnings.filterwarnings("ignore", message="A worker stopped while some jobs were given to the executor")
    app()
