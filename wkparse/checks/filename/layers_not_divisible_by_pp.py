"""WK506 layers-not-divisible-by-pp: pp does not divide the layers of the AICB preset the file
name records; why and examples in rules/WK506.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import Header
from wkparse.checks import Context
from wkparse.checks.filename.named_run import first_span, training_check
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.aicb import AicbName


@training_check("WK506")
def layers_not_divisible_by_pp(
    ctx: Context, header: Header, name: AicbName
) -> Iterator[Diagnostic]:
    preset = name.preset
    if preset is None or name.pp <= 1 or preset.layers % name.pp == 0:
        return
    per_stage = preset.layers // name.pp
    yield Diagnostic(
        "WK506",
        _(
            "pp{pp} does not divide AICB's {model} {layers} layers: the file models "
            "{modelled} layers"
        ).format(pp=name.pp, model=name.model, layers=preset.layers, modelled=per_stage * name.pp),
        first_span(header, "vpp", "pp"),
    )
