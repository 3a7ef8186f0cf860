"""Runs of new lines read with numpy (`wkparse.bulk`) give the very table the Python path does.

The thresholds that keep numpy for large files are lowered here so that every run of new
lines, of every file, goes through numpy; the reading is compared, value by value and with
each column's storage, with the same file read with numpy switched off.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.conftest import CORPUS, absent, corpus_params
from tests.test_columns import HEADER, distinct_text
from wkparse import bulk, parse_bytes, row_reader
from wkparse.ast import ValueTable
from wkparse.parse import ParseResult
from wkparse.render.parse import json as ast_json

#: a row whose fields are all plain, to edit one field at a time
ROW = ["attention_layer", "-1", "1868007", "ALLREDUCE", "33554432", "1775423"]
ROW += ["NONE", "0", "1", "NONE", "0", "100"]


def _with(field: int, token: str) -> str:
    row = list(ROW)
    row[field] = token
    return "\t".join(row)


#: lines that numpy must not misread, or that must reach the Python path or Lark
ODD_LINES = [
    _with(2, "9" * 18),  # the longest number numpy reads
    _with(2, "9" * 19),  # past what numpy is trusted with, still an int64
    _with(2, str(2**63)),
    _with(4, str(2**64 - 1)),
    _with(4, str(2**64)),  # past 64 bits: the column becomes a list
    _with(2, "9" * 700),  # too many digits: an error
    _with(1, "+5"),
    _with(1, "-0"),
    _with(1, "+0"),
    _with(2, "0007"),
    _with(4, "-8"),  # a negative size: not a row (UINT)
    _with(1, str(-(2**31) - 1)),  # past 32 bits, signed
    _with(0, "cross_entropy1"),  # a name with digits, read from each line
    _with(0, "cross_entropy2"),
    _with(0, "layer_064_2_mlp5cat"),
    _with(0, "all-reduce"),  # a sign in a name, blanked before the numbers are read
    _with(0, "a-1"),
    _with(0, "-"),
    _with(0, "+7"),
    _with(0, "123"),
    _with(0, "\u00e9t\u00e91-2"),  # UTF-8: byte offsets are not character offsets
    _with(3, "ALL2ALL"),  # a comm type with a digit
    _with(6, "_9"),
    _with(11, "1" + "0" * 17),
    "\t".join(ROW[:11]),  # 11 fields
    "\t".join([*ROW, "extra"]),  # 13 fields in a file of 12
    "\x0b".join(ROW),  # vertical tabs
    " \f ".join(ROW) + "   ",  # form feeds, trailing spaces
    "  " + "\t".join(ROW),
    "\t".join(ROW) + "\r",  # CRLF
    "\t".join(ROW).replace("1868007", "18x8007"),
    "",
    "   \t",
    "\t".join(ROW).replace("attention_layer", "bad\udcffname"),  # not UTF-8
    "#" * 700,  # longer than a line read in bulk
]


def _file(rows: Sequence[str | bytes], head: str = HEADER.format(ga=1)) -> bytes:
    """A workload of these rows."""
    body = [row if isinstance(row, bytes) else row.encode() for row in rows]
    return f"{head}\n{len(rows)}\n".encode() + b"\n".join(body) + b"\n"


@pytest.fixture
def numpy_everywhere(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Every run of new lines goes to numpy; returns what each numpy call answered."""
    monkeypatch.setattr(row_reader, "NUMPY_RUN", 1)
    monkeypatch.setattr(row_reader, "NUMPY_AFTER_LINES", 0)
    answers: list[bool] = []
    real = bulk.append

    def spy(*args: object, **kwargs: object) -> bool:
        answers.append(real(*args, **kwargs))  # type: ignore[arg-type]
        return answers[-1]

    monkeypatch.setattr(bulk, "append", spy)
    return answers


def table(result: ParseResult) -> tuple[object, ...]:
    """Everything a parse gives, the columns' storage included."""
    w = result.workload
    rows = [(r.line, r.fields.ordered(), r.fields.columns, r.fields.errors) for r in w.rows]
    values = w.rows.values
    storage = [
        type(c).__name__ + (getattr(c, "typecode", "") if i not in (0, 3, 6, 9, 12) else "")
        for i, c in enumerate(values.columns)
    ]
    return (
        rows,
        len(values),
        storage,
        result.diagnostics,
        w.blank_lines,
        w.line_endings,
        w.line_count,
        w.final_newline,
    )


