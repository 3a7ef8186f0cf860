"""`wkparse explain --format markdown`: an `Explanation` as an answer to paste into an issue.

Same content as the terminal output (GitHub-flavoured Markdown): the summary and notes, the
layout with its GPU picture, the structure with every row of the prologue, one micro-batch
group (folded in a `<details>` block) and the epilogue annotated, how the file was made,
totals per iteration with bars, and the lint findings where they apply.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rich.cells import cell_len

from wkparse.explanation import Explanation, Finding, RowNote, path_label
from wkparse.i18n import _
from wkparse.render.explain.cells import (
    COMM_HEADERS,
    KINDS_HEADERS,
    LAYOUT_HEADERS,
    OTHER_GPU,
    OVERVIEW_HEADERS,
    ROW_HEADERS,
    THIS_GPU,
    Fold,
    bar_rows,
    comm_rows,
    compute_totals,
    difference_lines,
    finding_text,
    fit,
    fold_text,
    folded_cells,
    grid_lines,
    group_totals,
    headers,
    hidden_phases,
    item_sections,
    kind_label,
    layout_caption,
    layout_numbers,
    layout_words,
    row_sections,
    structure_rows,
)

#: the width the GPU picture and the bars are laid out for (a GitHub comment's code block)
WIDTH = 100


def render(e: Explanation) -> str:
    title = _("{file}: what this workload file means").format(file=code(path_label(e.path)))
    out: list[str] = [f"### {title}", ""]
    out += ["**" + _("In short:") + f"** {prose(e.represents)}", ""]
    for question, answer in e.answers:
        out += [f"> **{prose(question)}**", ">", f"> {prose(answer)}", ""]
    out += [f"- {prose(n)}" for n in e.notes]
    if e.notes:
        out.append("")
    out += _items(e, leading=True)
    out += _layout(e)
    out += _schedule(e)
    out += _structure(e)
    out += _items(e, leading=False)
    out += _totals(e)
    leftover = [f for f in e.findings if f.section == "file"]
    if leftover:
        out += ["#### " + _("Other lint findings"), "", *_findings(leftover), ""]
    if not e.findings:
        out += [_("No lint findings."), ""]
    written = _(
        "Written by `wkparse explain --format markdown`. Header values are as written; counts "
        "come from the rows."
    )
    out.append(f"<sub>{written}</sub>")
    return "\n".join(out) + "\n"


def _items(e: Explanation, leading: bool) -> list[str]:
    """The item sections ("How it was generated", ...): a heading and a list of items."""
    out = []
    for heading, items in item_sections(e, leading):
        out += ["#### " + heading, ""]
        out += [f"- **{key}**: {prose(value)}" for key, value in items]
        out.append("")
    return out


def prose(text: str) -> str:
    """Escape what Markdown would read as emphasis or HTML in running text."""
    return text.replace("\\", "\\\\").replace("*", "\\*").replace("<", "&lt;")


def cell(text: str) -> str:
    return prose(text).replace("|", "\\|") or " "


def table(headers: Sequence[str], rows: Iterable[Sequence[str]], right: set[int]) -> list[str]:
    align = ["---:" if i in right else "---" for i in range(len(headers))]
    out = ["| " + " | ".join(headers) + " |", "| " + " | ".join(align) + " |"]
    out += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return out


def _findings(findings: Iterable[Finding]) -> list[str]:
    return [f"- :warning: {prose(finding_text(f))}" for f in findings]


#: the layout's words, each a name of its concept page (tests/test_concept_links.py)
TERMS = ("TP", "PP", "DP", "EP", "ga", "vpp", "pp_comm", "bubble")


def terms_line() -> str:
    """Where the layout's words are defined: the concept pages, by the command that shows them."""
    commands = ", ".join(f"`wkparse concept {t}`" for t in TERMS)
    return "*" + _("What these words mean: {commands}").format(commands=commands) + "*"


def _layout(e: Explanation) -> list[str]:
    out = ["#### " + _("Parallel layout"), ""]
    out += table(headers(LAYOUT_HEADERS), layout_numbers(e), set())
    out.append("")
    words = layout_words(e)
    if words:
        out += [*(f"- {prose(w)}" for w in words), ""]
    out += [terms_line(), ""]
    if e.tp and e.dp and e.dialect in ("transformer", "inference"):
        grid = ["".join(text for text, _lit in pieces).rstrip() for pieces in grid_lines(e, WIDTH)]
        out += [*fenced("text", grid), ""]
        caption = layout_caption(e).replace(THIS_GPU, f"`{THIS_GPU}`")
        out += [f"*{prose(caption).replace(OTHER_GPU, f'`{OTHER_GPU}`')}*", ""]
    header = _findings(f for f in e.findings if f.section == "header")
    if header:
        out += [*header, ""]
    return out


