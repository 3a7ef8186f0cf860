"""`--help` speaks the user's words: every option's choices whole, no Python type (issue 32)."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from wkparse.cli import app

COMMANDS = [
    "",
    "parse",
    "lint",
    "explain",
    "simai",
    "fmt",
    "diff",
    "aicb",
    "rules",
    "rule",
    "concepts",
    "concept",
]
#: every choice option of the commands, as `--help` must list it
CHOICES = {
    "lint": ["text", "json", "sarif", "github"],
    "explain": ["text", "markdown", "json", "html"],
    "simai": ["text", "json", "csv", "analytical", "ns3"],
    "diff": ["text", "json", "markdown"],
    "concept": ["text", "markdown", "json"],
    "": ["auto", "always", "never"],
}


def help_of(command: str) -> str:
    args = [command, "--help"] if command else ["--help"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "80", "TERMINAL_WIDTH": "80"})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("command", COMMANDS)
def test_help_names_no_python_type(command: str) -> None:
    text = help_of(command)
    assert not re.search(r"<(bool|str|int|list\[|Path|path)", text), text
    assert "<" not in text, text


@pytest.mark.parametrize(("command", "choices"), CHOICES.items())
def test_help_lists_every_choice_whole(command: str, choices: list[str]) -> None:
    words = set(re.findall(r"[a-z0-9]+", help_of(command)))
    assert set(choices) <= words


def test_help_joins_the_docstring_lines_of_a_paragraph() -> None:
    """Issue 41: `--help` broke sentences where the source wrapped them ("a file would" /
    "change or ...")."""
    assert "file would change or when a file has syntax errors" in help_of("fmt")


@pytest.mark.parametrize(("command", "usage"), [("fmt", "PATHS..."), ("simai", "PATH")])
def test_usage_names_the_arguments(command: str, usage: str) -> None:
    """Issue 41: the usage line showed `{paths}...`."""
    text = help_of(command)
    line = next(x for x in text.splitlines() if "Usage:" in x)
    assert f"[OPTIONS] {usage}" in line and "{" not in line


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        (["lint", "--format", "xml", "x.txt"], "text, json, sarif, github"),
        (["explain", "-f", "xml", "x.txt"], "text, markdown, json, html"),
        (["lint", "--color", "rainbow", "x.txt"], "auto, always, never"),
    ],
)
def test_an_unknown_choice_says_which_are_allowed(args: list[str], allowed: str) -> None:
    """Issue 41: "Invalid value for '--format' ...: Value error, 'xml' is not one of ..."."""
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    option = args[1] if args[1].startswith("--") else "--format"
    assert result.stderr.strip().splitlines() == [
        f"error: unknown {option} {args[2]!r}: use one of {allowed}"
    ]
