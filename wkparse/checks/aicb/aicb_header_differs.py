"""WK602 aicb-header-differs: the header or the count line differs from what AICB writes for
the command; why and examples in rules/WK602.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.checks.aicb.expected import (
    HEADER,
    START,
    expected,
    expected_header,
    header_departures,
)
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _


@file_check(HEADER)
def aicb_header_differs(ctx: Context) -> Iterator[Diagnostic]:
    made = expected(ctx)
    if made is None:
        return
    have = ctx.workload.header
    if have is None:
        message = _("no header; AICB writes {header}").format(header=repr(made.workload.header))
        yield Diagnostic(HEADER, message, START)
    else:
        yield from header_departures(have, expected_header(made.workload.header))
    count, rows = ctx.workload.count, made.workload.row_count
    if count is None:
        yield Diagnostic(
            HEADER, _("no row count line; AICB writes {rows}").format(rows=rows), START
        )
    elif count.value != rows:
        message = _("row count {count} here, AICB writes {rows}").format(
            count=count.text, rows=rows
        )
        yield Diagnostic(HEADER, message, count.span)