def python_table(data: bytes) -> tuple[object, ...]:
    """The reading with numpy switched off."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(row_reader, "NUMPY_AFTER_LINES", 1 << 62)
        patch.setattr(row_reader, "NUMPY_FILE_BYTES", 1 << 62)
        return table(parse_bytes(data))


def assert_same(data: bytes, answers: list[bool], *, asked: bool = True) -> None:
    before = len(answers)
    bulk_table = table(parse_bytes(data))
    assert bulk_table == python_table(data)
    assert len(answers) > before or not asked


@pytest.mark.parametrize("path", corpus_params())
def test_corpus_reads_the_same_with_numpy(path: Path, numpy_everywhere: list[bool]) -> None:
    assert_same(path.read_bytes(), numpy_everywhere)
    assert all(numpy_everywhere)


@pytest.mark.parametrize("block", [2048, 1 << 20])
def test_distinct_rows_read_the_same_with_numpy(
    block: int, numpy_everywhere: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("wkparse.parse._BLOCK", block)
    data = distinct_text(groups=30).encode()
    assert_same(data, numpy_everywhere)
    assert all(numpy_everywhere)


@pytest.mark.parametrize("block", [2048, 1 << 20])
def test_odd_lines_among_distinct_rows_read_the_same_with_numpy(
    block: int, numpy_everywhere: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("wkparse.parse._BLOCK", block)
    lines = distinct_text(groups=12).splitlines()
    for i, line in enumerate(ODD_LINES):
        lines.insert(5 + i * 17, line)
        lines.insert(len(lines) - i * 3, line)
    text = "\n".join(lines) + "\n"
    data = text.encode("utf-8", "surrogateescape")
    assert_same(data, numpy_everywhere)
    assert_same(data[:-1], numpy_everywhere)  # no final newline
    assert_same(data.replace(b"\n", b"\r\n"), numpy_everywhere)


@pytest.mark.parametrize("line", ODD_LINES, ids=range(len(ODD_LINES)))
def test_each_odd_line_in_a_run_reads_the_same_with_numpy(
    line: str, numpy_everywhere: list[bool]
) -> None:
    """A run where every line has the odd line's shape, among plain rows (numpy is not
    asked about a run with a number it is not trusted with)."""
    raw = line.encode("utf-8", "surrogateescape")
    rows = [b"\t".join(x.encode() for x in ROW)] * 3 + [raw] * 3
    rows += [raw.replace(b"1868007", str(1868007 + i).encode()) for i in range(5)]
    assert_same(_file(rows), numpy_everywhere, asked=False)


def test_customized_rows_read_the_same_with_numpy(numpy_everywhere: list[bool]) -> None:
    head = "HYBRID_CUSTOMIZED model_parallel_NPU_group: 2 ep: 1 pp: 1 vpp: 1 ga: 1 all_gpus: 2"
    rows = [_with(2, str(100 + i)) + ("\tDATA" if i % 3 else "\tMODEL2") for i in range(40)]
    rows[7] = _with(2, "5")  # no policy: the 13th field is optional
    assert_same(_file(rows, head), numpy_everywhere)


def test_numbers_past_32_bits_widen_as_in_python(numpy_everywhere: list[bool]) -> None:
    rows = [_with(4, str(2**33 + i)) for i in range(10)]
    rows += [_with(1, str(-(2**40) - i)) for i in range(10)]
    rows += [_with(11, str(2**64 + i)) for i in range(10)]  # a list, on the Python path
    data = _file(rows)
    assert_same(data, numpy_everywhere)
    values = parse_bytes(data).workload.rows.values
    assert [getattr(values.columns[k], "typecode", "list") for k in (1, 4, 11)] == [
        "q",
        "Q",
        "list",
    ]


def test_columns_widen_while_held_in_bulk(
    numpy_everywhere: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many blocks read in bulk in a row: a column widens after blocks of narrow values."""
    monkeypatch.setattr("wkparse.parse._BLOCK", 2048)
    rows = [_with(2, str(1000 + i)) for i in range(300)]
    rows += [_with(4, str(2**33 + i)) for i in range(300)]
    rows += [_with(1, str(-(2**35) - i)) for i in range(300)]
    data = _file(rows)
    assert_same(data, numpy_everywhere)
    assert all(numpy_everywhere) and len(numpy_everywhere) > 20
    values = parse_bytes(data).workload.rows.values
    assert [getattr(values.columns[k], "typecode", "list") for k in (1, 2, 4)] == ["q", "I", "Q"]


