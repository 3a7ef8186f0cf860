"""WK105 count-mismatch: the row count on line 2 differs from the rows in the file; why and
examples in rules/WK105.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import CountLine, Span
from wkparse.checks import Context, file_check
from wkparse.cpp import stoi
from wkparse.diagnostics import Diagnostic, Edit, Fix
from wkparse.i18n import _, _plural


def declared_rows(count: CountLine) -> int | None:
    """The row count SimAI reads from line 2: its `std::stoi` also takes the leading integer
    of `1291abc` or `1291.0` (WK104), so those are compared with the rows too. None when
    stoi throws or the count is negative (SimAI then makes no layers at all)."""
    if count.value is not None:
        return count.value
    value = stoi(count.text).value
    return value if value is not None and value >= 0 else None


@file_check("WK105")
def count_mismatch(ctx: Context) -> Iterator[Diagnostic]:
    count = ctx.workload.count
    declared = declared_rows(count) if count is not None else None
    if count is None or declared is None:
        return
    present = len(ctx.workload.rows)
    if declared == present:
        return
    if declared > present:
        more = declared - present
        effect = _plural(more, "SimAI adds {n} phantom layer", "SimAI adds {n} phantom layers")
    else:
        fewer = present - declared
        effect = _plural(fewer, "SimAI ignores the last row", "SimAI ignores the last {n} rows")
    fix = Fix(_("set the count to {n}").format(n=present), (Edit(count.span, str(present)),))
    yield Diagnostic(
        "WK105",
        _("line 2 declares {declared} but the file has {present}: {effect}").format(
            declared=_plural(declared, "{n} row", "{n} rows"), present=f"{present:,}", effect=effect
        ),
        Span(count.span.line, count.span.column, count.span.end_line, count.span.end_column),
        fix=fix,
    )
