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


@file_check("WK306")
def no_micro_batch_rows(ctx: Context) -> Iterator[Diagnostic]:
    header = training_header(ctx)
    if header is None:
        return
    ga, span = header_value(header, "ga"), value_span(header, "ga")
    body = ctx.body
    if ga is None or span is None or body.has_groups or count_layers(body.names):
        return
    yield Diagnostic(
        "WK306",
        _(
            "ga is {ga} but the body holds no transformer layer: SimAI simulates no training step"
        ).format(ga=ga),
        span,
    )
