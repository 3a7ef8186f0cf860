"""The command line: arguments in, exit code out. Every command calls into the library."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path

import typer

from wkparse.parse import parse_file

app = typer.Typer(
    name="wkparse",
    help="Parse, lint, explain and format SimAI workload files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Parse, lint, explain and format SimAI workload files."""


class ParseFormat(str, Enum):
    text = "text"
    json = "json"


def fail_usage(message: str) -> typer.Exit:
    """Report a usage problem (bad path, bad option value) and give exit code 2."""
    from rich.console import Console

    Console(stderr=True).print(f"[bold red]error:[/] {message}", highlight=False)
    return typer.Exit(2)


@app.command()
def parse(
    path: Path = typer.Argument(..., help="Workload file to parse."),
    format: ParseFormat = typer.Option(ParseFormat.text, "--format", "-f", help="Output format."),
) -> None:
    """Parse a file and print its syntax tree (json) or a summary (text).

    Exit 0 when it parsed cleanly, 1 on syntax errors, 2 when it cannot be read.
    """
    try:
        result = parse_file(path)
    except OSError as exc:
        raise fail_usage(f"{path}: {exc.strerror or exc}") from None
    if format is ParseFormat.json:
        from wkparse.render import ast_json

        ast_json.write(result, sys.stdout)
    else:
        w = result.workload
        policy = w.header.policy if w.header else "no policy"
        print(f"{path}: {policy}, {len(w.rows)} rows, {len(result.diagnostics)} syntax errors")
        for d in result.diagnostics:
            print(f"{path}:{d.span.line}:{d.span.column}: {d.code} {d.message}")
    raise typer.Exit(0 if result.ok else 1)


def main() -> None:
    app()
