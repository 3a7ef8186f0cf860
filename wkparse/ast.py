"""The typed syntax tree of a workload file.

Positions are 1-based; `end_column` is exclusive (the column after the last character), as in
SARIF. The rows are stored as columns (`ValueTable`): one value per distinct line (AICB
repeats the same micro-batch group `ga` times, so a million-row file often holds only a few
hundred), each a few tens of bytes of typed arrays and interned strings; `Row` and
`RowFields` are views made when a caller reads one row.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import field
from functools import partial
from typing import TYPE_CHECKING, TypeVar, Union, overload

from wkparse.i18n import N_
from wkparse.record import record

T = TypeVar("T")

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

#: Row field names in SimAI's reading order (the 13th only in HYBRID_CUSTOMIZED files).
ROW_FIELDS: tuple[str, ...] = (
    "name",
    "reserved",
    "fwd_compute",
    "fwd_comm",
    "fwd_size",
    "ig_compute",
    "ig_comm",
    "ig_size",
    "wg_compute",
    "wg_comm",
    "wg_size",
    "update_time",
    "policy",
)
#: The three phases of a row: forward, input gradient, weight gradient.
PHASES: tuple[str, ...] = ("fwd", "ig", "wg")
#: Each phase in words, as every message names it (marked for translation: `_()` it to show).
PHASE_WORDS = {"fwd": N_("forward"), "ig": N_("input-gradient"), "wg": N_("weight-gradient")}
#: The most digits a number may have to become an `int`. Anything longer is far past 64 bits;
#: the bound sits above 10^400 and below 640, the smallest limit Python's int/str conversion
#: can be set to, so no int taken from a file can fail to print or crash `int()`.
MAX_DIGITS = 600


@record
class Span:
    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def on_line(cls, line: int, column: int, end_column: int) -> Span:
        return cls(line, column, line, end_column)


@record
class Value:
    """One header value token, kept as written (`8388608.0` stays a string with its span)."""

    text: str
    span: Span

    @property
    def number(self) -> float | None:
        try:
            return float(self.text)
        except ValueError:
            return None


@record
class HeaderField:
    """`key: v1 v2 ...`; `colon` is False for a bare word such as `pp_comm 50331648`."""

    key: str
    span: Span
    values: tuple[Value, ...]
    colon: bool

    @property
    def value(self) -> Value | None:
        return self.values[0] if self.values else None


@record
class Header:
    policy: str
    policy_span: Span
    #: numbers directly after the policy (ASTRA-sim 1.0's bare `HYBRID_DLRM 4`)
    leading: tuple[Value, ...]
    fields: tuple[HeaderField, ...]
    span: Span

    def __hash__(self) -> int:
        # Equal headers share these, so this agrees with the generated __eq__. The generated
        # hash walked every field, value and span: checks that cache per header paid that walk
        # on every lookup.
        return hash((self.policy, self.span, len(self.leading), len(self.fields)))

    def all(self, key: str) -> tuple[HeaderField, ...]:
        """Every field written with this key, with or without its colon, in order."""
        return tuple(f for f in self.fields if f.key == key)

    def read(self, key: str) -> HeaderField | None:
        """The field SimAI reads for `key`: the last one with a colon (only `pp_comm` is also
        read without it), or None when SimAI finds none. The number it takes from it is
        `wkparse.models.simai.header_value`'s."""
        found = None
        for f in self.fields:
            if f.key == key and (f.colon or key == "pp_comm"):
                found = f
        return found


@record
class CountLine:
    text: str
    #: the declared row count when line 2 is a clean non-negative integer
    value: int | None
    span: Span


@record
class LineError:
    """A syntax error inside one line, without its line number (shared by identical lines)."""

    code: str
    column: int
    end_column: int
    message: str


@record
class Phase:
    compute: int | None
    comm: str | None
    size: int | None


