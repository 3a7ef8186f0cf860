"""The words and cells of `wkparse explain`, shared by its text, Markdown and HTML renderers.

Pure functions of an `Explanation` returning strings, (label, text) pairs and table rows; no
rich renderable, no markup of any format: each renderer lays them out its own way
(`explain_text` with rich for the terminal, `explain_markdown`, `explain_html`). Cell widths
are counted in terminal cells (a Chinese character takes two).

A section made only of (label, text) items is added to `ITEM_SECTIONS`: every renderer then
shows it as a two-column table, right after "What this file is" when it is one of `LEADING`,
else after the rows (see `explain/facts.py` for the whole recipe of a new section).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size

from wkparse.explanation import (
    GROUP_LABELS,
    TRANSFORMER_DIALECTS,
    Explanation,
    Finding,
    RowNote,
    as_written,
    compress,
    human_bytes,
    human_ns,
    percent,
)
from wkparse.i18n import N_, _, _plural

#: the tables' column heads, translated where used (`headers(...)`)
ROW_HEADERS = (
    N_("line"),
    N_("row"),
    N_("phase"),
    N_("compute"),
    N_("collective"),
    N_("group"),
    N_("size"),
    N_("per rank"),
)
COMM_HEADERS = (N_("group"), N_("collective"), N_("calls"), N_("bytes"), N_("per rank"))
OVERVIEW_HEADERS = (N_("lines"), N_("rows"), N_("what"))
LAYOUT_HEADERS = (N_("key"), N_("value"))
KINDS_HEADERS = (N_("by layer kind"), N_("bytes"), N_("compute"))
#: the layer kinds of the totals that are words, not row names
KIND_LABELS = {
    "grad sync": N_("grad sync"),
    "embedding": N_("embedding"),
    "attention": N_("attention"),
    "final": N_("final"),
    "loss": N_("loss"),
    "optimizer": N_("optimizer"),
    "(unnamed)": N_("(unnamed)"),
}
#: the GPU this file describes, and every other GPU, in the layout picture
THIS_GPU, OTHER_GPU = "■", "□"
_LABEL = 9

SHORT_GROUPS = {"TP": "TP", "DP": "DP", "EP": "EP", "DP_EP": "DP/EP", "PP": "PP", "MP": "MP"}
SHORT_GROUPS["ALL"] = "all"
#: a phase with no collective and at most this compute time is not given a line of its own
PLACEHOLDER_NS = 1


def headers(names: Sequence[str]) -> tuple[str, ...]:
    """A table's column heads in the language in effect."""
    return tuple(_(name) for name in names)


def fit(text: str, width: int, right: bool = False) -> str:
    """`text` padded (or cut, with an ellipsis) to `width` terminal cells: a Chinese
    character takes two."""
    if cell_len(text) > width:
        text = set_cell_size(text, width - 1) + "…"
    pad = " " * (width - cell_len(text))
    return pad + text if right else text + pad


def kind_label(kind: str) -> str:
    return _(KIND_LABELS[kind]) if kind in KIND_LABELS else kind


def hidden_phases() -> str:
    return _(
        "not shown: phases with no collective whose compute time is 0 or 1 ns, AICB's placeholders"
    )


def group_cell(group: str | None, size: int | None) -> str:
    if group is None:
        return _("none")
    label = SHORT_GROUPS[group]
    return f"{label} {size}" if size is not None else label


def shown(compute_ns: int | None, comm: str | None, size: int | None) -> bool:
    """Whether a phase gets its own line: it issues a collective, carries a size or computes."""
    return comm not in (None, "NONE") or bool(size) or (compute_ns or 0) > PLACEHOLDER_NS


