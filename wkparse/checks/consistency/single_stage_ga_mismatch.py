"""WK308 single-stage-ga-mismatch: with pp: 1 the header's ga differs from the micro-batch
groups in the body; why and examples in rules/WK308.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.checks.consistency.declared import (
    declared,
    fix_value,
    groups_against_ga,
    has_layers,
)
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _, _plural


@file_check("WK308")
def single_stage_ga_mismatch(ctx: Context) -> Iterator[Diagnostic]:
    found = declared(ctx, "ga", single_stage=True)
    if found is None or not has_layers(ctx):
        return
    header, ga, span = found
    counted = groups_against_ga(ctx, ga)
    if counted is None:
        return
    yield Diagnostic(
        "WK308",
        _("ga is {ga} but the body holds {counted} (harmless to SimAI with pp: 1)").format(
            ga=ga, counted=_plural(counted, "{n} micro-batch group", "{n} micro-batch groups")
        ),
        span,
        fix=fix_value(ctx, header, "ga", counted),
    )