#: indexes into ROW_FIELDS of the fields that hold text (interned) and those that hold numbers
TEXT_FIELDS: tuple[int, ...] = (0, 3, 6, 9, 12)
NUMBER_FIELDS: tuple[int, ...] = (1, 2, 4, 5, 7, 8, 10, 11)
#: (compute, comm, size) field indexes of each phase
PHASE_FIELDS: dict[str, tuple[int, int, int]] = {
    "fwd": (2, 3, 4),
    "ig": (5, 6, 7),
    "wg": (8, 9, 10),
}
#: the typecodes a column starts with (signed for `reserved`, the one signed field; text
#: codes and line shapes are unsigned), and the next wider one of each: a column widens only
#: when a value does not fit, so a column of small numbers costs a byte a value
_SIGNED = 1
_WIDE = {"b": "h", "h": "i", "i": "q", "B": "H", "H": "I", "I": "Q"}
#: the range of each typecode a column may have
_RANGE = {
    code: (-(2 ** (8 * size - 1)), 2 ** (8 * size - 1) - 1)
    if code.islower()
    else (0, 2 ** (8 * size) - 1)
    for code in "bBhHiIqQ"
    for size in (array(code).itemsize,)
}
#: `ValueTable.extend_numbers`'s index for the table's shape column
SHAPE = -1


def typecode_range(typecode: str) -> tuple[int, int]:
    """The least and most a column of this typecode can hold."""
    return _RANGE[typecode]


def _holds(typecode: str, low: int, high: int) -> bool:
    """Whether an array of this typecode holds every number from `low` to `high`."""
    least, most = _RANGE[typecode]
    return least <= low and high <= most


def narrowest(typecode: str, low: int, high: int) -> str | None:
    """The typecode a column of `typecode` needs to hold every number from `low` to `high`:
    its own, the first wider one that does, or None (a list)."""
    found: str | None = typecode
    while found is not None and not _holds(found, low, high):
        found = _WIDE.get(found)
    return found


IntColumn = Union["array[int]", list[int]]


@record
class _Partial:
    """A row value the columns cannot hold: a field is missing or the line has errors."""

    values: tuple[int | str | None, ...]
    columns: tuple[tuple[int, int], ...]
    errors: tuple[LineError, ...]


