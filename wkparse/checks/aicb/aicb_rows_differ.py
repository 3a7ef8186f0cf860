"""WK604 aicb-rows-differ: rows stand in another order, or are missing or extra, against what
AICB writes for the command; why and examples in rules/WK604.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.checks.aicb.expected import ROWS, comparison, expected, show, where
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _


@file_check(ROWS)
def aicb_rows_differ(ctx: Context) -> Iterator[Diagnostic]:
    made = expected(ctx)
    if made is None:
        return
    found = comparison(ctx.file, made)  # the file as written: AICB wrote every line of it
    groups = len(made.workload.groups)
    for (section, here, there), seen in found.order.items():
        message = _("row {here} stands where AICB writes {there} {where}").format(
            here=show(here), there=show(there), where=where(section, seen, groups)
        )
        yield Diagnostic(ROWS, message, seen.span)
    yield from found.structure
