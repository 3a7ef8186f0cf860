"""The canonical form of a workload file, computed from a clean parse. Pure: no I/O.

Canonical form, and why each choice keeps what SimAI reads:
- line 1: the header tokens as written, in their original order, separated by single spaces
  (SimAI splits line 1 on any whitespace, so only the separators change; `8388608.0` stays
  `8388608.0` and a duplicate key stays duplicated, because which one wins is lint's business);
- line 2: the declared count as an integer (never the number of rows: that is a lint fix);
- one row per line, its 12 (13 for HYBRID_CUSTOMIZED) values separated by single tabs, as AICB
  writes them; numbers are written as the integers they parse to (`007` becomes `7`);
- LF line endings, one final newline, no trailing whitespace;
- blank lines in the body are removed: SimAI's field-by-field reading skips them, so no value
  moves, but the rows after one change line number;
- a UTF-8 byte order mark is kept. SimAI fails on it, so removing it changes what SimAI does;
  that belongs to a lint fix, which says so, not to a formatter that promises no change.

A file with syntax errors has no canonical form: a formatter that guessed at a broken row
could lose a value, so `canonical_chunks` refuses it (`Unformattable`).

Whether a file already is canonical (`fmt --check`, and `fmt` before it rewrites anything)
is decided without rendering its rows (`is_canonical`), from its length: see there.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING, BinaryIO

from wkparse.ast import NUMBER_FIELDS, TEXT_FIELDS, Header, RowFields, RowTable, Workload
from wkparse.parse import BOM, ParseResult, parse_text

if TYPE_CHECKING:
    import numpy

#: rows joined into one output chunk: big enough for C-speed joins, small enough to stream
CHUNK_ROWS = 16384
#: bytes read at a time when checking a file against its canonical form
SCAN_BLOCK = 1 << 20
#: from this many distinct row values on, their canonical lengths are counted with numpy
NUMPY_VALUES = 50_000
#: what a canonical body never holds: its only separators are tabs and LF
_NOT_IN_BODY = (b" ", b"\r", b"\x0b", b"\x0c")


class Unformattable(ValueError):
    """The parse reported syntax errors, so the file has no canonical form."""


def header_line(header: Header) -> str:
    """Line 1 without its line end: every token as written, single spaces between."""
    tokens = [header.policy, *(v.text for v in header.leading)]
    for f in header.fields:
        tokens.append(f"{f.key}:" if f.colon else f.key)
        tokens.extend(v.text for v in f.values)
    return " ".join(tokens)


def row_line(fields: RowFields) -> str:
    """One row without its line end, tab-separated. Raises Unformattable on a partial row."""
    values = fields.ordered()[:12]
    if fields.errors or any(v is None for v in values):
        raise Unformattable("a row with syntax errors has no canonical form")
    text = "\t".join(map(str, values))
    return text if fields.policy is None else f"{text}\t{fields.policy}"


def canonical_chunks(result: ParseResult) -> Iterator[str]:
    """The canonical text of a cleanly parsed file, in pieces that concatenate to it.

    Each distinct row value is formatted once (identical lines share one RowFields), so the
    cost per row is a dictionary lookup. Raises Unformattable when `result` has diagnostics.
    """
    if result.diagnostics:
        raise Unformattable(f"the file has {len(result.diagnostics)} syntax error(s)")
    yield head(result)
    yield from _rows(result.workload)


def head(result: ParseResult) -> str:
    """Lines 1 and 2 of the canonical text (with the byte order mark, if the file has one)."""
    workload = result.workload
    header, count = workload.header, workload.count
    if header is None or count is None or count.value is None:  # pragma: no cover
        raise Unformattable("a file without a header and a count line has no canonical form")
    bom = BOM.decode("utf-8") if workload.bom else ""
    return f"{bom}{header_line(header)}\n{count.value}\n"


def is_canonical(result: ParseResult, stream: BinaryIO) -> bool:
    """Whether `stream` holds exactly the canonical text of `result`, the clean parse of the
    same bytes, decided without rendering a row.

    Lines 1 and 2 are compared as bytes. After them, every row line of the file is at least
    as long as its canonical line: it holds the same tokens (a clean parse), a number written
    as the integer it parses to is as short as it can be (`007`, `+7`, `-0` are longer), and
    it may have more separators, leading or trailing blanks; a blank line is at least one
    byte where the canonical text has none. So when the rest of the file holds no separator
    but tab and LF, ends in LF and is exactly as long as the canonical rows (a sum over the
    columns), every line is its canonical line. The file is read in blocks, never held whole.
    """
    if result.diagnostics or result.workload.rows.values.partial:
        raise Unformattable(f"the file has {len(result.diagnostics)} syntax error(s)")
    start = head(result).encode("utf-8")
    if stream.read(len(start)) != start:
        return False
    expected = body_length(result.workload.rows)
    size, last = 0, b""
    for block in iter(partial(stream.read, SCAN_BLOCK), b""):
        size += len(block)
        if size > expected or any(c in block for c in _NOT_IN_BODY):
            return False
        last = block[-1:]
    return size == expected and last in (b"", b"\n")


def body_length(rows: RowTable) -> int:
    """Bytes of the canonical row lines: each value's line length, once per row."""
    values = rows.values
    if len(values) >= NUMPY_VALUES:
        return _body_length_numpy(rows)
    sizes = [0 if t is None else len(t.encode("utf-8")) for t in values.texts]
    # 11 tabs and the LF; a policy (13th field) brings its tab
    fields: list[Iterable[int]] = [[12] * len(values)]
    for k in range(len(values.columns)):
        column = values.columns[k]
        if k in TEXT_FIELDS:
            table = [s + 1 if s else 0 for s in sizes] if k == 12 else sizes
            fields.append(map(table.__getitem__, column))
        else:
            fields.append(map(len, map(str, column)))
    lengths = list(map(sum, zip(*fields)))
    return sum(map(lengths.__getitem__, rows.refs))