def _longest_backticks(lines: Iterable[str]) -> int:
    return max((len(run) for line in lines for run in re.findall("`+", line)), default=0)


def code(text: str) -> str:
    """An inline code span that holds any backticks in `text` (a longer run around it)."""
    ticks = "`" * (_longest_backticks([text]) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def fenced(info: str, lines: list[str]) -> list[str]:
    """A fenced code block whose fence is longer than any run of backticks in it: a layer
    named with three of them would otherwise close the block and spill into the issue."""
    fence = "`" * max(3, _longest_backticks(lines) + 1)
    return [fence + info, *lines, fence]


def _schedule(e: Explanation) -> list[str]:
    """The pipeline schedule as a Mermaid chart (GitHub draws it), with its bubble in words."""
    from wkparse.render.explain import mermaid as explain_mermaid

    chart = explain_mermaid.schedule(e)
    if not chart:
        return []
    heading = "#### " + _("Pipeline schedule, one iteration")
    return [heading, "", *fenced("mermaid", [chart]), ""]


def _row_table(rows: Sequence[RowNote], findings: Sequence[Finding]) -> list[str]:
    flagged = {line for f in findings for line in f.lines}
    lines = []
    notes: list[str] = []
    for item in folded_cells(rows, flagged):
        if isinstance(item, Fold):
            lines.append(["", f"… {fold_text(item)}", "", "", "", "", "", ""])
            continue
        row, cells, row_notes = item
        if cells[0] and row.line in flagged:
            cells[0] = f"{cells[0]} :warning:"
        if cells[1]:
            cells[1] = code(cells[1])
        lines.append(cells)
        notes += row_notes
    right = {0, 3, 6, 7}
    out = table(headers(ROW_HEADERS), lines, right)
    out.append("")
    out += [f"- {prose(n)}" for n in notes]
    return out


def _structure(e: Explanation) -> list[str]:
    out = ["#### " + _("Structure"), ""]
    overview = [
        (lines, rows, code(what) if "x [" in what else what)
        for lines, rows, what in structure_rows(e)
    ]
    out += table(headers(OVERVIEW_HEADERS), overview, {1})
    out.append("")
    count = _findings(f for f in e.findings if f.section == "count")
    if count:
        out += [*count, ""]
    sections = [
        (title, rows, section, section == "groups" or (section == "body" and len(rows) > 20))
        for title, rows, section in row_sections(e)
    ]
    for title, rows, section, fold in sections:
        findings = [f for f in e.findings if f.section == section]
        if fold:
            out += ["<details>", f"<summary><b>{prose(title)}</b></summary>", ""]
        else:
            out += [f"**{prose(title)}**", ""]
        out += _row_table(rows, findings)
        if fold:
            out += ["</details>", ""]
        if section == "groups":
            out += [f"- {prose(line)}" for line in difference_lines(e)]
        out += _findings(findings)
        if out[-1]:
            out.append("")
    if sections:
        hidden = prose(hidden_phases())
        out += [f"<sub>{hidden[0].upper()}{hidden[1:]}.</sub>", ""]
    return out


def _totals(e: Explanation) -> list[str]:
    out = ["#### " + _("Totals per iteration (one GPU)"), ""]
    out += [
        "- " + _("bytes per group: ") + prose(group_totals(e)),
        "- " + _("compute: ") + prose(compute_totals(e)),
        "",
    ]
    rows = comm_rows(e)
    if rows:
        out += table(headers(COMM_HEADERS), rows, {2, 3, 4})
        out.append("")
    if e.kinds:
        by_kind, bytes_head, compute_head = headers(KINDS_HEADERS)
        kind_width = max(cell_len(by_kind), *(cell_len(kind_label(k.kind)) for k in e.kinds))
        bar_width = 24
        bars = [f"{fit(by_kind, kind_width)}  {fit(bytes_head, bar_width + 18)}  {compute_head}"]
        for kind, b_bar, b_text, c_bar, c_text in bar_rows(e, bar_width):
            bars.append(
                f"{fit(kind, kind_width)}  {b_bar} {b_text.rjust(17)}  {c_bar} {c_text.rjust(17)}"
            )
        out += [*fenced("text", bars), ""]
    return out