def test_held_columns_outgrow_their_room(monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    monkeypatch.setattr(bulk, "ROOM", 4)
    pending = bulk.Pending(4)
    table = ValueTable()
    blocks = [np.arange(start, start + 7) for start in (0, 7, 2**40, 5)]
    for block in blocks:
        pending.add(table, {2: (block, int(block.min()), int(block.max()))})
    assert pending.room >= 28
    pending.flush(table)
    assert list(table.columns[2]) == [int(v) for block in blocks for v in block]
    assert getattr(table.columns[2], "typecode", None) == "Q"
    assert pending.size == 0 and not pending.buffers


def test_numpy_never_warns_and_declines_what_it_cannot_read() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert bulk._read(b"1 2 x", 3) is None
        assert bulk._read(b"1 -- 2", 2) is None
        assert bulk._read(b"1 2", 3) is None  # fewer than expected
        assert bulk._read(b" 7  -8 ", 2) is not None
    assert caught == []


def test_a_small_file_does_not_import_numpy() -> None:
    """numpy's import costs more than it saves on a few thousand rows (start-up counts)."""
    small = min(
        (p for p in CORPUS.rglob("*.txt") if p.stat().st_size > 20_000),
        key=lambda p: p.stat().st_size,
        default=None,
    )
    if small is None:
        pytest.skip(absent(CORPUS))
    code = (
        "import sys\n"
        "from wkparse.cli import main\n"
        "for command in (['parse', sys.argv[1]], ['lint', sys.argv[1]]):\n"
        "    sys.argv[1:] = command\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit:\n"
        "        pass\n"
        "    assert 'numpy' not in sys.modules, command\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(small)], capture_output=True)
    assert done.returncode == 0, done.stderr.decode()


@pytest.mark.parametrize("customized", [False, True])
def test_json_dump_gathers_the_same_with_numpy(
    customized: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`parse --format json` of rows that differ, gathered by numpy or item by item: one
    text, partial rows and numbers past 64 bits included."""
    lines = distinct_text(groups=6).splitlines()
    lines[9] = _with(2, "x5")  # a partial row
    lines[12] = _with(11, str(2**70))
    if customized:
        lines[0] = lines[0].replace("HYBRID_TRANSFORMER_FWD_IN_BCKWD", "HYBRID_CUSTOMIZED")
        lines[2:] = [line + ("\tDATA" if i % 2 else "") for i, line in enumerate(lines[2:])]
    result = parse_bytes(("\n".join(lines) + "\n").encode())
    assert len(result.workload.rows.values) * 2 > len(result.workload.rows)
    written = []
    for rows in (0, 1 << 62):
        monkeypatch.setattr(ast_json, "NUMPY_ROWS", rows)
        out = io.StringIO()
        ast_json.write(result, out, "distinct.txt")
        written.append(out.getvalue())
    assert written[0] == written[1]
    doc = json.loads(written[0])
    assert doc["rows"][7]["fwd"]["compute"] is None
    assert doc["rows"][10]["update_time"] == 2**70


@pytest.mark.parametrize("block", [5, 64, 2048])
def test_lines_across_blocks_read_as_in_one_block(
    block: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line the blocks cut, once or many times (a line of 3,000 bytes in blocks of 5),
    is read whole: the parse is the one of the file read in a single block."""
    lines = distinct_text(groups=3).splitlines()
    lines.insert(7, lines[7] + "\t" + "x" * 3000)
    lines.insert(9, "")
    data = ("\n".join(lines) + "\n").encode()
    whole, unterminated = table(parse_bytes(data)), table(parse_bytes(data[:-1]))
    monkeypatch.setattr("wkparse.parse._BLOCK", block)
    assert table(parse_bytes(data)) == whole
    assert table(parse_bytes(data[:-1])) == unterminated
