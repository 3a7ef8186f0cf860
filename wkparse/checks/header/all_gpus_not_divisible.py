"""WK210 all-gpus-not-divisible: all_gpus is not a multiple of TP x PP; why and examples in
rules/WK210.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import TP, header_check, last_int, sizes
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.parallel import left_out, stages
from wkparse.models.simai.tables import TRANSFORMER_POLICIES
from wkparse.models.simai.tokens import Reading


@header_check("WK210", TRANSFORMER_POLICIES)
def all_gpus_not_divisible(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    s = sizes(r)
    tp, pp, world = s.get(TP, 0), s.get("pp", 0), s.get("all_gpus", 0)
    read = last_int(r, "all_gpus")
    if tp <= 0 or pp <= 0 or world <= 0 or read is None:
        return
    left = left_out(world, tp, pp)
    if not left:
        return
    yield Diagnostic(
        "WK210",
        _(
            "all_gpus {world} is not a multiple of TP x PP = {tp_pp}: SimAI-Analytical with "
            "-g {world} leaves {left} GPUs out"
        ).format(world=world, tp_pp=stages(tp, pp), left=left),
        read.token.span,
    )
