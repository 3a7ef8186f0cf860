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
