"""Which of the parser's rows SimAI reads: line 2's count of layers, taken from the stream of
fields after it, and what is left over or missing.

SimAI reads exactly `count` layers of 12 fields (13 under `HYBRID_CUSTOMIZED`) with `>>`,
ignoring line ends, and stops: the lines after the last field it takes are never read (notes
an author wrote below the rows, or rows past the count). Nothing after line 1 is read at all
when line 1 names no policy SimAI knows: it exits there. When the count is larger than the
rows, the stream runs dry and SimAI makes the remaining layers from nothing (phantom layers);
a file whose last row stops short of its fields was cut off inside that row.

Lint, explain and diff count groups and report rows over `read_view`: the rows SimAI reaches
(a cut-off last row left out), so that every command reads one body.
"""

from __future__ import annotations

from dataclasses import replace

from wkparse.ast import ROW_FIELDS, CountLine, RowTable, Workload
from wkparse.cpp import stoi
from wkparse.models.simai.tables import POLICIES
from wkparse.record import record

CUSTOMIZED = "HYBRID_CUSTOMIZED"


def declared_rows(count: CountLine) -> int | None:
    """The row count SimAI reads from line 2: its `std::stoi` also takes the leading integer
    of `1291abc` or `1291.0` (WK104). None when stoi throws or the count is negative (SimAI
    then makes no layers at all)."""
    if count.value is not None:
        return count.value
    value = stoi(count.text).value
    return value if value is not None and value >= 0 else None


@record
class Reach:
    """How line 2's count meets the rows (indexes into the parser's row table)."""

    #: the count SimAI reads; None when it reads none (the rows are then all kept)
    declared: int | None
    #: the rows SimAI takes fields from: the first `read` of the table
    read: int
    #: rows past `read` that are whole rows (12 or 13 fields, no error)
    unread_rows: int
    #: line numbers past `read` that are not whole rows: text SimAI never reads (notes)
    notes: tuple[int, ...]
    #: index of a last row cut off inside its fields (the file ends there), else None
    cut: int | None
    #: SimAI stops at line 1 (no policy it knows there): it reads no line after it
    stops_at_line_1: bool = False

    @property
    def phantom(self) -> int:
        """Layers SimAI makes beyond the rows it reads whole."""
        if self.declared is None:
            return 0
        return max(0, self.declared - (self.read - (self.cut is not None)))

    @property
    def kept(self) -> int:
        """The rows every command counts: those SimAI reads, a cut-off last row left out."""
        return self.read - (self.cut is not None)


def reach(workload: Workload) -> Reach:
    """`Reach` of `workload`, worked out once per row table."""
    return workload.rows.derived("reach", lambda: _reach(workload))


def read_view(workload: Workload) -> Workload:
    """`workload` with only the rows SimAI reads (a cut-off last row left out); the same
    object when those are all its rows."""
    rows = workload.rows
    kept = reach(workload).kept
    if kept == len(rows):
        return workload

    def make() -> Workload:
        # the first rows use exactly the first values: the view holds no value of a line
        # SimAI never reads, so no check finds one
        refs = rows.refs[:kept]
        values = rows.values.head(max(refs) + 1 if kept else 0)
        return replace(workload, rows=RowTable(rows.lines[:kept], refs, values))

    return rows.derived("read_view", make)


def foreign_width(workload: Workload) -> int | None:
    """The number of fields every row has when it is one other than SimAI's (a file written
    for another reader, such as a later ASTRA-sim text format): SimAI misreads it from the first
    row on, and one finding says so, not one per field of every row. None when the rows are
    no wider than SimAI's widest, differ among themselves, or are fewer than two."""
    rows = workload.rows
    values = rows.values
    partial = values.partial
    if len(rows) < 2 or not partial or len(partial) != len(values):
        return None
    widths = {len(p.columns) for p in partial.values()}
    if len(widths) != 1:
        return None
    (found,) = widths
    # wider than any row of SimAI's (a customized policy's included): not one slip of a field
    return found if found > len(ROW_FIELDS) else None


def width(workload: Workload) -> int:
    """The fields SimAI reads per row: 12, or 13 under `HYBRID_CUSTOMIZED`."""
    return _width(workload)


def _width(workload: Workload) -> int:
    header = workload.header
    customized = header is not None and header.policy == CUSTOMIZED
    return len(ROW_FIELDS) if customized else len(ROW_FIELDS) - 1


def _reach(workload: Workload) -> Reach:
    rows, count = workload.rows, workload.count
    if workload.header is not None and workload.header.policy not in POLICIES:
        return Reach(None, 0, 0, (), None, stops_at_line_1=True)
    declared = declared_rows(count) if count is not None else None
    present = len(rows)
    if declared is None or declared >= present:
        return Reach(declared, present, 0, (), _cut(workload, declared))
    read = _rows_holding(workload, declared)
    values = rows.values
    partial = values.partial
    unread = rows.refs[read:]
    notes = tuple(line for line, ref in zip(rows.lines[read:], unread) if ref in partial)
    return Reach(declared, read, len(unread) - len(notes), notes, None)


def _rows_holding(workload: Workload, declared: int) -> int:
    """How many rows hold the first `declared` layers' fields: `declared` when those rows are
    whole, else counted token by token (a short row takes fields from the next line)."""
    if declared == 0:
        return 0
    rows = workload.rows
    partial = rows.values.partial
    # values are numbered in the order of their first row: the first rows use the first values
    used = max(rows.refs[:declared]) + 1
    if not any(k < used for k in partial):
        return declared
    need, taken = declared * _width(workload), 0
    for i, ref in enumerate(rows.refs):
        taken += len(rows.values.columns_of(ref))
        if taken >= need:
            return i + 1
    return len(rows)


def _cut(workload: Workload, declared: int | None) -> int | None:
    """The last row's index when the file ends inside it: the row stops short of its fields
    on the file's last line, and either no line end follows or the count asks for more rows."""
    rows = workload.rows
    if not len(rows) or declared is None:
        return None
    last = len(rows) - 1
    if rows.lines[last] != workload.line_count:
        return None
    ref = rows.refs[last]
    if ref not in rows.values.partial or len(rows.values.columns_of(ref)) >= _width(workload):
        return None
    if workload.final_newline and declared <= len(rows):
        return None
    return last
