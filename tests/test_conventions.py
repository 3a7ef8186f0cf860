"""The conventions ruff and yamllint users expect (issue 13): --version, colour control on
every command, no padding when piped, exit codes of fmt --diff/--check, a warning for a
folder without workloads, and lint's --exit-zero, --statistics, --show-fixes,
--output-format, --extend-select/--extend-ignore and --stdin-filename."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import ROOT, SAMPLES, on_a_terminal
from wkparse import __version__, terminal
from wkparse.cli import app

runner = CliRunner()
SAMPLE = SAMPLES / "mixtral-world32-tp2-pp2-ep8-sp-moe.txt"
ESC = "\x1b["
COMMANDS = [
    ["parse", str(SAMPLE)],
    ["lint", "--select", "WK4", str(SAMPLE)],
    ["explain", str(SAMPLE)],
    ["simai", str(SAMPLE)],
    ["fmt", "--check", str(SAMPLE)],
    ["diff", str(SAMPLE), str(SAMPLE)],
    ["rules"],
    ["rule", "WK105"],
    ["concepts"],
    ["concept", "busbw"],
]


@pytest.fixture(autouse=True)
def _auto_color() -> object:
    yield
    terminal.set_color("auto")  # --color sets a process-wide mode: leave it as found


def wrong_count(folder: Path) -> Path:
    header, count, rest = SAMPLE.read_text().split("\n", 2)
    path = folder / "w.txt"
    path.write_text(f"{header}\n{int(count) + 2}\n{rest}")
    return path


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag: str) -> None:
    result = runner.invoke(app, [flag])
    assert result.exit_code == 0 and result.stdout.strip() == f"wkparse {__version__}"


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_every_command_takes_color(args: list[str]) -> None:
    always = runner.invoke(app, [args[0], "--color", "always", *args[1:]])
    never = runner.invoke(app, [args[0], "--color", "never", *args[1:]])
    assert always.exception is None or isinstance(always.exception, SystemExit)
    assert ESC not in never.stdout
    assert always.exit_code == never.exit_code


def test_color_before_the_command_applies_and_a_later_one_wins() -> None:
    lint = ["lint", "--select", "WK4", str(SAMPLE)]
    assert ESC in runner.invoke(app, ["--color", "always", *lint]).stdout
    assert (
        ESC
        not in runner.invoke(
            app, ["--color", "always", lint[0], "--color", "never", *lint[1:]]
        ).stdout
    )
    assert ESC not in runner.invoke(app, lint).stdout  # the next run is back to auto


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_piped_output_has_no_trailing_padding(args: list[str]) -> None:
    out = runner.invoke(app, args).output
    assert out and not [line for line in out.split("\n") if line.endswith(" ")]


def test_color_follows_no_color_and_force_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert ESC in runner.invoke(app, ["lint", "--select", "WK4", str(SAMPLE)]).stdout
    monkeypatch.setenv("NO_COLOR", "1")  # NO_COLOR wins over FORCE_COLOR
    assert ESC not in runner.invoke(app, ["lint", "--select", "WK4", str(SAMPLE)]).stdout
    assert (
        ESC
        in runner.invoke(app, ["lint", "--color", "always", "--select", "WK4", str(SAMPLE)]).stdout
    )


def test_color_asked_for_is_given_on_a_dumb_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41: `--color always` and `FORCE_COLOR=1` printed no colour under `TERM=dumb`."""
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.delenv("NO_COLOR", raising=False)
    lint = ["lint", "--select", "WK4", str(SAMPLE)]
    assert ESC in runner.invoke(app, ["--color", "always", *lint]).stdout
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert ESC in runner.invoke(app, lint).stdout


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_no_color_on_a_real_terminal() -> None:
    """The bug report: NO_COLOR was ignored by lint's text output on a terminal."""

    def run(env: dict[str, str], term: str = "xterm-256color") -> bytes:
        args = [sys.executable, "-m", "wkparse", "lint", "--select", "WK4", str(SAMPLE)]
        return on_a_terminal(args, env, term)

    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    assert ESC.encode() in run(env)
    assert ESC.encode() not in run({**env, "NO_COLOR": "1"})
    # issue 41: a dumb terminal gets none by itself, and colour when asked for it
    assert ESC.encode() not in run(env, "dumb")
    assert ESC.encode() in run({**env, "FORCE_COLOR": "1"}, "dumb")


