"""WK702 one-gpu-tp-group: a TP collective in a TP group of one GPU, whose time
SimAI-Analytical makes infinite; why and examples in rules/WK702.toml."""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import PHASE_WORDS, ROW_FIELDS, RowFields
from wkparse.checks import Context, RowProblem, row_check
from wkparse.checks.analytical.common import facts, simulated_size
from wkparse.i18n import _
from wkparse.models.simai.ieee import TWO_63
from wkparse.models.simai.ratios import OutOfRange
from wkparse.models.simai.tables import ComType, GroupType, decode_comm


def _tp_of_one(ctx: Context) -> bool:
    f = facts(ctx)
    return f is not None and f.tp == 1


@row_check("WK702", reads=("fwd_comm", "fwd_size", "ig_comm", "ig_size"), when=_tp_of_one)
def one_gpu_tp_group(ctx: Context, fields: RowFields) -> Iterator[RowProblem]:
    f = facts(ctx)
    # before 26b4574b a TP group of one GPU costs 0 (busbw.yaml bandwidths)
    if f is None or f.tp != 1 or not ctx.simai.has("cal_busbw"):
        return
    for phase in ("fwd", "ig"):
        p = fields.phase(phase)
        if p.comm is None or p.size is None:
            continue
        com, group = decode_comm(p.comm, phase)
        if com is ComType.NONE or group is not GroupType.TP:
            continue
        try:
            t = f.network.time(com, group, 1, simulated_size(f, phase, p.size))
        except OutOfRange:
            continue
        if t.retcode != 1 or t.ns < TWO_63:
            continue
        yield RowProblem(
            "WK702",
            ROW_FIELDS.index(f"{phase}_comm"),
            _(
                "the {phase} {com} is in a TP group of one GPU: SimAI's bandwidth is 0, its time "
                "infinite (total ~9.2e15 us)"
            ).format(phase=_(PHASE_WORDS[phase]), com=com.value),
        )
