"""``rpoker strategy``: strategy cards people can play, costed exactly (check, advise, derive, show)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from .. import rules as rules_mod
from ..cards import parse_card, parse_cards
from ..console import Command, err, out_dir, progress_bar
from ..errors import InputError
from ..manifest import writable_directory
from .options import CONTEXT, CardArgument, CardRulesOption, DeadOption, JsonOption, TableOption, ThrownOption

strategy_app = typer.Typer(help="Strategy cards people can play, costed exactly.", context_settings=CONTEXT,
                           no_args_is_help=True)


@strategy_app.command("check", cls=Command)
def strategy_check(
    file: CardArgument,
    rules: CardRulesOption = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, max=1024, help="Worker processes.")] = 1,
    table: TableOption = None,
    work: Annotated[str | None, typer.Option("--work", help="Rules with draws: the folder that keeps the counts "
                                             "of the deals played otherwise than the best, so that a check stopped "
                                             "resumes (default: $RPOKER_CACHE, else ~/.cache/rpoker).")] = None,
    returns: Annotated[bool, typer.Option("--returns/--no-returns", help="Rules with draws: count the card's "
                                          "return table, standard deviation and rates too (--no-returns: the EV "
                                          "and the cost alone, exact, up to 3 times faster).")] = True,
    as_json: JsonOption = False,
) -> None:
    """Exact EV, house edge and cost against optimal play of a strategy card, over every deal.

    Under rules with an exchange or a sixth card it reads the rules' complete strategy table with
    the results of optimal play (`rpoker tables results`) and plays out the deals where the card
    takes another action than the best, and, when it states the bet or fold after a draw
    (its after_draw rules), every deal where it draws; when it states its insurance or buying a game
    (insurance, buy_game), every deal it does not fold. What it leaves unstated is the solver's."""
    from .. import strategy as strategy_mod

    if work is not None and not work.strip():
        raise InputError("--work is empty: name a directory")
    card = strategy_mod.load(file)
    r = rules_mod.load(rules or card.rules)
    label = "classes played otherwise" if r.draws else "classes"
    with progress_bar(f"counting {r.name}:", label) as progress:
        result = strategy_mod.check(card, r, jobs, progress, table=table, work=Path(work) if work else None,
                                    returns=returns)
    if as_json:
        typer.echo(json.dumps(strategy_mod.to_json(result), indent=1))
    else:
        typer.echo(strategy_mod.to_text(result), nl=False)


@strategy_app.command("advise", cls=Command)
def strategy_advise(
    file: CardArgument,
    cards: Annotated[str, typer.Argument(help="The dealt hand; with --thrown (or six cards) the final hand after "
                                         "the draw; with --dealer the final hand the dealer did not qualify against.")],
    up: Annotated[str | None, typer.Option("--up", "-u", help="The dealer's up-card, e.g. 9s.")] = None,
    thrown: ThrownOption = "",
    dealer: Annotated[str, typer.Option("--dealer", "-d", help="The dealer's five cards, which do not qualify: "
                                        "take the ante or buy a game.")] = "",
    dead: DeadOption = "",
    rules: CardRulesOption = None,
    as_json: JsonOption = False,
) -> None:
    """What a strategy card does on one deal beside the best play: the line that decides, both
    actions' exact EVs and what following the card costs on this deal."""
    from .. import strategy as strategy_mod
    from ..strategy import advice

    card = strategy_mod.load(file)
    a = advice.advise(card, parse_cards(cards, count=(5, 6), what="hand"), parse_card(up) if up else None,
                      rules_mod.load(rules or card.rules), parse_cards(thrown, what="thrown cards"),
                      parse_cards(dealer, count=5, what="dealer's hand") if dealer else (),
                      parse_cards(dead, what="dead cards"))
    typer.echo(json.dumps(advice.to_json(card, a), indent=1) + "\n" if as_json else advice.to_text(card, a), nl=False)


