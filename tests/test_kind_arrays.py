"""SimAI's report with its kinds of layer timed over arrays (`wkparse.models.simai.kind_arrays`),
grouped or a kind per value, is the report the scalar model makes one kind at a time: the same
EndToEnd.csv, totals, broken collectives, costliest layers and `wkparse simai` text and JSON,
byte for byte, on every recorded oracle case, on edited files and on a file whose rows never
repeat."""

from __future__ import annotations

import io
import math
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SIMAI_ORACLE_2, oracle_params
from tests.test_simai_columns import EDITED, OPTIONS
from wkparse import columns
from wkparse.models.simai import kind_arrays, parsed_rows, report, simulate
from wkparse.models.simai.ieee import DEFAULT_NAN, TWO_63, div, f32, tick
from wkparse.models.simai.options import Refusal, parse
from wkparse.models.simai.run import SimaiRun
from wkparse.render.simai import json as simai_json
from wkparse.render.simai import text as simai_text

ROOT = Path(__file__).resolve().parent.parent
#: how the report's kinds are timed: one at a time, grouped over arrays, one per value
MODES = ("one at a time", "grouped", "per value")


def _run(data: bytes, words: list[str], mode: str, monkeypatch: pytest.MonkeyPatch) -> SimaiRun:
    """The run of `data`, its kinds timed as `mode` says, its columns read by numpy even
    when the file is short."""
    arrays = mode != "one at a time"
    with monkeypatch.context() as m:
        m.setattr(columns, "NUMPY_FROM", 1)
        m.setattr(parsed_rows, "NUMPY_FROM", 1)
        m.setattr(parsed_rows, "_few_kinds", lambda table: mode != "per value")
        m.setattr(report, "ARRAYS_FROM", 1 if arrays else 10**9)
        m.setattr(report, "NUMPY_FROM", 1 if arrays else 10**9)
        m.setattr(simai_text, "NUMPY_FROM", 1 if arrays else 10**9)
        return simulate(data, None, parse(words))


def _said(run: SimaiRun) -> list[Any]:
    """Everything the run's report says and what `wkparse simai` writes of it."""
    out = io.StringIO()
    simai_json.write(run, out)
    said: list[Any] = [simai_text.render(run, "w.txt"), out.getvalue()]
    r = run.report
    if r is not None:
        said += [r.csv(), repr(r.totals), r.first_infinite, r.first_wrapped, r.stop]
        kind_of, kinds, _ = r.by_kind()  # (a kind per value numbers more kinds)
        said += [r.stopped_at, r.phase_costs, r.costliest(5), repr([kinds[k] for k in kind_of])]
        said += [repr(list(r.distinct()))]
    return said


def _timed_over_arrays(run: SimaiRun) -> bool:
    rows = run.report._rows if run.report is not None else None
    return rows is not None and isinstance(rows.kinds, kind_arrays.KindArrays)


