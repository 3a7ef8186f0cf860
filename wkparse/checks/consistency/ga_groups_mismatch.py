"""WK302 ga-groups-mismatch: the header's ga differs from the micro-batch groups in the body;
why and examples in rules/WK302.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.checks.consistency.declared import (
    bubble_effect,
    fix_value,
    groups_against_ga,
    pipelined_value,
)
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _, _plural


@file_check("WK302")
def ga_groups_mismatch(ctx: Context) -> Iterator[Diagnostic]:
    found = pipelined_value(ctx, "ga")
    if found is None:
        return
    header, ga, span = found
    counted = groups_against_ga(ctx, ga)
    if counted is None:
        return
    yield Diagnostic(
        "WK302",
        _("ga is {ga} but the body holds {counted}: {effect}").format(
            ga=ga,
            counted=_plural(counted, "{n} micro-batch group", "{n} micro-batch groups"),
            effect=bubble_effect(counted, ga),
        ),
        span,
        fix=fix_value(ctx, header, "ga", counted),
    )