@strategy_app.command("derive", cls=Command)
def strategy_derive(
    rules: Annotated[str | None, typer.Option("--rules", "-r", help="Rules (preset or file); default: russian, or "
                                              "the --from card's own.")] = None,
    lines: Annotated[int, typer.Option("--lines", "-n", min=2, max=200, help="The most lines of the card.")] = 20,
    chart: Annotated[bool, typer.Option("--chart", help="Derive a chart card (rows of hand groups, a cell per "
                                        "up-card rank) of at most --lines rows, its first decision (with draws, the "
                                        "bet or fold after a draw is the solver's).")] = False,
    curve: Annotated[bool, typer.Option("--curve", help="Also derive and check cards of 5, 10, 20 and 40 lines "
                                        "(the cost curve; --sizes for others).")] = False,
    sizes: Annotated[str | None, typer.Option("--sizes", help="The cost curve's sizes, comma-separated (e.g. "
                                              "10,25,50,100); implies --curve.")] = None,
    out: Annotated[str | None, typer.Option("--out", "-o", help="Folder of the card (TOML), its Markdown and the "
                                            "cost curve's chart (default: reports/RULES-strategy).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, max=1024, help="Worker processes.")] = 1,
    table: TableOption = None,
    work: Annotated[str | None, typer.Option("--work", help="Rules with draws: the check's work folder (as "
                                             "strategy check).")] = None,
    after_draw: Annotated[bool, typer.Option("--after-draw/--optimal-after-draw",
                                             help="Rules with draws: the card states the bet or fold after a draw "
                                             "too (a few of its lines), as a person plays it; or leaves it to the "
                                             "solver (optimal; a check of the first decision alone).")] = True,
    insurance_buy: Annotated[bool, typer.Option("--insurance-buy/--optimal-insurance-buy",
                                                help="Rules with draws, insurance or buying a game: the card states "
                                                "them too (a line each, read from what the hand pays; the insurance "
                                                "perhaps as rules on the final hand and the up-card), as a person "
                                                "plays them; or leaves them to the solver (optimal).")] = True,
    start: Annotated[str | None, typer.Option("--from", help="Rules with draws: start from this derived card (its "
                                              "file, or the name of one installed with rpoker) instead of "
                                              "searching: check it, then repair it as the derive repairs the card "
                                              "it finds (lines bet or folded at once, lines split off), keeping what "
                                              "loses less.")] = None,
) -> None:
    """A strategy card of at most --lines rules, derived from optimal play and checked exactly.

    Rules with draws read their compact table and solve one class of each cell for every action
    (the search's losses are estimates where the table holds no EV; the check is exact, without
    the return table)."""
    from .. import strategy as strategy_mod

    if work is not None and not work.strip():
        raise InputError("--work is empty: name a directory")
    found = strategy_mod.load(start) if start is not None else None
    curve_sizes = strategy_mod.parse_sizes(sizes) if sizes is not None else strategy_mod.CURVE if curve else ()
    if found is not None and curve_sizes:
        raise InputError("--curve searches cards of every size: leave out --from")
    if chart and (found is not None or curve_sizes):
        raise InputError("--chart derives one chart: leave out --from, --curve and --sizes")
    r = rules_mod.load(rules or (found.rules if found is not None else "russian"))
    directory = writable_directory(out_dir(out, Path("reports") / f"{r.name}-strategy"), "strategy")
    if chart:
        with progress_bar(f"counting {r.name}:", "classes solved" if r.draws else "classes") as progress:
            path, checked = strategy_mod.derive_chart(r, lines, directory, jobs, progress, table,
                                                      Path(work) if work else None,
                                                      lambda line: err.print(line, highlight=False))
        typer.echo(strategy_mod.to_text(checked), nl=False)
        err.print(f"written: {path}", highlight=False)
        return
    # with draws: the cells' representatives solved, then each card's departures
    with progress_bar(f"counting {r.name}:", "classes solved" if r.draws else "classes") as progress:
        derived = strategy_mod.derive_card(r, lines, jobs, progress, curve=curve_sizes,
                                      table=table, work=Path(work) if work else None, after_draw=after_draw,
                                      insurance_buy=insurance_buy, note=lambda line: err.print(line, highlight=False),
                                      start=found)
    written = strategy_mod.write_derived(derived, lines, directory)
    typer.echo(written[1].read_text(), nl=False)
    err.print(f"written: {', '.join(str(p) for p in written)}", highlight=False)


@strategy_app.command("show", cls=Command)
def strategy_show(
    file: CardArgument,
    html: Annotated[str | None, typer.Option("--html", help="Write the card as one printable page (HTML): the "
                                             "lines coloured by action, a legend, its exact figures.")] = None,
    png: Annotated[str | None, typer.Option("--png", help="Write the page's picture (PNG).")] = None,
    check: Annotated[str | None, typer.Option("--check", help="The exact figures of `rpoker strategy check CARD "
                                              "--json` (of this very card); default: those installed with "
                                              "it.")] = None,
) -> None:
    """The card in a player's words, as a strategy list: each line a short phrase, leaving out what
    the lines above imply (read back, the words decide every deal as the card does)."""
    from ..strategy import load, page

    for given, what in ((html, "--html"), (png, "--png"), (check, "--check")):
        if given is not None and not given.strip():
            raise InputError(f"{what} is empty: name a file")
    typer.echo(page.show(load(file), Path(check) if check else None, Path(html) if html else None,
                         Path(png) if png else None), nl=False)
