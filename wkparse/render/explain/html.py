"""`wkparse explain --format html`: an `Explanation` as one self-contained page.

Inline CSS and SVG only (no script, no font, nothing fetched), so the page opens from disk,
attaches to an issue and prints. Four pictures (`explain_pictures`): the parallel layout, one
iteration's pipeline schedule, bytes per group and compute per phase with one micro-batch
group's rows as stacked bars, then the plain answer and the lint findings beside the rows
they point at. Tables fold into `<details>`; everything drawn is bounded, so the page of a
million-row file stays small.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from wkparse.explanation import Explanation, Finding, RowNote, path_label
from wkparse.i18n import _, current
from wkparse.render.explain import pictures
from wkparse.render.explain.cells import (
    COMM_HEADERS,
    LAYOUT_HEADERS,
    OVERVIEW_HEADERS,
    ROW_HEADERS,
    Fold,
    comm_rows,
    compute_totals,
    difference_lines,
    finding_text,
    fold_text,
    folded_cells,
    group_totals,
    headers,
    item_sections,
    layout_numbers,
    layout_words,
    row_sections,
    structure_rows,
)
from wkparse.render.explain.svg import esc

#: findings listed in full; the rest are counted (`wkparse lint` lists them all)
MAX_FINDINGS = 200
#: longest finding text shown whole
MAX_TEXT = 1000
#: widest row-table cell; no real name, collective or size comes near it
MAX_CELL = 64

CSS = """
:root { --fwd:#4c78a8; --ig:#f58518; --wg:#e45756; --bubble:#bbb; --this:#d62728;
  --gpu:#dfe7f1; --ink:#222; --muted:#666; --flag:#b35900;
  /* no font is embedded: the common Latin faces, then the common Simplified Chinese ones
     (macOS, Windows, Linux), then the generic family, which lang="zh-CN" points at the
     system's Chinese font when none of these is installed */
  --sans: system-ui, -apple-system, "Segoe UI", "Noto Sans", "PingFang SC", "Hiragino Sans GB",
    "Microsoft YaHei", "Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei",
    sans-serif;
  --mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Noto Sans Mono CJK SC",
    "Sarasa Mono SC", "WenQuanYi Micro Hei Mono", "PingFang SC", "Microsoft YaHei", monospace; }
* { box-sizing: border-box; }
body { font: 14px/1.45 var(--sans); color: var(--ink); margin: 0 auto; max-width: 1100px;
  padding: 16px 24px; }
