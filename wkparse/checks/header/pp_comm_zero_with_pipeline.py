"""WK212 pp-comm-zero-with-pipeline: pp_comm is 0 although the model is split into pipeline stages;
why and examples in rules/WK212.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import (
    header_check,
    last_int,
    pp_comm_from_body,
    replacement,
)
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tables import TRANSFORMER_POLICIES
from wkparse.models.simai.tokens import Reading


@header_check("WK212", TRANSFORMER_POLICIES)
def pp_comm_zero_with_pipeline(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    pp, read = r.value("pp"), last_int(r, "pp_comm")
    if pp is None or pp <= 1 or read is None or read.value != 0:
        return
    span = read.token.span
    value = pp_comm_from_body(ctx, r)
    fix = (
        replacement(
            _("set {key} to {value}").format(key="pp_comm", value=value),
            span,
            str(value),
            safe=False,
        )
        if value
        else None
    )
    yield Diagnostic(
        "WK212",
        _("pp is {pp} but pp_comm is 0: SimAI simulates no stage-to-stage traffic").format(pp=pp),
        span,
        fix=fix,
    )