class ValueTable:
    """The distinct row values of a file, stored as columns.

    Value `i` is column `k`'s item `i` for each field `k` of ROW_FIELDS: text fields (name,
    comm types, policy) as codes into one table of interned strings (code 0 is None), numbers
    in typed arrays that widen (`I` to `Q`, then a list for integers past 64 bits) only when
    a value needs it. Token positions are not stored per value: each value points at its line
    shape (the line with every digit replaced by 0, which keeps every token where it was),
    and a few hundred shapes cover a million distinct lines. Values that miss a field or carry
    syntax errors (rare) keep their whole reading in `partial`; their column entries are 0.
    """

    __slots__ = ("_codes", "_shape_codes", "columns", "partial", "shape", "shapes", "texts")

    def __init__(self) -> None:
        self.texts: list[str | None] = [None]
        self._codes: dict[str | None, int] = {None: 0}
        self.columns: list[IntColumn] = [
            array("b" if k == _SIGNED else "B") for k in range(len(ROW_FIELDS))
        ]
        self.shape: array[int] = array("B")
        self.shapes: list[tuple[tuple[int, int], ...]] = []
        self._shape_codes: dict[tuple[tuple[int, int], ...], int] = {}
        self.partial: dict[int, _Partial] = {}

    def __len__(self) -> int:
        return len(self.shape)

    def head(self, used: int) -> ValueTable:
        """The first `used` values, as a table of their own (texts and shapes shared). The
        first rows of a file use exactly its first values (they are numbered in the order of
        their first row), so this is the table of a run of first rows."""
        table = ValueTable()
        table.texts, table._codes = self.texts, self._codes
        table.shapes, table._shape_codes = self.shapes, self._shape_codes
        table.columns = [column[:used] for column in self.columns]
        table.shape = self.shape[:used]
        table.partial = {k: v for k, v in self.partial.items() if k < used}
        return table

    def code(self, text: str | None) -> int:
        """The code of `text`, interning it on first sight."""
        found = self._codes.get(text)
        if found is None:
            found = self._codes[text] = len(self.texts)
            self.texts.append(sys.intern(text) if text is not None else None)
        return found

    def column(self, field_name: str | int) -> IntColumn:
        """One field's column (codes into `texts` for text fields), indexed by value."""
        index = ROW_FIELDS.index(field_name) if isinstance(field_name, str) else field_name
        return self.columns[index]

    def extend_numbers(self, index: int, values: Iterable[int]) -> None:
        """Append numbers to column `index` (SHAPE: the shape column), widening it when one
        does not fit."""
        column = self._column(index)
        if isinstance(column, list):
            column.extend(values)
            return
        values = values if isinstance(values, (list, tuple)) else list(values)
        size = len(column)
        try:
            column.extend(values)
        except OverflowError:
            del column[size:]  # the items before the one that did not fit went in
            typecode = narrowest(column.typecode, min(values), max(values))
            grown: IntColumn = list(column) if typecode is None else array(typecode, column)
            grown.extend(values)
            self._set(index, grown)

    def extend_array(
        self, index: int, values: NDArray[np.integer], bounds: tuple[int, int] | None = None
    ) -> None:
        """Append a numpy array of integers to column `index` (SHAPE: the shape column),
        widening it as `extend_numbers` does. `bounds`, when known, hold every value (the
        values are searched only when the column's typecode does not hold the bounds)."""
        column = self._column(index)
        if not len(values):
            return
        if isinstance(column, list):
            column.extend(values.tolist())
            return
        if bounds is None or not _holds(column.typecode, *bounds):
            bounds = (int(values.min()), int(values.max()))
        typecode = narrowest(column.typecode, *bounds)
        if typecode is None:
            self._set(index, [*column, *values.tolist()])
            return
        if typecode != column.typecode:
            column = array(typecode, column)
            self._set(index, column)
        column.frombytes(values.astype(typecode, order="C", copy=False).data.cast("B"))

    def _column(self, index: int) -> IntColumn:
        return self.shape if index == SHAPE else self.columns[index]

    def _set(self, index: int, column: IntColumn) -> None:
        if index == SHAPE:
            assert isinstance(column, array), "a table holds fewer than 2**64 line shapes"
            self.shape = column
        else:
            self.columns[index] = column

    def add_shape(self, columns: tuple[tuple[int, int], ...]) -> int:
        """The index of a line shape (its token positions), adding it on first sight."""
        found = self._shape_codes.get(columns)
        if found is None:
            found = self._shape_codes[columns] = len(self.shapes)
            self.shapes.append(columns)
        return found

    def add(
        self,
        values: Sequence[int | str | None],
        columns: tuple[tuple[int, int], ...],
        errors: tuple[LineError, ...] = (),
        shape: int | None = None,
    ) -> int:
        """Append one value (13 fields in ROW_FIELDS order) and return its index."""
        index = len(self.shape)
        complete = all(values[k] is not None for k in range(12))
        if errors or not complete:
            self.partial[index] = _Partial(tuple(values), columns, errors)
        for k in TEXT_FIELDS:
            self.extend_numbers(k, (self.code(values[k]),))  # type: ignore[arg-type]
        for k in NUMBER_FIELDS:
            value = values[k]
            self.extend_numbers(k, (value if isinstance(value, int) else 0,))
        self.extend_numbers(SHAPE, (self.add_shape(columns) if shape is None else shape,))
        return index

    def values_of(self, index: int) -> tuple[int | str | None, ...]:
        """Value `index`'s 13 fields in ROW_FIELDS order."""
        partial = self.partial.get(index) if self.partial else None
        if partial is not None:
            return partial.values
        texts, cols = self.texts, self.columns
        return (
            texts[cols[0][index]],
            cols[1][index],
            cols[2][index],
            texts[cols[3][index]],
            cols[4][index],
            cols[5][index],
            texts[cols[6][index]],
            cols[7][index],
            cols[8][index],
            texts[cols[9][index]],
            cols[10][index],
            cols[11][index],
            texts[cols[12][index]],
        )

    def columns_of(self, index: int) -> tuple[tuple[int, int], ...]:
        partial = self.partial.get(index) if self.partial else None
        return partial.columns if partial is not None else self.shapes[self.shape[index]]

    def errors_of(self, index: int) -> tuple[LineError, ...]:
        partial = self.partial.get(index) if self.partial else None
        return partial.errors if partial is not None else ()

    def names(self) -> list[str | None]:
        """Each value's name, by value index."""
        return list(map(self.texts.__getitem__, self.columns[0]))


