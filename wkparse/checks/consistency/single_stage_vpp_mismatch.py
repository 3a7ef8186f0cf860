"""WK307 single-stage-vpp-mismatch: with pp: 1 the header's vpp differs from the transformer
layers in the micro-batch group; why and examples in rules/WK307.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.checks.consistency.declared import (
    declared,
    fix_value,
    has_layers,
    layers_against_vpp,
)
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _, _plural


@file_check("WK307")
def single_stage_vpp_mismatch(ctx: Context) -> Iterator[Diagnostic]:
    found = declared(ctx, "vpp", single_stage=True)
    if found is None or not has_layers(ctx):
        return
    header, vpp, span = found
    layers = layers_against_vpp(ctx, vpp)
    if layers is None:
        return
    yield Diagnostic(
        "WK307",
        _(
            "vpp is {vpp} but the micro-batch group holds {layers} (harmless to SimAI with pp: 1)"
        ).format(
            vpp=vpp, layers=_plural(layers, "{n} transformer layer", "{n} transformer layers")
        ),
        span,
        fix=fix_value(ctx, header, "vpp", layers) if layers else None,
    )
