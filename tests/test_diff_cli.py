"""`wkparse diff A B` end to end: exit codes, standard input, the three formats, bad sides."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import SAMPLES
from tests.test_diff import SEED, _drop_group, _seed_text
from wkparse.cli import app
from wkparse.render.diff import text as diff_text

runner = CliRunner()
#: a file of the checkout, for the tests of the other side (they run without ../shared)
SAMPLE = SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"


def wkdiff(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["diff", *args], input=stdin)
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def dropped(tmp_path: Path) -> Path:
    path = tmp_path / "dropped.txt"
    path.write_text(_drop_group(_seed_text(), 64))
    return path


def test_equal_files_exit_0_and_say_so(tmp_path: Path) -> None:
    copy = tmp_path / "crlf.txt"
    copy.write_bytes(_seed_text().replace("\n", "\r\n").encode())
    code, out, _ = wkdiff(str(SEED), str(copy))
    assert code == 0
    assert "equal: the same header as SimAI reads it" in out


def test_a_dropped_group_in_text(dropped: Path) -> None:
    code, out, _ = wkdiff(str(SEED), str(dropped))
    assert code == 1
    assert "  ga: [-64-]{+63+}\n" in out
    assert "rows: 1,230 -> 1,211; 0 changed, 0 added, 19 removed" in out
    assert "  [-group 64 removed-] (19 rows, from line 1207)\n" in out


def test_json_follows_the_contract(dropped: Path) -> None:
    code, out, _ = wkdiff(str(SEED), str(dropped), "--format", "json")
    assert code == 1
    doc = json.loads(out)
    assert doc["equal"] is False
    assert doc["header"] == [{"key": "ga", "a": "64", "b": "63", "note": None}]
    assert {
        "name": "ga",
        "label": doc["facts"][0]["label"],
        "a": 64,
        "b": 63,
        "unit": "count",
    }.items() <= doc["facts"][0].items()
    rows = doc["rows"]
    assert {k: rows[k] for k in ("a", "b", "changed", "added", "removed")} == {
        "a": 1230,
        "b": 1211,
        "changed": 0,
        "added": 0,
        "removed": 19,
    }
    assert rows["changes"] == [
        {
            "kind": "group_removed",
            "summary": "group 64 removed (19 rows, from line 1207)",
            "where": "group 64",
            "rows": 19,
            "line_a": 1207,
            "line_b": None,
        }
    ]


def test_markdown_has_a_table_per_layer(dropped: Path) -> None:
    code, out, _ = wkdiff(str(SEED), str(dropped), "--format", "markdown")
    assert code == 1
    assert "| `ga` | `64` | `63` |  |" in out
    assert "| ga (micro-batches per iteration) | 64 | 63 | -1.6% |" in out
    assert "- group 64 removed (19 rows, from line 1207)" in out


def test_markdown_quotes_no_html_from_the_files(tmp_path: Path) -> None:
    """A layer name such as `<!--` must not hide the rest of the issue it is pasted into."""
    lines = SAMPLE.read_text().split("\n")
    lines[4] = "<!--" + lines[4][lines[4].index("\t") :]
    hostile = tmp_path / "hostile.txt"
    hostile.write_text("\n".join(lines))
    code, out, _ = wkdiff(str(SAMPLE), str(hostile), "--format", "markdown")
    assert code == 1 and "<!--" not in out and "&lt;!--" in out


def test_either_side_may_be_stdin(dropped: Path) -> None:
    text = _seed_text()
    assert wkdiff("-", str(SEED), stdin=text)[0] == 0
    code, out, _ = wkdiff(str(dropped), "-", "-f", "json", stdin=text)
    assert code == 1
    doc = json.loads(out)
    assert doc["b"] == "-"
    assert doc["rows"]["changes"][0]["summary"] == "group 64 added (19 rows, from line 1207 of b)"


def test_both_sides_stdin_is_a_usage_error() -> None:
    code, _, err = wkdiff("-", "-", stdin="")
    assert code == 2 and "only one side" in err


def test_an_unreadable_side_exits_2(tmp_path: Path) -> None:
    code, _, err = wkdiff(str(SAMPLE), str(tmp_path / "missing.txt"))
    assert code == 2 and "missing.txt: no such file or directory" in err
    code, _, err = wkdiff(str(tmp_path), str(SAMPLE))
    assert code == 2 and "is a directory" in err


def test_a_side_with_syntax_errors_is_reported_as_lint_reports_it(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4\n1\nattention_layer\t-1\tabc\n"
    )
    code, out, err = wkdiff(str(SAMPLE), str(bad))
    lint = runner.invoke(app, ["lint", "--select", "WK110", str(bad)])
    assert code == 2 and out == ""
    first = lint.stdout.split("\n\n")[0]
    assert first.startswith(f"{bad}:3:") and first in err
    assert "1 syntax error;" in err


def test_text_is_bounded_for_many_kinds_of_change(tmp_path: Path) -> None:
    lines = _seed_text().splitlines(keepends=True)
    # every attention row gets its own compute time: hundreds of kinds of change
    n = 0
    for i, line in enumerate(lines):
        if line.startswith("attention_layer\t"):
            n += 1
            lines[i] = line.replace("\t1820000\t", f"\t{1820000 + n}\t", 1)
    edited = tmp_path / "many.txt"
    edited.write_text("".join(lines))
    code, out, _ = wkdiff(str(SEED), str(edited))
    assert code == 1
    assert out.count("fwd compute of attention_layer") == diff_text.SHOWN
    assert f"... and {n - diff_text.SHOWN:,} more (--format json lists them all)" in out
    code, out, _ = wkdiff(str(SEED), str(edited), "-f", "json")
    assert len(json.loads(out)["rows"]["changes"]) == n


def test_markdown_is_bounded_for_a_huge_header(tmp_path: Path) -> None:
    from wkparse.render.diff import markdown as diff_markdown

    policy = "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4 "
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(policy + " ".join(f"k{i}: {i}" for i in range(2000)) + "\n0\n")
    b.write_text(policy + " ".join(f"k{i}: {i + 1}" for i in range(2000)) + "\n0\n")
    code, out, _ = wkdiff(str(a), str(b), "-f", "markdown")
    assert code == 1
    assert out.count("| `k") == diff_markdown.SHOWN + diff_markdown.FOLDED
    left = 2000 - diff_markdown.SHOWN - diff_markdown.FOLDED
    assert f"... and {left:,} more (`--format json` lists them all)" in out


def test_colour_follows_the_color_option(dropped: Path) -> None:
    _, plain, _ = wkdiff(str(SEED), str(dropped))
    assert "\x1b[" not in plain  # not a terminal
    _, coloured, _ = wkdiff("--color", "always", str(SEED), str(dropped))
    # side a's value in red, side b's in green, the markers kept
    assert "\x1b[31m[-64-]" in coloured and "\x1b[32m{+63+}" in coloured


@pytest.mark.parametrize("format", ["text", "markdown"])
def test_values_equal_once_rounded_show_every_digit(format: str, tmp_path: Path) -> None:
    """Issue 32: "TP bytes per iteration: [-39.1 GiB-]{+39.1 GiB+}" said nothing."""
    lines = SAMPLE.read_text().split("\n")
    at = next(i for i, line in enumerate(lines) if "\tALLREDUCE\t" in line and i > 1)
    fields = lines[at].split("\t")
    fields[fields.index("ALLREDUCE") + 1] = str(int(fields[fields.index("ALLREDUCE") + 1]) + 2)
    lines[at] = "\t".join(fields)
    changed = tmp_path / "changed.txt"
    changed.write_text("\n".join(lines))
    code, out, _ = wkdiff(str(SAMPLE), str(changed), "--format", format)
    assert code == 1
    tp = next(line for line in out.splitlines() if "TP bytes per iteration" in line)
    assert " B" in tp and "GiB" not in tp, tp
    before, after = (int(n.replace(",", "")) for n in re.findall(r"[0-9][0-9,]{6,}", tp)[:2])
    assert 0 < after - before <= 2 * 64 * 4, tp  # ga 64 micro-batches per stage
    total = out[out.index("Total time") :]
    assert "the same" in total or re.search(r"\.[0-9]{6} µs", total), total


def test_diff_infers_no_aicb_command(dropped: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No fact diff compares is AICB's provenance: the inference explain runs for it (a
    search over AICB's revisions, a second or more on a large file) is left out."""
    from wkparse.models.aicb.reading import infer

    def searched(*args: object) -> None:
        raise AssertionError("diff inferred the AICB command")

    monkeypatch.setattr(infer, "infer", searched)
    code, out, _ = wkdiff("-f", "json", str(SAMPLE), str(dropped))
    assert code == 1 and json.loads(out)["facts"]