def _body_length_numpy(rows: RowTable) -> int:
    """`body_length` from counts over whole columns (a million values in tens of ms)."""
    import numpy as np

    values = rows.values
    counts = np.bincount(_array(rows.refs), minlength=len(values))
    # every value on one row (a file whose lines differ): plain counts, no weights held
    weights = None if counts.min(initial=1) == counts.max(initial=1) == 1 else counts
    del counts
    sizes = np.array(
        [0 if t is None else len(t.encode("utf-8")) for t in values.texts], dtype=np.int64
    )
    total = 12 * len(rows.refs)
    for k in TEXT_FIELDS:
        table = np.where(sizes > 0, sizes + 1, 0) if k == 12 else sizes
        per_code = np.bincount(_array(values.columns[k]), weights, minlength=len(sizes))
        total += round(float(per_code @ table))
    for k in NUMBER_FIELDS:
        total += _digits(values.columns[k], weights)
    return total


def _array(column: Sequence[int]) -> numpy.ndarray:
    """A column as a numpy array: a view of an `array.array`'s buffer, else a copy (of
    Python ints when one passes 64 bits)."""
    from array import array

    import numpy as np

    if isinstance(column, array):
        kind = "i" if column.typecode.islower() else "u"
        return np.frombuffer(column, dtype=f"{kind}{column.itemsize}")
    try:
        return np.fromiter(column, dtype=np.int64, count=len(column))
    except OverflowError:
        return np.array(list(column), dtype=object)


def _digits(column: Sequence[int], weights: numpy.ndarray | None) -> int:
    """The characters a column's integers take in decimal (minus signs included), each
    counted `weights[i]` times (once without weights): one count per power of ten."""
    import numpy as np

    a = _array(column)
    if a.dtype == object:  # integers past 64 bits
        lengths = np.fromiter(map(len, map(str, column)), dtype=np.int64, count=len(column))
        return int(lengths.sum() if weights is None else lengths @ weights)

    def count(mask: numpy.ndarray) -> int:
        return int(np.count_nonzero(mask) if weights is None else weights[mask].sum())

    info = np.iinfo(a.dtype)
    tens = [10**i for i in range(1, 21) if 10**i <= info.max]
    total = len(a) if weights is None else int(weights.sum())
    total += sum(count(a >= ten) for ten in tens)
    if info.min < 0:  # a minus sign, and the magnitude's digits (-10**i fits every type)
        total += count(a < 0) + sum(count(a <= -ten) for ten in tens)
    return total


def _rows(workload: Workload) -> Iterator[str]:
    """The row lines, CHUNK_ROWS at a time, formatted from the columns.

    A file of few values (AICB repeats one group `ga` times) formats each value once and
    joins them per row; a file whose rows differ formats each row from the columns with one
    `%` per line, never a string per field.
    """
    rows = workload.rows
    values = rows.values
    for index in values.partial:
        row_line(RowFields(values, index))  # raises Unformattable: a row with a missing field
    texts = values.texts
    # A HYBRID_CUSTOMIZED row's 13th field, with its tab; "" where a row has none.
    policies = ["" if p is None else f"\t{p}" for p in texts]
    width = 13 if any(values.column("policy")) else 12
    template = "\t".join("%s" if k in TEXT_FIELDS else "%d" for k in range(12))
    template += "%s\n" if width == 13 else "\n"
    lookup = [policies if k == 12 else texts if k in TEXT_FIELDS else None for k in range(width)]

    def lines_of(chunk: Sequence[int] | None) -> list[str]:
        picked = []
        # Rows whose values are numbered in row order (every line new) are column slices.
        run = chunk is not None and _consecutive(chunk)
        for k in range(width):
            column = values.columns[k]
            if chunk is None:
                items: Iterable[int] = column
            elif run:
                items = column[chunk[0] : chunk[0] + len(chunk)]
            else:
                items = map(column.__getitem__, chunk)
            table = lookup[k]
            picked.append(list(items if table is None else map(table.__getitem__, items)))
        return list(map(template.__mod__, zip(*picked)))

    refs = rows.refs
    if len(values) * 2 <= len(rows):
        lines = lines_of(None)
        for start in range(0, len(refs), CHUNK_ROWS):
            yield "".join(map(lines.__getitem__, refs[start : start + CHUNK_ROWS]))
        return
    for start in range(0, len(refs), CHUNK_ROWS):
        yield "".join(lines_of(refs[start : start + CHUNK_ROWS]))


def _consecutive(chunk: Sequence[int]) -> bool:
    first = chunk[0]
    return (
        bool(chunk)
        and chunk[-1] - first == len(chunk) - 1
        and list(chunk) == list(range(first, first + len(chunk)))
    )


def format_result(result: ParseResult) -> str:
    """The whole canonical text (use `canonical_chunks` for big files)."""
    return "".join(canonical_chunks(result))


def format_text(text: str) -> str:
    """Parse `text` and return its canonical form. Raises Unformattable on syntax errors."""
    return format_result(parse_text(text))
