"""Rows stored as columns: files whose rows never repeat read the same as line by line.

The parser reads blocks of new lines column by column (`wkparse.parse._Columns`); these tests
shrink the block so that small files cross many blocks, and compare every reading with the
one-line-at-a-time path (`fast=False`, Lark on every line).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tests.test_synthesize import syn
from wkparse import checks, columns, parse_bytes, parse_text
from wkparse.ast import ROW_FIELDS, RowFields
from wkparse.checks import Context, RowProblem, row_check
from wkparse.engine import lint
from wkparse.explanation import explain
from wkparse.format import format_result
from wkparse.render.parse import json as ast_json

ROOT = Path(__file__).resolve().parents[1]
HEADER = (
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 8 ep: 1 pp: 1 vpp: 36 ga: {ga} "
    "all_gpus: 8 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0"
)


def distinct_text(groups: int = 40, seed: int = 3) -> str:
    cfg = syn.WorkloadConfig(
        tp=8, pp=1, world=8, gbs=groups, mbs=1, seq=4096, layers=36, hidden=4096
    )
    return str(syn.render(cfg, jitter=0.05, seed=seed))


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of 2 kB: a few dozen lines each, so every path between blocks is taken."""
    monkeypatch.setattr("wkparse.parse._BLOCK", 2048)


def reading(text: str, fast: bool = True) -> tuple[object, ...]:
    result = parse_text(text, fast=fast)
    w = result.workload
    rows = [(r.line, r.fields.ordered(), r.fields.columns, r.fields.errors) for r in w.rows]
    codes = [(d.code, d.span, d.message) for d in result.diagnostics]
    return rows, codes, w.blank_lines, w.line_endings, w.line_count, w.final_newline


def test_jitter_makes_rows_that_never_repeat() -> None:
    text = distinct_text()
    rows = text.splitlines()[2:]
    assert len(set(rows)) > 0.95 * len(rows)
    assert distinct_text() == text  # seeded
    assert distinct_text(seed=4) != text


@pytest.mark.usefixtures("small_blocks")
def test_distinct_rows_read_as_line_by_line() -> None:
    text = distinct_text()
    result = parse_text(text)
    assert result.ok
    rows = result.workload.rows
    # Every layer row is its own value; the few repeating rows around them may be too.
    assert len(rows.values) > 0.95 * len(rows)
    assert reading(text) == reading(text, fast=False)
    assert format_result(result) == text


@pytest.mark.usefixtures("small_blocks")
def test_same_length_texts_keep_their_own_codes() -> None:
    """Lines whose tokens stand in the same places but whose comm types differ (ALLREDUCE,
    ALLGATHER and BROADCAST are all nine letters) keep their own types: the token positions
    are shared, the texts are not. Reading the positions' texts for both once turned 17
    BROADCAST rows of a 60k-row file into 11,491 (WK404 on each)."""
    lines = distinct_text(groups=12).splitlines()
    for i in range(3, len(lines), 7):
        lines[i] = lines[i].replace("ALLREDUCE", "BROADCAST", 1)
    text = "\n".join(lines) + "\n"
    assert text.count("BROADCAST") > 50
    assert reading(text) == reading(text, fast=False)
    types = [r.fields.fwd.comm for r in parse_text(text).workload.rows]
    assert types.count("BROADCAST") == text.count("BROADCAST")


@pytest.mark.usefixtures("small_blocks")
def test_mixed_blocks_read_as_line_by_line() -> None:
    """Bad lines, blank lines, CRLF, names with digits and signs, short and long rows, all
    among distinct rows, in every position of a block."""
    lines = distinct_text(groups=12).splitlines()
    odd = [
        "",
        "attention_layer\t-1\t12\tALLREDUCE\t8\t1\tNONE\t0\t1\tNONE\t0",  # 11 fields
        "layer-7\t-1\t5\tALLREDUCE\t8\t1\tNONE\t0\t1\tNONE\t0\t100",
        "mlp_layer\t-1\t5\tALLREDUCE\t8\t1\tNONE\t0\t1\tNONE\t0\t100\textra",
        "attention_layer  -1 5 ALLREDUCE\t8\t1\tNONE\t0\t1\tNONE\t0\t100   ",
        "mlp_layer\t-1\tx5\tALLREDUCE\t8\t1\tNONE\t0\t1\tNONE\t0\t100",
        "   \t",
        "mlp_layer\t+3\t5\tALLREDUCE\t8\t1\tNONE\t0\t1\tNONE\t0\t100\r",
        "\u00e9mbedding\t-1\t5\tALLREDUCE\t8\t1\tNONE\t0\t1\tNONE\t0\t100",
    ]
    for i, line in enumerate(odd):
        lines.insert(7 + i * 61, line)
    text = "\n".join(lines) + "\n"
    assert reading(text) == reading(text, fast=False)
    assert reading(text[:-1]) == reading(text[:-1], fast=False)


