"""WK503 global-batch-not-divisible: the file name's global batch is not a multiple of one
step's samples; why and examples in rules/WK503.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import Header
from wkparse.checks import Context
from wkparse.checks.filename.named_run import first_span, training_check
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.aicb import AicbName


@training_check("WK503")
def global_batch_not_divisible(
    ctx: Context, header: Header, name: AicbName
) -> Iterator[Diagnostic]:
    step, ga = name.batch_per_step, name.ga
    # ga 0 (a global batch below one step) is WK306: the file then has no micro-batch at all
    if step is None or ga is None or name.gbs is None or ga == 0 or name.gbs % step == 0:
        return
    lower = ga * step
    yield Diagnostic(
        "WK503",
        _(
            "gbs{gbs} is not a multiple of mbs{mbs} * DP {dp} = {step}: AICB simulates "
            "{lower} samples per iteration, not {gbs}"
        ).format(gbs=name.gbs, mbs=name.mbs, dp=name.dp, step=step, lower=lower),
        first_span(header, "ga"),
    )
