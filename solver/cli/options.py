"""The options and arguments the commands share, and their help context."""

from __future__ import annotations

from typing import Annotated

import typer

CONTEXT = {"help_option_names": ["-h", "--help"]}

UpOption = Annotated[str, typer.Option("--up", "-u", help="The dealer's up-card, e.g. 9s.")]
DeadOption = Annotated[str, typer.Option("--dead", help="Dead cards seen in other boxes.")]
ThrownOption = Annotated[str, typer.Option("--thrown", help="Cards exchanged away (out of play).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for programs.")]
RulesOption = Annotated[
    str, typer.Option("--rules", "-r", help="Preset (russian, caribbean, oasis) or a TOML rules file.")
]
TableOption = Annotated[
    str | None, typer.Option("--table", "-t", help="A table directory, or a directory of tables "
                                "(default: $RPOKER_TABLES, else ./tables and the tables installed with rpoker).")
]
CardArgument = Annotated[str, typer.Argument(help="The strategy card: a TOML file (docs/strategy.md), or the name "
                                             "of one installed with rpoker (caribbean-published, ...).")]
CardRulesOption = Annotated[str | None, typer.Option("--rules", "-r", help="Rules (preset or file); default: the "
                                                     "card's own.")]
