"""The lint output formats: text, json, sarif (schema-validated) and github annotations."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tests.conftest import CORPUS, SAMPLES, SCHEMAS
from wkparse.ast import Span
from wkparse.catalog import catalog, page_uri
from wkparse.cli import app
from wkparse.diagnostics import Diagnostic, Edit, Fix, Severity
from wkparse.render.lint.base import FileReport, PathProblem, Summary
from wkparse.render.lint.github import annotation, escape_property
from wkparse.render.lint.json import JsonFormatter
from wkparse.render.lint.sarif import SarifFormatter, uri
from wkparse.render.lint.text import TextFormatter, clean, excerpt, summary_line

from .test_cli_lint import GOOD

runner = CliRunner()
#: the AICB example that declares 839 rows over 33 (aicb#43)
L65B = CORPUS / "aicb-examples/model_workload/L65B-M1-C05_Llama65B_megatron_tp8_pp1_mbs1_A100.txt"
SEED = SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"


def diag(
    code: str = "WK105",
    message: str = "line 2 declares 3 rows but the file has 2",
    span: Span = Span(2, 1, 2, 2),
    severity: Severity = Severity.ERROR,
    fix: Fix | None = None,
) -> Diagnostic:
    return Diagnostic(code, message, span, severity, "w.txt", fix)


COUNT_FIX = Fix("set the count to 2", (Edit(Span(2, 1, 2, 2), "2"),))


def lint_output(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["lint", *args])
    return result.exit_code, result.stdout


# ---- json -------------------------------------------------------------------------------


def test_json_fields() -> None:
    out = io.StringIO()
    formatter = JsonFormatter(out, {"WK105": "count-mismatch"})
    formatter.start()
    formatter.handle(FileReport("a.txt", [diag(fix=COUNT_FIX)]))
    formatter.handle(FileReport("b.txt", [diag("WK999", "x", Span(1, 3, 1, 3), Severity.INFO)]))
    formatter.stop(Summary())
    first, second = json.loads(out.getvalue())
    assert first == {
        "path": "a.txt",
        "line": 2,
        "column": 1,
        "end_line": 2,
        "end_column": 2,
        "code": "WK105",
        "name": "count-mismatch",
        "severity": "error",
        "message": "line 2 declares 3 rows but the file has 2",
        "fix": {
            "description": "set the count to 2",
            "safe": True,
            "edits": [{"line": 2, "column": 1, "end_line": 2, "end_column": 2, "text": "2"}],
        },
        "url": page_uri("WK105"),
    }
    assert second["path"] == "b.txt" and second["severity"] == "info" and second["fix"] is None


def test_json_of_a_clean_run_is_an_empty_array(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text(GOOD)
    code, out = lint_output("-f", "json", str(good))
    assert (code, json.loads(out)) == (0, [])


def test_json_on_the_real_839_over_33_file(corpus: Path) -> None:
    code, out = lint_output("--format", "json", str(L65B))
    found = json.loads(out)
    assert code == 1
    count = [d for d in found if d["code"] == "WK105"]
    assert len(count) == 1
    assert (count[0]["line"], count[0]["column"], count[0]["end_column"]) == (2, 1, 4)
    assert count[0]["path"] == str(L65B) and count[0]["name"] == "count-mismatch"
    assert "839" in count[0]["message"] and count[0]["fix"]["edits"][0]["text"] == "33"
    required = {"path", "line", "column", "end_line", "end_column", "code", "severity", "message"}
    assert all(required <= set(d) for d in found)


def test_json_over_the_whole_corpus_is_one_valid_array(corpus: Path) -> None:
    code, out = lint_output("-f", "json", str(corpus))
    found = json.loads(out)
    assert code in (0, 1)
    assert {d["path"] for d in found} <= {str(p) for p in corpus.rglob("*.txt")}
    assert str(L65B) in {d["path"] for d in found}


# ---- sarif ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sarif_schema() -> dict[str, Any]:
    path = SCHEMAS / "sarif-schema-2.1.0.json"
    if not path.is_file():
        pytest.skip("../shared/schemas/sarif-schema-2.1.0.json is absent")
    loaded: dict[str, Any] = json.loads(path.read_text())
    # This copy keeps the log's own constraints under definitions/Root and none at the top,
    # so validating against the file as it stands would accept any document at all.
    if "properties" not in loaded and "Root" in loaded.get("definitions", {}):
        loaded = {**loaded, "$ref": "#/definitions/Root"}
    return loaded


def validate(document: object, schema: dict[str, Any]) -> None:
    import jsonschema  # type: ignore[import-untyped]

    jsonschema.validate(document, schema, cls=jsonschema.Draft7Validator)


@pytest.mark.parametrize(
    "broken",
    [
        {"runs": []},
        {"version": "2.1.0", "runs": [{"results": []}]},
        {"version": "2.1.0", "runs": [], "extra": 1},
    ],
)
def test_the_schema_check_rejects_invalid_sarif(
    sarif_schema: dict[str, Any], broken: dict[str, Any]
) -> None:
    import jsonschema

    with pytest.raises(jsonschema.ValidationError):
        validate(broken, sarif_schema)


def test_sarif_fix_for_a_byte_order_mark_is_a_byte_region(
    sarif_schema: dict[str, Any], tmp_path: Path
) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + SEED.read_bytes())
    _, out = lint_output("-f", "sarif", "--select", "WK107", str(path))
    document = json.loads(out)
    validate(document, sarif_schema)
    (result,) = document["runs"][0]["results"]
    (replacement,) = result["fixes"][0]["artifactChanges"][0]["replacements"]
    assert replacement == {
        "deletedRegion": {"byteOffset": 0, "byteLength": 3},
        "insertedContent": {"text": ""},
    }


def test_sarif_of_real_files_is_valid(
    corpus: Path, sarif_schema: dict[str, Any], tmp_path: Path
) -> None:
    missing = tmp_path / "missing.txt"
    code, out = lint_output("-f", "sarif", str(corpus), str(SEED), str(missing))
    document = json.loads(out)
    validate(document, sarif_schema)
    assert code == 2
    (run,) = document["runs"]
    assert document["version"] == "2.1.0" and run["columnKind"] == "unicodeCodePoints"
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    count = next(
        r
        for r in run["results"]
        if r["ruleId"] == "WK105"
        and r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == uri(str(L65B))
    )
    assert count["level"] == "error"
    location = count["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == uri(str(L65B))
    assert location["region"] == {"startLine": 2, "startColumn": 1, "endLine": 2, "endColumn": 4}
    assert count["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"] == {
        "text": "33"
    }
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False
    assert str(missing) in invocation["toolExecutionNotifications"][0]["message"]["text"]


def test_sarif_driver_describes_every_catalog_rule(sarif_schema: dict[str, Any]) -> None:
    out = io.StringIO()
    formatter = SarifFormatter(out, catalog(), "0.1.0")
    formatter.start()
    formatter.handle(FileReport("dir with space/w.txt", [diag(), diag("WK000", "no page")]))
    formatter.stop(Summary(files=1))
    document = json.loads(out.getvalue())
    validate(document, sarif_schema)
    (run,) = document["runs"]
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert set(catalog()) | {"WK000"} == set(rules)
    levels = {"error": "error", "warning": "warning", "info": "note"}
    for code, rule_page in catalog().items():
        rule = rules[code]
        assert rule["name"] == rule_page.name
        assert rule["shortDescription"]["text"] == rule_page.summary
        assert rule["fullDescription"]["text"] == rule_page.what
        assert rule_page.fix in rule["help"]["text"]
        assert rule["defaultConfiguration"]["level"] == levels[str(rule_page.severity)]
    location = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location["uri"] == "dir%20with%20space/w.txt"
    assert run["invocations"][0]["executionSuccessful"] is True


def test_sarif_uris() -> None:
    assert uri("a/b.txt") == "a/b.txt"
    assert uri("/tmp/a b.txt") == "file:///tmp/a%20b.txt"
    assert uri("odd#name%.txt") == "odd%23name%25.txt"
    assert uri("not-utf8-\udcff.txt") == "not-utf8-%FF.txt"  # a name with byte 0xff


# ---- github -----------------------------------------------------------------------------


def test_github_annotation() -> None:
    line = annotation(diag(), "dir/w.txt")
    assert line == (
        "::error file=dir/w.txt,line=2,col=1,endLine=2,endColumn=2,title=WK105::"
        "line 2 declares 3 rows but the file has 2\n"
    )


def test_github_escapes_data_and_properties() -> None:
    line = annotation(diag(message="100% sure\r\nnext: a, b"), "a,b:c%.txt")
    assert "file=a%2Cb%3Ac%25.txt," in line
    assert line.endswith("::100%25 sure%0D%0Anext: a, b\n")
    assert escape_property("x\ny") == "x%0Ay"


def test_github_levels_and_multi_line_spans() -> None:
    assert annotation(diag(severity=Severity.WARNING), "w").startswith("::warning ")
    assert annotation(diag(severity=Severity.INFO), "w").startswith("::notice ")
    line = annotation(diag(span=Span(3, 5, 7, 2)), "w")
    assert "line=3,endLine=7,title=" in line and "col=" not in line


def test_github_format_on_a_real_file(corpus: Path) -> None:
    code, out = lint_output("--format", "github", str(L65B))
    assert code == 1
    lines = out.splitlines()
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines)
    assert f"::error file={L65B},line=2,col=1,endLine=2,endColumn=4,title=WK105::" in out


# ---- text -------------------------------------------------------------------------------


def render_text(report: FileReport, color: bool = False) -> str:
    out = io.StringIO()
    console = Console(file=out, force_terminal=color, color_system="standard" if color else None)
    formatter = TextFormatter(console, {"WK105": "count-mismatch"})
    formatter.handle(report)
    return out.getvalue()


def test_text_shows_the_line_the_underline_and_the_fix() -> None:
    text = render_text(FileReport("w.txt", [diag(fix=COUNT_FIX)], {2: "3"}))
    assert text.splitlines() == [
        "w.txt:2:1: error[WK105]: line 2 declares 3 rows but the file has 2",
        "   |",
        " 2 | 3",
        "   | ^ count-mismatch",
        "   = fix: set the count to 2",
        "",
    ]


def test_text_marks_unsafe_fixes_and_works_without_the_source() -> None:
    unsafe = Fix("set ga: 64", (Edit(Span(1, 5, 1, 7), "64"),), safe=False)
    text = render_text(FileReport("w.txt", [diag(fix=unsafe)]))
    assert "= fix: set ga: 64 (unsafe: apply with --fix --unsafe-fixes)" in text
    assert " | " not in text


def test_text_colour_only_on_a_terminal() -> None:
    plain = render_text(FileReport("w.txt", [diag()], {2: "3"}))
    coloured = render_text(FileReport("w.txt", [diag()], {2: "3"}), color=True)
    assert "\x1b[" not in plain
    assert "\x1b[1;31merror\x1b[0m" in coloured


def test_text_neutralises_control_characters_from_the_file() -> None:
    hostile = diag(message="unknown key `\x1b[2Jx:`")
    text = render_text(FileReport("evil\x1b]0;t\x07.txt", [hostile], {2: "3\x1b[31m\x00"}))
    assert "\x1b" not in text and "\x00" not in text and "\x07" not in text
    assert "\\x1b[2Jx:" in text
    assert clean("a\tb\nc") == "a\tb\\x0ac"


def test_excerpt_expands_tabs_and_keeps_the_underline_aligned() -> None:
    shown, offset, width = excerpt("ab\tcd\tef", 4, 6)
    assert shown == "ab  cd  ef"
    assert shown[offset : offset + width] == "cd"


def test_excerpt_of_a_huge_line_is_a_window_around_the_span() -> None:
    line = "x" * 500_000 + "BAD" + "y" * 500_000
    shown, offset, width = excerpt(line, 500_001, 500_004)
    assert len(shown) <= 130
    assert shown.startswith("...") and shown.endswith("...")
    assert shown[offset : offset + width] == "BAD"


def test_excerpt_of_an_empty_span_or_past_the_end_gets_one_caret() -> None:
    assert excerpt("abc", 2, 2)[1:] == (1, 1)
    assert excerpt("abc", 4, 4)[1:] == (3, 1)


def test_summary_lines() -> None:
    counts = {Severity.ERROR: 2, Severity.WARNING: 1, Severity.INFO: 3}
    assert summary_line(Summary(files=5, counts=counts)) == (
        "Found 2 errors, 1 warning, 3 info in 5 files."
    )
    problems = [PathProblem("x", "gone")]
    assert summary_line(Summary(files=1, fixed=2, skipped=1, problems=problems)) == (
        "No findings in 1 file. Fixed 2 problems. Skipped 1 non-workload file. "
        "1 path could not be linted."
    )
    assert (
        summary_line(Summary(files=1, fixed=2)) == "All checks passed (1 file). Fixed 2 problems."
    )


def test_text_output_of_a_real_file(corpus: Path) -> None:
    code, out = lint_output(str(L65B))
    assert code == 1
    assert f"{L65B}:2:1: error[WK105]: line 2 declares 839 rows but the file has 33" in out
    assert " 2 | 839\n" in out and "   | ^^^ count-mismatch\n" in out
    assert "   = fix: set the count to 33 (unsafe: apply with --fix --unsafe-fixes)\n" in out
    assert out.rstrip().splitlines()[-1].startswith("Found ")


@pytest.mark.parametrize(
    "args",
    [
        ["lint", "-"],
        ["explain", "-"],
        ["simai", "-"],
        ["fmt", "--check", "-"],
        ["parse", "-"],
        ["diff", "-", str(SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt")],
    ],
    ids=lambda a: a[0],
)
def test_standard_input_is_named_alike_by_every_command(args: list[str]) -> None:
    """Issue 41: standard input was `<stdin>`, `-` or `-r --` by command."""
    sample = (SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt").read_text()
    header, _, rest = sample.split("\n", 2)
    wrong = f"{header}\n1\n{rest}" if args[0] != "fmt" else sample.replace("\t", "  ", 1)
    result = CliRunner().invoke(app, args, input=wrong)
    said = result.stdout + result.stderr
    assert "<stdin>" in said, said[:300]
    assert not re.search(r"(^|\s)-:|: - |-r --|-w - ", said), said[:300]
