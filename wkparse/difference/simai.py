"""What `wkparse diff` says about SimAI-Analytical: the Total time each file's run is
predicted to report under explain's stated option set (`explain.simai_report.simai_run`, so
both commands predict the same run), and the layers whose predicted cost changed most.

A layer's cost is its compute plus its exposed comm (the three phases), the parts of
EndToEnd.csv that add up to the total; layers are matched by position.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterator
from itertools import repeat, zip_longest
from typing import Any

from wkparse.ast import RowTable
from wkparse.columns import NUMPY_FROM
from wkparse.difference.model import LayerCostChange, SimaiChange, SimaiSide
from wkparse.models.simai.report import FREQ, Report
from wkparse.models.simai.run import SimaiRun
from wkparse.models.simai.versions import SimaiVersion

#: layers shown, biggest change first
TOP = 5


def simai_change(
    a: bytes,
    a_path: str,
    b: bytes,
    b_path: str,
    rows: tuple[RowTable | None, RowTable | None] = (None, None),
    versions: tuple[SimaiVersion | None, SimaiVersion | None] = (None, None),
) -> SimaiChange:
    """The two runs compared, each at its SimAI (`versions`; None: the default); `rows`:
    each side's rows as the parser read them under the default limits, when the caller has
    them (the model then does not parse them again)."""
    from wkparse.explanation.simai_report import _without_names, simai_run
    from wkparse.models.simai.options import Refusal

    run_a, opts_a = simai_run(a, a_path, version=versions[0], rows=rows[0])
    run_b, opts_b = simai_run(b, b_path, version=versions[1], rows=rows[1])
    shown_a, shown_b = (
        "" if isinstance(o, Refusal) else " ".join(_without_names(o.given))
        for o in (opts_a, opts_b)
    )
    return SimaiChange(shown_a, shown_b, _side(run_a), _side(run_b), _top_layers(run_a, run_b))


def _side(run: SimaiRun) -> SimaiSide:
    o = run.outcome
    report = run.report
    where = ""
    if o.layer is not None and run.rows is not None:
        line = run.rows.layers.line(o.layer)
        where = f" at line {line}" if line else f" at layer {o.layer}"
    if o.kind == "hang":
        return SimaiSide(None, o.kind, f"never finishes (hangs{where})")
    if report is None or report.summary is None:
        if o.kind in ("ok", "no-result"):
            return SimaiSide(None, "no-result", f"no result{where}")
        return SimaiSide(None, o.kind, f"no result ({o.kind}, exit {o.exit_code}{where})")
    total = report.total_time_us
    if total is None or not math.isfinite(total):
        return SimaiSide(None, o.kind, "Total time is NaN or Inf")
    from wkparse.models.simai.reasons import why

    # a number SimAI prints that is no real time (an infinite collective) says why
    return SimaiSide(total, o.kind, why(run, report) if report.broken else None)


def _costs(report: Report) -> list[float]:
    """Each distinct layer's compute plus exposed comm, in microseconds."""
    return [sum(phases) / FREQ for phases in report.phase_costs]


def _top_layers(a: SimaiRun, b: SimaiRun) -> tuple[LayerCostChange, ...]:
    """The TOP layers whose cost changed most; each distinct layer's cost is taken once, so a
    million repeated rows cost a lookup each."""
    ra, rb = a.report, b.report
    if ra is None or rb is None:
        return ()
    costs_a, costs_b = _costs(ra), _costs(rb)
    # past both sides' read layers every row is a tail copy (a count line may declare a
    # billion): their changes are all alike, so the first TOP of them are all that can show
    rows = min(max(ra.row_count, rb.row_count), max(len(ra.order), len(rb.order)) + TOP)
    changed = (_changed_in_c if rows >= NUMPY_FROM else _changed)(ra, costs_a, rb, costs_b, rows)
    out = []
    for _, neg, ca, cb in heapq.nlargest(TOP, changed):
        i = -neg
        out.append(LayerCostChange(i, *_where(a, ra, i), *_where(b, rb, i), a_us=ca, b_us=cb))
    return tuple(out)


def _changed(
    ra: Report, costs_a: list[float], rb: Report, costs_b: list[float], rows: int
) -> list[tuple[float, int, float, float]]:
    """`_top_layers`' candidates: (change, -row, cost before, cost after) of each of the
    first `rows` rows whose cost changed, row by row."""
    changed = []
    for i, (ka, kb) in enumerate(zip_longest(_keys(ra), _keys(rb))):
        if i >= rows:
            break
        ca = 0.0 if ka is None else costs_a[ka]
        cb = 0.0 if kb is None else costs_b[kb]
        if ca != cb:
            changed.append((abs(cb - ca), -i, ca, cb))
    return changed


def _changed_in_c(
    ra: Report, costs_a: list[float], rb: Report, costs_b: list[float], rows: int
) -> list[tuple[float, int, float, float]]:
    """`_top_layers`' candidates of many rows: each row's cost on both sides compared in C,
    and of the rows that changed the TOP biggest changes (the earlier row of equal ones)
    unless a change is NaN, which only the loop's ordering places."""
    import numpy

    at_a, at_b = _row_costs(ra, costs_a, rows), _row_costs(rb, costs_b, rows)
    where = (at_a != at_b).nonzero()[0]
    at_a, at_b = at_a[where], at_b[where]
    gap = numpy.abs(at_b - at_a)
    if not numpy.isnan(gap).any():
        top = numpy.lexsort((where, -gap))[:TOP]
        where, at_a, at_b, gap = where[top], at_a[top], at_b[top], gap[top]
    found = zip(gap.tolist(), where.tolist(), at_a.tolist(), at_b.tolist())
    return [(g, -i, ca, cb) for g, i, ca, cb in found]


def _row_costs(report: Report, costs: list[float], rows: int) -> Any:
    """The cost of each of the first `rows` rows as a numpy array (0.0 past the report's)."""
    import numpy

    out = numpy.zeros(rows)
    order = report.order[:rows]
    out[: len(order)] = numpy.asarray(costs)[numpy.asarray(order, dtype=numpy.intp)]
    if report.tail is not None:
        copies = min(report.tail_count, rows - len(order))
        out[len(order) : len(order) + copies] = costs[report.tail]
    return out


def _keys(report: Report) -> Iterator[int]:
    """Each row's index into `report.layers`, in order."""
    yield from report.order
    if report.tail is not None:
        yield from repeat(report.tail, report.tail_count)


def _where(run: SimaiRun, report: Report, index: int) -> tuple[str | None, int | None]:
    if index >= report.row_count:
        return None, None
    keys = report.order
    k = keys[index] if index < len(keys) else report.tail
    name = None if k is None else report.layer(k).name
    line = None if run.rows is None else run.rows.layers.line(index)
    return name, line