class RowFields:
    """The values of one row line, and where each token stands on it: a view of one value
    of a `ValueTable` (nothing is copied until a field is read).

    A field is None when its token is missing or does not fit (a partial row); `columns` holds
    one `(column, end_column)` pair per token on the line, in order, extra tokens included.
    Two views are equal when their fields, positions and errors are.
    """

    __slots__ = ("index", "table")

    def __init__(self, table: ValueTable, index: int) -> None:
        self.table = table
        self.index = index

    def _field(self, k: int) -> int | str | None:
        return self.ordered()[k]

    @property
    def name(self) -> str | None:
        return self._field(0)  # type: ignore[return-value]

    @property
    def reserved(self) -> int | None:
        return self._field(1)  # type: ignore[return-value]

    @property
    def fwd(self) -> Phase:
        return self.phase("fwd")

    @property
    def ig(self) -> Phase:
        return self.phase("ig")

    @property
    def wg(self) -> Phase:
        return self.phase("wg")

    @property
    def update_time(self) -> int | None:
        return self._field(11)  # type: ignore[return-value]

    @property
    def policy(self) -> str | None:
        return self._field(12)  # type: ignore[return-value]

    @property
    def columns(self) -> tuple[tuple[int, int], ...]:
        return self.table.columns_of(self.index)

    @property
    def errors(self) -> tuple[LineError, ...]:
        return self.table.errors_of(self.index)

    def phase(self, name: str) -> Phase:
        values = self.ordered()
        c, m, s = PHASE_FIELDS[name]
        return Phase(values[c], values[m], values[s])  # type: ignore[arg-type]

    def ordered(self) -> tuple[int | str | None, ...]:
        """The 13 values in SimAI's reading order (as ROW_FIELDS names them)."""
        return self.table.values_of(self.index)

    def values(self) -> dict[str, int | str | None]:
        """Field name (as in ROW_FIELDS) -> value."""
        return dict(zip(ROW_FIELDS, self.ordered()))

    def _key(self) -> tuple[object, ...]:
        return (self.ordered(), self.columns, self.errors)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RowFields):
            return NotImplemented
        if other.table is self.table and other.index == self.index:
            return True
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self.ordered())

    def __repr__(self) -> str:
        return f"RowFields({', '.join(f'{k}={v!r}' for k, v in self.values().items())})"


@record
class Row:
    line: int
    fields: RowFields

    @property
    def name(self) -> str | None:
        return self.fields.name

    def span(self, field_name: str | int) -> Span:
        """Where a field stands on the line; the line's end when the token is missing."""
        index = ROW_FIELDS.index(field_name) if isinstance(field_name, str) else field_name
        columns = self.fields.columns
        if index < len(columns):
            start, end = columns[index]
        else:
            end = columns[-1][1] if columns else 1
            start = end
        return Span.on_line(self.line, start, end)

    @property
    def whole(self) -> Span:
        columns = self.fields.columns
        if not columns:
            return Span.on_line(self.line, 1, 1)
        return Span.on_line(self.line, columns[0][0], columns[-1][1])


class MappedView(Sequence[T]):
    """`of(items[i])` for each item, made when read: a column seen through an index per item
    (`RowTable.fields`, each row's value; SimAI's text columns, each code's string), without
    a list of a million results."""

    __slots__ = ("items", "of")

    def __init__(self, items: Sequence[int], of: Callable[[int], T]) -> None:
        self.items = items
        self.of = of

    def __len__(self) -> int:
        return len(self.items)

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> list[T]: ...
    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return list(map(self.of, self.items[index]))
        return self.of(self.items[index])

    def __iter__(self) -> Iterator[T]:
        return map(self.of, self.items)

    def at(self, positions: Iterable[int]) -> list[T]:
        """`self[p]` for each position, in C (`__getitem__` is a Python call per item)."""
        return list(map(self.of, map(self.items.__getitem__, positions)))


