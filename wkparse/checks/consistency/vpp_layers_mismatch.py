"""WK301 vpp-layers-mismatch: the header's vpp differs from the transformer layers in each
micro-batch group; why and examples in rules/WK301.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.checks.consistency.declared import (
    bubble_effect,
    fix_value,
    layers_against_vpp,
    pipelined_value,
)
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _, _plural


@file_check("WK301")
def vpp_layers_mismatch(ctx: Context) -> Iterator[Diagnostic]:
    found = pipelined_value(ctx, "vpp")
    if found is None:
        return
    header, vpp, span = found
    layers = layers_against_vpp(ctx, vpp)
    if layers is None:
        return
    yield Diagnostic(
        "WK301",
        _("vpp is {vpp} but each micro-batch group holds {layers}: {effect}").format(
            vpp=vpp,
            layers=_plural(layers, "{n} transformer layer", "{n} transformer layers"),
            effect=bubble_effect(layers, vpp),
        ),
        span,
        # vpp: 0 would only trade this for SimAI's division by zero
        fix=fix_value(ctx, header, "vpp", layers) if layers else None,
    )