h1 { font-size: 20px; margin: 0 0 8px; word-break: break-all; }
h2 { font-size: 16px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
code, .mono, td { font-family: var(--mono); }
.answer { background: #f6f8fa; border-left: 4px solid var(--fwd); padding: 8px 12px;
  margin: 8px 0; }
.answer b { display: block; }
figure { margin: 8px 0 16px; break-inside: avoid; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: 13px; margin-top: 4px; }
.with-aside { display: flex; gap: 16px; align-items: flex-start; flex-wrap: wrap; }
.with-aside > figure { flex: 1 1 640px; }
aside.findings { flex: 0 1 300px; font-size: 13px; }
.finding { border-left: 3px solid var(--flag); padding: 2px 8px; margin: 4px 0;
  overflow-wrap: anywhere; }
.finding.error { border-color: #c00; } .finding.info { border-color: #0a7ea4; }
table { border-collapse: collapse; font-size: 12.5px; margin: 4px 0; }
th, td { padding: 1px 8px; text-align: left; vertical-align: top; }
th { border-bottom: 1px solid #ccc; font-family: inherit; }
th, td.num, td:first-child, .rows td { white-space: nowrap; }
.rows { flex: 0 1 auto; overflow-x: auto; } .rows + aside.findings { flex: 1 1 260px; }
td.num { text-align: right; }
tr.flagged td { background: #fff4e5; }
td.lint { color: var(--flag); font-weight: 600; }
details { margin: 6px 0; } summary { cursor: pointer; font-weight: 600; }
svg text { font: 11px var(--sans); fill: var(--ink); }
svg text.axis { fill: var(--muted); } svg text.note { fill: var(--muted); font-size: 10px; }
svg text.label { font-size: 11.5px; } svg text.in { fill: #fff; font-size: 10px; }
svg text.flagged { fill: var(--flag); font-weight: 600; }
svg .gpu { fill: var(--gpu); stroke: #8aa4c4; stroke-width: .6; }
svg .gpu.this { fill: var(--this); stroke: #000; stroke-width: 1.2; }
svg .ep0 { fill: #f3efe0; } svg .ep1 { fill: #e6f0e6; }
svg .fwd { fill: var(--fwd); } svg .bwd { fill: var(--ig); } svg .ig { fill: var(--ig); }
svg .wg { fill: var(--wg); } svg .sent { fill: #72b7b2; }
svg .bubble { stroke: #888; stroke-width: .5; } svg rect.bars-bubble { fill: var(--bubble); }
svg .bubble-bg { fill: #eee; } svg .bubble-line { stroke: #999; stroke-width: 2; }
svg .grp { fill: #72b7b2; } svg .grp-tp { fill: #4c78a8; } svg .grp-dp { fill: #54a24b; }
svg .grp-ep { fill: #b279a2; } svg .grp-dp_ep { fill: #9d755d; } svg .grp-pp { fill: #eeca3b; }
svg .axis-line { stroke: #999; }
.legend span { display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 12px;
  vertical-align: middle; }
footer { color: var(--muted); font-size: 12px; margin-top: 32px; }
@media print {
  body { max-width: none; padding: 0; font-size: 11px; }
  details::details-content { content-visibility: visible; display: block; }
  summary { list-style: none; }
  h2 { break-after: avoid; }
}
"""


def render(e: Explanation) -> str:
    lang = "zh-CN" if current() == "zh" else "en"
    title = _("wkparse explain: {file}").format(file=path_label(e.path))
    flagged = _flags(e.findings)
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{lang}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        *_answer(e),
        *_items(e, leading=True),
        *_layout(e),
        *_schedule(e),
        *_totals(e, flagged),
        *_structure(e),
        *_items(e, leading=False),
        *_other_findings(e),
        "<footer>",
        esc(
            _(
                "Written by wkparse explain --format html. Header values are as written; "
                "counts come from the rows."
            )
        ),
        "</footer></body></html>",
    ]
    return "\n".join(p for p in parts if p) + "\n"


def _flags(findings: Sequence[Finding]) -> dict[int, str]:
    """Line -> the codes of the findings pointing at it."""
    out: dict[int, str] = {}
    for f in findings:
        for n in f.lines:
            out[n] = f"{out[n]} {f.code}" if n in out else f.code
    return out


def _p(text: str) -> str:
    return f"<p>{esc(text)}</p>"


def _fold(summary: str, body: str) -> str:
    return f"<details><summary>{esc(summary)}</summary>{body}</details>"


def _swatch(colour: str, label: str) -> str:
    return f'<span style="background:{colour}"></span>{esc(label)}'


def _h2(title: str, anchor: str) -> str:
    return f'<h2 id="{anchor}">{esc(title)}</h2>'


def _answer(e: Explanation) -> list[str]:
    out = [_h2(_("What this file is"), "answer"), f"<p>{esc(e.represents)}</p>"]
    for question, answer in e.answers:
        out.append(f'<div class="answer"><b>{esc(question)}</b>{esc(answer)}</div>')
    if e.notes:
        out.append("<ul>" + "".join(f"<li>{esc(n)}</li>" for n in e.notes) + "</ul>")
    return out


def _figure(svg: str, caption: str, aside: Sequence[Finding] = ()) -> list[str]:
    figure = f"<figure>{svg}<figcaption>{esc(caption)}</figcaption></figure>"
    if not aside:
        return [figure]
    return ['<div class="with-aside">', figure, _finding_list(aside, "aside"), "</div>"]


def _finding_list(findings: Sequence[Finding], tag: str = "div") -> str:
    items = [
        f'<div class="finding {esc(f.severity or "")}">{esc(_cut(finding_text(f)))}</div>'
        for f in findings[:MAX_FINDINGS]
    ]
    if len(findings) > MAX_FINDINGS:
        more = _("{n} more findings: run wkparse lint to list them all").format(
            n=f"{len(findings) - MAX_FINDINGS:,}"
        )
        items.append(f'<div class="finding">{esc(more)}</div>')
    return f'<{tag} class="findings">{"".join(items)}</{tag}>'


def _cut(text: str) -> str:
    """A finding quoting a huge token is cut, so one line cannot swell the page."""
    if len(text) <= MAX_TEXT:
        return text
    return _("{start}... ({n} characters, cut)").format(start=text[:MAX_TEXT], n=f"{len(text):,}")


def _table(headers: Sequence[str], rows: Iterable[Sequence[str]], right: set[int]) -> str:
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = [f"<tr>{_cells(row, right, MAX_TEXT)}</tr>" for row in rows]
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _cells(cells: Sequence[str], right: set[int], most: int) -> str:
    """Table cells, each cut to `most` characters (a hostile token cannot widen the page)."""
    out = []
    for i, c in enumerate(cells):
        shown = c if len(c) <= most else c[: most - 1] + "…"
        out.append(f'<td class="num">{esc(shown)}</td>' if i in right else f"<td>{esc(shown)}</td>")
    return "".join(out)


def _layout(e: Explanation) -> list[str]:
    out = [_h2(_("1. Parallel layout"), "layout")]
    header = [f for f in e.findings if f.section == "header"]
    svg = pictures.layout(e)
    if svg:
        out += _figure(svg, _layout_caption(e), header)
    else:
        out.append(_p(_("This policy has no TP/PP/DP layout to draw.")))
        if header:
            out.append(_finding_list(header))
    words = layout_words(e)
    if words:
        out.append("<ul>" + "".join(f"<li>{esc(w)}</li>" for w in words) + "</ul>")
    numbers = _table(headers(LAYOUT_HEADERS), layout_numbers(e), set())
    out.append(_fold(_("Header values"), numbers))
    return out


def _layout_caption(e: Explanation) -> str:
    pp = e.pp or 1
    if pp > 1:
        text = _(
            "Each square is one GPU; a block of {tp} is one TP group, a column one data-parallel "
            "replica, a row one pipeline stage. The red square is the GPU this file describes. "
            "SimAI gives every GPU these same rows: the other stages are simulated as copies of "
            "this one."
        )
    else:
        text = _(
            "Each square is one GPU; a block of {tp} is one TP group, a column one data-parallel "
            "replica; with PP 1 the one row holds the whole model. The red square is the GPU "
            "this file describes. SimAI gives every GPU these same rows."
        )
    text = text.format(tp=e.tp)
    if pp > 1:
        text += " " + _(
            "In a real run only stage 0 holds the input embedding and only stage {last} the "
            "output layer and the loss; the file does not show that difference."
        ).format(last=pp - 1)
    if e.ep and e.ep > 1:
        text += " " + _(
            "Tinted bands: expert-parallel groups of EP {ep} replicas (drawn as consecutive "
            "replicas); each expert's copies form a DP/EP group of {dp_ep}."
        ).format(ep=e.ep, dp_ep=e.dp_ep)
    if e.dp_remainder:
        text += " " + _("{n} GPUs of all_gpus fit no replica and are not drawn.").format(
            n=f"{(e.tp or 1) * pp * e.dp_remainder:,}"
        )
    return text


def _schedule(e: Explanation) -> list[str]:
    out = [_h2(_("2. Pipeline schedule, one iteration"), "schedule")]
    svg = pictures.schedule(e)
    if not svg:
        out.append(_p(_("No micro-batch groups: there is no schedule to draw.")))
        return out
    times = (
        _("with forward : backward drawn 1 : 2, since this file's compute times are placeholders")
        if e.placeholder_compute
        else _("drawn with this file's compute times")
    )
    caption = _(
        "F: forward, B: backward (input- and weight-gradient) of one micro-batch, {times}."
    ).format(times=times)
    if (e.pp or 1) > 1:
        caption += " " + _(
            "Hatched: the pipeline bubble. SimAI does not step through this schedule: it runs "
            "the rows once per micro-batch (ga {ga}) and adds the bubble, (PP-1)/(GA*vpp) of "
            "the non-embedding layer time, as one stretch; the picture spreads that idle time "
            "as a pipeline does, the same amount on every stage."
        ).format(ga=e.ga)
    else:
        caption += " " + _(
            "With PP 1 the whole model runs on this GPU: the micro-batches (ga {ga}) follow "
            "one another with no pipeline bubble."
        ).format(ga=e.ga)
    legend = (
        '<div class="legend">'
        + _swatch("var(--fwd)", _("forward"))
        + _swatch("var(--ig)", _("backward"))
        + _swatch("#ddd", pictures.bubble_label(e))
        + "</div>"
    )
    return [*out, legend, *_figure(svg, caption)]


def _totals(e: Explanation, flagged: dict[int, str]) -> list[str]:
    out = [_h2(_("3. Where bytes and time go (one GPU, one iteration)"), "totals")]
    groups = pictures.group_bars(e)
    if groups:
        out += _figure(groups, _("Bytes per communication group: ") + group_totals(e))
    phases = pictures.phase_bars(e)
    if phases:
        out += _figure(phases, _("Compute per phase: ") + compute_totals(e))
    simai = pictures.simai_bars(e)
    if simai and e.simai is not None:
        from wkparse.models.simai.ieee import whole

        total = e.simai.totals["total_time_us"]
        caption = _("SimAI-Analytical's Total time ({options}): {n} us").format(
            options=e.simai.options, n=whole(total)
        )
        out += _figure(simai, caption)
    rows = e.structure.reference or e.structure.body
    stack = pictures.layer_stack(rows, flagged)
    if stack:
        what = _("one micro-batch group") if e.structure.reference else _("the first rows")
        caption = _(
            "Per row of {what}: forward, input-gradient and weight-gradient compute stacked; "
            "the thin bar under it is the bytes its collectives carry. ⚠ marks rows a lint "
            "finding points at."
        ).format(what=what)
        out += _figure(stack, caption)
    table = comm_rows(e)
    if table:
        heads = headers(COMM_HEADERS)
        out.append(_fold(_("Collectives per iteration"), _table(heads, table, {2, 3, 4})))
    return out


def _row_table(rows: Sequence[RowNote], flagged: dict[int, str]) -> str:
    head = "".join(f"<th>{esc(h)}</th>" for h in (*headers(ROW_HEADERS), _("lint")))
    right = {0, 3, 6, 7}
    body = []
    notes: list[str] = []
    for item in folded_cells(rows, flagged):
        if isinstance(item, Fold):
            text = esc(f"… {fold_text(item)}")
            span = f'<td colspan="{len(ROW_HEADERS)}">{text}</td>'
            body.append(f'<tr class="fold"><td></td>{span}</tr>')
            continue
        row, cells, row_notes = item
        codes = flagged.get(row.line, "") if cells[0] else ""
        cls = ' class="flagged"' if row.line in flagged else ""
        tds = _cells(cells, right, MAX_CELL)
        body.append(f'<tr{cls}>{tds}<td class="lint">{esc(codes)}</td></tr>')
        notes += row_notes
    table = f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    if notes:
        table += "<ul>" + "".join(f"<li>{esc(n)}</li>" for n in notes) + "</ul>"
    return table


def _structure(e: Explanation) -> list[str]:
    out = [_h2(_("4. Rows and lint findings"), "rows")]
    overview = structure_rows(e)
    if overview:
        out.append(_table(headers(OVERVIEW_HEADERS), overview, {1}))
    count = [f for f in e.findings if f.section == "count"]
    if count:
        out.append(_finding_list(count))
    flagged = _flags(e.findings)
    sections = row_sections(e)
    for title, rows, section in sections:
        findings = [f for f in e.findings if f.section == section]
        badge = f" ⚠ {len(findings)}" if findings else ""
        opened = " open" if findings and len(rows) <= 40 else ""
        table = _row_table(rows, flagged)
        out.append(f"<details{opened}><summary>{esc(title + badge)}</summary>")
        out.append('<div class="with-aside">')
        out.append(f'<div class="rows">{table}</div>')
        if findings:
            out.append(_finding_list(findings, "aside"))
        out.append("</div>")
        if section == "groups":
            diffs = difference_lines(e)
            if diffs:
                out.append("<ul>" + "".join(f"<li>{esc(d)}</li>" for d in diffs) + "</ul>")
        out.append("</details>")
    return out


def _items(e: Explanation, leading: bool) -> list[str]:
    """The item sections ("How it was generated", ...): each a folded two-column table (the
    leading ones right under the answer, where a reader meets them first)."""
    return [
        _fold(title, _table((_("what"), _("value")), items, set()))
        for title, items in item_sections(e, leading)
        if items
    ]


def _other_findings(e: Explanation) -> list[str]:
    rest = [f for f in e.findings if f.section == "file"]
    if rest:
        return [_h2(_("Other lint findings"), "findings"), _finding_list(rest)]
    if not e.findings:
        return [_p(_("No lint findings."))]
    return []
