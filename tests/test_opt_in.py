"""Opt-in rules (off by default, as ruff's non-default rules): what they find is true of
correct generator output too, so lint is silent about it unless asked; explain states it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import SAMPLES
from wkparse.catalog import catalog, opt_in_codes
from wkparse.cli import app
from wkparse.config import Config

runner = CliRunner()
OPT_IN = sorted(opt_in_codes())


def example_file(code: str, folder: Path) -> Path:
    example = catalog()[code].fail[0]
    path = folder / example.filename
    path.write_bytes(example.data)
    return path


def target_of(code: str) -> list[str]:
    """`--target` for a rule that speaks only for another target than the default."""
    targets = catalog()[code].targets
    return [] if "simai" in targets else ["--target", targets[0]]


def lint_codes(*args: str) -> list[str]:
    result = runner.invoke(app, ["lint", "--format", "json", *args])
    return [d["code"] for d in json.loads(result.stdout)]


def test_the_facts_of_correct_files_are_opt_in() -> None:
    assert {"WK215", "WK216", "WK405", "WK406"} <= set(OPT_IN)


@pytest.mark.parametrize("code", OPT_IN)
def test_off_by_default_and_on_when_selected(code: str, tmp_path: Path) -> None:
    path = str(example_file(code, tmp_path))
    target = target_of(code)
    assert code not in lint_codes(*target, path)
    assert code in lint_codes(*target, "--select", code, path)
    assert code in lint_codes(*target, "--select", code[:3], path)  # a prefix longer than WK
    assert code in lint_codes(*target, "--select", "WK", path)  # a prefix named: every rule
    assert code in lint_codes(*target, "--extend-select", "WK", path)
    assert code in lint_codes(*target, "--extend-select", "ALL", path)
    assert code in lint_codes(*target, "--select", "all", path)
    (tmp_path / ".wkparse.toml").write_text(f'extend-select = ["{code}"]\n')
    assert code in lint_codes(*target, path)


@pytest.mark.parametrize("code", OPT_IN)
def test_explain_still_states_it(code: str, tmp_path: Path) -> None:
    path = str(example_file(code, tmp_path))
    facts = json.loads(runner.invoke(app, ["explain", *target_of(code), "-f", "json", path]).stdout)
    assert code in json.dumps(facts)


def test_opt_in_codes_stay_selectable_as_config_settings() -> None:
    assert not Config().enabled("WK405")
    assert Config(opt_in=True).enabled("WK405")
    assert Config(extend_select=("WK405",)).enabled("WK405")
    assert not Config(select=("WK405",), ignore=("WK405",)).enabled("WK405")


def test_rule_pages_say_how_to_turn_it_on() -> None:
    out = runner.invoke(app, ["rule", OPT_IN[0]]).stdout
    assert "Off by default" in out and f"--select {OPT_IN[0]}" in out


@pytest.mark.parametrize("sample", sorted(SAMPLES.glob("*.txt")), ids=lambda p: p.name)
def test_explain_marks_the_opt_in_findings_it_shows(sample: Path) -> None:
    """Issue 32: the samples lint clean, but explain showed "! WK901 warning" and "! WK405
    info" beside them without saying these rules are off by default."""
    assert runner.invoke(app, ["lint", str(sample)]).exit_code == 0
    text = runner.invoke(app, ["explain", str(sample)], env={"COLUMNS": "400"}).stdout
    shown = [line for line in text.splitlines() if line.lstrip().startswith("! WK")]
    for line in shown:
        code = line.split()[1]
        assert ("opt-in" in line) == (code in OPT_IN), line
    found = json.loads(runner.invoke(app, ["explain", "-f", "json", str(sample)]).stdout)
    marks = {f["code"]: f["opt_in"] for f in found["findings"]}
    assert marks and all(marks[code] == (code in OPT_IN) for code in marks)
