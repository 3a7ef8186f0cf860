"""Lint and explain over whole columns (`wkparse.columns`) say exactly what row by row says.

Tables from `NUMPY_FROM` values on are grouped with numpy, smaller ones in plain Python. These
tests set the threshold so that each file goes through one path, then the other, and compare
every finding and every explain fact; the row checks are also compared with asking each row's
own value, one row at a time. Files: the corpus, our samples, and the samples with seeded
edits that make findings of every row kind, rows the columns cannot hold whole (a missing
field, a bad token) and numbers past 64 bits (a column that is a Python list).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import SAMPLES, corpus_params
from wkparse import checks, columns, parse_text
from wkparse.ast import RowFields
from wkparse.checks import Context, RowCheck, RowProblem, diagnostics_on_rows
from wkparse.config import Config
from wkparse.engine import _run_row_checks, lint
from wkparse.explanation import explain
from wkparse.models.simai import parsed_rows
from wkparse.parse import ParseResult

ALWAYS_NUMPY = 0
NEVER_NUMPY = 10**12


def _sample(name: str) -> str:
    return (SAMPLES / name).read_text()


#: One edit of a row's tab-separated fields: each makes a finding or an odd value.
EDITS = (
    lambda f, r: f.__setitem__(3, "ALLREDUCE_XX"),
    lambda f, r: f.__setitem__(6, "BROADCAST"),
    lambda f, r: f.__setitem__(9, "ALLREDUCEALLTOALL"),
    lambda f, r: f.__setitem__(3, "ALLREDUC"),
    lambda f, r: (f.__setitem__(3, "ALLTOALL_EP"), f.__setitem__(4, str(r.randint(1, 10**9)))),
    lambda f, r: f.__setitem__(4, "0"),
    lambda f, r: (f.__setitem__(6, "NONE"), f.__setitem__(7, str(r.randint(1, 999)))),
    lambda f, r: f.__setitem__(1, str(r.choice([5, 0, 2**31, -7]))),
    lambda f, r: f.__setitem__(2, str(2**64 + r.randint(0, 9))),
    lambda f, r: f.__setitem__(10, str(2**63 + r.randint(0, 9))),
    lambda f, r: f.__setitem__(5, str(r.randint(0, 2**40))),
    lambda f, r: f.__setitem__(2, "x" + f[2]),
    lambda f, r: f.pop(),
    lambda f, r: f.__setitem__(7, ""),
)


def edited(text: str, seed: int, count: int, ep_one: bool) -> str:
    """`text` with `count` seeded edits of its rows (and `ep: 1` when `ep_one`)."""
    r = random.Random(seed)
    lines = text.split("\n")
    for _ in range(count):
        i = r.randrange(2, len(lines) - 1)
        fields = lines[i].split("\t")
        if len(fields) >= 12:
            r.choice(EDITS)(fields, r)
            lines[i] = "\t".join(fields)
    if ep_one:
        lines[0] = lines[0].replace("ep: 8", "ep: 1")
    return "\n".join(lines)


def reading(result: ParseResult, path: str) -> tuple[list[object], str]:
    """Every finding (opt-in rules too) and the whole explanation, as comparable values."""
    found = lint(result, path, Config(opt_in=True))
    shown = [(d.code, d.span, d.message, d.fix, d.severity) for d in found]
    return shown, repr(explain(result, path, findings=found))


def both_paths(text: str, path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    readings = []
    for threshold in (ALWAYS_NUMPY, NEVER_NUMPY):
        monkeypatch.setattr(columns, "NUMPY_FROM", threshold)
        readings.append(reading(parse_text(text), path))
    assert readings[0] == readings[1]


def row_by_row(result: ParseResult) -> list[object]:
    """The row checks' findings when each value is asked in turn, whole or not."""
    import wkparse.checks.all  # noqa: F401  (registers the checks)

    ctx = Context(result.workload)
    problems: dict[int, list[RowProblem]] = {}
    values = result.workload.rows.values
    for registered in (r for r in checks.REGISTRY if r.per_row):
        check: RowCheck = registered.function  # type: ignore[assignment]
        for value in range(len(values)):
            found = list(check(ctx, RowFields(values, value)))
            if found:
                problems.setdefault(value, []).extend(found)
    return [(d.code, d.span, d.message, d.fix) for d in diagnostics_on_rows(ctx, problems)]


def by_columns(result: ParseResult) -> list[object]:
    import wkparse.checks.all  # noqa: F401  (registers the checks)

    ctx = Context(result.workload)
    found = _run_row_checks(ctx, [r for r in checks.REGISTRY if r.per_row])
    return [(d.code, d.span, d.message, d.fix) for d in found]


