"""WK802 ns3-silent-stop: a compute time of 2^31 ns or more stops SimAI-Simulation there with
exit 0 and empty results; why and examples in rules/WK802.toml."""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.checks.ns3.walk import ns3_run, span_at
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _


@file_check("WK802")
def ns3_silent_stop(ctx: Context) -> Iterator[Diagnostic]:
    run = ns3_run(ctx)
    if run is None or run.walk.halt is None or run.walk.halt.how != "stop":
        return
    halt = run.walk.halt
    step = run.step(halt.index, halt.phase)
    yield Diagnostic(
        "WK802",
        _(
            "{phase} compute {value} ns reaches 2^31 ns: SimAI-Simulation stops here "
            "silently (exit 0, empty results)"
        ).format(phase=halt.phase, value=step.compute_ns),
        span_at(ctx, halt.index, halt.phase, 0),
    )