def _same_every_way(data: bytes, words: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    runs = {mode: _run(data, words, mode, monkeypatch) for mode in MODES}
    said = {mode: _said(run) for mode, run in runs.items()}
    assert said["grouped"] == said["one at a time"]
    assert said["per value"] == said["one at a time"]
    for mode, run in runs.items():  # (a file read by the stream model has no columns)
        values = run.rows.layers.values if run.rows is not None else None
        fast = values is not None and (values.kinds is not None or values.kinds_per_value)
        if run.report is not None and run.report.tail is None:
            assert _timed_over_arrays(run) == (fast and mode != "one at a time")


@pytest.mark.parametrize("case", oracle_params(SIMAI_ORACLE_2))
def test_oracle_case_reports_the_same_over_arrays(
    case: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    if isinstance(parse(case["options"]), Refusal):
        pytest.skip("SimAI refuses the options: no report")
    data = (SIMAI_ORACLE_2 / case["workload"]).read_bytes()
    _same_every_way(data, case["options"], monkeypatch)


#: options that make collectives infinite (a one-GPU TP group has no bandwidth: TP 1 below),
#: wrapped (no NICs), exposed by overlaps, or timed under another GPU type
ODD_OPTIONS = {
    "no NICs": ["-g", "32", "-g_p_s", "8", "-n_p_s", "0", "-r", "x-"],
    "overlaps": [
        "-g",
        "32",
        "-g_p_s",
        "8",
        "-n_p_s",
        "8",
        "-tp_o",
        "0.3",
        "-dp_o",
        "0.7",
        "-r",
        "x-",
    ],
    "H800, one GPU per server": [
        "-g",
        "32",
        "-g_p_s",
        "1",
        "-n_p_s",
        "1",
        "-g_type",
        "H800",
        "-r",
        "x-",
    ],
}


@pytest.mark.parametrize("name", EDITED)
@pytest.mark.parametrize("options", ["stated", *ODD_OPTIONS])
def test_edited_file_reports_the_same_over_arrays(
    name: str, options: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, _ = EDITED[name]
    words = OPTIONS if options == "stated" else ["-w", "w.txt", *ODD_OPTIONS[options]]
    _same_every_way(data, words, monkeypatch)


def _distinct_file() -> bytes:
    """An AICB-shaped file of about 6,000 rows (TP 8) whose compute times and sizes are
    jittered per group, so that nearly every row is a kind of its own."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import synthesize
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    shape = ["--model", "gpt_7B", "--world", "16", "--tp", "8", "--rows", "6000"]
    cfg, _, _ = synthesize.config_from_args(shape)
    return synthesize.render(cfg, jitter=0.05, seed=1, every_size=True).encode()


@pytest.mark.parametrize("tp", [8, 1])
def test_a_file_of_distinct_rows_reports_the_same_over_arrays(
    tp: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without any threshold moved: a kind per value (its rows never repeat), against the
    kinds made one at a time; a header of TP 1 makes every TP collective infinite."""
    data = _distinct_file().replace(
        b"model_parallel_NPU_group: 8", b"model_parallel_NPU_group: %d" % tp, 1
    )
    words = ["-w", "w.txt", "-g", "16", "-g_p_s", "8", "-n_p_s", "8", "-r", "x-"]
    fast = simulate(data, None, parse(words))
    assert fast.rows is not None and fast.rows.layers.values.kinds_per_value
    assert _timed_over_arrays(fast)
    with monkeypatch.context() as m:
        m.setattr(parsed_rows, "_few_kinds", lambda table: True)
        m.setattr(report, "ARRAYS_FROM", 10**9)
        slow = simulate(data, None, parse(words))
    assert not _timed_over_arrays(slow)
    assert _said(fast) == _said(slow)
    assert fast.report is not None and (fast.report.first_infinite is not None) == (tp == 1)


def test_the_text_of_distinct_rows_makes_no_python_object_per_row() -> None:
    """`wkparse simai`'s text on a file of distinct rows: its costliest layers read one
    value's microseconds from the columns (not the columns made Python floats) and every
    row's first index is a range (not a list of ints): on a million rows each is ~100 MB
    of pages, more than the report costs."""
    words = ["-w", "w.txt", "-g", "16", "-g_p_s", "8", "-n_p_s", "8", "-r", "x-"]
    run = simulate(_distinct_file(), None, parse(words))
    assert run.report is not None and run.report._rows is not None
    simai_text.render(run, "w.txt")
    assert "us" not in vars(run.report._rows)
    assert isinstance(run.report.first_index, range)


def test_the_sums_of_a_kind_per_row_make_their_terms_a_chunk_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Row i is kind i: each chunk's terms are made from its kinds alone, never a column as
    long as the file (on a million rows, 24 MB of pages per sum of three columns)."""
    asked: list[slice] = []
    made = kind_arrays.KindArrays.term_columns

    def term_columns(self: Any, columns: Any, part: slice = kind_arrays.ALL) -> Any:
        asked.append(part)
        return made(self, columns, part)

    monkeypatch.setattr(kind_arrays.KindArrays, "term_columns", term_columns)
    monkeypatch.setattr(report, "CHUNK_ROWS", 1000)
    words = ["-w", "w.txt", "-g", "16", "-g_p_s", "8", "-n_p_s", "8", "-r", "x-"]
    run = simulate(_distinct_file(), None, parse(words))
    assert _timed_over_arrays(run) and run.report is not None and run.report.totals
    assert asked and all(p.stop is not None and p.stop - p.start <= 1000 for p in asked)


def test_timing_kinds_over_arrays_never_asks_numpy_unique(monkeypatch: pytest.MonkeyPatch) -> None:
    """`numpy.unique` imports numpy.ma (17 ms of explain's start-up); the kinds' tokens are
    small codes, counted instead."""
    import numpy

    def unique(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("numpy.unique")

    words = ["-w", "w.txt", "-g", "16", "-g_p_s", "8", "-n_p_s", "8", "-r", "x-"]
    data = _distinct_file()
    monkeypatch.setattr(numpy, "unique", unique)
    run = simulate(data, None, parse(words))
    assert _timed_over_arrays(run)
    assert run.report is not None and run.report.csv()


def test_ieee_helpers_match_the_scalar_ones() -> None:
    """`div`, `f32` and `tick` over arrays give the scalar model's values, the edges too."""
    import numpy

    inf = float("inf")
    edges = [0.0, -0.0, 1.0, -1.0, 2.5, 3e38, 4e38, -4e38, 1e300, inf, -inf, DEFAULT_NAN]
    edges += [float(TWO_63), float(TWO_63) * 2, -float(TWO_63), -1e19, 1e19, 2.0**64]
    a = numpy.array(edges)
    assert [repr(x) for x in kind_arrays.f32(a).tolist()] == [repr(f32(v)) for v in edges]
    assert kind_arrays.ticks(a).tolist() == [tick(v) for v in edges]
    for b in (0.0, -0.0, 2.0, DEFAULT_NAN):
        got = kind_arrays.div(a, b).tolist()
        want = [div(v, b) for v in edges]
        assert [repr(x) for x in got] == [repr(y) for y in want]
        assert [math.copysign(1, x) for x in got] == [math.copysign(1, y) for y in want]


def _json(data: bytes, words: list[str], m: pytest.MonkeyPatch, planned: bool) -> str:
    """`simai --format json`: a template per collective and kind of size, the sizes cells
    (`_Shapes`, used for short files too), or `planned`: each size planned on its own."""
    if planned:
        m.setattr(simai_json._Templates, "_part", simai_json._Templates._planned)
        m.setattr(simai_json, "_simulated_sizes", lambda run, values: None)
    else:
        m.setattr(simai_json, "NUMPY_FROM", 1)
    out = io.StringIO()
    simai_json.write(simulate(data, None, parse(words)), out)
    return out.getvalue()


def _json_both_ways(data: bytes, words: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        shared = _json(data, words, m, planned=False)
    with monkeypatch.context() as m:
        assert _json(data, words, m, planned=True) == shared


@pytest.mark.parametrize("case", oracle_params(SIMAI_ORACLE_2))
def test_json_layers_of_one_collective_share_a_template_the_sizes_filled_in(
    case: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`simai --format json` plans each collective once per kind of size (small message or
    not) and fills each layer's sizes in; planned size by size, the JSON is the same."""
    if isinstance(parse(case["options"]), Refusal):
        pytest.skip("SimAI refuses the options: no report")
    data = (SIMAI_ORACLE_2 / case["workload"]).read_bytes()
    for words in (case["options"], ["-w", "w.txt", *ODD_OPTIONS["no NICs"]]):
        _json_both_ways(data, words, monkeypatch)


@pytest.mark.parametrize("name", EDITED)
def test_json_of_an_edited_file_is_the_same_planned_size_by_size(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _json_both_ways(EDITED[name][0], OPTIONS, monkeypatch)


def test_json_of_distinct_sizes_is_the_same_planned_size_by_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    words = ["-w", "w.txt", "-g", "16", "-g_p_s", "8", "-n_p_s", "8", "-r", "x-"]
    _json_both_ways(_distinct_file(), words, monkeypatch)
