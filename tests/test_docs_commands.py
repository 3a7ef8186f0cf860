"""Every wkparse command line the docs show works (issue 13): the ones on rule pages, in the
README and the manual's pages in docs/ (inline and in console blocks) and in the messages and
sentences the package prints. Each is run against the real CLI, in a scratch folder holding a
copy of samples/, with its placeholders (FILE, PATH..., A, B, DIR, CODE, N) filled in and
optional parts included; the command may find problems, but the command line itself must
parse: no unknown option, no missing or extra argument, no invalid value (eight pages once
said `--fix --unsafe`)."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import ROOT
from wkparse.cli import app

runner = CliRunner()
SAMPLE = "samples/gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"
PLACEHOLDERS = {
    "FILE": SAMPLE,
    "PATH...": SAMPLE,
    "PATH": SAMPLE,
    "A": SAMPLE,
    "B": SAMPLE,
    "DIR": "out",
    "dir": "samples",
    "CODE": "WK105",
    "N": "8",
    "{page.code}": "WK405",
    "{code}": "WK405",
    "seed.txt": SAMPLE,
    "seed-without-group-64.txt": SAMPLE,
}
#: what click says when a command line does not parse
USAGE_ERRORS = (
    "No such option",
    "No such command",
    "Got unexpected extra argument",
    "Invalid value",
    "Missing argument",
    "Missing option",
    "requires an argument",
)
#: a real AICB command where the docs write COMMAND
AICB_COMMAND = ["sh", "scripts/megatron_workload_with_aiob.sh", "-m", "7", "--world_size", "32"]
INLINE = re.compile(r"`(wkparse [^`]+)`")


def _inline(text: str) -> list[str]:
    return [" ".join(m.split()) for m in INLINE.findall(text)]


def _console_lines(text: str) -> list[str]:
    """`$ wkparse ...` lines of console blocks and `- run: wkparse ...` workflow steps, with
    `\\` continuations joined."""
    found, joined = [], text.replace("\\\n", " ")
    for line in joined.splitlines():
        stripped = line.strip()
        for prompt in ("$ ", "- run: "):  # console blocks, workflow steps
            if stripped.startswith(prompt + "wkparse "):
                found.append(" ".join(stripped[len(prompt) :].split()))
    return found


def documented() -> list[str]:
    lines = []
    # the README and the site's hand-written pages (the manual); the generated ones come from
    # rules/ and concepts/, read below and by their own tests
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        lines += _inline(text) + _console_lines(text)
    for page in sorted((ROOT / "rules").glob("WK*.toml")):
        lines += _inline(page.read_text())
    for source in sorted((ROOT / "wkparse").rglob("*.py")):
        # join the pieces of implicitly concatenated string literals first
        lines += _inline(re.sub(r'"\s*f?"', "", source.read_text()))
    return sorted(set(lines))


def runnable(line: str) -> list[str]:
    """The documented line as arguments: a pipe or redirection cut off, `[optional]` parts
    kept, the first of `a|b` alternatives taken, placeholders filled in."""
    line = re.split(r" [|>] ", line)[0].replace("\\|", "|")
    line = re.sub(r"\[([^\]]*)\]", r"\1", line)
    words = []
    for word in shlex.split(line)[1:]:
        word = word.split("|")[0] if "|" in word and not word.startswith("-") else word
        words.append(PLACEHOLDERS.get(word, word))
    if "--" in words and words[words.index("--") + 1 :] in (["COMMAND"], ["COMMAND..."]):
        words = [*words[: words.index("--") + 1], *AICB_COMMAND]
    return [" ".join(AICB_COMMAND) if w == "COMMAND" else w for w in words]


LINES = documented()


def test_the_docs_show_commands() -> None:
    assert len(LINES) > 30
    assert any("--unsafe-fixes" in line for line in LINES)


@pytest.mark.parametrize("line", LINES)
def test_documented_command_line_parses(
    line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    (tmp_path / "out").mkdir()
    monkeypatch.chdir(tmp_path)
    args = runnable(line)
    result = runner.invoke(app, args, input="")
    for _ in range(2):  # `wkparse diff --format json` names the option; the paths are implied
        if "Missing argument" not in result.output:
            break
        args.append(SAMPLE)
        result = runner.invoke(app, args, input="")
    problem = next((e for e in USAGE_ERRORS if e in result.output), None)
    assert problem is None, f"`{line}` as {args}: {result.output[-300:]}"
    assert result.exception is None or isinstance(result.exception, SystemExit), line


@pytest.mark.parametrize("line", ["wkparse lint --fix --unsafe FILE", "wkparse lint --bogus"])
def test_a_wrong_command_line_is_caught(line: str) -> None:
    result = runner.invoke(app, runnable(line))
    assert any(e in result.output for e in USAGE_ERRORS)
