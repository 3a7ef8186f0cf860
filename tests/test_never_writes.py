"""Only `lint --fix` and `fmt` (without --check or --diff) write files, on every dependency
version pyproject.toml allows (`.ci/run` runs this suite on the lowest and the newest).

Every file here has something a fix would change (a float `pp_comm`, a wrong row count, CR
line ends, UTF-16 text, bad spacing) or is binary data, so a command that wrongly took itself
for `--fix` or for `fmt` would rewrite it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from tests.conftest import SAMPLES
from wkparse.cli import app, typed

runner = CliRunner()
SAMPLE = SAMPLES / "mixtral-world32-tp2-pp2-ep8-sp-moe.txt"
#: a binary file's first bytes: CRs but no LF (it once passed for CR line ends) and NULs
BINARY = b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)).replace(b"\n", b"") * 12 + b"\r\r\r"

READ_ONLY = [
    ["lint"],
    ["lint", "--format", "json"],
    ["lint", "--format", "sarif"],
    ["lint", "--format", "github"],
    ["lint", "--strict", "--select", "WK"],
    ["fmt", "--check"],
    ["fmt", "--diff"],
    ["fmt", "--check", "--diff"],
    ["explain"],
    ["parse"],
]


def damaged_files(folder: Path) -> list[Path]:
    """Copies of a real file, each with something `--fix` or `fmt` would change."""
    text = SAMPLE.read_text()
    header, count, rest = text.split("\n", 2)
    files = {
        "float-pp-comm.txt": text,  # the sample's pp_comm is 67108864.0
        "wrong-count.txt": f"{header}\n{int(count) + 3}\n{rest}",
        "spacing.txt": f"{header}  \n{count}\n{rest.replace(chr(9), '  ', 5)}",
        "cr-line-ends.txt": text.replace("\n", "\r"),
    }
    paths = []
    for name, content in files.items():
        path = folder / name
        path.write_bytes(content.encode())
        paths.append(path)
    (folder / "utf16.txt").write_bytes(text.encode("utf-16"))
    (folder / "x.txt").write_bytes(BINARY)
    return [*paths, folder / "utf16.txt", folder / "x.txt"]


def snapshot(paths: list[Path]) -> dict[Path, tuple[bytes, int]]:
    return {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in paths}


@pytest.mark.parametrize("args", READ_ONLY, ids=" ".join)
def test_read_only_commands_never_write(args: list[str], tmp_path: Path) -> None:
    files = damaged_files(tmp_path)
    before = snapshot(files)
    if args[0] in ("lint", "fmt"):  # the folder walked, and every file named
        runs = [[*args, str(tmp_path), *map(str, files)]]
    else:
        runs = [[*args, str(path)] for path in files]
    for run in runs:
        result = runner.invoke(app, run)
        assert result.exception is None or isinstance(result.exception, SystemExit), run
    assert snapshot(files) == before
    assert not list(tmp_path.glob(".*.tmp*")), "no temporary file is left behind"


def test_plain_lint_through_the_installed_entry_point_never_writes(tmp_path: Path) -> None:
    """The real console script, not the test runner: the parser that users run."""
    files = damaged_files(tmp_path)
    before = snapshot(files)
    for args in (["lint"], ["fmt", "--check"]):
        done = subprocess.run(
            [sys.executable, "-m", "wkparse", *args, *map(str, files)],
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "NO_COLOR": "1"},
        )
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode == 1, (args, done.stdout, done.stderr)
    assert snapshot(files) == before


def test_lint_fix_and_fmt_do_write(tmp_path: Path) -> None:
    """The counterpart: the commands that are asked to write do."""
    text = SAMPLE.read_text()
    header, count, rest = text.split("\n", 2)
    fixable = tmp_path / "wrong-count.txt"
    fixable.write_text(f"{header}\n{int(count) + 3}\n{rest}")
    runner.invoke(app, ["lint", "--fix", "--unsafe-fixes", str(fixable)])
    assert fixable.read_text().split("\n")[1] == count
    messy = tmp_path / "spacing.txt"
    messy.write_text(f"{header}\n{count}\n{rest.replace(chr(9), '  ', 5)}")
    assert runner.invoke(app, ["fmt", str(messy)]).exit_code == 0
    assert "  " not in messy.read_text().split("\n")[2]


@pytest.mark.parametrize(
    "args",
    [[], ["--help"]]
    + [[command, "--help"] for command in ("lint", "fmt", "explain", "parse", "rules", "rule")],
    ids=" ".join,
)
def test_help_never_crashes(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Usage" in result.output


@pytest.mark.parametrize("command", ["lint", "fmt", "parse", "simai", "diff", "rule"])
def test_a_missing_argument_is_a_usage_error(command: str) -> None:
    """typer 0.16 and 0.17 with click 8.5 passed None instead (a traceback): floor 0.18."""
    result = runner.invoke(app, [command])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "Missing argument" in result.output


def test_a_flag_counts_only_when_typed() -> None:
    """`typed` ignores the value a parser filled in: a flag whose default came out True (as
    `--fix` did with typer 0.12.5 and click 8.3.0) is still off unless it is on the line."""
    seen: list[bool] = []
    probe = typer.Typer()

    @probe.command()
    def main(ctx: typer.Context, fix: bool = typer.Option(True, "--fix")) -> None:
        seen.append(typed(ctx, "fix"))

    runner.invoke(probe, [])
    runner.invoke(probe, ["--fix"])
    assert seen == [False, True]