def row_cells(
    rows: Sequence[RowNote], strip_suffix: bool = False
) -> Iterator[tuple[RowNote, list[str], list[str]]]:
    """Per row: the table lines (one per phase worth showing) and its footnotes (why a
    collective costs nothing). `strip_suffix` drops `_EP`/`_DP_EP` (the group column says it)."""
    for row in rows:
        lines: list[list[str]] = []
        notes: list[str] = []
        for ph in row.phases:
            if not shown(ph.compute_ns, ph.comm, ph.size):
                continue
            comm = ph.comm if ph.comm not in (None, "NONE") else ""
            written = comm
            if strip_suffix and ph.group in ("EP", "DP_EP") and comm:
                written = comm.split("_", 1)[0]
            lines.append(
                [
                    ph.phase,
                    human_ns(ph.compute_ns) if ph.compute_ns is not None else "?",
                    written or ("NONE" if ph.size else ""),
                    group_cell(ph.group, ph.group_size) if comm else "",
                    human_bytes(ph.size) if (comm or ph.size) and ph.size is not None else "",
                    human_bytes(ph.share) if comm and ph.share is not None else "",
                ]
            )
            if ph.note:
                notes.append(
                    _("line {line} {phase}: {note}").format(
                        line=row.line, phase=ph.phase, note=ph.note
                    )
                )
        if not lines:
            lines.append(["-", "", "", "", "", ""])
        name = row.name if row.name is not None else _("(unnamed)")
        if row.policy:
            name = f"{name} [{row.policy}]"
        for i, cells in enumerate(lines):
            first = i == 0
            yield row, [str(row.line) if first else "", name if first else "", *cells], notes
            notes = []


@dataclass(frozen=True)
class Fold:
    """Rows a table leaves out: `times` more copies, on lines `first` to `last`, of the
    `size` rows just above (a micro-batch group repeats its layers: 40 x 4 rows of 13B)."""

    first: int
    last: int
    size: int
    times: int


#: the longest run of rows looked for among the repeats
FOLD_LONGEST = 64
#: rows folded into one line at the least (two copies of a row read as easily as a fold)
FOLD_LEAST = 3


