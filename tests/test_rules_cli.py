"""`wkparse rules` and `wkparse rule CODE`: the catalog as a table and as pages."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from wkparse.catalog import RulePage, catalog
from wkparse.cli import app
from wkparse.commands.rules import example_listing, page_markdown, suggestions

runner = CliRunner(env={"COLUMNS": "200"})
PAGES = catalog()


def test_rules_lists_every_page() -> None:
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0
    for header in ("code", "name", "severity", "fixable", "summary"):
        assert header in result.stdout
    for code, rule in PAGES.items():
        line = next(line for line in result.stdout.splitlines() if code in line)
        assert rule.name in line and str(rule.severity) in line and rule.fixable in line


def test_rule_page_has_every_section() -> None:
    result = runner.invoke(app, ["rule", "WK105"])
    assert result.exit_code == 0
    out = result.stdout
    for heading in ("What it does", "Why it matters", "Fails", "Passes", "Fix", "References"):
        assert heading in out
    assert "WK105 count-mismatch" in out and "aliyun/aicb#43" in out
    assert "micro_test" in out  # the examples themselves


@pytest.mark.parametrize("spelling", ["wk105", " WK105 ", "count-mismatch"])
def test_rule_by_other_spellings(spelling: str) -> None:
    result = runner.invoke(app, ["rule", spelling])
    assert result.exit_code == 0 and "count-mismatch" in result.stdout


def test_unknown_rule_exits_2_with_a_suggestion() -> None:
    result = runner.invoke(app, ["rule", "WK1O5"])
    assert result.exit_code == 2
    assert "unknown rule 'WK1O5'" in result.stderr and "WK105" in result.stderr
    assert "WK105" in suggestions("count-mismatc")
    result = runner.invoke(app, ["rule", "zzzz"])
    assert result.exit_code == 2 and "wkparse rules" in result.stderr


@pytest.mark.parametrize("rule", list(PAGES.values()), ids=list(PAGES))
def test_every_page_renders_with_its_examples(rule: RulePage) -> None:
    text = page_markdown(rule)
    assert text.startswith(f"# {rule.code} {rule.name}")
    for example in (*rule.fail, *rule.passing):
        assert example_listing(example.text) in text
    result = runner.invoke(app, ["rule", rule.code])
    assert result.exit_code == 0 and rule.name in result.stdout


def test_carriage_returns_in_examples_are_visible() -> None:
    out = runner.invoke(app, ["rule", "WK120"]).stdout
    fails, passes = out.split("Passes")
    assert re.search("MICRO\u240d *\n", fails) and re.search("1\u240d *\n", fails)
    assert "\u240a" not in fails and "\r" not in out
    assert re.search("MICRO\u240d\u240a *\n", passes) and re.search("1\u240d\u240a *\n", passes)


def test_a_narrow_terminal_puts_each_summary_under_its_name() -> None:
    """At 80 columns a summary column of its own would hold a word or two per line."""
    out = CliRunner(env={"COLUMNS": "80"}).invoke(app, ["rules"]).stdout
    assert max(map(len, out.splitlines())) <= 80
    lines = out.splitlines()
    for code, rule in PAGES.items():
        at = next(i for i, line in enumerate(lines) if code in line)
        assert rule.name in lines[at] and str(rule.severity) in lines[at]
        assert lines[at + 1].strip().startswith(" ".join(rule.summary.split()[:3]))


def test_the_rules_table_in_chinese_translates_severity_and_fix() -> None:
    """Issue 41: `rules --lang zh` kept `error`, `no` and `warning (opt-in)` in English."""
    result = runner.invoke(app, ["rules", "--lang", "zh"], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    rows = [line.split() for line in result.stdout.splitlines() if line.strip().startswith("WK")]
    assert rows and all(not re.search(r"[A-Za-z]", " ".join(r[1:3])) for r in rows), rows[:3]
    assert any("需启用" in " ".join(r) for r in rows)
