"""wkparse.fix: edits applied bottom-up, overlaps left for the next round, unsafe fixes only on
request, and `fix_file` on a real file with a wrong count line."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path

import pytest

from tests.conftest import CORPUS
from wkparse import fix
from wkparse.ast import Span
from wkparse.config import Config
from wkparse.diagnostics import Diagnostic, Edit, Fix
from wkparse.engine import lint
from wkparse.parse import parse_file

L65B = CORPUS / "aicb-examples/model_workload/L65B-M1-C05_Llama65B_megatron_tp8_pp1_mbs1_A100.txt"


def edit(line: int, column: int, end: int, text: str) -> Edit:
    return Edit(Span.on_line(line, column, end), text)


def fixing(*edits: Edit, safe: bool = True) -> Fix:
    return Fix("test fix", edits, safe=safe)


def diagnostic(f: Fix | None, line: int = 1) -> Diagnostic:
    return Diagnostic("WK999", "test", Span.on_line(line, 1, 2), fix=f)


# ---- applying edits ------------------------------------------------------------------------


def test_edits_on_one_line_apply_bottom_up_against_the_original_columns() -> None:
    text, applied = fix.apply_fixes(
        "aa bb cc\n", [fixing(edit(1, 1, 3, "A")), fixing(edit(1, 7, 9, "CCCC"))]
    )
    assert (text, applied) == ("A bb CCCC\n", 2)


def test_an_insertion_and_a_fix_of_several_lines() -> None:
    both = fixing(edit(1, 3, 3, " x:"), edit(2, 1, 4, "33"))
    assert fix.apply_fixes("ab\n839\nrow\n", [both]) == ("ab x:\n33\nrow\n", 1)


def test_overlapping_fixes_apply_the_first_only() -> None:
    first, second = fixing(edit(2, 1, 4, "33")), fixing(edit(2, 2, 3, "9"))
    assert fix.apply_fixes("a\n839\n", [first, second]) == ("a\n33\n", 1)


def test_two_insertions_at_one_point_overlap() -> None:
    a, b = fixing(edit(1, 2, 2, " x")), fixing(edit(1, 2, 2, " y"))
    assert fix.apply_fixes("a\n", [a, b]) == ("a x\n", 1)


def test_a_fix_whose_own_edits_overlap_is_skipped() -> None:
    assert fix.apply_fixes("abc\n", [fixing(edit(1, 1, 3, "x"), edit(1, 2, 4, "y"))]) == (
        "abc\n",
        0,
    )


@pytest.mark.parametrize(
    "bad",
    [
        Edit(Span(1, 1, 2, 1), "x"),  # spans two lines
        edit(5, 1, 1, "x"),  # no such line
        edit(1, 2, 9, "x"),  # past the line's end
        edit(1, 0, 1, "x"),  # column 0 without a byte order mark
        edit(1, 3, 2, "x"),  # ends before it starts
    ],
)
def test_a_fix_with_an_edit_off_its_line_is_skipped_whole(bad: Edit) -> None:
    good = edit(2, 1, 2, "9")
    assert fix.apply_fixes("ab\n1\n", [fixing(good, bad)]) == ("ab\n1\n", 0)


def test_line_ends_and_the_rest_of_the_file_are_kept_byte_for_byte() -> None:
    text = "MICRO\t \r\n839\r\nrow  a\r\n"
    assert fix.apply_fixes(text, [fixing(edit(2, 1, 4, "2"))]) == (
        "MICRO\t \r\n2\r\nrow  a\r\n",
        1,
    )


def test_a_span_never_covers_the_carriage_return() -> None:
    assert fix.apply_fixes("839\r\n", [fixing(edit(1, 1, 5, "2"))]) == ("839\r\n", 0)


def test_columns_on_line_1_start_after_a_byte_order_mark_and_column_0_is_the_mark() -> None:
    text = "\ufeffMICRO x\n1\n"
    assert fix.apply_fixes(text, [fixing(edit(1, 7, 8, "y"))]) == ("\ufeffMICRO y\n1\n", 1)
    assert fix.apply_fixes(text, [fixing(edit(1, 0, 1, ""))]) == ("MICRO x\n1\n", 1)


def test_a_line_with_undecodable_bytes_is_not_edited_after_them() -> None:
    text = b"MICRO\n1\nna\xffme x\n".decode("utf-8", "surrogateescape")
    after = fixing(edit(3, 6, 7, "y"))
    before = fixing(edit(3, 1, 2, "N"))
    result, applied = fix.apply_fixes(text, [before, after])
    assert applied == 1
    assert result.encode("utf-8", "surrogateescape") == b"MICRO\n1\nNa\xffme x\n"


# ---- which fixes -------------------------------------------------------------------------


def test_unsafe_fixes_only_on_request_and_each_fix_once() -> None:
    safe, unsafe = fixing(edit(2, 1, 2, "1")), fixing(edit(1, 1, 2, "x"), safe=False)
    found = [diagnostic(safe), diagnostic(safe, 3), diagnostic(unsafe), diagnostic(None)]
    assert fix.fixable(found, unsafe=False) == [safe]
    assert fix.fixable(found, unsafe=True) == [unsafe, safe]
    assert fix.fixable([diagnostic(Fix("no edits", ()))], unsafe=True) == []


# ---- rounds --------------------------------------------------------------------------------


def test_a_fix_left_out_for_an_overlap_is_applied_in_the_next_round() -> None:
    def relint(text: str) -> list[Diagnostic]:
        missing = [key for key in ("x:", "y:") if key not in text]
        end = len(text.split("\n")[0]) + 1
        return [diagnostic(fixing(edit(1, end, end, f" {key} 1"))) for key in missing]

    fixed = fix.fix_text("MICRO\n0\n", relint("MICRO\n0\n"), unsafe=False, relint=relint)
    assert fixed.text == "MICRO x: 1 y: 1\n0\n"
    assert (fixed.applied, fixed.diagnostics) == (2, [])


def test_fixes_that_never_converge_stop_after_max_rounds() -> None:
    def relint(text: str) -> list[Diagnostic]:
        return [diagnostic(fixing(edit(1, 1, 1, "x")))]

    fixed = fix.fix_text("a\n", relint("a\n"), unsafe=False, relint=relint)
    assert fixed.applied == fix.MAX_ROUNDS
    assert fixed.text == "x" * fix.MAX_ROUNDS + "a\n"


def test_a_fix_that_changes_nothing_ends_the_rounds() -> None:
    same = [diagnostic(fixing(edit(1, 1, 2, "a")))]

    def relint(text: str) -> list[Diagnostic]:
        raise AssertionError("no re-lint: nothing changed")

    fixed = fix.fix_text("a\n", same, unsafe=False, relint=relint)
    assert (fixed.text, fixed.applied, fixed.diagnostics) == ("a\n", 0, same)


# ---- fix_file ------------------------------------------------------------------------------


@pytest.fixture
def l65b(tmp_path: Path) -> Path:
    if not L65B.is_file():
        pytest.skip("../shared/corpus is absent")
    path = tmp_path / L65B.name
    shutil.copyfile(L65B, path)
    path.chmod(0o640)
    return path


def test_fix_file_sets_the_count_only_when_unsafe_and_keeps_every_row(l65b: Path) -> None:
    before = parse_file(l65b)
    assert before.workload.count is not None and before.workload.count.value == 839
    # the count decides what SimAI simulates (806 phantom layers here): not a safe fix
    assert any(d.code == "WK105" and d.fix and not d.fix.safe for d in lint(before, str(l65b)))
    config = Config(select=("WK105",))  # the file's other unsafe fixes are other tests'
    found = lint(before, str(l65b), config)
    fix.fix_file(l65b, found, unsafe=False, config=config)
    assert parse_file(l65b).workload.count == before.workload.count
    outcome = fix.fix_file(l65b, found, unsafe=True, config=config)
    after = parse_file(l65b)
    assert after.ok and after.workload.count is not None
    assert after.workload.count.value == 33 == len(after.workload.rows)
    assert [f.values() for f in after.workload.rows.fields] == [
        f.values() for f in before.workload.rows.fields
    ]
    # Only line 2 changed: the mixed tabs and spaces are the formatter's business.
    assert l65b.read_bytes() == L65B.read_bytes().replace(b"\n839\n", b"\n33\n", 1)
    assert stat.S_IMODE(l65b.stat().st_mode) == 0o640
    assert outcome.applied >= 1
    assert "WK105" not in {d.code for d in outcome.diagnostics}
    assert outcome.diagnostics == lint(after, str(l65b), config)


def test_fix_file_relints_with_the_callers_config(l65b: Path) -> None:
    config = Config(select=("WK105", "WK2"))
    found = lint(parse_file(l65b), str(l65b), config)
    outcome = fix.fix_file(l65b, found, unsafe=True, config=config)
    assert outcome.diagnostics == lint(parse_file(l65b), str(l65b), config)
    assert all(d.code.startswith("WK2") for d in outcome.diagnostics)


def test_fix_file_never_applies_an_unsafe_fix_unless_asked(tmp_path: Path) -> None:
    path = tmp_path / "w.txt"
    path.write_bytes(b"MICRO\n7\n")
    unsafe = [diagnostic(fixing(edit(2, 1, 2, "0"), safe=False), 2)]
    assert fix.fix_file(path, unsafe, unsafe=False).applied == 0
    assert path.read_bytes() == b"MICRO\n7\n"
    assert fix.fix_file(path, unsafe, unsafe=True).applied == 1
    assert path.read_bytes() == b"MICRO\n0\n"


def test_fix_file_without_fixes_does_not_write(tmp_path: Path) -> None:
    path = tmp_path / "w.txt"
    path.write_bytes(b"MICRO\n0\n")
    inode = path.stat().st_ino
    found = [diagnostic(None)]
    outcome = fix.fix_file(path, found)
    assert (outcome.applied, outcome.diagnostics) == (0, found)
    assert path.stat().st_ino == inode