@pytest.mark.parametrize("path", corpus_params())
def test_corpus_reads_the_same_through_both_paths(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    both_paths(path.read_text(errors="replace"), path.name, monkeypatch)


@pytest.mark.parametrize("sample", ["mixtral-world32-tp2-pp2-ep8-sp-moe.txt"])
@pytest.mark.parametrize("seed", range(4))
def test_edited_samples_read_the_same_through_both_paths(
    sample: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = edited(_sample(sample), seed, count=150, ep_one=seed % 2 == 1)
    both_paths(text, sample, monkeypatch)
    result = parse_text(text)
    codes = {d.code for d in lint(result, sample, Config(opt_in=True))}
    # the edits make findings of every row kind, partial rows and a list column
    assert {"WK401", "WK404", "WK405", "WK406", "WK408"} <= codes
    assert result.workload.rows.values.partial
    assert any(isinstance(c, list) for c in result.workload.rows.values.columns)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10**6), count=st.integers(1, 60), ep_one=st.booleans())
def test_any_edits_read_the_same_through_both_paths(
    seed: int, count: int, ep_one: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = edited(_sample("mixtral-world32-tp2-pp2-ep8-sp-moe.txt"), seed, count, ep_one)
    both_paths(text, "edited.txt", monkeypatch)


@pytest.mark.parametrize("threshold", [ALWAYS_NUMPY, NEVER_NUMPY])
@pytest.mark.parametrize("seed", range(3))
def test_row_checks_say_what_each_row_says(
    seed: int, threshold: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(columns, "NUMPY_FROM", threshold)
    text = edited(_sample("gpt13b-world8-tp2-pp1-sp.txt"), seed, count=150, ep_one=False)
    result = parse_text(text)
    found = by_columns(result)
    assert found == row_by_row(result)
    assert {c for c, *_ in found} >= {"WK401", "WK402", "WK403", "WK409"}
    # WK408 is one rule over the reserved field (by distinct value, as a row check is) and
    # over numbers past 64 bits; its reserved findings are those of each row's own value
    rows = result.workload.rows
    out_of_range = [
        row.span("reserved")
        for row in (rows[i] for i in range(len(rows)))
        if row.fields.reserved is not None and not -(2**31) <= row.fields.reserved < 2**31
    ]
    wk408 = [
        d.span
        for d in lint(result, None, Config(select=("WK408",)))
        if d.message.startswith("the reserved field")
    ]
    assert out_of_range and wk408 == out_of_range


def test_distinct_rows_and_their_diff_read_the_same_through_both_paths(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rows that never repeat, in more micro-batch groups than explain compares one by one:
    explain keys them by their values, and diff against an edited copy reads them too."""
    from tests.test_columns import distinct_text
    from wkparse.difference import diff

    text = distinct_text(groups=60)
    other = edited(text, seed=7, count=30, ep_one=False)
    seen = []
    for threshold in (ALWAYS_NUMPY, NEVER_NUMPY):
        monkeypatch.setattr(columns, "NUMPY_FROM", threshold)
        a, b = parse_text(text), parse_text(other)
        seen.append((reading(a, "a.txt"), reading(b, "b.txt"), repr(diff(a, b))))
    assert seen[0] == seen[1]
    assert explain(parse_text(text), "a.txt").groups == 60


@pytest.mark.parametrize(
    "late",
    [None, 7, 10**12, -3],
    ids=["few keys", "a new key inside", "a new key above", "a new key below"],
)
def test_wide_keys_are_numbered_as_a_sort_numbers_them(late: int | None) -> None:
    """A column of few wide keys is numbered by a binary search among the first chunk's
    keys, exactly as sorting the whole column numbers it; a key first seen later (between,
    above or below the others) makes it sort the whole column."""
    import numpy

    rng = numpy.random.default_rng(3)
    key = rng.choice(numpy.array([5, 2**40, 9, 2**33 + 1], dtype=numpy.int64), 200_000)
    if late is not None:
        key[150_000] = late
    unique, inverse = numpy.unique(key, return_inverse=True)
    codes, count = columns._renumber(key)
    assert count == len(unique) and codes.tolist() == inverse.reshape(-1).tolist()


def test_lint_explain_and_simai_share_one_count_of_a_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    """Explain lints, explains and runs SimAI's model over one parse: its groups are counted
    once (one `Body`) and its columns grouped once (one `Columns`), not once per reader."""
    from wkparse import body as body_module
    from wkparse.explanation.configured import explained

    made: list[str] = []
    real_columns, real_body = columns.Columns.__init__, body_module.Body.__init__

    def counted_columns(self: columns.Columns, *args: object) -> None:
        made.append("columns")
        real_columns(self, *args)  # type: ignore[arg-type]

    def counted_body(self: object, *args: object) -> None:
        made.append("body")
        real_body(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(columns.Columns, "__init__", counted_columns)
    monkeypatch.setattr(body_module.Body, "__init__", counted_body)
    monkeypatch.setattr(columns, "NUMPY_FROM", ALWAYS_NUMPY)
    monkeypatch.setattr(parsed_rows, "NUMPY_FROM", ALWAYS_NUMPY)  # SimAI's kinds grouped too
    data = (SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt").read_bytes()
    result = parse_text(data.decode())
    e = explained(result, "w.txt", Config(), data=data)
    assert e.simai is not None and sorted(made) == ["body", "columns"]
    assert isinstance(result.workload.rows.derived("columns", list), columns.Columns)
