"""The pipeline schedule as a Mermaid Gantt chart, for `explain --format markdown`.

GitHub draws ```mermaid blocks in issues and pull requests, so a maintainer's answer can
carry the picture itself. The chart lays out `schedule.plan`: one section per stage, an F task
and an `active` (lighter) B task per micro-batch, the bubble as `done` (grey) tasks and one
`… n …` task for the micro-batches not laid out. `displayMode: compact` puts each stage on
one line. Times are the file's compute times in milliseconds when they are measured,
otherwise relative units with no axis labels.
"""

from __future__ import annotations

from wkparse.explanation import Explanation
from wkparse.i18n import _
from wkparse.render.explain.pictures import bubble_label
from wkparse.render.explain.schedule import Schedule, plan

#: placeholder or sub-millisecond compute is stretched to this many axis units
_RELATIVE_SPAN = 10_000
_NS_PER_MS = 1_000_000


def schedule(e: Explanation) -> str:
    """The Mermaid source (without the fence), or "" when the file has no schedule."""
    laid = plan(e)
    if laid is None:
        return ""
    measured = not laid.placeholder and laid.span >= _NS_PER_MS * 10
    scale = 1 / _NS_PER_MS if measured else _RELATIVE_SPAN / laid.span
    axis = _axis_format(laid.span * scale) if measured else " "
    title = _("One iteration, {ga} micro-batches over {pp} stages, {bubble}").format(
        ga=laid.ga, pp=laid.pp, bubble=bubble_label(e)
    )
    out = [
        "---",
        "displayMode: compact",
        "---",
        "gantt",
        f"    title {_safe(title)}",
        "    dateFormat x",
        f"    axisFormat {axis}",
        "    todayMarker off",
    ]
    out += _sections(laid, scale)
    return "\n".join(out)


def _sections(laid: Schedule, scale: float) -> list[str]:
    out = []
    for s, blocks in laid.stages:
        if s is None:
            continue
        name = _("stage {s}").format(s=s) if laid.pp > 1 else _("the whole model")
        out.append(f"    section {_safe(name)}")
        for i, b in enumerate(blocks):
            start = round(b.start * scale)
            end = max(round(b.end * scale), start + 1)
            task = f"s{s}t{i}"
            if b.kind == "bubble":
                # the wait before the first micro-batch is too short for a word
                label = _safe(_("bubble")) if i else "·"
                out.append(f"    {label} :done, {task}, {start}, {end}")
            elif b.kind == "more":
                out.append(f"    … {b.micro_batch} … :{task}, {start}, {end}")
            elif b.kind == "fwd":
                out.append(f"    F{b.micro_batch} :{task}, {start}, {end}")
            else:
                out.append(f"    B{b.micro_batch} :active, {task}, {start}, {end}")
    return out


def _axis_format(span_ms: float) -> str:
    if span_ms < 60_000:
        return "%S.%L s"
    return "%M:%S" if span_ms < 3_600_000 else "%H:%M"


def _safe(text: str) -> str:
    """A title or task name Mermaid reads whole: no colon, hash or semicolon, one line."""
    for bad, good in ((":", " -"), ("#", "no. "), (";", ","), ("\n", " ")):
        text = text.replace(bad, good)
    return text
