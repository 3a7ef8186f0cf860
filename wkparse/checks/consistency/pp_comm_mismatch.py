"""WK303 pp-comm-mismatch: the header's pp_comm differs from the activation size the rows
carry; why and examples in rules/WK303.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.checks.consistency.declared import fix_value, pipelined_value
from wkparse.checks.training import TP_KEY
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.aicb.formulas import pp_comm_bytes
from wkparse.models.simai.tokens import header_value


@file_check("WK303")
def pp_comm_mismatch(ctx: Context) -> Iterator[Diagnostic]:
    found = pipelined_value(ctx, "pp_comm")
    if found is None:
        return
    header, declared, span = found
    tp = header_value(header, TP_KEY)
    body = ctx.body
    activation, row = body.activation_bytes, body.activation_row
    if not tp or activation is None or row is None:
        return
    sp = body.sequence_parallel and tp > 1
    expected = pp_comm_bytes(activation, tp, sequence_parallel=sp)
    if declared == expected:
        return
    line = ctx.workload.rows.lines[row]
    if sp:
        message = _(
            "pp_comm is {declared}, not activation {activation} (line {line}) / TP {tp} = "
            "{expected}: SimAI's pipeline traffic is off"
        )
    else:
        message = _(
            "pp_comm is {declared}, not the activation size on line {line}, {expected}: "
            "SimAI's pipeline traffic is off"
        )
    yield Diagnostic(
        "WK303",
        message.format(
            declared=declared, activation=activation, line=line, tp=tp, expected=expected
        ),
        span,
        fix=fix_value(ctx, header, "pp_comm", expected, counted=False),
    )
