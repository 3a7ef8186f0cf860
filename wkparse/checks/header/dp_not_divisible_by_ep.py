"""WK211 dp-not-divisible-by-ep: the expert-parallel size does not divide the data-parallel size,
and rows run in the `_DP_EP` groups that makes partial; why and examples in rules/WK211.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import PHASES, RowFields
from wkparse.checks import Context
from wkparse.checks.header.reading import TP, header_check, last_int, sizes
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.parallel import data_parallel, left_out
from wkparse.models.simai.tables import TRANSFORMER_POLICIES
from wkparse.models.simai.tokens import Reading

DP_EP = "_DP_EP"


def _dp_ep_traffic(ctx: Context) -> bool:
    """Whether a row moves bytes in a `_DP_EP` group: only those rows meet ep and DP together
    (a file's distinct words tell at once when none is written)."""
    values = ctx.workload.rows.values
    if not any(t is not None and t.endswith(DP_EP) for t in values.texts):
        return False
    for index in range(len(values)):
        fields = RowFields(values, index)
        for phase in PHASES:
            p = fields.phase(phase)
            if p.comm is not None and p.comm.endswith(DP_EP) and p.size:
                return True
    return False


@header_check("WK211", TRANSFORMER_POLICIES)
def dp_not_divisible_by_ep(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    s = sizes(r)
    tp, pp, world, ep = s.get(TP, 0), s.get("pp", 0), s.get("all_gpus", 0), s.get("ep", 0)
    read = last_int(r, "ep")
    if min(tp, pp, world, ep) <= 0 or read is None or left_out(world, tp, pp) != 0:
        return  # a DP that is not whole is WK210's
    dp = data_parallel(world, tp, pp)
    if dp is None or dp % ep == 0 or not _dp_ep_traffic(ctx):
        return
    yield Diagnostic(
        "WK211",
        _(
            "ep {ep} does not divide DP = {world} / ({tp} x {pp}) = {dp}: SimAI's `_DP_EP` "
            "groups are not whole"
        ).format(ep=ep, world=world, tp=tp, pp=pp, dp=dp),
        read.token.span,
    )
