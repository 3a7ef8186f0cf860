"""Why SimAI-Analytical's total is not a usable time, in one sentence: an infinite
collective, a NaN or Inf total, or comm that drops out of the sum. `wkparse simai` and
explain both say it."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from wkparse.ast import PHASE_WORDS
from wkparse.i18n import _

if TYPE_CHECKING:
    from wkparse.models.simai.outcome import Outcome
    from wkparse.models.simai.report import Report
    from wkparse.models.simai.run import SimaiRun


def outcome_kind(run: SimaiRun) -> str:
    """The outcome's kind as explain and `simai --format json` give it: `wrong-total` for a
    run that exits 0 after summing layers no row gives (phantom layers, a failed stream),
    else the run's own."""
    if run.outcome.kind == "ok" and run.first_undefined is not None:
        return "wrong-total"
    return run.outcome.kind


def undefined_layers(run: SimaiRun) -> str:
    """Layers SimAI makes from no row of the file (line 2 asks for more than the rows give,
    or the stream failed): they are summed with the rest, so the total is wrong."""
    k, n = run.first_undefined or 0, run.layer_count
    return _(
        "line 2 makes {n} layers and the rows give {k}: SimAI sums the other {rest} with values "
        "no row gives, so the total is wrong"
    ).format(n=f"{n:,}", k=f"{k:,}", rest=f"{n - k:,}")


def why(run: SimaiRun, report: Report) -> str | None:
    """One sentence on why SimAI's total is NaN/Inf, infinite, or leaves comm out."""
    h = run.header
    if report.first_infinite is not None:
        i, phase = report.first_infinite
        return _(
            "layer {i}'s {phase} collective runs in a group of one GPU (TP {tp}): SimAI's "
            "bandwidth model gives 0, its time is infinite (stored as 2^63 ns, "
            "9223372036854776 us), so the total is absurd"
        ).format(i=i, phase=_(PHASE_WORDS[phase]), tp=h.held("tp"))
    if report.summary is not None and not report.finite:
        vpp, ga = h.held("vpp"), h.held("ga")
        if vpp * ga == 0:
            return _(
                "the bubble is base x (PP - 1) / (ga x vpp) with ga {ga} and vpp {vpp}: it "
                "divides by zero, so bubble and Total time print as NaN or Inf"
            ).format(ga=ga, vpp=vpp)
        return _("a value in the sum is not finite, so Total time prints as NaN or Inf")
    if run.first_undefined is not None:
        return undefined_layers(run)
    if report.first_wrapped is not None:
        i, phase = report.first_wrapped
        return _(
            "layer {i}'s {phase} collective gets a bandwidth of -1 (0 NICs or an unknown "
            "GPU/NIC type): its time wraps to about 1.8e16 us and its exposed share to 0, so "
            "that comm drops out of the total"
        ).format(i=i, phase=_(PHASE_WORDS[phase]))
    return None


def ending(run: SimaiRun) -> Outcome:
    """How the run ends, its total included: SimAI exits 0 on a Total time it prints as
    `NaN or Inf` (kind "nan") or one an infinite collective makes absurd ("infinite"), and
    that total is the outcome, with why; so is a total summed over layers no row gives
    ("wrong-total": phantom layers, a failed stream); any other run's outcome as it is."""
    o, report = run.outcome, run.report
    if outcome_kind(run) == "wrong-total":
        return replace(o, kind="wrong-total", message=undefined_layers(run))
    if o.kind != "ok" or report is None or report.summary is None:
        return o
    reason = why(run, report)
    if reason is None or (report.finite and report.first_infinite is None):
        return o
    if not report.finite:
        # SimAI prints either as `NaN or Inf`
        kind, message = "nan", _("Total time is NaN or Inf: {why}").format(why=reason)
    else:
        kind, message = "infinite", _("Total time is no real time: {why}").format(why=reason)
    return replace(o, kind=kind, message=message)
