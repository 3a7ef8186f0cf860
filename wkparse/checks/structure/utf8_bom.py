"""WK107 utf8-bom: a UTF-8 byte order mark precedes the policy; why and examples in
rules/WK107.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import Span
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic, Edit, Fix
from wkparse.i18n import _


@file_check("WK107")
def utf8_bom(ctx: Context) -> Iterator[Diagnostic]:
    workload = ctx.workload
    if not workload.bom:
        return
    header = workload.header
    span = header.policy_span if header is not None else Span.on_line(1, 1, 1)
    policy = f"`{header.policy}`" if header is not None else _("the policy")
    yield Diagnostic(
        "WK107",
        _(
            "a UTF-8 byte order mark precedes {policy}: SimAI reads it as part of the policy "
            "and exits"
        ).format(policy=policy),
        span,
        # column 0 of line 1 addresses the mark itself (the parser's columns start after it)
        fix=Fix(_("remove the byte order mark"), (Edit(Span(1, 0, 1, 1), ""),)),
    )
