"""WK701 compute-overflows-int: a compute time of 2^31 ns or more, which SimAI-Analytical's
`int` cuts (a hang, or an empty result); why and examples in rules/WK701.toml.

Compute times vary from row to row (a million distinct values in a large AICB file), so the
columns are screened at C speed first (`Columns.largest`, numpy's max on a large file): only
a column holding a time near 2^31 is looked at value by value.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import PHASE_WORDS, ROW_FIELDS, RowFields
from wkparse.checks import Context, RowProblem, diagnostics_on_rows, file_check
from wkparse.checks.analytical.common import facts
from wkparse.cpp import INT_MAX
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _

#: the smallest time SimAI's float scale can round up to 2^31 lies above this (2^31 - 256)
SCREEN = INT_MAX - 255


def _problem(phase: str, value: int) -> RowProblem | None:
    # SimAI's timeline model, imported only for a time past the screen
    from wkparse.models.simai.timeline import cut_int

    cut = cut_int(value)
    if cut is None:
        return None
    ns, as_int = cut
    if as_int < 0:
        what = _("SimAI never finishes (its clock runs toward 2^64)")
    else:
        what = _("SimAI exits 0 at once with an empty EndToEnd.csv")
    return RowProblem(
        "WK701",
        ROW_FIELDS.index(f"{phase}_compute"),
        _("the {phase} compute {ns} ns is {cut} as SimAI's int: {what}").format(
            phase=_(PHASE_WORDS[phase]), ns=ns, cut=as_int, what=what
        ),
    )


@file_check("WK701")
def compute_overflows_int(ctx: Context) -> Iterator[Diagnostic]:
    if facts(ctx) is None:
        return
    values = ctx.workload.rows.values
    problems: dict[int, list[RowProblem]] = {}
    for phase in ("fwd", "ig", "wg"):
        field = ROW_FIELDS.index(f"{phase}_compute")
        top = ctx.columns.largest(field)
        if top is None or top < SCREEN:
            continue
        column = values.column(field)
        for where, raw in enumerate(column):
            if raw < SCREEN:
                continue
            value = RowFields(values, where).phase(phase).compute
            found = None if value is None else _problem(phase, value)
            if found is not None:
                problems.setdefault(where, []).append(found)
    yield from diagnostics_on_rows(ctx, problems)
