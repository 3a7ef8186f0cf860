"""The parser on each dialect, each syntax-error kind (with exact positions), and any text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wkparse import parse_bytes, parse_text, syntax
from wkparse.ast import Phase
from wkparse.models.simai import header_value
from wkparse.parse import Limits

ROW = "attention_layer\t-1\t1820000\tALLREDUCE\t33554432\t1820000\tNONE\t0\t1820000\tNONE\t0\t100"
HEADER = (
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4 ep: 1 pp: 4 vpp: 9 ga: 64 "
    "all_gpus: 128 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 33554432"
)


def codes_at(text: str) -> list[tuple[str, int, int, int]]:
    return [
        (d.code, d.span.line, d.span.column, d.span.end_column)
        for d in parse_text(text).diagnostics
    ]


# ---- dialects ------------------------------------------------------------------------------


def test_current_aicb_header_fields_in_order_with_positions() -> None:
    w = parse_text(f"{HEADER}\n1\n{ROW}\n").workload
    assert w.header is not None
    assert w.header.policy == "HYBRID_TRANSFORMER_FWD_IN_BCKWD"
    assert [f.key for f in w.header.fields][:3] == ["model_parallel_NPU_group", "ep", "pp"]
    assert header_value(w.header, "ga") == 64 and header_value(w.header, "pp_comm") == 33554432
    ga = w.header.read("ga")
    assert ga is not None and ga.value is not None
    column = HEADER.index("ga:") + 1
    assert (ga.span.column, ga.span.end_column) == (column, column + 3)
    assert ga.value.span.column == column + 4


def test_row_values_and_field_columns() -> None:
    row = parse_text(f"MICRO\n1\n{ROW}\n").workload.rows[0]
    assert row.line == 3 and row.name == "attention_layer"
    assert row.fields.reserved == -1 and row.fields.update_time == 100
    assert row.fields.fwd == Phase(1820000, "ALLREDUCE", 33554432)
    assert row.fields.ig == Phase(1820000, "NONE", 0)
    start = ROW.index("ALLREDUCE") + 1
    assert row.span("fwd_comm").column == start
    assert row.span("fwd_comm").end_column == start + len("ALLREDUCE")


def test_oldest_header_with_tab_after_policy_and_only_tp() -> None:
    w = parse_text(
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD\tmodel_parallel_NPU_group: 8 "
        "checkpoints: 0 checkpoint_initiates: 0\n1\n" + ROW + "\n"
    ).workload
    assert w.header is not None and header_value(w.header, "model_parallel_NPU_group") == 8
    assert w.header.read("vpp") is None


def test_pp_comm_without_colon_is_read_and_other_bare_keys_are_not() -> None:
    header = parse_text(
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD ga: 2 vpp 9 pp_comm 50331648\n0\n"
    ).workload.header
    assert header is not None
    assert header_value(header, "pp_comm") == 50331648
    assert header.read("vpp") is None
    assert [(f.key, f.colon) for f in header.fields] == [
        ("ga", True),
        ("vpp", False),
        ("pp_comm", False),
    ]


def test_float_header_value_is_kept_as_written() -> None:
    header = parse_text("HYBRID_TRANSFORMER_FWD_IN_BCKWD pp_comm: 8388608.0\n0\n").workload.header
    assert header is not None
    field = header.read("pp_comm")
    assert field is not None and field.value is not None
    assert field.value.text == "8388608.0" and header_value(header, "pp_comm") == 8388608
    assert field.value.number == 8388608.0


def test_checkpoint_lists_keep_every_index() -> None:
    header = parse_text(
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4 "
        "checkpoints: 2 2 11 checkpoint_initiates: 2 19 10\n0\n"
    ).workload.header
    assert header is not None
    checkpoints = header.read("checkpoints")
    assert checkpoints is not None
    assert [v.text for v in checkpoints.values] == ["2", "2", "11"]


def test_inference_header_with_mode() -> None:
    header = parse_text(
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 8 pp: 2 "
        "all_gpus: 16 mode: 1 vpp: 1 ga: 1\n0\n"
    ).workload.header
    assert header is not None and header_value(header, "mode") == 1


@pytest.mark.parametrize(
    "header", ["HYBRID_DLRM\t4\t\t\t", "HYBRID_DLRM_ENHANCED DLRM_LAST_BOTTOM_LAYER: 4"]
)
def test_dlrm_bare_number_and_keyed_forms(header: str) -> None:
    parsed = parse_text(f"{header}\n0\n").workload.header
    assert parsed is not None
    if parsed.leading:
        assert [v.text for v in parsed.leading] == ["4"]
    else:
        assert header_value(parsed, "DLRM_LAST_BOTTOM_LAYER") == 4


@pytest.mark.parametrize(
    "policy",
    [
        "DATA",
        "MODEL",
        "HYBRID_DATA_MODEL",
        "HYBRID_MODEL_DATA",
        "HYBRID_TRANSFORMER",
        "MICRO",
        "DISTRIBUTED_INFERENCE",
    ],
)
def test_every_policy_word_parses(policy: str) -> None:
    result = parse_text(f"{policy}\n1\n{ROW}\n")
    assert result.ok and result.workload.header is not None
    assert result.workload.header.policy == policy


def test_hybrid_customized_rows_carry_a_thirteenth_field() -> None:
    result = parse_text(f"HYBRID_CUSTOMIZED\n2\n{ROW} HYBRID_DATA_MODEL\n{ROW}\tDATA \n")
    assert result.ok
    assert [r.fields.policy for r in result.workload.rows] == ["HYBRID_DATA_MODEL", "DATA"]


def test_thirteenth_field_outside_customized_is_an_extra_field() -> None:
    column = len(ROW) + 2
    assert codes_at(f"MICRO\n1\n{ROW} DATA\n") == [(syntax.EXTRA_FIELD, 3, column, column + 4)]


def test_customized_row_without_its_policy_is_missing_a_field() -> None:
    end = len(ROW) + 1
    assert codes_at(f"HYBRID_CUSTOMIZED\n1\n{ROW}\n") == [(syntax.MISSING_FIELD, 3, end, end)]


def test_separators_spaces_tabs_and_trailing_whitespace_do_not_change_values() -> None:
    spaced = ROW.replace("\t", "   ") + " \t "
    mixed = ROW.replace("\t", " \t", 5) + "\t\t"
    rows = [
        parse_text(f"MICRO\n1\n{row}\n").workload.rows[0].fields.values()
        for row in (ROW, spaced, mixed)
    ]
    assert rows[0] == rows[1] == rows[2]


def test_crlf_bom_blank_lines_and_missing_final_newline() -> None:
    result = parse_bytes(("\ufeffMICRO\r\n2\r\n" + ROW + "\r\n\r\n" + ROW).encode())
    w = result.workload
    assert result.ok
    assert w.bom and w.line_endings == {"crlf"} and not w.final_newline
    assert len(w.rows) == 2 and w.blank_lines == (4,) and w.rows[1].line == 5
    assert w.header is not None and w.header.policy == "MICRO"


def test_blank_lines_at_the_end_are_not_rows() -> None:
    w = parse_text(f"MICRO\n1\n{ROW}\n\n\n   \n").workload
    assert len(w.rows) == 1 and w.blank_lines == (4, 5, 6)


# ---- syntax errors -------------------------------------------------------------------------


def test_empty_file() -> None:
    assert codes_at("") == [(syntax.EMPTY_FILE, 1, 1, 1)]


def test_header_only() -> None:
    assert codes_at("MICRO\n") == [(syntax.MISSING_COUNT, 1, 6, 6)]


def test_blank_policy_line() -> None:
    assert codes_at(f"\n1\n{ROW}\n")[0][:3] == (syntax.MISSING_POLICY, 1, 1)


@pytest.mark.parametrize(
    ("count", "code", "column", "end"),
    [
        ("", syntax.COUNT_NOT_INTEGER, 1, 1),
        ("abc", syntax.COUNT_NOT_INTEGER, 1, 4),
        ("-5", syntax.COUNT_NOT_INTEGER, 1, 3),
        ("1291abc", syntax.COUNT_TRAILING_JUNK, 1, 8),
        ("  1291.0", syntax.COUNT_TRAILING_JUNK, 3, 9),
        ("1e9", syntax.COUNT_TRAILING_JUNK, 1, 4),
    ],
)
def test_bad_count_lines(count: str, code: str, column: int, end: int) -> None:
    result = parse_text(f"MICRO\n{count}\n{ROW}\n")
    assert [
        (d.code, d.span.line, d.span.column, d.span.end_column) for d in result.diagnostics
    ] == [(code, 2, column, end)]
    assert result.workload.count is not None and result.workload.count.value is None


def test_missing_field_in_the_middle_points_where_the_shift_starts() -> None:
    # Without fwd_size, the ig compute time slides into the size slot (still an integer), and
    # the shift shows at `NONE`, the first token that cannot stand where it lands.
    row = ROW.replace("\t33554432", "", 1)
    column = row.index("NONE") + 1
    assert codes_at(f"MICRO\n1\n{row}\n") == [(syntax.MISSING_FIELD, 3, column, column + 4)]


def test_missing_field_at_the_end() -> None:
    row = ROW.rsplit("\t", 1)[0]
    end = len(row) + 1
    assert codes_at(f"MICRO\n1\n{row}\n") == [(syntax.MISSING_FIELD, 3, end, end)]


def test_a_lone_token_is_one_field_in_the_message() -> None:
    (one,) = parse_text("MICRO\n1\n1309\n").diagnostics
    (eleven,) = parse_text(f"MICRO\n1\n{ROW.rsplit(chr(9), 1)[0]}\n").diagnostics
    assert one.message.startswith("row has 1 field where 12 belong: the reserved")
    assert eleven.message.startswith("row has 11 fields where 12 belong")


def test_extra_field() -> None:
    column = len(ROW) + 2
    assert codes_at(f"MICRO\n1\n{ROW} 7\n") == [(syntax.EXTRA_FIELD, 3, column, column + 1)]


@pytest.mark.parametrize(
    ("token", "code"),
    [
        ("1820000.5", syntax.FRACTIONAL_NUMBER),
        ("-3", syntax.NEGATIVE_NUMBER),
        ("abc", syntax.WORD_FOR_NUMBER),
        ("(1526726656,", syntax.WORD_FOR_NUMBER),
        ("None", syntax.WORD_FOR_NUMBER),
    ],
)
def test_bad_number_in_a_row(token: str, code: str) -> None:
    row = ROW.replace("1820000", token, 1)
    column = row.index(token) + 1
    result = parse_text(f"MICRO\n2\n{row}\n{ROW}\n")
    assert [
        (d.code, d.span.line, d.span.column, d.span.end_column) for d in result.diagnostics
    ] == [(code, 3, column, column + len(token))]
    # the row stays in step, partial: the bad field is null, the rest is kept
    bad = result.workload.rows[0].fields
    assert bad.fwd.compute is None and bad.fwd.comm == "ALLREDUCE" and bad.update_time == 100
    assert result.workload.rows[1].line == 4


def test_number_where_a_comm_type_belongs() -> None:
    row = ROW.replace("ALLREDUCE", "5", 1)
    column = row.index("\t5\t") + 2
    assert codes_at(f"MICRO\n1\n{row}\n") == [(syntax.NUMBER_FOR_TYPE, 3, column, column + 1)]


def test_every_bad_line_is_reported_and_rows_stay_in_step() -> None:
    bad = ROW.replace("1820000", "x", 1)
    result = parse_text(f"MICRO\n4\n{bad}\n{ROW}\n{bad}\n\n{bad}\n")
    assert [d.span.line for d in result.diagnostics] == [3, 5, 7]
    assert [r.line for r in result.workload.rows] == [3, 4, 5, 7]


def test_invalid_utf8_is_reported_with_its_position() -> None:
    data = f"MICRO\n1\n{ROW}\n".encode().replace(b"attention", b"atten\xfftion", 1)
    result = parse_bytes(data)
    assert [(d.code, d.span.line, d.span.column) for d in result.diagnostics] == [
        (syntax.INVALID_UTF8, 3, 6)
    ]


def test_line_and_file_limits() -> None:
    long_row = "x" * 200 + ROW
    limits = Limits(max_line_bytes=100)
    assert [d.code for d in parse_text(f"MICRO\n1\n{long_row}\n", limits=limits).diagnostics] == [
        syntax.LINE_TOO_LONG
    ]
    too_big = parse_text(f"MICRO\n1\n{ROW}\n", limits=Limits(max_bytes=10))
    assert [d.code for d in too_big.diagnostics] == [syntax.FILE_TOO_LARGE]


# ---- any input -----------------------------------------------------------------------------

_LINE = st.lists(
    st.sampled_from(
        [
            "ALLREDUCE",
            "NONE",
            "-1",
            "0",
            "12",
            "1.5",
            "x",
            ":",
            "ga:",
            "\t",
            " ",
            "\r",
            "\ufeff",
            "\x00",
            "é",
        ]
    ),
    max_size=16,
).map("".join)


@settings(max_examples=150, deadline=None)
@given(st.lists(_LINE, max_size=8).map("\n".join))
def test_any_token_soup_yields_an_ast_and_diagnostics(text: str) -> None:
    result = parse_text(text)
    if "\x00" in text:  # binary data: reported once, nothing read
        assert [d.code for d in result.diagnostics] == ["WK121"]
        assert not result.workload.rows
        return
    lines = text.split("\n")
    if (
        len(lines) > 1
        and not lines[0].removeprefix("\ufeff").strip()
        and re.match(r"[ \t]*[A-Z][A-Z_]*(\s|$)", lines[1])
    ):
        # a blank line above a policy line: one finding (every line is one off), nothing read
        assert [d.code for d in result.diagnostics] == ["WK101"]
        assert not result.workload.rows
        return
    body = [line for line in lines[2:] if line.strip(" \t\v\f\r")]
    assert len(result.workload.rows) == len(body)
    for d in result.diagnostics:
        assert 1 <= d.span.line <= max(1, len(lines))


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_yield_an_ast_and_diagnostics(data: bytes) -> None:
    result = parse_bytes(data)
    assert all(d.span.column >= 1 for d in result.diagnostics)


@settings(max_examples=100, deadline=None)
@given(st.lists(_LINE, min_size=3, max_size=8).map("\n".join))
def test_fast_and_pure_lark_agree_on_any_text(text: str) -> None:
    fast, slow = parse_text(text, fast=True), parse_text(text, fast=False)
    assert list(fast.workload.rows) == list(slow.workload.rows)
    assert fast.diagnostics == slow.diagnostics
