"""WK804 ns3-small-collective: SimAI-Simulation issues a collective under 4 KiB and never
completes it, so the run stops there silently; why and examples in rules/WK804.toml."""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import RowFields
from wkparse.checks import Context, file_check
from wkparse.checks.ns3.walk import ns3_run, span_at
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _


@file_check("WK804")
def ns3_small_collective(ctx: Context) -> Iterator[Diagnostic]:
    run = ns3_run(ctx)
    if run is None:
        return
    # where the run stops issuing, and a weight-gradient collective it issues on past
    ends = [h for h in (run.walk.stuck, run.walk.halt) if h is not None and h.how == "small"]
    rows = ctx.workload.rows
    for halt in ends:
        step = run.step(halt.index, halt.phase)
        comm = getattr(RowFields(rows.values, rows.refs[halt.index]), halt.phase).comm
        yield Diagnostic(
            "WK804",
            _(
                "{comm} of {size} B: SimAI-Simulation {simai} issues it and never completes it "
                "(exit 0, no pass finished, empty results)"
            ).format(comm=comm or step.type.value, size=step.size, simai=ctx.simai.short),
            span_at(ctx, halt.index, halt.phase, 2),
        )
