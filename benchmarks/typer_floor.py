#!/usr/bin/env python3
"""The typer floor: the least any Typer app with `wkparse lint`'s interface pays to start.

A command group (so a root callback and two commands, as wkparse has) whose `lint` takes the
same kinds and number of parameters as `wkparse lint` (a list of paths, an enum format, str
and Path options, on-flags, the eager `--color` and `--version`), and whose work is only to
read each file. Typer coerces every parameter it processes; from typer 0.20 on, every one that
is not a bool goes through a pydantic TypeAdapter, so pydantic's import is part of this floor.
benchmarks/run.py times it beside `wkparse lint` of a tiny file and yamllint; the
harness test checks that its `lint` keeps the options of wkparse's.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False)


class Color(str, Enum):
    auto = "auto"
    always = "always"
    never = "never"


class Format(str, Enum):
    text = "text"
    json = "json"


def _version(value: bool) -> None:
    if value:
        print("floor 0")
        raise typer.Exit(0)


COLOR = typer.Option(Color.auto, "--color", is_eager=True)


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True),
    color: Color = COLOR,
) -> None:
    """The floor."""


@app.command()
def lint(
    ctx: typer.Context,
    paths: list[Path] = typer.Argument(...),
    format: Format = typer.Option(Format.text, "--format", "--output-format", "-f"),
    select: str | None = typer.Option(None),
    ignore: str | None = typer.Option(None),
    extend_select: str | None = typer.Option(None, "--extend-select"),
    extend_ignore: str | None = typer.Option(None, "--extend-ignore"),
    exit_zero: bool = typer.Option(False, "--exit-zero"),
    statistics: bool = typer.Option(False, "--statistics"),
    show_fixes: bool = typer.Option(False, "--show-fixes"),
    stdin_filename: str | None = typer.Option(None, "--stdin-filename"),
    target: str | None = typer.Option(None, "--target"),
    strict: bool = typer.Option(False, "--strict"),
    config: Path | None = typer.Option(None, "--config"),
    fix: bool = typer.Option(False, "--fix"),
    unsafe_fixes: bool = typer.Option(False, "--unsafe-fixes"),
    skip_non_workloads: bool = typer.Option(False, "--skip-non-workloads"),
    aicb_command: str | None = typer.Option(None, "--aicb-command"),
    lang: str | None = typer.Option(None, "--lang"),
    verbose: bool = typer.Option(False, "--verbose", "-v"),
    at: str | None = typer.Option(None, "--at"),
    color: Color = COLOR,
) -> None:
    """Read every file; report nothing."""
    for path in paths:
        path.read_bytes()
    print(f"All checks passed ({len(paths)} file{'' if len(paths) == 1 else 's'}).")


@app.command()
def fmt(paths: list[Path] = typer.Argument(...), check: bool = typer.Option(False)) -> None:
    """The second command: a group, as wkparse is."""


if __name__ == "__main__":
    app()
