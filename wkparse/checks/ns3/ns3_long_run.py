"""WK803 ns3-long-run: the file's traffic takes SimAI-Simulation's packet-level run far past
the recordings' 300 s, and nothing is written until the end; why in rules/WK803.toml."""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.checks.ns3.walk import ns3_run
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.ns3 import BUDGET_S, RATE_BYTES_PER_S


@file_check("WK803")
def ns3_long_run(ctx: Context) -> Iterator[Diagnostic]:
    run = ns3_run(ctx)
    header = ctx.workload.header
    if run is None or header is None:
        return
    seconds = run.walk.wire_bytes / RATE_BYTES_PER_S
    if seconds <= BUDGET_S:
        return
    yield Diagnostic(
        "WK803",
        _(
            "{gb} GB on the wire: {s} s of SimAI-Simulation at the fastest rate a recorded run "
            "reached (0.7 GB/s), and nothing written until the end"
        ).format(gb=f"{run.walk.wire_bytes / 1e9:,.1f}", s=f"{seconds:,.0f}"),
        header.policy_span,
    )
