"""WK203 missing-pp-comm: a pipeline-parallel header (pp > 1) has no pp_comm; why and examples in
rules/WK203.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import Span
from wkparse.checks import Context
from wkparse.checks.header.reading import header_check, pp_comm_from_body, replacement
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tables import TRANSFORMER_POLICIES
from wkparse.models.simai.tokens import Reading


@header_check("WK203", TRANSFORMER_POLICIES)
def missing_pp_comm(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    pp = r.value("pp")
    if pp is None or pp <= 1 or r.written("pp_comm"):
        return
    value = pp_comm_from_body(ctx, r)
    fix = None
    if value is not None:
        at = r.header.span.end_column
        fix = replacement(
            _("add `{key}: {value}`").format(key="pp_comm", value=value),
            Span.on_line(1, at, at),
            f" pp_comm: {value}",
            safe=False,
        )
    yield Diagnostic(
        "WK203",
        _(
            "pp is {pp} but the header has no `pp_comm:`: SimAI simulates no stage-to-stage traffic"
        ).format(pp=pp),
        r.header.span,
        fix=fix,
    )