def test_fmt_diff_and_check_exit_1_on_a_change(tmp_path: Path) -> None:
    messy = tmp_path / "w.txt"
    header, rest = SAMPLE.read_text().split("\n", 1)
    messy.write_text(f"{header}   \n{rest}")
    before = messy.read_bytes()
    assert runner.invoke(app, ["fmt", "--diff", str(messy)]).exit_code == 1
    assert runner.invoke(app, ["fmt", "--check", str(messy)]).exit_code == 1
    assert runner.invoke(app, ["fmt", "--diff", "-"], input=before.decode()).exit_code == 1
    assert messy.read_bytes() == before
    assert runner.invoke(app, ["fmt", "--diff", str(SAMPLE)]).exit_code == 0


@pytest.mark.parametrize("command", ["lint", "fmt"])
def test_a_folder_without_workloads_warns_and_exits_0(command: str, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("just notes\n")
    result = runner.invoke(app, [command, str(tmp_path)])
    assert result.exit_code == 0
    assert "warning: no workload files found" in result.stderr


def test_exit_zero(tmp_path: Path) -> None:
    path = wrong_count(tmp_path)
    assert runner.invoke(app, ["lint", str(path)]).exit_code == 1
    assert runner.invoke(app, ["lint", "--exit-zero", str(path)]).exit_code == 0
    assert runner.invoke(app, ["lint", "--exit-zero", str(tmp_path / "nope.txt")]).exit_code == 2


def test_statistics(tmp_path: Path) -> None:
    path = wrong_count(tmp_path)
    text = runner.invoke(app, ["lint", "--statistics", str(path)]).stdout
    assert text.split("\n")[0].split("\t") == ["1", "WK105", "[*] count-mismatch"]
    found = json.loads(runner.invoke(app, ["lint", "--statistics", "-f", "json", str(path)]).stdout)
    assert found == [{"code": "WK105", "name": "count-mismatch", "count": 1, "fixable": True}]


def test_show_fixes(tmp_path: Path) -> None:
    path = wrong_count(tmp_path)
    out = runner.invoke(app, ["lint", "--fix", "--unsafe-fixes", "--show-fixes", str(path)]).stdout
    assert "Fixed 1 problem:" in out and "1 x WK105 (count-mismatch)" in out


def test_output_format_is_an_alias_of_format(tmp_path: Path) -> None:
    path = str(wrong_count(tmp_path))
    a = runner.invoke(app, ["lint", "--output-format", "json", path]).stdout
    b = runner.invoke(app, ["lint", "--format", "json", path]).stdout
    assert a == b and json.loads(a)[0]["code"] == "WK105"


def test_extend_select_and_extend_ignore(tmp_path: Path) -> None:
    (tmp_path / ".wkparse.toml").write_text('extend-ignore = ["WK105"]\n')
    path = str(wrong_count(tmp_path))

    def codes(*args: str) -> set[str]:
        return {
            d["code"]
            for d in json.loads(runner.invoke(app, ["lint", "-f", "json", *args, path]).stdout)
        }

    assert codes() == set()
    assert codes("--extend-select", "WK216") == {"WK216"}  # an opt-in rule, added
    assert "WK216" not in codes("--extend-select", "WK216", "--extend-ignore", "WK216")


def test_stdin_filename_names_stdin_and_feeds_file_name_rules() -> None:
    data = SAMPLE.read_text()
    # AICB's own naming; tp4 where the header says 2
    name = (
        "sp-None-Mixtral_8x7B-world_size32-tp4-pp2-ep8-gbs256-mbs2-seq8192"
        "-MOE-True-GEMM-True-flash_attn-True.txt"
    )
    plain = json.loads(runner.invoke(app, ["lint", "-f", "json", "-"], input=data).stdout)
    named = runner.invoke(app, ["lint", "-f", "json", "--stdin-filename", name, "-"], input=data)
    found = json.loads(named.stdout)
    assert not plain
    assert [(d["code"], d["path"]) for d in found][:1] == [("WK501", name)]


def test_json_fix_is_always_present(tmp_path: Path) -> None:
    found = json.loads(
        runner.invoke(
            app, ["lint", "-f", "json", "--select", "WK", str(wrong_count(tmp_path))]
        ).stdout
    )
    assert all("fix" in d for d in found)


def test_stdin_is_named_alike_in_every_command() -> None:
    data = SAMPLE.read_text()
    lint = json.loads(
        runner.invoke(app, ["lint", "-f", "json", "--extend-select", "WK4", "-"], input=data).stdout
    )
    explain = json.loads(runner.invoke(app, ["explain", "-f", "json", "-"], input=data).stdout)
    diff = json.loads(
        runner.invoke(app, ["diff", "-f", "json", "-", str(SAMPLE)], input=data).stdout
    )
    assert {d["path"] for d in lint} == {explain["path"]} == {diff["a"]} == {"-"}


def test_rules_as_json() -> None:
    rules = json.loads(runner.invoke(app, ["rules", "--format", "json"]).stdout)
    by_code = {r["code"]: r for r in rules}
    assert by_code["WK105"]["name"] == "count-mismatch" and by_code["WK105"]["default"]
    assert by_code["WK405"]["default"] is False


def test_config_file_with_a_tool_wkparse_table(tmp_path: Path) -> None:
    settings = tmp_path / "ci.toml"
    settings.write_text('[tool.wkparse]\nignore = ["WK105"]\n')
    path = str(wrong_count(tmp_path))
    assert runner.invoke(app, ["lint", "--config", str(settings), path]).exit_code == 0


def test_parse_reads_the_configured_limits(tmp_path: Path) -> None:
    (tmp_path / ".wkparse.toml").write_text("max-bytes = 100\n")
    path = tmp_path / "w.txt"
    path.write_bytes(SAMPLE.read_bytes())
    result = runner.invoke(app, ["parse", str(path)])
    assert result.exit_code == 1 and "WK118" in result.stdout


#: the exits whose reason is standard output itself, as the manual's Commands page lists them
STDOUT_IS_THE_REASON = {"lint --format text", "diff --format text", "aicb --infer"}


def _failing(tmp_path: Path) -> dict[str, list[str]]:
    """One failing run of every command (and of each output format where the reason could
    hide), by the manual's name for it."""
    wrong = wrong_count(tmp_path)
    broken = tmp_path / "broken.txt"
    broken.write_text("MICRO\n1\nfoo\n")
    crlf = tmp_path / "crlf.txt"
    crlf.write_bytes(SAMPLE.read_bytes().replace(b"\n", b"\r\n"))
    w, b = str(wrong), str(broken)
    runs = {
        "parse": ["parse", b],
        "parse --format json": ["parse", "-f", "json", b],
        "lint --format text": ["lint", w],
        "explain": ["explain", str(tmp_path / "absent.txt")],
        "simai": ["simai", w],
        "simai --format csv": ["simai", w, "-f", "csv"],
        "fmt": ["fmt", "--check", str(crlf)],
        "diff --format text": ["diff", w, str(SAMPLE)],
        "diff --format json": ["diff", "-f", "json", w, str(SAMPLE)],
        "aicb --infer": ["aicb", "--infer", w],
        "aicb": ["aicb", "--", "sh", "scripts/megatron_workload_with_aiob.sh", "--aiob_enable"],
        "rule": ["rule", "WK999"],
        "rules": ["rules", "--lang", "xx"],
        "triage": ["triage", str(tmp_path / "absent.md")],
    }
    for fmt in ("json", "sarif", "github"):
        runs[f"lint --format {fmt}"] = ["lint", "-f", fmt, w]
    return runs


def test_a_non_zero_exit_says_why_on_standard_error(tmp_path: Path) -> None:
    """Issue 41: the manual (docs/commands.md) promises it for every command; where standard
    output is the reason, it names the command."""
    manual = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    for name in STDOUT_IS_THE_REASON:
        assert f"`{name}`" in manual, name
    for name, args in _failing(tmp_path).items():
        result = runner.invoke(app, args)
        assert result.exit_code != 0, name
        said = result.stdout if name in STDOUT_IS_THE_REASON else result.stderr
        assert said.strip(), name