class RowTable(Sequence[Row]):
    """The body's rows: for each, its line number and the index of its value in `values`.

    Identical lines share one value (the parser's cache finds repeats), so a file of `ga`
    identical groups holds a few hundred values; a file whose rows all differ holds one value
    per row, in columns, at a few tens of bytes each. A table is not changed once built.
    """

    __slots__ = ("_derived", "_names", "lines", "refs", "values")

    def __init__(
        self,
        lines: Sequence[int] | None = None,
        refs: Sequence[int] | None = None,
        values: ValueTable | None = None,
    ):
        """`lines` is an array, or a `range` when the rows stand on consecutive lines (no
        blank line among them), which costs nothing to build; `refs` gives each row's value
        index into `values`, in first-row order of the values."""
        self.lines: Sequence[int] = lines if lines is not None else array("q")
        self.refs: Sequence[int] = refs if refs is not None else array("I")
        self.values: ValueTable = values if values is not None else ValueTable()
        self._names: tuple[str | None, ...] | None = None
        self._derived: dict[str, object] = {}

    def derived(self, name: str, make: Callable[[], T]) -> T:
        """What `make` derives from the table, made once: every reader of one parse (lint,
        explain, SimAI's model) shares the grouped columns (`wkparse.columns.columns_of`)."""
        found = self._derived.get(name)
        if found is None:
            found = self._derived[name] = make()
        return found  # type: ignore[return-value]

    @property
    def fields(self) -> Sequence[RowFields]:
        """Each row's value (a view per item read)."""
        return MappedView(self.refs, partial(RowFields, self.values))

    @property
    def distinct_fields(self) -> tuple[RowFields, ...]:
        """Each value once, in the order of its first row (one view per value: for few)."""
        return tuple(RowFields(self.values, i) for i in range(len(self.values)))

    @property
    def names(self) -> tuple[str | None, ...]:
        """Every row's name, in order."""
        if self._names is None:
            self._names = tuple(map(self.values.names().__getitem__, self.refs))
        return self._names

    def __len__(self) -> int:
        return len(self.refs)

    @overload
    def __getitem__(self, index: int) -> Row: ...
    @overload
    def __getitem__(self, index: slice) -> list[Row]: ...
    def __getitem__(self, index: int | slice) -> Row | list[Row]:
        table = self.values
        if isinstance(index, slice):
            return [
                Row(line, RowFields(table, i))
                for line, i in zip(self.lines[index], self.refs[index])
            ]
        return Row(self.lines[index], RowFields(table, self.refs[index]))

    def __iter__(self) -> Iterator[Row]:
        table = self.values
        return (Row(line, RowFields(table, i)) for line, i in zip(self.lines, self.refs))

    def distinct(self) -> dict[RowFields, list[int]]:
        """Each distinct row value with the indexes of the rows that carry it."""
        seen: dict[int, list[int]] = {}
        for i, ref in enumerate(self.refs):
            seen.setdefault(ref, []).append(i)
        out: dict[RowFields, list[int]] = {}
        for ref, indexes in seen.items():
            out.setdefault(RowFields(self.values, ref), []).extend(indexes)
        return out


@record
class Workload:
    """A parsed file. `header` and `count` are None when the file has no such line."""

    header: Header | None
    count: CountLine | None
    rows: RowTable
    #: number of lines in the file (a final newline does not start a new one)
    line_count: int
    bom: bool = False
    #: line endings seen: a subset of {"lf", "crlf"}
    line_endings: frozenset[str] = field(default_factory=frozenset)
    final_newline: bool = True
    #: line numbers of blank lines after line 2
    blank_lines: tuple[int, ...] = ()
