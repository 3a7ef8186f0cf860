"""The typed syntax tree of a workload file.

Positions are 1-based; `end_column` is exclusive (the column after the last character), as in
SARIF. Identical row lines share one `RowFields` instance: AICB repeats the same micro-batch
group `ga` times, so a million-row file holds only a few hundred distinct lines, and keeping
one copy of each is what keeps memory near the file size.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import overload

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
#: The most digits a number may have to become an `int`. Anything longer is far past 64 bits;
#: the bound sits above 10^400 and below 640, the smallest limit Python's int/str conversion
#: can be set to, so no int taken from a file can fail to print or crash `int()`.
MAX_DIGITS = 600


@dataclass(frozen=True, slots=True)
class Span:
    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def on_line(cls, line: int, column: int, end_column: int) -> Span:
        return cls(line, column, line, end_column)


@dataclass(frozen=True, slots=True)
class Value:
    """One header value token, kept as written (`8388608.0` stays a string with its span)."""

    text: str
    span: Span

    @property
    def integer(self) -> int | None:
        """The value when it is a plain integer that `std::stoi` reads whole, else None."""
        from wkparse.simai.cpp import stoi

        result = stoi(self.text)
        return result.value if result.whole else None

    @property
    def number(self) -> float | None:
        try:
            return float(self.text)
        except ValueError:
            return None


@dataclass(frozen=True, slots=True)
class HeaderField:
    """`key: v1 v2 ...`; `colon` is False for a bare word such as `pp_comm 50331648`."""

    key: str
    span: Span
    values: tuple[Value, ...]
    colon: bool

    @property
    def value(self) -> Value | None:
        return self.values[0] if self.values else None


@dataclass(frozen=True, slots=True)
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
        read without it), or None when SimAI finds none."""
        found = None
        for f in self.fields:
            if f.key == key and (f.colon or key == "pp_comm"):
                found = f
        return found

    def integer(self, key: str) -> int | None:
        """The integer SimAI reads for `key`, None when absent or not a plain integer."""
        f = self.read(key)
        return f.value.integer if f is not None and f.value is not None else None


@dataclass(frozen=True, slots=True)
class CountLine:
    text: str
    #: the declared row count when line 2 is a clean non-negative integer
    value: int | None
    span: Span


@dataclass(frozen=True, slots=True)
class LineError:
    """A syntax error inside one line, without its line number (shared by identical lines)."""

    code: str
    column: int
    end_column: int
    message: str


@dataclass(frozen=True, slots=True)
class Phase:
    compute: int | None
    comm: str | None
    size: int | None


@dataclass(frozen=True, slots=True)
class RowFields:
    """The values of one row line, and where each token stands on it.

    A field is None when its token is missing or does not fit (a partial row); `columns` holds
    one `(column, end_column)` pair per token on the line, in order, extra tokens included.
    """

    name: str | None
    reserved: int | None
    fwd: Phase
    ig: Phase
    wg: Phase
    update_time: int | None
    policy: str | None
    columns: tuple[tuple[int, int], ...]
    errors: tuple[LineError, ...] = ()

    def phase(self, name: str) -> Phase:
        return self.fwd if name == "fwd" else self.ig if name == "ig" else self.wg

    def ordered(self) -> tuple[int | str | None, ...]:
        """The 13 values in SimAI's reading order (as ROW_FIELDS names them)."""
        fwd, ig, wg = self.fwd, self.ig, self.wg
        return (
            self.name,
            self.reserved,
            fwd.compute,
            fwd.comm,
            fwd.size,
            ig.compute,
            ig.comm,
            ig.size,
            wg.compute,
            wg.comm,
            wg.size,
            self.update_time,
            self.policy,
        )

    def values(self) -> dict[str, int | str | None]:
        """Field name (as in ROW_FIELDS) -> value."""
        return dict(zip(ROW_FIELDS, self.ordered()))


@dataclass(frozen=True, slots=True)
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


class RowTable(Sequence[Row]):
    """The body's rows, stored compactly: one line number and one shared `RowFields` each.

    A table is not changed once built: `names` and `distinct_fields` are worked out once and
    then shared by every reader (lint's checks, explain), which on a million-row file saves a
    pass over the rows each.
    """

    __slots__ = ("_distinct", "_names", "fields", "lines")

    def __init__(
        self,
        lines: Sequence[int] | None = None,
        fields: list[RowFields] | None = None,
        distinct: tuple[RowFields, ...] | None = None,
    ):
        """`lines` is an array, or a `range` when the rows stand on consecutive lines (no
        blank line among them), which costs nothing to build. `distinct`, when the builder
        knows it, must equal what `distinct_fields` computes."""
        self.lines: Sequence[int] = lines if lines is not None else array("q")
        self.fields: list[RowFields] = fields if fields is not None else []
        self._distinct = distinct
        self._names: tuple[str | None, ...] | None = None

    @property
    def distinct_fields(self) -> tuple[RowFields, ...]:
        """Each distinct `RowFields` instance once, in the order of its first row."""
        if self._distinct is None:
            self._distinct = tuple({id(f): f for f in self.fields}.values())
        return self._distinct

    @property
    def names(self) -> tuple[str | None, ...]:
        """Every row's name, in order."""
        if self._names is None:
            self._names = tuple(f.name for f in self.fields)
        return self._names

    def __len__(self) -> int:
        return len(self.fields)

    @overload
    def __getitem__(self, index: int) -> Row: ...
    @overload
    def __getitem__(self, index: slice) -> list[Row]: ...
    def __getitem__(self, index: int | slice) -> Row | list[Row]:
        if isinstance(index, slice):
            return [Row(line, f) for line, f in zip(self.lines[index], self.fields[index])]
        return Row(self.lines[index], self.fields[index])

    def __iter__(self) -> Iterator[Row]:
        return map(Row, self.lines, self.fields)

    def distinct(self) -> dict[RowFields, list[int]]:
        """Each distinct row value with the indexes of the rows that carry it."""
        seen: dict[int, tuple[RowFields, list[int]]] = {}
        for i, f in enumerate(self.fields):
            entry = seen.get(id(f))
            if entry is None:
                seen[id(f)] = (f, [i])
            else:
                entry[1].append(i)
        return {f: indexes for f, indexes in seen.values()}


@dataclass(frozen=True, slots=True)
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