def test_notes_below_the_rows_do_not_stop_the_diff(tmp_path: Path) -> None:
    """Lines after the declared rows that are no rows are never read by SimAI: lint warns
    (WK105, exit 0) and explain and simai read the file, so diff compares it too."""
    notes = tmp_path / "notes.txt"
    notes.write_text(_seed_text() + "my notes: run with -g 128\nsecond line of notes\n")
    code, out, err = wkdiff(str(SEED), str(notes))
    assert (code, err) == (0, "")
    assert "equal: the same header as SimAI reads it" in out


def test_a_cut_off_row_stops_the_diff_with_its_line(tmp_path: Path) -> None:
    """A file cut inside its last row is still refused, and the reason names the line (the
    parser's error is lint's WK105 there)."""
    text = _seed_text()
    cut = tmp_path / "cut.txt"
    cut.write_text(text[: text.index("\n", 2000) - 12])
    line = cut.read_text().count("\n") + 1
    code, _, err = wkdiff(str(SEED), str(cut))
    assert code == 2
    assert f"{cut}:{line}:1: error[WK105]" in err
    assert f"{cut}: 1 syntax error;" in err


def test_the_note_on_stderr_counts_its_nouns(dropped: Path) -> None:
    code, _, err = wkdiff(str(SEED), str(dropped), "--format", "json")
    assert code == 1
    assert "differ: 1 header key, " in err
