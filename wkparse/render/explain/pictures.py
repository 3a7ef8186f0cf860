"""The explain pictures as inline SVG: parallel layout, pipeline schedule, bars.

Each function reads a finished `Explanation` and returns one `<svg>` string (or "" when the
picture does not apply, e.g. no layout outside the transformer policies). They draw the facts;
they count nothing the facts do not already hold, except the sums a bar's length needs.
Large values are summarised, never listed: at most `MAX_COLUMNS` data-parallel replicas,
`MAX_STAGES` stages, `MAX_SLOTS` micro-batches (see `schedule`) and `MAX_LAYER_ROWS` rows
are drawn, with an ellipsis standing for the rest, so a page stays small whatever the header
says.
"""

from __future__ import annotations

from collections.abc import Sequence

from wkparse.explanation import (
    GROUP_LABELS,
    Explanation,
    RowNote,
    as_written,
    human_bytes,
    human_ns,
    percent,
)
from wkparse.i18n import _
from wkparse.render.explain.schedule import MAX_STAGES, plan, shown_indices
from wkparse.render.explain.svg import group, line, rect, svg, text

MAX_COLUMNS = 16
MAX_LAYER_ROWS = 150
#: the widest the layout is drawn, in pixels: more replicas collapse into an ellipsis
LAYOUT_WIDTH = 1000
CELL, GAP = 11, 2
#: the CSS classes the pictures use (the page's stylesheet gives them colours)
FWD, BWD, IG, WG, BUBBLE = "fwd", "bwd", "ig", "wg", "bubble"
_HATCH = (
    '<defs><pattern id="wk-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><rect width="6" height="6" class="bubble-bg"/>'
    '<line x1="0" y1="0" x2="0" y2="6" class="bubble-line"/></pattern></defs>'
)


# ---- 1. the parallel layout ----------------------------------------------------------------


