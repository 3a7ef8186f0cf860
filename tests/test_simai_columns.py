"""SimAI's reading taken from the parser's columns (`wkparse.models.simai.parsed_rows`), and the
report computed over columns: wherever the columns are used, the run is the one the stream
model predicts, field for field and byte for byte; where the two readings could differ, the
columns are not used."""

from __future__ import annotations

from functools import reduce
from typing import Any

import pytest

from benchmarks import fuzzing
from tests.conftest import SIMAI_ORACLE_2, oracle_params
from wkparse.columns import NUMPY_FROM
from wkparse.cpp import scaled, scaled_floats
from wkparse.models.simai import parsed_rows, report, run, simulate
from wkparse.models.simai.options import Refusal, parse
from wkparse.models.simai.parsed_rows import read_parsed
from wkparse.models.simai.run import SimaiRun, read_count
from wkparse.models.simai.sums import EXACT_REPEATS, running_sum, sequential_sum
from wkparse.parse import parse_bytes

HEADER = (
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 8 ep: 1 pp: 2 vpp: 1 ga: 1 "
    "all_gpus: 32 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 1048576"
)
OPTIONS = ["-w", "w.txt", "-g", "32", "-g_p_s", "8", "-n_p_s", "8", "-nv", "360", "-r", "x-"]
FIELDS = [
    "attention_layer",
    "-1",
    "1500",
    "ALLREDUCE",
    "2097152",
    "2500",
    "NONE",
    "0",
    "3500",
    "ALLGATHER",
    "4194304",
    "100",
]


def _row(i: int = 0, **changed: str) -> str:
    """A row whose compute times differ with `i`, with some fields changed by index."""
    fields = list(FIELDS)
    fields[2], fields[5], fields[8] = (str(int(fields[k]) + 7 * i * k) for k in (2, 5, 8))
    for k, value in changed.items():
        fields[int(k.removeprefix("f"))] = value
    return "\t".join(fields)


def _file(*rows: str, count: int | None = None, header: str = HEADER, end: str = "\n") -> bytes:
    lines = [header, str(len(rows) if count is None else count), *rows]
    return (end.join(lines) + end).encode()


def _facts(result: SimaiRun) -> str:
    """Everything a run says, as text (a NaN is then equal to itself)."""
    rows = result.rows
    table = None if rows is None else rows.layers
    out: list[Any] = [result.outcome, result.warnings, result.first_undefined, result.cut]
    out.append(result.unread_rows)
    if rows is not None and table is not None:
        out += [rows.failed_at, list(table), list(table.lines), table.tail_count]
    r = result.report
    if r is not None:
        out += [r.csv(), r.first_infinite, r.first_wrapped, r.stop, r.stopped_at, r.totals]
        out += [list(r.distinct()), list(r.rows()), list(r.order), r.tail, r.tail_count]
    out.append(result.total_compute_us)
    return repr(out)


