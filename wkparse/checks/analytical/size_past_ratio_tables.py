"""WK703 size-past-ratio-tables: a collective larger than the last row of SimAI's ratio
tables (16 GiB), where SimAI-Analytical's report stops with no result; why and examples in
rules/WK703.toml."""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import PHASE_WORDS, ROW_FIELDS, RowFields
from wkparse.checks import Context, RowProblem, row_check
from wkparse.checks.analytical.common import facts, ranks, simulated_size
from wkparse.i18n import _
from wkparse.models.simai.ratios import LAST_SIZE, OutOfRange
from wkparse.models.simai.tables import ComType, GroupType, decode_comm


def _any_past_tables(ctx: Context) -> bool:
    """Whether any size is past the tables: SimAI's float scale never raises a size of at
    most LAST_SIZE (a power of two) above it, so no other row can be."""
    if facts(ctx) is None:
        return False
    sizes = (ROW_FIELDS.index(f"{phase}_size") for phase in ("fwd", "ig", "wg"))
    return any((ctx.columns.largest(k) or 0) > LAST_SIZE for k in sizes)


@row_check(
    "WK703",
    reads=("fwd_comm", "fwd_size", "ig_comm", "ig_size", "wg_comm", "wg_size"),
    when=_any_past_tables,
)
def size_past_ratio_tables(ctx: Context, fields: RowFields) -> Iterator[RowProblem]:
    f = facts(ctx)
    # before 26b4574b there are no ratio tables, and no size limit
    if f is None or not ctx.simai.has("cal_busbw"):
        return
    for phase in ("fwd", "ig", "wg"):
        p = fields.phase(phase)
        if p.comm is None or p.size is None:
            continue
        size = simulated_size(f, phase, p.size)
        if size <= LAST_SIZE:
            continue
        com, group = decode_comm(p.comm, phase)
        if com is ComType.NONE or (group is GroupType.DP_EP and not f.ep):
            continue  # (a _DP_EP one at EP 0: SimAI dies of SIGFPE first, WK209's error)
        try:
            f.network.time(com, group, ranks(f, phase, group), size)
        except OutOfRange:
            yield RowProblem(
                "WK703",
                ROW_FIELDS.index(f"{phase}_size"),
                _(
                    "the {phase} {com} of {size} B is past SimAI's ratio tables: its report "
                    "stops here, with no result"
                ).format(phase=_(PHASE_WORDS[phase]), com=com.value, size=size),
            )
