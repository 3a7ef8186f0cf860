"""Structure rules (WK100-WK118) on real files: each corpus file edited the way users break
them, and the code, line and column the linter reports for it.

The corpus files are read, edited in memory and linted; nothing is copied into the project.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import CORPUS, SAMPLES, absent
from wkparse.checks.structure import POLICIES, suggest_policy
from wkparse.config import Config
from wkparse.diagnostics import Diagnostic
from wkparse.engine import lint
from wkparse.fix import apply_fixes
from wkparse.parse import Limits, parse_bytes, parse_file

#: the structure and header rules only, so other areas' rules cannot blur the assertions
MINE = Config(select=("WK1", "WK2"))
SMALL = CORPUS / (
    "aicb-generated/aicb-2025-12/aiob-None-gpt_7B-world_size512-tp4-pp8-ep1-gbs64-mbs1-seq2048"
    "-MOE-False-GEMM-False-flash_attn-True.txt"
)
L65B = CORPUS / "aicb-examples/model_workload/L65B-M1-C05_Llama65B_megatron_tp8_pp1_mbs1_A100.txt"
MICRO = CORPUS / "aicb-examples/micro_test/all_reduce.txt"


def _need(path: Path) -> bytes:
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    return path.read_bytes()


def _lint(data: bytes, limits: Limits | None = None) -> list[Diagnostic]:
    return lint(parse_bytes(data, limits=limits), "edited.txt", MINE)


def _where(found: list[Diagnostic]) -> set[tuple[str, int, int]]:
    return {(d.code, d.span.line, d.span.column) for d in found}


def test_real_file_is_clean_before_the_edits() -> None:
    assert _lint(_need(SMALL)) == []


# Row 3 of SMALL is `grad_gather -1 1 NONE 0 1 NONE 0 1 ALLGATHER 744488960 100`.
ROW_EDITS = [
    pytest.param(b"\t100\n", b"\n", "WK110", 12, id="WK110-missing-update-time"),
    pytest.param(b"\t100\n", b"\t100\t7\n", "WK111", 13, id="WK111-extra-field"),
    pytest.param(b"\t1\tNONE", b"\tabc\tNONE", "WK112", 3, id="WK112-word-for-number"),
    pytest.param(b"\t1\tNONE", b"\t1.5\tNONE", "WK113", 3, id="WK113-fractional"),
    pytest.param(b"\tNONE\t0\t1\tNONE", b"\tNONE\t-4\t1\tNONE", "WK114", 5, id="WK114-negative"),
    pytest.param(b"\t1\tNONE\t0", b"\t1\t0\t0", "WK115", 4, id="WK115-number-for-type"),
]


@pytest.mark.parametrize(("old", "new", "code", "field"), ROW_EDITS)
def test_row_syntax_errors_on_an_edited_real_row(
    old: bytes, new: bytes, code: str, field: int
) -> None:
    data = _need(SMALL)
    row3 = data.split(b"\n")[2] + b"\n"
    edited_row = row3.replace(old, new, 1)
    assert edited_row != row3
    edited = data.replace(row3, edited_row, 1)
    found = _lint(edited)
    tokens = edited_row.rstrip(b"\n").split(b"\t")
    # WK110 points at the end of the short row; the others at the offending token
    column = len(edited_row.rstrip(b"\n")) + 1 if code == "WK110" else None
    if column is None:
        column = len(b"\t".join(tokens[: field - 1])) + 2
    assert (code, 3, column) in _where(found)
    assert {d.code for d in found if d.span.line == 3} == {code}


def test_count_line_problems_on_a_real_file() -> None:
    data = _need(SMALL)
    rows = data.count(b"\n") - 2
    count = f"{rows}\n".encode()
    assert _where(_lint(data.replace(count, b"abc\n", 1))) == {("WK103", 2, 1)}
    junk = _lint(data.replace(count, f"{rows}.0\n".encode(), 1))
    assert _where(junk) == {("WK104", 2, 1)}
    # SimAI's stoi reads the leading integer, so a wrong one is still a count mismatch
    wrong = _lint(data.replace(count, f"{rows + 1}abc\n".encode(), 1))
    assert _where(wrong) == {("WK104", 2, 1), ("WK105", 2, 1)}
    only_header = data.split(b"\n")[0] + b"\n"
    assert {d.code for d in _lint(only_header)} == {"WK102"}
    assert _where(_lint(b"\n" + data.split(b"\n", 1)[1])) == {("WK101", 1, 1)}
    assert _where(_lint(b"")) == {("WK100", 1, 1)}


def test_count_mismatch_on_the_839_over_33_file() -> None:
    data = _need(L65B)
    found = _lint(data)
    [mismatch] = [d for d in found if d.code == "WK105"]
    assert (mismatch.span.line, mismatch.span.column) == (2, 1)
    assert "839" in mismatch.message and "33" in mismatch.message
    assert mismatch.fix is not None
    fixed, applied = apply_fixes(data.decode(), [mismatch.fix])
    assert applied == 1 and fixed.split("\n")[1] == "33"


def test_bytes_that_are_not_utf8_in_a_real_row_name() -> None:
    data = _need(SMALL)
    edited = data.replace(b"grad_gather", b"grad_\xffgather", 1)
    assert _where(_lint(edited)) == {("WK117", 3, 6)}


def test_size_limits_on_a_real_file() -> None:
    data = _need(SMALL)
    assert _where(_lint(data, Limits(max_bytes=len(data) - 1))) == {("WK118", 1, 1)}
    assert _lint(data, Limits(max_bytes=len(data))) == []
    longest = max(len(line) for line in data.split(b"\n")[2:])
    found = _lint(data, Limits(max_line_bytes=longest))
    assert found and {d.code for d in found} == {"WK116"}
    assert all(d.span.column == 1 for d in found)


def test_unknown_policy_on_a_real_file_suggests_the_policy() -> None:
    data = _need(SMALL)
    edited = data.replace(b"HYBRID_TRANSFORMER_FWD_IN_BCKWD", b"hybrid_transformer_fwd_in_bckwd")
    [found] = _lint(edited)
    assert (found.code, found.span.line, found.span.column) == ("WK106", 1, 1)
    assert "`HYBRID_TRANSFORMER_FWD_IN_BCKWD`" in found.message
    assert found.fix is not None and not found.fix.safe
    fixed, _ = apply_fixes(edited.decode(), [found.fix])
    assert fixed.encode() == data


def test_unknown_policy_silences_the_header_rules() -> None:
    """SimAI exits on the policy before it reads any key or line 2, so neither the keys nor
    the count (839 over 33 rows: WK105 on the real policy) are reported."""
    data = _need(L65B)
    edited = data.replace(b"HYBRID_TRANSFORMER_FWD_IN_BCKWD", b"TRANSFORMER", 1)
    assert {d.code for d in _lint(edited)} == {"WK106"}
    assert "WK105" in {d.code for d in _lint(data)}


def test_suggest_policy() -> None:
    assert suggest_policy("micro") == "MICRO"
    assert suggest_policy("HYBRID_TRANSFORMER_FWD_IN_BACKWD") == "HYBRID_TRANSFORMER_FWD_IN_BCKWD"
    assert suggest_policy("hybrid-dlrm") == "HYBRID_DLRM"
    assert suggest_policy("RESNET") is None


@pytest.mark.parametrize("name", ["all_reduce.txt", "muti_all_reduce.txt"])
def test_bom_before_a_real_policy_and_its_fix(name: str) -> None:
    data = _need(MICRO.parent / name)
    edited = b"\xef\xbb\xbf" + data
    bom = [d for d in _lint(edited) if d.code == "WK107"]
    assert [(d.span.line, d.span.column) for d in bom] == [(1, 1)]
    assert bom[0].fix is not None and bom[0].fix.safe
    fixed, applied = apply_fixes(edited.decode(), [bom[0].fix])
    assert applied == 1 and fixed.encode() == data


def test_every_known_policy_passes_the_policy_rule() -> None:
    for policy in POLICIES:
        text = f"{policy}\n0\n".encode()
        assert "WK106" not in {d.code for d in _lint(text)}, policy


def test_real_files_of_every_policy_have_no_structure_problem() -> None:
    """The corpus's well-formed files (one of each policy ASTRA-sim 1.0 knows, and AICB's
    micro-benchmarks) give no structure diagnostic: CRLF, trailing tabs, space-and-tab mixes
    and the 13th field of HYBRID_CUSTOMIZED are all fine for SimAI."""
    folders = [CORPUS / "astra-sim-1.0", CORPUS / "aicb-examples" / "micro_test"]
    files = [p for folder in folders if folder.is_dir() for p in sorted(folder.glob("*.txt"))]
    if not files:
        pytest.skip(absent(CORPUS))
    for path in files:
        found = [d for d in lint(parse_file(path), str(path), MINE) if d.code < "WK200"]
        assert found == [], path.name


@pytest.mark.parametrize(("separator", "word"), [(",", "commas"), (";", "semicolons")])
def test_a_wrong_separator_is_one_finding_that_names_it(separator: str, word: str) -> None:
    """Issue 32: a comma-separated file got 1,230 WK110 errors, none saying commas were why."""
    text = (SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt").read_text()
    head, count, body = text.split("\n", 2)
    data = f"{head}\n{count}\n{body.replace(chr(9), separator)}".encode()
    found = [d for d in lint(parse_bytes(data)) if d.code == "WK110"]
    assert len(found) == 1, len(found)
    assert word in found[0].message and "1,230 rows" in found[0].message
    assert found[0].span.line == 3
    # one short row among tab-separated ones keeps its own finding
    short = f"{head}\n{count}\n{body.replace(chr(9), separator, 11)}".encode()
    alone = [d for d in lint(parse_bytes(short)) if d.code == "WK110"]
    assert len(alone) == 1 and word not in alone[0].message
