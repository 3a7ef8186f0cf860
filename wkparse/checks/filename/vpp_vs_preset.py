"""WK505 vpp-vs-preset: the header's vpp differs from the layers per stage of the AICB preset
the file name records; why and examples in rules/WK505.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import Header
from wkparse.checks import Context
from wkparse.checks.filename.named_run import differs, training_check
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.aicb import AicbName


@training_check("WK505")
def vpp_vs_preset(ctx: Context, header: Header, name: AicbName) -> Iterator[Diagnostic]:
    preset, expected = name.preset, name.layers_per_stage
    found = differs(header, "vpp", expected)
    if preset is None or found is None:
        return
    vpp, span = found
    yield Diagnostic(
        "WK505",
        _(
            "vpp is {vpp} but AICB's {model} on pp{pp} has {expected} layers per stage: the "
            "file models {modelled} layers, not {layers}"
        ).format(
            vpp=vpp,
            model=name.model,
            pp=name.pp,
            expected=expected,
            modelled=vpp * name.pp,
            layers=preset.layers,
        ),
        span,
    )
