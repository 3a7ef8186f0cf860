"""WK805 ns3-alltoall-abort: before 02532997 SimAI-Simulation aborts once a plain ALLTOALL is
issued; why and examples in rules/WK805.toml."""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.checks.ns3.walk import ns3_run, span_at
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _


@file_check("WK805")
def ns3_alltoall_abort(ctx: Context) -> Iterator[Diagnostic]:
    run = ns3_run(ctx)
    if run is None or run.walk.halt is None or run.walk.halt.how != "abort":
        return
    halt = run.walk.halt
    yield Diagnostic(
        "WK805",
        _("ALLTOALL: SimAI-Simulation {simai} aborts here (SIGABRT, exit 134)").format(
            simai=ctx.simai.short
        ),
        span_at(ctx, halt.index, halt.phase, 1),
    )