def folded(rows: Sequence[RowNote], flagged: Collection[int] = ()) -> list[RowNote | Fold]:
    """`rows` with each run of repeated rows shown once and its copies folded: rows repeat
    when all but their line is the same (a row a finding points at only with rows it points
    at too). At each row, the run that folds the most rows wins."""
    keys = [(r.name, r.phases, r.update_ns, r.policy, r.line in flagged) for r in rows]
    out: list[RowNote | Fold] = []
    i, n = 0, len(rows)
    while i < n:
        best = (0, 0, 0)  # rows covered, run length, copies
        for size in range(1, min(FOLD_LONGEST, (n - i) // 2) + 1):
            if keys[i + size] != keys[i]:
                continue
            block = keys[i : i + size]
            times = 1
            while keys[i + times * size : i + (times + 1) * size] == block:
                times += 1
            if (times - 1) * size >= FOLD_LEAST and times * size > best[0]:
                best = (times * size, size, times)
        covered, size, times = best
        if not covered:
            out.append(rows[i])
            i += 1
            continue
        out += rows[i : i + size]
        out.append(Fold(rows[i + size].line, rows[i + covered - 1].line, size, times - 1))
        i += covered
    return out


def fold_text(f: Fold) -> str:
    """A fold's line in a row table."""
    copies = _plural(f.times, "once more", "{n} more times")
    if f.size == 1:
        return _("lines {first}-{last}: the row above, {copies}").format(
            first=f.first, last=f.last, copies=copies
        )
    return _("lines {first}-{last}: the {size} rows above, {copies}").format(
        first=f.first, last=f.last, size=f.size, copies=copies
    )


def folded_cells(
    rows: Sequence[RowNote], flagged: Collection[int] = (), strip_suffix: bool = False
) -> Iterator[tuple[RowNote, list[str], list[str]] | Fold]:
    """`row_cells` of `folded(rows)`: a table's lines, each fold one line of its own."""
    for item in folded(rows, flagged):
        if isinstance(item, Fold):
            yield item
        else:
            yield from row_cells([item], strip_suffix)


def finding_text(f: Finding) -> str:
    where = _("line {line}").format(line=f.line)
    if f.count > 1:
        shown = ", ".join(str(n) for n in f.lines[:6])
        more = ", ..." if f.count > 6 else ""
        where = _("{count} lines: {lines}").format(count=f"{f.count:,}", lines=shown + more)
    severity = f.severity or _("finding")
    if f.opt_in:
        severity = _("{severity}, opt-in (off in lint unless selected)").format(severity=severity)
    return _("{code} {severity} ({where}): {message}").format(
        code=f.code, severity=severity, where=where, message=f.message
    )


def layout_caption(e: Explanation) -> str:
    assert e.tp is not None and e.dp is not None
    pp = e.pp or 1
    used = e.dp * e.tp * pp
    stage = _("a row one pipeline stage") if pp > 1 else _("the one row the whole model")
    block = _("a block of {tp} is one TP group").format(tp=e.tp) if e.tp > 1 else _("TP is 1")
    return _(
        "Each {gpu} is one GPU; {block}, a column one data-parallel replica, {stage} "
        "({gpus} = DP {dp} x PP {pp} x TP {tp}). {this} marks the GPU this file "
        "describes; SimAI gives every GPU the same rows."
    ).format(
        gpu=OTHER_GPU,
        block=block,
        stage=stage,
        gpus=_plural(used, "{n} GPU", "{n} GPUs"),
        dp=e.dp,
        pp=pp,
        tp=e.tp,
        this=THIS_GPU,
    )


def grid_lines(e: Explanation, width: int) -> list[list[tuple[str, bool]]]:
    """The GPU grid as lines of (text, highlighted) pieces, collapsed to fit `width`."""
    assert e.tp is not None and e.dp is not None
    tp, dp, pp = e.tp, e.dp, e.pp or 1
    cell = f"[TP {tp}]" if tp > 16 else OTHER_GPU * tp
    head_width = len(f"DP {dp - 1}")
    cell_width = max(len(cell), head_width) + 2
    fit = max(3, (width - _LABEL) // cell_width)
    # Collapse before listing: dp and pp come from the header and may be huge.
    columns: list[int | None] = [*range(fit - 2), None, dp - 1] if dp > fit else [*range(dp)]
    stages: list[int | None] = [0, 1, 2, None, pp - 1] if pp > 8 else [*range(pp)]
    out: list[list[tuple[str, bool]]] = []
    header = " " * _LABEL + "".join(
        (f"DP {c}" if c is not None else "...").ljust(cell_width) for c in columns
    )
    out.append([(header.rstrip(), False)])
    for s in stages:
        if s is None:
            out.append([(" " * _LABEL + "...", False)])
            continue
        label = _("stage {s}").format(s=s) if pp > 1 else _("model")
        label += " " * (_LABEL - cell_len(label))  # Chinese characters take two cells
        pieces: list[tuple[str, bool]] = [(label, False)]
        for c in columns:
            if c is None:
                pieces.append(("...".ljust(cell_width), False))
            elif s == 0 and c == 0 and tp <= 16:
                pieces.append((THIS_GPU, True))
                pieces.append((cell[1:].ljust(cell_width - 1), False))
            elif s == 0 and c == 0:
                pieces.append((cell.ljust(cell_width), True))
            else:
                pieces.append((cell.ljust(cell_width), False))
        out.append(pieces)
    return out


def bar(fraction: float, width: int) -> str:
    """A horizontal bar in eighths of a character."""
    blocks = " ▏▎▍▌▋▊▉"
    eighths = round(max(0.0, min(1.0, fraction)) * width * 8)
    full, rest = divmod(eighths, 8)
    text = "█" * full + (blocks[rest] if rest else "")
    return text.ljust(width)


def bar_rows(e: Explanation, bar_width: int) -> list[tuple[str, str, str, str, str]]:
    """(kind, bytes bar, bytes, compute bar, compute) per layer kind."""
    total_bytes = sum(k.bytes for k in e.kinds) or 1
    total_ns = sum(k.compute_ns for k in e.kinds) or 1
    out = []
    for k in e.kinds:
        b, c = k.bytes / total_bytes, k.compute_ns / total_ns
        out.append(
            (
                kind_label(k.kind),
                bar(b, bar_width),
                f"{human_bytes(k.bytes)} {percent(b):>6}",
                bar(c, bar_width),
                f"{human_ns(k.compute_ns)} {percent(c):>6}",
            )
        )
    return out


def generation_items(e: Explanation) -> list[tuple[str, str]]:
    """(label, text) pairs for 'How it was generated'."""
    g = e.generation
    items: list[tuple[str, str]] = []
    if g.name is not None:
        n = g.name
        if n.gbs is not None:
            batch = _("gbs {gbs}, mbs {mbs}").format(gbs=n.gbs, mbs=n.mbs)
        else:
            batch = _("batch {mbs}").format(mbs=n.mbs)
        phase = _(", {phase}").format(phase=n.inference_phase) if n.inference_phase else ""
        items.append(
            (
                _("file name"),
                _(
                    "AICB name: {model}, world {world}, tp {tp}, pp {pp}, ep {ep}, {batch}, "
                    "seq {seq}"
                ).format(
                    model=n.model, world=n.world, tp=n.tp, pp=n.pp, ep=n.ep, batch=batch, seq=n.seq
                )
                + phase,
            )
        )
    if e.activation_bytes is not None:
        text = f"{e.activation_bytes:,} B ({human_bytes(e.activation_bytes)})"
        if e.activation_source == "pp_comm":
            text += _(", from pp_comm (no row carries it)")
        if g.hidden is not None:
            text += _("; hidden {hidden} from {how}").format(
                hidden=f"{g.hidden:,}", how=g.hidden_how
            )
        if g.preset_hidden is not None and g.name is not None:
            text += _("; {model} preset: {layers} layers, hidden {hidden}").format(
                model=g.name.model, layers=g.preset_layers, hidden=g.preset_hidden
            )
        items.append((_("activation"), text))
    elif e.dialect in ("transformer", "inference") and e.rows:
        items.append((_("activation"), _("no row carries it (e.g. TP 1 with measured times)")))
    if e.dialect in ("transformer", "inference"):
        items.append((_("sequence parallel"), _("yes") if g.sequence_parallel else _("no")))
        moe = _("yes") if g.moe else _("no")
        if g.moe:
            parts = []
            if g.experts is not None:
                parts.append(_plural(g.experts, "{n} expert", "{n} experts"))
            if g.topk is not None:
                parts.append(f"top-{g.topk}")
            if parts:
                moe = _("{answer}: {shape} ({how})").format(
                    answer=moe, shape=_(", ").join(parts), how=g.moe_how
                )
            else:
                moe += _(" (experts and top-k not derivable from these rows)")
        items.append(("MoE", moe))
    transformer = e.dialect in ("transformer", "inference")
    if g.compute == "measured":
        compute = (
            _("measured (AIOB) compute times")
            if transformer and g.aicb
            else _("compute times as written")
        )
    elif g.compute == "placeholder":
        compute = (
            _("placeholders: every layer compute time is 0 or 1 (no AIOB)")
            if transformer and g.aicb
            else _("placeholders: every compute time is 0 or 1")
        )
    else:
        compute = _("no rows")
    items.append((_("compute"), compute))
    if g.expected_ga is not None:
        items.append((_("ga from the name"), f"gbs // (mbs x DP) = {g.expected_ga}"))
    if g.era is not None:
        era = g.era.label
        if g.era.reasons:
            era = _("{era} ({reasons})").format(era=era, reasons=_("; ").join(g.era.reasons))
        items.append((_("generator"), era))
    if g.aicb_command is not None:
        items.append((_("AICB command"), g.aicb_command))
    return items


def structure_rows(e: Explanation) -> list[tuple[str, str, str]]:
    """(lines, rows, what) for the structure overview."""
    s = e.structure
    out: list[tuple[str, str, str]] = []
    if s.prologue:
        out.append(
            (
                _span(s.prologue[0].line, s.prologue[-1].line),
                str(len(s.prologue)),
                _("prologue, once per iteration: ") + _names(s.prologue),
            )
        )
    if s.group_count:
        assert s.groups_first_line is not None and s.groups_last_line is not None
        for shape in s.shapes:
            rows = shape.count * shape.rows
            what = f"{shape.count} x [{shape.pattern}]"
            extra = (
                _(" ({rows}, {layers} each)").format(
                    rows=_plural(shape.rows, "{n} row", "{n} rows"),
                    layers=_plural(shape.layers, "{n} layer", "{n} layers"),
                )
                if shape.layers
                else _(" ({rows} each)").format(rows=_plural(shape.rows, "{n} row", "{n} rows"))
            )
            if len(s.shapes) > 1:
                extra += _(", first: group {group}, lines {first}-{last}").format(
                    group=shape.first_group, first=shape.first_line, last=shape.last_line
                )
            out.append(("", f"{rows:,}", what + extra))
        out[len(out) - len(s.shapes)] = (
            _span(s.groups_first_line, s.groups_last_line),
            *out[len(out) - len(s.shapes)][1:],
        )
    if s.body_pattern is not None:
        first = s.body[0].line if s.body else 3
        total = len(s.body) + s.body_hidden
        out.append((_("from {line}").format(line=first), f"{total:,}", s.body_pattern))
    if s.epilogue:
        out.append(
            (
                _span(s.epilogue[0].line, s.epilogue[-1].line),
                str(len(s.epilogue)),
                _("epilogue, once per iteration: ") + _names(s.epilogue),
            )
        )
    return out


def reference_title(e: Explanation) -> str:
    s = e.structure
    assert s.reference and s.reference_group is not None
    first, last = s.reference[0].line, s.reference[-1].line
    others = s.group_count - 1
    if not others:
        tail = _("the only one")
    elif s.identical_groups == s.group_count:
        tail = _("the other {others} repeat it exactly").format(others=others)
    else:
        tail = _("{same} of the other {others} repeat it exactly").format(
            same=s.identical_groups - 1, others=others
        )
    return _("Micro-batch group {group} of {groups} (lines {first}-{last}): {tail}").format(
        group=s.reference_group, groups=s.group_count, first=first, last=last, tail=tail
    )


def row_sections(e: Explanation) -> list[tuple[str, Sequence[RowNote], str]]:
    """(title, rows, section) of each row table: prologue, one group, body, epilogue."""
    s = e.structure
    out: list[tuple[str, Sequence[RowNote], str]] = []
    if s.prologue:
        out.append((_("Prologue: once per iteration, before the groups"), s.prologue, "prologue"))
    if s.reference:
        out.append((reference_title(e), s.reference, "groups"))
    if s.body:
        out.append((body_title(e), s.body, "body"))
    if s.epilogue:
        out.append((_("Epilogue: once per iteration, after the groups"), s.epilogue, "epilogue"))
    return out


def body_title(e: Explanation) -> str:
    """The title of a body without groups: its rows, and how many are not shown."""
    s = e.structure
    if not s.body_hidden:
        return _("Rows")
    return _("Rows (first {n}; {more} more not shown)").format(
        n=len(s.body), more=f"{s.body_hidden:,}"
    )


def difference_lines(e: Explanation) -> list[str]:
    s = e.structure
    out = []
    for d in s.differences:
        rows = "; ".join(
            _("line {line} {name}: {what}").format(line=line, name=name, what=what)
            for line, name, what in d.rows
        )
        out.append(
            _("group {group} (lines {first}-{last}) differs: {rows}").format(
                group=d.group, first=d.first_line, last=d.last_line, rows=rows
            )
        )
    listed = len(s.differences)
    if s.differing_groups > listed:
        out.append(
            _("... and {n} more groups differ in values").format(n=s.differing_groups - listed)
        )
    return out


def comm_rows(e: Explanation) -> list[tuple[str, str, str, str, str]]:
    """(group, collective, calls, bytes, per rank) per collective, per iteration."""
    out = []
    for c in e.collectives:
        size = e.group_sizes.get(c.group) if c.group and c.group != "PP" else None
        group = group_cell(c.group, size)
        what = c.collective if c.collective != "pp_comm" else _("pp_comm (2 x vpp x ga sends)")
        out.append(
            (
                group,
                what,
                f"{c.calls:,}",
                human_bytes(c.bytes),
                human_bytes(c.share_bytes) if c.share_bytes is not None else "",
            )
        )
    return out


def group_totals(e: Explanation) -> str:
    always = ("TP", "DP") if e.policy in TRANSFORMER_DIALECTS else ()
    parts = [
        _(GROUP_LABELS[g]) + " " + human_bytes(n)
        for g, n in e.comm_bytes.items()
        if n or g in always
    ]
    return _(", ").join(parts) or _("none")


def compute_totals(e: Explanation) -> str:
    c = e.compute_ns
    text = _("forward {fwd}, input-grad {ig}, weight-grad {wg}; total {total}").format(
        fwd=human_ns(c["fwd"]),
        ig=human_ns(c["ig"]),
        wg=human_ns(c["wg"]),
        total=human_ns(c["total"]),
    )
    if e.bubble_compute_ns:
        text += _("; bubble at least {time} ({share} of the non-embedding compute)").format(
            time=human_ns(e.bubble_compute_ns), share=percent(e.bubble_fraction or 0)
        )
    return text


def layout_numbers(e: Explanation) -> list[tuple[str, str]]:
    """(key, value) pairs of the layout: header values as written, counted values beside."""
    if e.policy not in TRANSFORMER_DIALECTS:
        out = [(_("policy"), e.policy or _("none"))]
        if e.leading:
            out.append((_("after the policy"), " ".join(e.leading)))
        return out

    v = as_written
    out = [(_("policy"), e.policy), ("TP", v(e.tp)), ("PP", v(e.pp))]
    if e.dp is not None:
        assert e.tp is not None and e.pp is not None
        rem = _(", {n} left over").format(n=e.dp_remainder) if e.dp_remainder else ""
        out.append(("DP", f"{e.dp:,} = all_gpus {e.all_gpus:,} / (TP {e.tp} x PP {e.pp}){rem}"))
    else:
        out.append(("DP", _("-g / (TP x PP) (no all_gpus in the header)")))
    out.append(("EP", v(e.ep)))
    if e.dp_ep is not None:
        out.append(("DP/EP", f"{e.dp_ep:,} (DP / EP)"))
    ga = v(e.ga)
    if e.dialect == "transformer":
        ga += _plural(e.groups, " (body: {n} group)", " (body: {n} groups)")
    out.append(("ga", ga))
    vpp = v(e.vpp)
    if e.layers_per_stage is not None:
        vpp += _plural(
            e.layers_per_stage, " (body: {n} layer per group)", " (body: {n} layers per group)"
        )
    out.append(("vpp", vpp))
    out.append(("all_gpus", v(e.all_gpus)))
    pp_comm = _("absent") if e.pp_comm_text is None else e.pp_comm_text
    if e.pp_comm_simai:
        pp_comm += f" ({human_bytes(e.pp_comm_simai)})"
    out.append(("pp_comm", pp_comm))
    if e.bubble_fraction is not None:
        out.append((_("bubble"), f"(PP-1)/(GA*vpp) = {percent(e.bubble_fraction)}"))
    rows = f"{e.declared_rows:,}" if e.declared_rows is not None else _("unreadable")
    counted = _("{declared} declared, {body} in the body").format(declared=rows, body=f"{e.rows:,}")
    if e.rows_past_count:
        # the rows past the count are the file's too: the line says so, not only WK105
        counted += _plural(
            e.rows_past_count,
            " and {n} more row past the count, which SimAI never reads",
            " and {n} more rows past the count, which SimAI never reads",
        )
    out.append((_("rows"), counted))
    return out


def layout_words(e: Explanation) -> list[str]:
    """What `ga` and `vpp` mean in a training file, in plain words (a reader meets them as
    bare header keys)."""
    if e.dialect != "transformer":
        return []
    out = []
    if e.ga is not None:
        out.append(
            _(
                "ga {ga}: gradient accumulation, the micro-batches one GPU runs per iteration. "
                "AICB writes one group of rows per micro-batch ({groups} in this file); SimAI "
                "runs the rows as written and reads ga for the bubble, (PP - 1) / (ga x vpp), "
                "and the PP comm, 2 x vpp x ga sends of pp_comm."
            ).format(ga=f"{e.ga:,}", groups=f"{e.groups:,}")
        )
    if e.vpp is not None and e.layers_per_stage is not None:
        out.append(
            _(
                "vpp {vpp}: in the files AICB writes, the transformer layers of one pipeline "
                "stage, not Megatron's virtual-pipeline chunks; each group in this file holds "
                "{layers}. SimAI reads it for the same two formulas."
            ).format(vpp=f"{e.vpp:,}", layers=f"{e.layers_per_stage:,}")
        )
    return out


def _span(a: int, b: int) -> str:
    return f"{a}-{b}" if a != b else str(a)


def _names(rows: Sequence[RowNote]) -> str:
    return compress([r.name for r in rows])


def _share(value: float, total: float) -> str:
    from wkparse.models.simai.ieee import whole

    us = _("{n} us").format(n=whole(value))
    if not math.isfinite(total) or total <= 0 or not math.isfinite(value):
        return us
    return f"{us} ({value / total * 100:.2f}%)"


def simai_items(e: Explanation) -> list[tuple[str, str]]:
    """(label, text) pairs for 'What SimAI-Analytical will report' (none without it)."""
    r = e.simai
    if r is None:
        return []
    options = r.options or _("(refused)")
    if r.stated:
        options += " " + _(
            "(stated: -g = all_gpus, SimAI's default bandwidths; give yours with --simai-options)"
        )
    items = [(_("SimAI version"), r.simai), (_("options"), options)]
    if r.kind == "ok":
        ending = _("finishes (exit 0)")
    elif r.kind == "wrong-total":
        ending = _("finishes (exit 0), with a wrong total (see why)")
    elif r.kind == "nan":
        ending = _("exits 0 with Total time NaN or Inf (see why)")
    elif r.kind == "infinite":
        ending = _("exits 0 with a Total time that is no real time (see why)")
    elif r.kind == "hang":
        ending = _("never finishes: {message}").format(message=r.message)
    elif r.kind == "no-result":
        ending = _("exits 0 with no result: {message}").format(message=r.message)
    else:
        ending = _("ends with exit {code}: {message}").format(
            code=r.exit_code, message=r.message.splitlines()[0] if r.message else ""
        )
    items.append((_("outcome"), ending))
    t = r.totals
    if t:
        from wkparse.models.simai.ieee import whole

        total = t["total_time_us"]
        items.append((_("Total time"), _("{n} us").format(n=whole(total))))
        exposed = [
            f"{name} {whole(t[key])}"
            for name, key in (
                ("DP", "expose_dp_comm_us"),
                ("DP_EP", "expose_dp_ep_comm_us"),
                ("TP", "expose_tp_comm_us"),
                ("EP", "expose_ep_comm_us"),
            )
            if t[key]
        ]
        items.append(
            (
                _("where the time goes"),
                _(
                    "compute {compute}, exposed comm {comm}{groups}, PP comm {pp}, bubble {bubble}"
                ).format(
                    compute=_share(t["total_comp_us"], total),
                    comm=_share(t["total_exposed_comm_us"], total),
                    groups=f" ({', '.join(exposed)})" if exposed else "",
                    pp=_share(t.get("expose_pp_comm_us", 0.0), total),
                    bubble=_share(t["bubble_time_us"], total),
                ),
            )
        )
    if r.reason:
        items.append((_("why"), r.reason))
    items += [(_("warning"), w) for w in r.warnings]
    return items


#: how the missing-traffic items name a block (translated where shown)
_BLOCKS = {
    "attention": N_("attention"),
    "mlp": N_("MLP"),
    "moe": N_("MoE"),
    "gradients": N_("gradient step"),
}


def missing_traffic_items(e: Explanation) -> list[tuple[str, str]]:
    """(label, text) pairs for 'What AICB leaves out': one per collective the file lacks."""
    if not e.missing_traffic:
        return []
    basis = (
        _("read with the AICB command's settings")
        if e.missing_traffic_basis == "command"
        else _("read with the settings the file's header and rows give")
    )
    items = [
        (
            _("reference"),
            _(
                "Megatron-LM's collectives per layer for this model and parallelism ({basis}); "
                "see wkparse/models/aicb/reading/reference.py"
            ).format(basis=basis),
        )
    ]
    for m in e.missing_traffic:
        label = f"{m.phase} {m.group} {m.collective}"
        block = _(_BLOCKS.get(m.block, m.block))
        if m.block == "gradients":
            text = _("{what} of the {block}: missing").format(what=m.what, block=block)
        elif m.zero:
            text = _("{what}: written with 0 bytes in {n} of {of} {block} blocks").format(
                what=m.what, n=m.blocks, of=m.of, block=block
            )
        else:
            text = _("{what}: missing in {n} of {of} {block} blocks").format(
                what=m.what, n=m.blocks, of=m.of, block=block
            )
        if m.per_group_bytes is not None and m.size is not None:
            if m.block == "gradients":
                text += _(", {total} per iteration").format(total=human_bytes(m.per_group_bytes))
            else:
                text += _(", {size} each: {group} per micro-batch, {total} per iteration").format(
                    size=human_bytes(m.size),
                    group=human_bytes(m.per_group_bytes),
                    total=human_bytes(m.per_iteration_bytes),
                )
        else:
            text += _(" (bytes unknown from the file alone: give --aicb-command)")
        if m.instead:
            text += _("; the file writes it as {instead}").format(instead=m.instead)
        text += f" ({m.source}"
        text += f"; {m.issue})" if m.issue else ")"
        items.append((label, text))
    return items


#: the sections made of (label, text) items, in the order shown: (title, items of a file).
#: The title is translated where shown.
ITEM_SECTIONS: tuple[tuple[str, Callable[[Explanation], list[tuple[str, str]]]], ...] = (
    (N_("What SimAI-Analytical will report"), simai_items),
    (N_("How it was generated"), generation_items),
    (N_("What AICB leaves out"), missing_traffic_items),
)
#: the item sections shown first, right after what the file is (what a reader came for: what
#: SimAI will make of it and where it came from); the others after the rows
LEADING = frozenset((N_("What SimAI-Analytical will report"), N_("How it was generated")))
#: item sections shown only when they have items (SimAI's report: when explain was given
#: the file's bytes)
_WHEN_ANY = frozenset((N_("What AICB leaves out"), N_("What SimAI-Analytical will report")))


def item_sections(e: Explanation, leading: bool) -> list[tuple[str, list[tuple[str, str]]]]:
    """(translated title, items) of each item section, in order: the `LEADING` ones, or the
    others."""
    out = []
    for title, items in ITEM_SECTIONS:
        if (title in LEADING) != leading:
            continue
        found = items(e)
        if found or title not in _WHEN_ANY:
            out.append((_(title), found))
    return out
