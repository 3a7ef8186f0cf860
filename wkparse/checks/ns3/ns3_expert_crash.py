"""WK801 ns3-expert-crash: the first collective SimAI-Simulation runs in an EP group of one
rank crashes it; why and examples in rules/WK801.toml."""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import RowFields
from wkparse.checks import Context, file_check
from wkparse.checks.ns3.walk import ns3_run, span_at
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _


@file_check("WK801")
def ns3_expert_crash(ctx: Context) -> Iterator[Diagnostic]:
    run = ns3_run(ctx)
    if run is None or run.walk.halt is None or run.walk.halt.how != "crash":
        return
    halt = run.walk.halt
    step = run.step(halt.index, halt.phase)
    rows = ctx.workload.rows
    comm = getattr(RowFields(rows.values, rows.refs[halt.index]), halt.phase).comm
    yield Diagnostic(
        "WK801",
        _("{comm} with ep: {ep}: SimAI-Simulation crashes here (SIGSEGV)").format(
            comm=comm or step.type.value, ep=run.groups.ep
        ),
        span_at(ctx, halt.index, halt.phase, 1),
    )