def layout(e: Explanation) -> str:
    """Every GPU of all_gpus as a cell: TP blocks, DP replicas in columns, stages in rows."""
    if not (e.tp and e.dp and e.dialect in ("transformer", "inference")):
        return ""
    tp, dp, pp, ep = e.tp, e.dp, e.pp or 1, e.ep or 1
    big_tp = tp > 16
    across = 44 if big_tp else -(-tp // _tp_rows(tp))
    block_w = 44 if big_tp else across * (CELL + GAP) - GAP
    block_h = CELL if big_tp else _tp_rows(tp) * (CELL + GAP) - GAP
    column = max(block_w, 34) + 12
    left, top = 190, 52 if ep > 1 else 30
    fit = max(3, (LAYOUT_WIDTH - left) // column)
    columns = shown_indices(dp, min(MAX_COLUMNS, fit))
    stages = shown_indices(pp, MAX_STAGES)
    row_h = max(block_h, 20) + 14
    width = left + len(columns) * column + 10
    height = top + len(stages) * row_h + 4
    out: list[str] = []
    if ep > 1:
        out += _ep_bands(columns, ep, left, column, top, height)
    for i, c in enumerate(columns):
        x = left + i * column
        out.append(text(x, top - 8, "…" if c is None else f"DP {c}", class_="axis"))
    for j, s in enumerate(stages):
        y = top + j * row_h
        if s is None:
            out.append(text(12, y + CELL, "⋮", class_="axis"))
            continue
        out.append(text(8, y + CELL - 1, _stage_name(s, pp), class_="label"))
        note = _stage_note(s, pp)
        if note:
            out.append(text(8, y + CELL + 12, note, class_="note"))
        for i, c in enumerate(columns):
            x = left + i * column
            if c is None:
                out.append(text(x + 4, y + CELL, "…", class_="axis"))
                continue
            out.append(_tp_block(x, y, tp, across, big_tp, s, c))
    label = _("Parallel layout: {gpus} GPUs as TP {tp} x PP {pp} x DP {dp}").format(
        gpus=f"{dp * tp * pp:,}", tp=tp, pp=pp, dp=f"{dp:,}"
    )
    return svg(width, height, out, label, class_="layout")


def _tp_rows(tp: int) -> int:
    """A TP group of more than 4 GPUs is drawn as two rows, so a replica stays narrow."""
    return 2 if tp > 4 else 1


def _stage_name(s: int, pp: int) -> str:
    return _("stage {s}").format(s=s) if pp > 1 else _("the whole model")


def _stage_note(s: int, pp: int) -> str:
    """What a real run's stage holds beyond the rows SimAI gives every stage."""
    if pp == 1:
        return _("embedding and loss on this stage")
    if s == 0:
        return _("real run: + input embedding")
    if s == pp - 1:
        return _("real run: + output layer, loss")
    return ""


def _tp_block(x: float, y: float, tp: int, across: int, big: bool, stage: int, replica: int) -> str:
    first = stage == 0 and replica == 0
    where = _("stage {s}, DP replica {r}").format(s=stage, r=replica)
    if big:
        cls = "gpu this" if first else "gpu"
        title = _("TP group of {tp} GPUs, {where}").format(tp=tp, where=where)
        return group(
            [rect(x, y, 44, CELL, title=title, class_=cls), text(x + 3, y + CELL - 2, f"TP {tp}")]
        )
    cells = []
    for k in range(tp):
        this = first and k == 0
        title = (
            _("GPU {k} of the TP group, {where}: the GPU this file describes")
            if this
            else _("GPU {k} of the TP group, {where}")
        ).format(k=k, where=where)
        row, col = divmod(k, across)
        cells.append(
            rect(
                x + col * (CELL + GAP),
                y + row * (CELL + GAP),
                CELL,
                CELL,
                title=title,
                class_="gpu this" if this else "gpu",
            )
        )
    return group(cells, class_="tp")


def _ep_bands(
    columns: Sequence[int | None], ep: int, left: float, column: float, top: float, height: float
) -> list[str]:
    """A tinted band behind each run of `ep` consecutive replicas: one expert-parallel group."""
    out = []
    for i, c in enumerate(columns):
        if c is None:
            continue
        band = c // ep
        x = left + i * column - 5
        out.append(rect(x, top - 22, column, height - top + 18, class_=f"ep ep{band % 2}"))
        if c % ep == 0:
            out.append(text(x + 3, top - 24, _("EP group {g}").format(g=band), class_="note"))
    return out


# ---- 2. the pipeline schedule --------------------------------------------------------------


def schedule(e: Explanation) -> str:
    """One iteration as SimAI costs it (`schedule.plan`): micro-batches and the bubble."""
    laid = plan(e)
    if laid is None:
        return ""
    left, top, plot, row_h = 150, 24, 820, 26
    scale = plot / laid.span
    out: list[str] = [_HATCH]
    for j, (s, blocks) in enumerate(laid.stages):
        y = top + j * row_h
        if s is None:
            out.append(text(12, y + 14, "⋮", class_="axis"))
            continue
        out.append(text(8, y + 15, _stage_name(s, laid.pp), class_="label"))
        for b in blocks:
            x, w = left + b.start * scale, (b.end - b.start) * scale
            if b.kind == "bubble":
                out.append(_bubble(x, y, w, e))
            elif b.kind == "more":
                hidden = f"… {b.micro_batch} …"
                out.append(text(x + w / 2, y + 13, hidden, class_="axis", text_anchor="middle"))
            else:
                forward = b.kind == FWD
                title = _("micro-batch {m}, {what}").format(
                    m=b.micro_batch, what=_("forward") if forward else _("backward")
                )
                out.append(rect(x, y, w, 18, title=title, class_=b.kind))
                if w > 18:
                    name = f"{'F' if forward else 'B'}{b.micro_batch}"
                    out.append(text(x + 2, y + 13, name, class_="in"))
    bottom = top + len(laid.stages) * row_h + 4
    out.append(line(left, bottom, left + plot, bottom, class_="axis-line"))
    out.append(text(left, bottom + 14, _("time →"), class_="axis"))
    out.append(text(left + plot, bottom + 14, bubble_label(e), class_="axis", text_anchor="end"))
    label = _("Pipeline schedule: {ga} micro-batches over {pp} stages").format(
        ga=laid.ga, pp=laid.pp
    )
    return svg(left + plot + 10, bottom + 22, out, label, class_="schedule")


def bubble_label(e: Explanation) -> str:
    if e.pp is not None and e.pp <= 1:
        return _("PP 1: no pipeline bubble")
    if e.bubble_fraction is None:
        return _("bubble (PP-1)/(GA*vpp) divides by zero (ga {ga}, vpp {vpp})").format(
            ga=as_written(e.ga), vpp=as_written(e.vpp)
        )
    return _("bubble (PP-1)/(GA*vpp) = {pp1}/({ga}*{vpp}) = {share} of the layer time").format(
        pp1=(e.pp or 1) - 1, ga=e.ga, vpp=e.vpp, share=percent(e.bubble_fraction)
    )


def _bubble(x: float, y: float, w: float, e: Explanation) -> str:
    return rect(x, y, w, 18, title=bubble_label(e), class_=BUBBLE, fill="url(#wk-hatch)")


# ---- 3. where bytes and time go ------------------------------------------------------------


def bars(items: Sequence[tuple[str, int, str, str]], label: str) -> str:
    """Horizontal bars: (label, value, value as printed, CSS class) each, longest = full width."""
    most = max((item[1] for item in items), default=0)
    if not most:
        return ""
    left, plot, row_h = 110, 520, 22
    out = []
    for i, (name, value, shown, cls) in enumerate(items):
        y = 6 + i * row_h
        out.append(text(4, y + 12, name, class_="label"))
        w = plot * value / most
        out.append(rect(left, y, max(w, 1 if value else 0), 15, title=shown, class_=cls))
        out.append(text(left + w + 6, y + 12, shown, class_="value"))
    return svg(left + plot + 150, 10 + len(items) * row_h, out, label, class_="bars")


def group_bars(e: Explanation) -> str:
    items = [
        (_(GROUP_LABELS[g]), n, human_bytes(n), f"grp grp-{g.lower()}")
        for g, n in e.comm_bytes.items()
    ]
    return bars(items, _("Bytes per communication group, one iteration"))


def phase_bars(e: Explanation) -> str:
    c = e.compute_ns
    items = [
        (_("forward"), c.get("fwd", 0), human_ns(c.get("fwd", 0)), FWD),
        (_("input-grad"), c.get("ig", 0), human_ns(c.get("ig", 0)), IG),
        (_("weight-grad"), c.get("wg", 0), human_ns(c.get("wg", 0)), WG),
    ]
    if e.bubble_compute_ns:
        bubble = (_("bubble"), e.bubble_compute_ns, human_ns(e.bubble_compute_ns), "bars-bubble")
        items.append(bubble)
    return bars(items, _("Compute per phase, one iteration"))


def simai_bars(e: Explanation) -> str:
    """Where SimAI-Analytical's Total time goes: compute, exposed comm per group, PP comm
    and bubble, in us (values SimAI prints as NaN or Inf are left out)."""
    import math

    from wkparse.models.simai.ieee import whole

    r = e.simai
    if r is None or not r.totals:
        return ""
    t = r.totals
    parts = (
        (_("compute"), "total_comp_us", FWD),
        (_("exposed DP comm"), "expose_dp_comm_us", "grp grp-dp"),
        (_("exposed DP_EP comm"), "expose_dp_ep_comm_us", "grp grp-dp_ep"),
        (_("exposed TP comm"), "expose_tp_comm_us", "grp grp-tp"),
        (_("exposed EP comm"), "expose_ep_comm_us", "grp grp-ep"),
        (_("PP comm"), "expose_pp_comm_us", "grp grp-pp"),
        (_("bubble"), "bubble_time_us", "bars-bubble"),
    )
    items = [
        (label, int(t[key]), _("{n} us").format(n=whole(t[key])), cls)
        for label, key, cls in parts
        # b1c1eb66's summary has no PP comm
        if key in t and math.isfinite(t[key]) and t[key] > 0
    ]
    return bars(items, _("Where SimAI-Analytical's Total time goes"))


def layer_stack(rows: Sequence[RowNote], findings: dict[int, str]) -> str:
    """Per row: forward, input-gradient and weight-gradient compute as one stacked bar, the
    bytes its collectives carry as a thin bar under it; rows a lint finding points at are
    marked with the finding's codes."""
    if not rows:
        return ""
    shown = rows[:MAX_LAYER_ROWS]
    totals = []
    for row in shown:
        parts = {ph.phase: ph.compute_ns or 0 for ph in row.phases}
        sent = sum(ph.size or 0 for ph in row.phases if ph.group is not None)
        totals.append((row, parts, sent))
    most_ns = max(sum(p.values()) for _r, p, _s in totals) or 1
    most_bytes = max(sent for _r, _p, sent in totals) or 1
    left, plot, row_h = 230, 440, 19
    out = []
    for i, (row, parts, sent) in enumerate(totals):
        y = 4 + i * row_h
        flag = findings.get(row.line)
        name = f"{row.line} {row.name or ''}"
        out.append(text(4, y + 11, name[:32], class_="label flagged" if flag else "label"))
        x = float(left)
        for phase, cls in (("fwd", FWD), ("ig", IG), ("wg", WG)):
            ns = parts.get(phase, 0)
            w = plot * ns / most_ns
            if w > 0:
                out.append(rect(x, y, w, 11, title=f"{phase} {human_ns(ns)}", class_=cls))
                x += w
        if sent:
            w = max(plot * sent / most_bytes, 1)
            out.append(rect(left, y + 12, w, 3, title=human_bytes(sent), class_="sent"))
            x = max(x, left + w)  # the text's descenders would sit on the thin bar
        tail = human_ns(sum(parts.values()))
        if sent:
            tail += " · " + human_bytes(sent)
        if flag:
            tail += " · ⚠ " + flag
        out.append(text(x + 5, y + 11, tail, class_="value flagged" if flag else "value"))
    height = 8 + len(shown) * row_h
    if len(rows) > len(shown):
        more = _("… {n} more rows").format(n=f"{len(rows) - len(shown):,}")
        out.append(text(4, height + 8, more, class_="axis"))
        height += row_h
    label = _("Compute per row of one micro-batch group, stacked by phase")
    return svg(left + plot + 230, height, out, label, class_="layers")
