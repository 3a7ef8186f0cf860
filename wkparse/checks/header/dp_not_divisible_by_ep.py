"""WK211 dp-not-divisible-by-ep: the expert-parallel size does not divide the data-parallel size;
why and examples in rules/WK211.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import TP, header_check, last_int, sizes
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.simai.parallel import data_parallel, left_out
from wkparse.simai.tables import TRANSFORMER_POLICIES
from wkparse.simai.tokens import Reading


@header_check("WK211", TRANSFORMER_POLICIES)
def dp_not_divisible_by_ep(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    s = sizes(r)
    tp, pp, world, ep = s.get(TP, 0), s.get("pp", 0), s.get("all_gpus", 0), s.get("ep", 0)
    read = last_int(r, "ep")
    if min(tp, pp, world, ep) <= 0 or read is None or left_out(world, tp, pp) != 0:
        return  # a DP that is not whole is WK210's
    dp = data_parallel(world, tp, pp)
    if dp is None or dp % ep == 0:
        return
    yield Diagnostic(
        "WK211",
        _(
            "ep {ep} does not divide DP = {world} / ({tp} x {pp}) = {dp}: SimAI's `_DP_EP` "
            "groups are not whole"
        ).format(ep=ep, world=world, tp=tp, pp=pp, dp=dp),
        read.token.span,
    )
