"""Structure checks: the count line against the rows present (WK105)."""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import Span
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic, Edit, Fix


@file_check("WK105")
def count_matches_rows(ctx: Context) -> Iterator[Diagnostic]:
    count = ctx.workload.count
    if count is None or count.value is None:
        return
    declared, present = count.value, len(ctx.workload.rows)
    if declared == present:
        return
    if declared > present:
        effect = (
            f"SimAI reads {declared - present:,} phantom layers with empty names that copy "
            f"the last row's compute times, so the totals are wrong"
        )
    else:
        effect = f"SimAI ignores the last {present - declared:,} rows"
    fix = Fix(f"set the count to {present}", (Edit(count.span, str(present)),))
    yield Diagnostic(
        "WK105",
        f"line 2 declares {declared:,} rows but the file has {present:,}: {effect}; "
        f"set line 2 to {present}",
        Span(count.span.line, count.span.column, count.span.end_line, count.span.end_column),
        fix=fix,
    )
