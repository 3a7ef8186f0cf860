"""Plain errors: every error, warning and note the commands print reaches the terminal as
`label: message`, never as literal rich markup (`[bold red]error:[/]`), whatever the colour
mode; and a `[` in a path, an option or an exception prints as written instead of being read
as markup (which dropped text, or raised rich's MarkupError as a traceback).

Each case below drives one path that prints such a line (grep `terminal.error`, `warning`
and `say` in wkparse/commands and wkparse/cli.py); the last test keeps markup out of the
messages the commands write.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import SAMPLES
from wkparse.cli import app

SAMPLE = SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt"
MEGATRON = "sh scripts/megatron_workload_with_aiob.sh"
#: a rich markup tag, as a style or a closing tag
MARKUP = re.compile(r"\[/?(?:bold|red|yellow|dim|green|cyan|italic|b|i)\b[^\]]*\]|\[/\]")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: a path that is also markup: `[/b]` closes a tag that was never opened
ODD = "a[/b][bold]c.txt"


def _broken_config_beside_a_sample(tmp_path: Path) -> Path:
    (tmp_path / ".wkparse.toml").write_text("select = [\n", encoding="utf-8")
    copy = tmp_path / SAMPLE.name
    shutil.copyfile(SAMPLE, copy)
    return copy


#: (arguments, what the error line says); `{dir}` is a fresh directory, `{file}` a sample
#: file there beside a broken `.wkparse.toml`
CASES = [
    # explain
    (["explain", "--aicb-command", "sh scripts/nope.sh"], "error: "),
    (["explain"], "error: give a FILE, or --aicb-command to explain its file"),
    (["explain", ODD], f"error: {ODD}: "),
    (["explain", "--lang", "[bold]x", str(SAMPLE)], "error: unknown language '[bold]x'"),
    (["explain", str(SAMPLE), "-f", "json", "-o", "{file}/x.json"], "error: {file}/x.json: "),
    (["explain", "-f", "json", "{file}"], "error: {file}: "),  # the broken config: exit 2
    (["explain", "--target", "[bold]x", str(SAMPLE)], "error: --target: "),
    # diff
    (["diff", "-", "-"], "error: only one side can be standard input ('-')"),
    (["diff", ODD, str(SAMPLE)], f"error: {ODD}: "),
    (["diff", "-f", "json", "{file}", str(SAMPLE)], "error: {file}: "),
    (["diff", "{dir}/broken.txt", str(SAMPLE)], "error: "),
    # simai
    (["simai", "--backend", "[bold]x", str(SAMPLE)], "error: unknown backend '[bold]x'"),
    (["simai", "-g", "0", str(SAMPLE)], "error: -g must be at least 1"),
    (["simai", ODD], f"error: {ODD}: "),
    # aicb (the colour option before `--`: what follows is AICB's command)
    (["aicb"], "error: give the AICB command after '--'"),
    (["aicb", "--", "sh", "scripts/[bold]nope.sh"], "error: "),
    (["aicb", "--", MEGATRON, "-m", "7", "--[bold]x"], "note: "),
    (["aicb", "-o", "{file}", "--", MEGATRON, "-m", "7"], "error: {file}/"),
    # rules, parse, the CLI's usage errors
    (["rule", "[bold]WK105x"], "error: unknown rule '[bold]WK105x'"),
    (["rules", "--lang", "[bold]x"], "error: unknown language '[bold]x'"),
    (["parse", ODD], f"error: {ODD}: "),
    (["parse", "--config", "{dir}/.wkparse.toml", str(SAMPLE)], "error: "),
]


def _run(args: list[str], color: str, tmp_path: Path) -> str:
    copy = _broken_config_beside_a_sample(tmp_path)
    (tmp_path / "broken.txt").write_text("MICRO\n1\nrow\t-1\tx\n", encoding="utf-8")
    words = [a.replace("{dir}", str(tmp_path)).replace("{file}", str(copy)) for a in args]
    split = words.index("--") if "--" in words else len(words)
    words[split:split] = ["--color", color]
    result = CliRunner().invoke(app, words, input="")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return ANSI.sub("", result.stdout + result.stderr)


@pytest.mark.parametrize("color", ["never", "always"])
@pytest.mark.parametrize(
    ("args", "said"), CASES, ids=[" ".join(c[0]).replace(str(SAMPLE), "SAMPLE")[:60] for c in CASES]
)
def test_errors_print_plain_text(args: list[str], said: str, color: str, tmp_path: Path) -> None:
    text = _run(args, color, tmp_path)
    copy = str(tmp_path / SAMPLE.name)
    assert said.replace("{file}", copy) in text
    assert "Traceback" not in text
    shown = text.replace(ODD, "").replace("[bold]x", "").replace("[bold]WK105x", "")
    shown = shown.replace("[bold]nope", "").replace("[bold]", "")
    assert not MARKUP.search(shown), text


def test_no_command_writes_markup_into_its_messages() -> None:
    """The commands print labels through `terminal.error`/`warning`/`say`; a markup tag in a
    message string would print literally (markup off) or eat the text beside it (markup on)."""
    root = Path(__file__).resolve().parents[1] / "wkparse"
    sources = [root / "cli.py", *sorted((root / "commands").glob("*.py"))]
    found = [
        f"{path.name}:{n}: {line.strip()}"
        for path in sources
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\[(?:bold|yellow|red)[^\]]*\](?:error|warning|note)", line)
    ]
    assert not found


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize(
    "args", [["parse", "--format", "json"], ["lint", "--format", "json"], ["explain"]]
)
def test_output_that_cannot_be_written_is_one_line_not_a_traceback(args: list[str]) -> None:
    """A full disk under standard output (/dev/full): the error and exit 2."""
    import subprocess
    import sys

    sample = next(SAMPLES.glob("*.txt"))
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "wkparse", *args, str(sample)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert done.returncode == 2
    assert done.stderr == "error: cannot write the output: no space left on device\n"


@pytest.mark.parametrize(
    "args",
    [["lint"], ["explain"], ["fmt"], ["parse"], ["simai"], ["simai", "--backend", "ns3"],
     ["aicb", "--infer"], ["diff", str(next(SAMPLES.glob("*.txt")))]],
)  # fmt: skip
def test_a_missing_path_is_worded_alike_by_every_command(args: list[str], tmp_path: Path) -> None:
    missing = tmp_path / "absent.txt"
    result = CliRunner().invoke(app, [*args, str(missing)])
    assert result.exit_code == 2
    assert f"error: {missing}: no such file or directory" in result.stderr


class _FullDisk(io.RawIOBase):
    """A stream every write to fails as on a full disk."""

    def writable(self) -> bool:
        return True

    def write(self, b: object) -> int:
        raise OSError(28, "No space left on device")


def test_output_still_buffered_at_the_end_is_written_before_exit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A short output sits in the buffer until the command ends: it is written before
    `main` returns, so a full disk is still the one-line error and exit 2 (written at exit,
    it was a traceback and exit 120)."""
    from wkparse import cli

    sample = next(SAMPLES.glob("*.txt"))
    full = io.TextIOWrapper(io.BufferedWriter(_FullDisk()), encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["wkparse", "lint", "--format", "json", str(sample)])
    monkeypatch.setattr(sys, "stdout", full)
    monkeypatch.setattr(os, "dup2", lambda fd, fd2: None)  # keep pytest's own stdout
    monkeypatch.setattr(full, "fileno", lambda: 1)
    with pytest.raises(SystemExit) as exit_:
        cli.main()
    assert exit_.value.code == 2
    assert capsys.readouterr().err == "error: cannot write the output: no space left on device\n"
