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
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from wkparse.ast import TEXT_FIELDS, Header, RowFields, Workload
from wkparse.parse import BOM, ParseResult, parse_text

#: rows joined into one output chunk: big enough for C-speed joins, small enough to stream
CHUNK_ROWS = 16384


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
    workload = result.workload
    header, count = workload.header, workload.count
    if header is None or count is None or count.value is None:  # pragma: no cover
        raise Unformattable("a file without a header and a count line has no canonical form")
    bom = BOM.decode("utf-8") if workload.bom else ""
    yield f"{bom}{header_line(header)}\n{count.value}\n"
    yield from _rows(workload)


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
