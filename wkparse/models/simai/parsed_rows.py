"""SimAI's reading of the rows, taken from the parser's columns where it is sure to be the same.

SimAI reads the rows as one stream of fields (`wkparse.models.simai.rows`), which this model follows
field by field: a million distinct rows take a minute. The parser reads the same lines into
columns (`wkparse.row_reader`) in about a second. The two readings agree on every row SimAI
reads when each of those is a whole grammar row of 12 fields, without error: the grammar's
separators are C's whitespace and its numbers plain digits, so each line holds one layer's
fields in SimAI's order, and a blank line is whitespace to both. The numbers must also fit
SimAI's types (the reserved field an `int`, the others 64 bits). For any other file (a
customized policy's 13th field, a partial or broken row among those read, a number out of
range, a file the parser does not read as text) `read_parsed` returns None and the stream
model reads it.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from wkparse.ast import (
    NUMBER_FIELDS,
    PHASE_FIELDS,
    PHASES,
    ROW_FIELDS,
    IntColumn,
    RowTable,
    ValueTable,
    typecode_range,
)
from wkparse.columns import NUMPY_FROM, columns_of
from wkparse.cpp import INT_MAX, INT_MIN, U64
from wkparse.models.simai.rows import (
    LayerTable,
    LayerValues,
    RowsReading,
    Same,
    phantom,
    text_column,
)
from wkparse.parse import Limits, ParseResult, parse_bytes

RESERVED = ROW_FIELDS.index("reserved")
POLICY = ROW_FIELDS.index("policy")
#: what a kind of layer in SimAI's report is: its name and each phase's collective and size
KIND_FIELDS = (
    ROW_FIELDS.index("name"),
    *(f for p in PHASES for f in PHASE_FIELDS[p][1:]),
)


#: the values whose kinds `_few_kinds` counts
KIND_SAMPLE = 4096


def read_parsed(data: bytes, count: int, rows: RowTable | None = None) -> RowsReading | None:
    """SimAI's `count` layers after line 2 of `data` (not a customized policy's), from the
    parser's columns; None where the stream model must read them. `rows`: the parser's rows
    of `data` under the default limits, when the caller has them (explain has parsed the
    file already: parsing a million rows again costs as much as the report)."""
    if count <= 0:
        return None
    if rows is None:
        rows = parse_bytes(data).workload.rows
    if not len(rows):
        return None
    read = min(count, len(rows))
    whole = read == len(rows)
    refs = rows.refs if whole else rows.refs[:read]
    table = rows.values
    # values are numbered in the order of their first row: the first rows use the first values
    used = len(table) if whole else max(refs) + 1
    if any(k < used for k in table.partial) or not _fits(table, used):
        return None
    kinds: tuple[Any, list[int]] | None = None
    per_value = False
    if used == len(table) >= NUMPY_FROM:
        if _few_kinds(table):
            grouping = columns_of(rows).group(KIND_FIELDS)
            kinds = (grouping.of, grouping.first)
        else:  # grouping a million kinds costs more than timing a kind per value
            per_value = True
    values = replace(_values(table, refs, used, kinds), kinds_per_value=per_value)
    layers = LayerTable(values=values)
    layers.lines = rows.lines if whole else rows.lines[:read]
    if read == count:
        # every non-blank line after line 2 is one of the parser's rows (a blank line is
        # whitespace to both readings): those past the count are the lines SimAI leaves
        return RowsReading(layers, None, None, len(rows) - read)
    # the data ends before the count does: every later layer is the same empty one
    layers.tail, failed_at = phantom(data, values.layer(refs[-1]), False)
    layers.tail_count = count - read
    return RowsReading(layers, read, failed_at)


def reusable_rows(result: ParseResult, limits: Limits) -> RowTable | None:
    """The parser's rows of a file, for `read_parsed` to read rather than parse the bytes
    again, when they were read under the default limits (other limits may have read them
    otherwise than SimAI's model does); None: the model parses the bytes itself."""
    return result.workload.rows if limits == Limits() else None


def _few_kinds(table: ValueTable) -> bool:
    """Whether the values seem to hold few kinds of layer (name, collectives and sizes) for
    their number: at most a half of the first `KIND_SAMPLE` values are kinds of their own.
    Either way the report is the same; only its cost differs (grouping sorts every column
    that holds many numbers, timing a kind per value repeats the work of each kind)."""
    columns = table.columns
    sample = min(len(table), KIND_SAMPLE)
    keys = zip(*(columns[k][:sample] for k in KIND_FIELDS))
    return len(set(keys)) * 2 <= sample


def _fits(table: ValueTable, used: int) -> bool:
    """Whether the first `used` values have no 13th field and numbers SimAI reads as written."""
    columns = table.columns
    if any(_head(columns[POLICY], used)):
        return False
    for k in NUMBER_FIELDS:
        low, high = (INT_MIN, INT_MAX) if k == RESERVED else (0, U64 - 1)
        column = columns[k]
        if isinstance(column, array):
            least, most = typecode_range(column.typecode)
            if low <= least and most <= high:
                continue
        head = _head(column, used)
        if head and not (low <= min(head) and max(head) <= high):
            return False
    return True


def _head(column: IntColumn, used: int) -> IntColumn:
    return column if used == len(column) else column[:used]


def _values(
    table: ValueTable, refs: Sequence[int], used: int, kinds: tuple[Any, list[int]] | None
) -> LayerValues:
    """The first `used` values as SimAI's columns (texts as strings, numbers as the table
    holds them), with their `kinds` when grouped."""
    columns, texts = table.columns, table.texts

    def text(k: int) -> Sequence[str]:
        return text_column(_head(columns[k], used), texts)  # type: ignore[arg-type]

    def number(k: int) -> IntColumn:
        return _head(columns[k], used)

    phases = [PHASE_FIELDS[p] for p in PHASES]
    return LayerValues(
        refs,
        text(ROW_FIELDS.index("name")),
        number(RESERVED),
        tuple(number(c) for c, _, _ in phases),
        tuple(text(m) for _, m, _ in phases),
        tuple(number(s) for _, _, s in phases),
        number(ROW_FIELDS.index("update_time")),
        Same(None, used),
        Same(True, used),
        kinds,
    )