@pytest.mark.usefixtures("small_blocks")
def test_numbers_past_32_and_64_bits_widen_their_column() -> None:
    big = 2**64 + 5
    rows = [
        f"attention_layer\t-1\t{i + 2}\tALLREDUCE\t{2**33 + i}\t1\tNONE\t0\t1\tNONE\t0\t100"
        for i in range(300)
    ]
    rows[250] = rows[250].replace("\t100", f"\t{big}")
    text = HEADER.format(ga=1) + f"\n{len(rows)}\n" + "\n".join(rows) + "\n"
    result = parse_text(text)
    values = result.workload.rows
    assert [r.fields.fwd.size for r in values] == [2**33 + i for i in range(300)]
    assert values[250].fields.update_time == big
    assert reading(text) == reading(text, fast=False)
    found = [(d.code, d.span.line) for d in lint(result) if d.code == "WK408"]
    assert found == [("WK408", 253)]


def test_repeated_lines_share_one_value() -> None:
    sample = ROOT / "samples" / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"
    rows = parse_bytes(sample.read_bytes()).workload.rows
    assert len(rows) == 1230 and len(rows.values) < 40


@pytest.mark.usefixtures("small_blocks")
def test_a_distinct_row_costs_tens_of_bytes() -> None:
    rows = parse_text(distinct_text(groups=100)).workload.rows
    values = rows.values
    held = sum(len(c) * c.itemsize for c in values.columns)  # type: ignore[union-attr]
    held += len(values.shape) * values.shape.itemsize
    assert held / len(rows) <= 64
    assert len(values.shapes) < 20


def test_row_check_runs_once_per_combination_of_what_it_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[str | None, ...]] = []
    monkeypatch.setattr(checks, "REGISTRY", list(checks.REGISTRY))

    @row_check("WK401", reads=("fwd_comm",))
    def count_calls(ctx: Context, fields: RowFields) -> list[RowProblem]:
        calls.append((fields.fwd.comm,))
        if fields.fwd.comm == "ALLREDUCE":
            return [RowProblem("WK401", ROW_FIELDS.index("fwd_comm"), "counted")]
        return []

    result = parse_text(distinct_text(groups=20))
    found = [d for d in lint(result) if d.message == "counted"]
    assert sorted(calls) == [("ALLREDUCE",), ("NONE",)]
    rows = result.workload.rows
    assert [d.span.line for d in found] == [
        r.line for r in rows if r.fields.fwd.comm == "ALLREDUCE"
    ]


def test_explain_totals_are_the_rows_sums() -> None:
    text = distinct_text(groups=30)
    result = parse_text(text)
    e = explain(result, "distinct.txt")
    rows = list(result.workload.rows)
    for phase in ("fwd", "ig", "wg"):
        assert e.compute_ns[phase] == sum(r.fields.phase(phase).compute or 0 for r in rows)
    tp_bytes = sum(r.fields.fwd.size or 0 for r in rows if r.fields.fwd.comm == "ALLREDUCE") + sum(
        r.fields.ig.size or 0 for r in rows if r.fields.ig.comm == "ALLREDUCE"
    )
    assert e.comm_bytes["TP"] == tp_bytes
    assert sum(k.rows for k in e.kinds) == len(rows)


def test_row_check_reads_only_known_fields() -> None:
    with pytest.raises(ValueError, match="unknown fields"):
        row_check("WK401", reads=("fwd_type",))


@pytest.mark.usefixtures("small_blocks")
def test_json_rows_are_each_values_json() -> None:
    lines = distinct_text(groups=6).splitlines()
    lines[9] = "mlp_layer\t-1\tx5\tALLREDUCE\t8\t1\tNONE\t0\t1\tNONE\t0\t100"  # a partial row
    result = parse_text("\n".join(lines) + "\n")
    out = io.StringIO()
    ast_json.write(result, out, "distinct.txt")
    doc = json.loads(out.getvalue())
    rows = list(result.workload.rows)
    assert len(doc["rows"]) == len(rows)
    for written, row in zip(doc["rows"], rows):
        assert written == {"line": row.line, **ast_json.row_body(row.fields)}
    assert doc["rows"][7]["fwd"]["compute"] is None


