"""WK407 expert-collective-without-ep: an expert-group collective in a file with ep: 1, on one
of AICB's MoE rows (unedited output: opt-in); why and examples in rules/WK407.toml. The same on
any other row is WK410's (`expert_collective_on_a_plain_layer`), found by the same walk.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import PHASES, Phase, RowFields
from wkparse.body import MOE_NAMES
from wkparse.checks import Context, RowProblem, diagnostics_on_rows, file_check
from wkparse.checks.rows.fields import COLUMN, COMM_FIELD
from wkparse.checks.rows.patterns import values_where
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tables import COLLECTIVES, TRANSFORMER_POLICIES
from wkparse.models.simai.tokens import header_value


def _expert_parallel(ctx: Context) -> int | None:
    header = ctx.workload.header
    if header is None or header.policy not in TRANSFORMER_POLICIES:
        return None
    return header_value(header, "ep")


#: the rows AICB writes `_EP` collectives on: its MoE rows, and v1.0's `moelayer`
AICB_EXPERT_ROWS = MOE_NAMES | {"moelayer"}


@file_check("WK407")
def expert_collective_without_ep(ctx: Context) -> Iterator[Diagnostic]:
    message = _(
        "`{comm}` of {size} bytes {column} with ep: 1: SimAI's one-rank expert group moves nothing"
    )
    yield from expert_collectives(ctx, "WK407", message, on_aicb_rows=True)


def expert_collectives(
    ctx: Context, code: str, message: str, *, on_aicb_rows: bool
) -> Iterator[Diagnostic]:
    """`code` on every `_EP` collective with bytes, in a file with ep: 1, on AICB's MoE rows
    (`on_aicb_rows`) or on the others (WK410); `message` takes comm, size and column."""
    if _expert_parallel(ctx) != 1:
        return

    def expert_only(p: Phase) -> bool | None:
        # _DP_EP with ep 1 is the whole DP group, which is what such a row means then
        if p.comm is None or not p.comm.endswith("_EP") or p.comm.endswith("_DP_EP"):
            return None
        return True if p.comm in COLLECTIVES and p.size else None

    values = ctx.workload.rows.values
    problems: dict[int, list[RowProblem]] = {}
    for phase in PHASES:
        for index in values_where(ctx, phase, expert_only).get(True, ()):
            fields = RowFields(values, index)
            if (fields.name in AICB_EXPERT_ROWS) != on_aicb_rows:
                continue
            p = fields.phase(phase)
            problems.setdefault(index, []).append(
                RowProblem(
                    code,
                    COMM_FIELD[phase],
                    message.format(comm=p.comm, size=p.size, column=_(COLUMN[phase])),
                )
            )
    yield from diagnostics_on_rows(ctx, problems)
