"""WK306 no-micro-batch-rows: the header declares ga but the body holds no transformer layer;
why and examples in rules/WK306.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.body import count_layers
from wkparse.checks import Context, file_check
from wkparse.checks.training import training_header, value_span
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tokens import header_value


def _aicb_without_groups(ctx: Context) -> bool:
    """AICB's shape with the micro-batches gone: once-per-iteration rows, then its epilogue
    (`cross_entropy*`, `optimizer*`) straight after them."""
    start = ctx.body.epilogue_start
    return 0 < start < len(ctx.workload.rows)


@file_check("WK306")
def no_micro_batch_rows(ctx: Context) -> Iterator[Diagnostic]:
    header = training_header(ctx)
    if header is None:
        return
    ga, span = header_value(header, "ga"), value_span(header, "ga")
    body = ctx.body
    if ga is None or span is None or body.has_groups or count_layers(body.names):
        return
    if ga != 0 and not _aicb_without_groups(ctx):
        return  # a hand-made file of collectives: SimAI simulates its rows, whatever their names
    yield Diagnostic(
        "WK306",
        _(
            "ga is {ga} but the body holds no transformer layer: SimAI simulates no training step"
        ).format(ga=ga),
        span,
    )
