"""The ``rpoker`` command: thin Typer commands, one core call each; errors to stderr, exit 2."""

from __future__ import annotations

from typing import Annotated, NoReturn

import typer
from rich.console import Console
from typer.core import TyperGroup

from . import __version__
from . import rules as rules_mod
from .cards import parse_cards
from .errors import InputError
from .hand import evaluate

CONTEXT = {"help_option_names": ["-h", "--help"]}

class _Group(TyperGroup):
    """Turns bad input raised anywhere below into one line on stderr and exit code 2."""

    def invoke(self, ctx):  # type: ignore[no-untyped-def]
        try:
            return super().invoke(ctx)
        except InputError as exc:
            fail(str(exc))


app = typer.Typer(
    cls=_Group,
    help="Exact solver for Russian Poker: best play, EVs, strategy tables.",
    context_settings=CONTEXT,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
rules_app = typer.Typer(help="Show rule settings.", context_settings=CONTEXT, no_args_is_help=True)
app.add_typer(rules_app, name="rules")

_err = Console(stderr=True, highlight=False, soft_wrap=True)

RulesOption = Annotated[
    str, typer.Option("--rules", "-r", help="Preset (russian, caribbean, oasis) or a TOML rules file.")
]


def fail(message: str) -> NoReturn:
    """One line on stderr and exit code 2."""
    _err.print(f"[bold red]error:[/] {message}", markup=True)
    raise typer.Exit(2)


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


@app.command()
def hand(
    cards: Annotated[str, typer.Argument(help='Five or six cards, e.g. "As Ah Kd 9c 8s".')],
    rules: RulesOption = "russian",
) -> None:
    """Main combination, second combination and payout multiple P of 5 or 6 cards."""
    value = evaluate(parse_cards(cards, count=(5, 6), what="hand"), rules_mod.load(rules))
    typer.echo(value.summary())


@rules_app.command("show")
def rules_show(
    source: Annotated[str, typer.Argument(help="Preset (russian, caribbean, oasis) or a TOML rules file.")] = "russian",
) -> None:
    """Print every setting of a preset or rules file, with its fingerprint."""
    typer.echo(rules_mod.describe(rules_mod.load(source)), nl=False)


def main() -> None:
    """Entry point of the ``rpoker`` console script."""
    app()