def _both(data: bytes, words: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """The run's facts with the parser's columns (where they are used) and with the stream
    model alone."""
    options = parse(words)
    with_columns = _facts(simulate(data, None, options))
    monkeypatch.setattr(run, "read_parsed", lambda data, count, rows=None: None)
    return with_columns, _facts(simulate(data, None, options))


def _uses_columns(data: bytes) -> bool:
    count = read_count(data).result.value
    return count is not None and read_parsed(data, count) is not None


@pytest.mark.parametrize("case", oracle_params(SIMAI_ORACLE_2))
def test_oracle_case_runs_the_same_from_columns(
    case: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = (SIMAI_ORACLE_2 / case["workload"]).read_bytes()
    if isinstance(parse(case["options"]), Refusal):
        pytest.skip("SimAI refuses the options: no rows are read")
    columns, stream = _both(data, case["options"], monkeypatch)
    assert columns == stream


DISTINCT = [_row(i) for i in range(300)]
EDITED: dict[str, tuple[bytes, bool]] = {
    # name: (file, whether the columns are used)
    "every row its own": (_file(*DISTINCT), True),
    "rows repeating": (_file(*[_row(i % 3) for i in range(300)]), True),
    "some rows repeating": (_file(*[_row(i - i % 2) for i in range(300)]), True),
    "an embedding layer": (_file(_row(1, f0="embedding_layer"), *DISTINCT[:5]), True),
    "count past the rows": (_file(*DISTINCT[:5], count=9), True),
    "count short of the rows, garbage after it": (_file(*DISTINCT[:5], "x y", count=5), True),
    "count short of the rows, blank and C-space lines among them": (
        _file(*DISTINCT[:5], "", DISTINCT[5], " \x0b\x0c\t", DISTINCT[6], "", count=4),
        True,
    ),
    "blank lines, CRLF, spaces": (_file(DISTINCT[0], "", f"  {DISTINCT[1]} ", end="\r\n"), True),
    "a compute time cut to an int": (_file(*DISTINCT[:3], _row(3, f8="3000000000")), True),
    "a compute time past 2**53": (_file(_row(0, f5=str(2**60 + 12345)), *DISTINCT[:3]), True),
    "a compute time scaled to 0": (_file(_row(0, f2=str(2**64 - 1)), *DISTINCT[:3]), True),
    "a size past the ratio tables": (
        _file(*DISTINCT[:3], _row(0, f3="ALLGATHER", f4="20000000000"), *DISTINCT[3:6]),
        True,
    ),
    "a 13th field": (_file(DISTINCT[0], DISTINCT[1] + "\tHYBRID_DATA_MODEL"), False),
    "reserved past int": (_file(_row(0, f1="2147483648"), DISTINCT[1]), False),
    "a size past 64 bits": (_file(_row(0, f4=str(2**64)), DISTINCT[1]), False),
    "a row across two lines": (_file(DISTINCT[0].replace("\t2500\t", "\n2500\n")), False),
    "a word for a number": (_file(_row(0, f2="x"), DISTINCT[1]), False),
    "customized policy": (_file(DISTINCT[0] + "\tDATA", header="HYBRID_CUSTOMIZED"), False),
}


@pytest.mark.parametrize("name", EDITED)
def test_edited_file_runs_the_same_from_columns(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    data, used = EDITED[name]
    customized = data.startswith(b"HYBRID_CUSTOMIZED")
    assert _uses_columns(data) == used or customized
    columns, stream = _both(data, OPTIONS, monkeypatch)
    assert columns == stream


def test_the_edits_reach_what_they_are_meant_to() -> None:
    """The cases above are not vacuous: a report, a cut, a stop and a tail among them."""
    runs = {name: simulate(data, None, parse(OPTIONS)) for name, (data, _) in EDITED.items()}
    assert runs["every row its own"].report is not None
    assert runs["a compute time cut to an int"].cut is not None
    assert runs["a compute time past 2**53"].cut is not None
    assert runs["a compute time scaled to 0"].report is not None
    stopped = runs["a size past the ratio tables"].report
    assert stopped is not None and stopped.stop == "out_of_range"
    tail = runs["count past the rows"].rows
    assert tail is not None and tail.layers.tail_count == 4 and tail.failed_at is not None


def test_bubble_base_is_the_same_added_as_integers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Below 2**53 the bubble base's parts are added as doubles; the exact integer sum, taken
    for larger ones, gives the same report."""
    data = _file(*DISTINCT, _row(1, f0="embedding_layer"))
    as_doubles = simulate(data, None, parse(OPTIONS)).report
    monkeypatch.setattr(report, "EXACT_DOUBLE", 0)
    as_integers = simulate(data, None, parse(OPTIONS)).report
    assert as_doubles is not None and as_integers is not None
    assert as_doubles.csv() == as_integers.csv() and as_doubles.totals["bubble_time_us"] > 0


#: more values than NUMPY_FROM: the report's per-value columns are worked out by numpy
LONG = _file(
    *[_row(i) for i in range(NUMPY_FROM + 200)],
    _row(1, f0="embedding_layer"),
    *[_row(i) for i in range(50)],
    count=NUMPY_FROM + 300,
)


#: LONG's rows as many times as the count line says: no tail
LONG_READ_WHOLE = LONG.replace(b"\n%d\n" % (NUMPY_FROM + 300), b"\n%d\n" % (NUMPY_FROM + 251))


#: more rows than NUMPY_FROM, of seven values: the sums over the rows are taken by numpy
LONG_REPEATING = _file(*[_row(i % 7) for i in range(NUMPY_FROM + 100)], _row(2))


@pytest.mark.parametrize(
    "data", [LONG, LONG_READ_WHOLE, LONG_REPEATING], ids=["tail", "whole", "repeating"]
)
def test_a_long_file_reports_the_same_by_numpy(
    data: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The microseconds, the bubble base's terms, the running sums and the kinds of layer of
    a long file, taken by numpy (the kinds grouped from the parser's columns), are those the
    value-by-value loop takes (a tail included)."""
    by_numpy = simulate(data, None, parse(OPTIONS))
    monkeypatch.setattr(report, "NUMPY_FROM", 10**9)
    monkeypatch.setattr(parsed_rows, "NUMPY_FROM", 10**9)
    by_loop = simulate(data, None, parse(OPTIONS))
    assert _facts(by_numpy) == _facts(by_loop)
    done = by_numpy.report
    assert done is not None and done.totals["bubble_time_us"] > 0
    assert by_numpy.rows is not None and by_loop.rows is not None
    grouped = by_numpy.rows.layers.values.kinds
    assert by_loop.rows.layers.values.kinds is None
    if data is LONG:
        assert done.tail_count == 49 and grouped is not None
    elif data is LONG_READ_WHOLE:
        assert done.tail is None and grouped is not None and len(grouped[1]) == 2
    else:
        assert grouped is None and done.first_index == list(range(7))


def test_rows_already_parsed_are_read_not_parsed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Given the parser's rows of the file, the model reads them (explain's parse) and
    predicts the run it predicts from the bytes alone."""
    rows = parse_bytes(LONG).workload.rows
    given = _facts(simulate(LONG, None, parse(OPTIONS), rows=rows))

    def no_parse(data: bytes) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(parsed_rows, "parse_bytes", no_parse)
    assert _facts(simulate(LONG, None, parse(OPTIONS), rows=rows)) == given
    monkeypatch.undo()
    assert given == _facts(simulate(LONG, None, parse(OPTIONS)))


def test_explain_hands_its_rows_to_simai_only_under_the_default_limits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Explain's SimAI section reads explain's own parse of the file; under other limits
    (which may read the rows otherwise than SimAI's model) the model parses the bytes."""
    from wkparse.config import Config
    from wkparse.explanation import simai_report
    from wkparse.explanation.configured import explained

    result = parse_bytes(LONG)
    handed: list[object] = []
    real = simai_report.simai_report

    def spy(*args: Any) -> Any:
        handed.append(args[-1])
        return real(*args)

    monkeypatch.setattr(simai_report, "simai_report", spy)
    e = explained(result, "w.txt", Config(), data=LONG)
    assert handed == [result.workload.rows]
    assert e.simai == real(LONG, "w.txt", None, Config().simai_version)
    explained(result, "w.txt", Config(max_line_bytes=1000), data=LONG)
    assert handed[-1] is None


def _loop(terms: list[float]) -> float:
    total = 0.0
    for t in terms:
        total += t
    return total


def test_running_sums_add_in_order_without_compensating() -> None:
    terms = [1e16, 1.0, 1.0, -1e16, 0.1, 0.2]
    assert running_sum(terms, (), 0) == _loop(terms)
    tail = [0.1, 0.7, 1e-3]
    assert running_sum(terms, tail, 3) == _loop(terms + tail * 3)


def test_running_sum_multiplies_a_long_tail_out() -> None:
    times = EXACT_REPEATS + 1
    tail = [0.1, 0.7, 1e-3]
    got = running_sum([2.5], tail, times)
    assert got == 2.5 + times * reduce(float.__add__, tail)


def test_a_tail_without_terms_costs_nothing_however_long() -> None:
    """A kind whose terms are all 0.0 has an empty tail: a declared count of 10**15 copies
    of it is no 10**15 steps (a file declaring 50,000,000 rows took seconds to explain)."""
    with fuzzing.watchdog(30):
        assert running_sum([2.5, 0.5], (), 10**15) == 3.0
        assert running_sum([2.5, 0.5], (), EXACT_REPEATS - 1) == 3.0


@pytest.mark.parametrize(
    "values",
    [
        [0, 1, 2**24 - 1, 2**24 + 1, 2**24 + 3, 2**25 + 6, 34021000, 2147483647, 2**53 - 1],
        [2**53 + 1, 2**63 + 12345, 2**64 - 1, 2**64 - 2**39, 7],
    ],
)
def test_scaled_floats_are_scaled(values: list[int]) -> None:
    assert list(scaled_floats(values)) == [float(scaled(v)) for v in values]


@pytest.mark.parametrize("typecode", ["b", "B", "h", "H", "i", "I", "q", "Q"])
def test_a_long_column_is_scaled_as_c_floats_by_numpy(typecode: str) -> None:
    """Past NUMPY_FROM values numpy converts the column: each value rounds to the C float
    that `array("f", ...)` (and SimAI's scale, below 2**53) gives it."""
    from array import array

    bits = array(typecode).itemsize * 8
    signed = typecode.islower()
    high = min(2 ** (bits - 1 if signed else bits) - 1, 2**53 - 1)
    low = -high if signed else 0
    span = high - low + 1
    spread = [low + (k * 7919 * (span // 9973 + 1)) % span for k in range(NUMPY_FROM + 8)]
    values = array(typecode, [*spread, high, 2**24 + 1 if high > 2**25 else 1])
    assert len(values) >= NUMPY_FROM
    assert list(scaled_floats(values)) == [float(scaled(v)) for v in values]


def test_a_long_column_is_added_one_term_at_a_time_by_numpy() -> None:
    """`sequential_sum` adds as the loop does, across chunks, where numpy's own `sum`
    (pairwise) rounds otherwise: terms of every magnitude, in chunks of uneven lengths."""
    import numpy

    rng = numpy.random.default_rng(7)
    terms = rng.random(30_000) * 10.0 ** rng.integers(-6, 17, 30_000)
    chunks = numpy.split(terms, [1, 5000, 5000, 12_345, 29_999])
    expected = _loop(terms.tolist())
    assert sequential_sum(chunks) == expected
    assert float(numpy.sum(terms)) != expected  # the test tells the two orders apart
    assert running_sum((), [0.1, 0.7], 3, sequential_sum(chunks)) == _loop(
        terms.tolist() + [0.1, 0.7] * 3
    )


def test_a_value_repeated_reads_as_a_list_of_it() -> None:
    """The parsed rows' policy and whether each was read whole are one value repeated: as a
    sequence it reads as the list of it would, without holding a list."""
    same, listed = parsed_rows.Same("x", 5), ["x"] * 5
    assert list(same) == listed and len(same) == 5 and same[-5] == "x" and same[4] == "x"
    assert same[1:4] == listed[1:4] and same[::2] == listed[::2] and same[7:] == []
    with pytest.raises(IndexError):
        same[5]


def test_one_layer_is_read_from_the_columns_alone() -> None:
    """A layer asked for by index (the text's rows that depart from the file) comes from the
    columns without every layer being made, is the layer the whole list holds, and is one
    instance however often it is asked for (plans are remembered per instance)."""
    from wkparse.render.simai import text

    data = _file(*(_row(i, f4="33554433") for i in range(3)), _row(3))
    result = simulate(data, None, parse(OPTIONS))
    assert result.rows is not None
    table = result.rows.layers
    assert "size 33554433 simulated as 33554432" in text.render(result, "w.txt")
    assert table._layers is None  # rendered from the columns
    assert [table[i] for i in range(4)] == [
        result.rows.layers.values.layer(v) for v in table.values.refs
    ]
    assert table[1] is table[1] and table[-1] is table[3]
    assert [table[i] for i in range(4)] == table.layers
