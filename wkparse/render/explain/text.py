"""`wkparse explain` for the terminal: an `Explanation` as rich renderables.

`render(e)` returns one renderable that lays itself out for the console's width (the GPU
grid and the bars use the room they get; tables wrap), so the same object reads at 80 and at
160 columns. The words and cells come from `explain_cells`, shared with the Markdown and
HTML renderers; this module only lays them out with rich.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from wkparse.explanation import Explanation, Finding, RowNote, path_label
from wkparse.i18n import _
from wkparse.render.explain.cells import (
    COMM_HEADERS,
    KINDS_HEADERS,
    OVERVIEW_HEADERS,
    ROW_HEADERS,
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

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan", None: "magenta"}


def render(e: Explanation) -> RenderableType:
    return _Explained(e)


# ---- the renderable -------------------------------------------------------------------------


class _Explained:
    def __init__(self, e: Explanation) -> None:
        self.e = e

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        e = self.e
        width = options.max_width
        yield Rule(Text(f"wkparse explain: {path_label(e.path)}", style="bold"))
        yield from self._summary()
        yield from self._items(leading=True)
        yield from self._layout(width)
        yield from self._structure(width)
        yield from self._items(leading=False)
        yield from self._totals(width)
        leftover = [f for f in e.findings if f.section == "file"]
        if leftover:
            yield _heading(_("Other lint findings"))
            yield from _finding_block(leftover)
        if not e.findings:
            yield Text(_("No lint findings."), style="green")

    def _summary(self) -> Iterator[RenderableType]:
        e = self.e
        yield _heading(_("What this file is"))
        yield Padding(Text(e.represents), (0, 0, 0, 2))
        for question, answer in e.answers:
            yield Text("")
            yield Padding(Text(question, style="bold"), (0, 0, 0, 2))
            yield Padding(Text(answer), (0, 0, 0, 4))
        if e.notes:
            yield Text("")
            for note in e.notes:
                yield _bullet(note)

    def _layout(self, width: int) -> Iterator[RenderableType]:
        e = self.e
        yield _heading(_("Parallel layout"))
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for key, value in layout_numbers(e):
            table.add_row(Text(key), Text(value))
        yield Padding(table, (0, 0, 0, 2))
        for words in layout_words(e):
            yield _bullet(words)
        if e.tp and e.dp and e.dialect in ("transformer", "inference"):
            yield Text("")
            picture = Text()
            for pieces in grid_lines(e, width - 2):
                picture.append("  ")
                for text, lit in pieces:
                    picture.append(text, style="bold green" if lit else "dim")
                picture.append("\n")
            yield picture
            yield Padding(Text(layout_caption(e), style="italic"), (0, 0, 0, 2))
        yield from _finding_block([f for f in e.findings if f.section == "header"])

    def _structure(self, width: int) -> Iterator[RenderableType]:
        e = self.e
        yield _heading(_("Structure"))
        if not e.rows:
            yield Padding(Text(_("No rows.")), (0, 0, 0, 2))
        overview = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
        lines_head, rows_head, what_head = headers(OVERVIEW_HEADERS)
        overview.add_column(lines_head, no_wrap=True)
        overview.add_column(rows_head, justify="right", no_wrap=True)
        overview.add_column(what_head, overflow="fold")
        for lines, rows, what in structure_rows(e):
            overview.add_row(Text(lines), Text(rows), Text(what))
        if e.rows:
            yield Padding(overview, (0, 0, 0, 2))
        yield from _finding_block([f for f in e.findings if f.section == "count"])
        sections = row_sections(e)
        for title, table_rows, section in sections:
            yield Text("")
            yield Padding(Text(title, style="bold"), (0, 0, 0, 2))
            findings = [f for f in e.findings if f.section == section]
            yield Padding(_row_table(table_rows, findings, width), (0, 0, 0, 2))
            if section == "groups":
                for line in difference_lines(e):
                    yield _bullet(line)
            flagged = {line for f in findings for line in f.lines}
            shown = folded_cells(table_rows, flagged)
            notes = [n for item in shown if not isinstance(item, Fold) for n in item[2]]
            for note in notes:
                yield _bullet(note, style="dim")
            yield from _finding_block(findings)
        if sections:
            yield Padding(Text(f"({hidden_phases()})", style="dim italic"), (0, 0, 0, 2))

    def _items(self, leading: bool) -> Iterator[RenderableType]:
        """The item sections ("How it was generated", ...): a heading and a key-value grid."""
        for title, items in item_sections(self.e, leading):
            yield _heading(title)
            table = Table.grid(padding=(0, 2))
            table.add_column(style="bold", no_wrap=True)
            table.add_column()
            for key, value in items:
                table.add_row(Text(key), Text(value, overflow="fold"))
            yield Padding(table, (0, 0, 0, 2))

    def _totals(self, width: int) -> Iterator[RenderableType]:
        e = self.e
        yield _heading(_("Totals per iteration (one GPU)"))
        yield Padding(Text(_("bytes per group: ") + group_totals(e)), (0, 0, 0, 2))
        yield Padding(Text(_("compute: ") + compute_totals(e)), (0, 0, 0, 2))
        rows = comm_rows(e)
        if rows:
            table = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
            for name, justify in zip(
                headers(COMM_HEADERS), ("left", "left", "right", "right", "right")
            ):
                table.add_column(name, justify=justify)  # type: ignore[arg-type]
            for row in rows:
                table.add_row(*map(Text, row))
            yield Text("")
            yield Padding(table, (0, 0, 0, 2))
        if e.kinds:
            yield Text("")
            yield from _bars(e, width)


def _bars(e: Explanation, width: int) -> Iterator[RenderableType]:
    """Where bytes and compute go, by kind of layer: two bars per kind."""
    by_kind, bytes_head, compute_head = headers(KINDS_HEADERS)
    kind_width = max(cell_len(by_kind), *(cell_len(kind_label(k.kind)) for k in e.kinds))
    value_width = 17  # '1.07 GiB  42.5%' and '4.28 s  55.7%'
    bar_width = min(40, max(6, (width - 2 - kind_width - 2 * (value_width + 3)) // 2))
    head = Text("  " + fit(by_kind, kind_width), style="bold")
    head.append("  " + fit(bytes_head, bar_width + value_width + 1), style="bold")
    head.append("  " + compute_head, style="bold")
    yield head
    for kind, bytes_bar, bytes_text, compute_bar, compute_text in bar_rows(e, bar_width):
        line = Text("  " + fit(kind, kind_width) + "  ")
        line.append(bytes_bar, style="cyan")
        line.append(" " + bytes_text.rjust(value_width) + "  ")
        line.append(compute_bar, style="magenta")
        line.append(" " + compute_text.rjust(value_width))
        yield line


def _heading(title: str) -> RenderableType:
    return Group(Text(""), Text(title, style="bold underline"))


#: longest text a bullet shows whole: rich wraps a paragraph in time quadratic in its length,
#: and a lint message quoting a hostile 60,000-character token took it over 10 seconds
_MAX_BULLET = 2000


def _hanging(mark: str, text: str, style: str = "") -> RenderableType:
    """A bullet whose wrapped lines align after the mark."""
    if len(text) > _MAX_BULLET:
        text = f"{text[:_MAX_BULLET]}... ({len(text):,} characters, cut)"
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, style=style)
    grid.add_column(style=style)
    grid.add_row(Text(mark), Text(text))
    return Padding(grid, (0, 0, 0, 2))


def _bullet(text: str, style: str = "") -> RenderableType:
    return _hanging("-", text, style)


def _finding_block(findings: Iterable[Finding]) -> Iterator[RenderableType]:
    for f in findings:
        yield _hanging("!", finding_text(f), SEVERITY_STYLE.get(f.severity, "magenta"))


#: widest cell of a row table; no real name, collective or size comes near it
_MAX_CELL = 64


def _row_table(rows: Sequence[RowNote], findings: Sequence[Finding], width: int) -> RenderableType:
    """The annotated rows as aligned text lines.

    Laid out by hand rather than with a rich Table: an expanded group can run to hundreds of
    lines, and measuring every cell through rich costs more than explaining the file.
    """
    narrow = width < 110
    flagged = {line for f in findings for line in f.lines}
    lines: list[list[str]] = []
    folds: dict[int, str] = {}  # a fold's line, by the table line it comes before
    for item in folded_cells(rows, flagged, strip_suffix=narrow):
        if isinstance(item, Fold):
            folds[len(lines)] = fold_text(item)
            continue
        row, cells, _notes = item
        if cells[0] and row.line in flagged:
            cells[0] = f"!{cells[0]}"
        lines.append(cells)
    # A cell's width counts up to _MAX_CELL (longer ones are cut below): one hostile
    # 60,000-character comm type would otherwise pad every line of the table to its width.
    heads = headers(ROW_HEADERS)
    widths = [
        max(cell_len(h), *(min(cell_len(c[i]), _MAX_CELL) for c in lines))
        for i, h in enumerate(heads)
    ]
    gap = 1 if narrow else 2
    room = width - 2 - sum(widths) - gap * (len(widths) - 1)
    if room < 0:  # give the row names what is left, cutting the longest
        widths[1] = max(8, widths[1] + room)
    right = {0, 3, 6, 7}

    def fmt(cells: Sequence[str]) -> str:
        parts = [fit(text, w, i in right) for i, (text, w) in enumerate(zip(cells, widths))]
        return (" " * gap).join(parts).rstrip()

    out = Text(fmt(heads) + "\n", style="bold")
    indent = " " * (widths[0] + gap)
    for i, cells in enumerate(lines):
        style = "yellow" if cells[0].startswith("!") else ""
        out.append(fmt(cells) + "\n", style=style)
        if i + 1 in folds:
            out.append(f"{indent}... {folds[i + 1]}\n", style="dim")
    out.rstrip()
    return out