def sizes_text(groups: int = 30) -> str:
    """A file whose every collective's size differs (`every_size`): a key per row for a
    grouping by sizes."""
    cfg = syn.WorkloadConfig(
        tp=8, pp=1, world=8, gbs=groups, mbs=1, seq=4096, layers=36, hidden=4096
    )
    return str(syn.render(cfg, jitter=0.05, seed=5, every_size=True))


def test_keys_first_seen_in_late_chunks_group_as_the_plain_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Chunks of 16 values: nearly every key of a grouping by sizes is first seen past the
    first chunks (where a search by prefix once stopped), and each group's first value and
    members must still be what asking value by value gives."""
    monkeypatch.setattr(columns, "_CHUNK", 16)
    monkeypatch.setattr(columns, "NUMPY_FROM", 0)
    values = parse_text(sizes_text()).workload.rows.values
    fields = [ROW_FIELDS.index(f) for f in ("fwd_comm", "fwd_size", "wg_comm", "wg_size")]
    large = columns.Columns(values, range(len(values)))
    assert large.large
    grouped = large._group_numpy(fields, (), True)
    plain = large._group_python(fields, (), True)
    assert len(grouped) > len(values) // 3  # most keys are new: late chunks hold most
    assert (grouped.keys, grouped.first) == (plain.keys, plain.first)
    assert grouped.of.tolist() == plain.of


@pytest.mark.parametrize("threshold", [0, 10**9])
def test_largest_is_the_most_of_every_value_partial_ones_too(
    threshold: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(columns, "NUMPY_FROM", threshold)
    lines = sizes_text(groups=6).splitlines()
    lines[9] = "mlp_layer\t-1\tx5\tALLREDUCE\t99999999999\t1\tNONE\t0\t1\tNONE\t0\t100"
    values = parse_text("\n".join(lines) + "\n").workload.rows.values
    assert values.partial  # the edited row is held whole only in `partial`
    found = columns.Columns(values, range(len(values)))
    for field in (ROW_FIELDS.index("fwd_size"), ROW_FIELDS.index("wg_size")):
        every = [RowFields(values, i).ordered()[field] for i in range(len(values))]
        assert found.largest(field) == max(v for v in every if isinstance(v, int))
    assert found.largest(ROW_FIELDS.index("fwd_size")) == 99999999999


def test_a_row_check_that_cannot_find_anything_is_not_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    asked: list[bool] = []
    monkeypatch.setattr(checks, "REGISTRY", list(checks.REGISTRY))
    answer = [False]

    def can_find(ctx: Context) -> bool:
        asked.append(answer[0])
        return answer[0]

    @row_check("WK401", reads=("fwd_size",), when=can_find)
    def count_calls(ctx: Context, fields: RowFields) -> list[RowProblem]:
        calls.append(fields.index)
        return [RowProblem("WK401", ROW_FIELDS.index("fwd_size"), "counted")]

    result = parse_text(sizes_text(groups=4))
    assert not [d for d in lint(result) if d.message == "counted"]
    assert (asked, calls) == ([False], [])  # asked once per file, never per row
    answer[0] = True
    found = [d for d in lint(parse_text(sizes_text(groups=4))) if d.message == "counted"]
    assert len(found) == len(result.workload.rows) and len(calls) > 30


@pytest.mark.parametrize("repeat_every", [None, 3], ids=["every row its own", "some alike"])
def test_groups_are_collapsed_by_their_values(repeat_every: int | None) -> None:
    """Explain's runs of equal groups are the groups grouped by their rows' values, on a
    file of more groups than it compares one by one: every group alone where every row is
    its own value, and the repeated ones together where some groups are copies."""
    from wkparse.explanation.context import Context
    from wkparse.explanation.structure import _value_groups

    lines = distinct_text(groups=60).splitlines(keepends=True)
    if repeat_every is not None:  # every third group a copy of the first
        starts = [i for i, line in enumerate(lines) if line.startswith("embedding_layer")]
        first = lines[starts[0] : starts[1]]
        for k in range(len(starts) - 2, 0, -1):
            if k % repeat_every == 0:
                lines[starts[k] : starts[k + 1]] = first
    result = parse_text("".join(lines))
    ctx = Context(result.workload, None, [])
    got = [(r.first, list(r.refs), r.count) for r in _value_groups(ctx)]
    refs = result.workload.rows.refs
    expected: dict[tuple[int, ...], list[int]] = {}
    for i, g in enumerate(ctx.body.groups):
        key = tuple(refs[g.start : g.end])
        expected.setdefault(key, [i, 0])[1] += 1
    assert got == [(i, list(key), n) for key, (i, n) in expected.items()]
    assert len(got) > 32 and (repeat_every is None) == all(n == 1 for _, _, n in got)
