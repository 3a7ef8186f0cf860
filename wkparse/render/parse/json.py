"""`wkparse parse --format json`: the AST as JSON, streamed row by row.

Row values are plain (`{"compute": int, "comm": str, "size": int}` per phase); token positions
sit under the top-level `positions` key, so two files that differ only in whitespace give
equal `rows`. Identical rows share one serialised body, which keeps a million-row dump fast.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TextIO

from wkparse.ast import PHASES, TEXT_FIELDS, Header, RowFields, RowTable, ValueTable
from wkparse.models.simai.tokens import reading
from wkparse.parse import ParseResult
from wkparse.render.lint.json import diagnostic_json
from wkparse.render.lint.json import span_fields as span_json

#: rows written per call
_CHUNK = 16384
#: rows from which a file's columns are gathered by numpy (it costs more to import than it
#: saves on fewer)
NUMPY_ROWS = 50_000


def header_json(header: Header | None) -> dict[str, Any] | None:
    if header is None:
        return None
    return {
        "policy": header.policy,
        "leading": [v.text for v in header.leading],
        "fields": [
            {"key": f.key, "colon": f.colon, "values": [v.text for v in f.values]}
            for f in header.fields
        ],
        "simai": simai_values(header),
    }


def simai_values(header: Header) -> dict[str, int | None]:
    """The value SimAI ends up with for each key it reads (`wkparse.models.simai`'s reading), null
    where stoi throws or no value follows the key."""
    read = reading(header)
    return {key: read.value(key) for key in read.reads}


def row_body(fields: RowFields) -> dict[str, Any]:
    body: dict[str, Any] = {"name": fields.name, "reserved": fields.reserved}
    for p in PHASES:
        phase = fields.phase(p)
        body[p] = {"compute": phase.compute, "comm": phase.comm, "size": phase.size}
    body["update_time"] = fields.update_time
    if fields.policy is not None:
        body["policy"] = fields.policy
    return body


#: a row value's JSON without its opening brace, as `json.dumps(row_body(...))` writes it
_BODY = (
    '"name": %s, "reserved": %d, "fwd": {"compute": %d, "comm": %s, "size": %d}, '
    '"ig": {"compute": %d, "comm": %s, "size": %d}, '
    '"wg": {"compute": %d, "comm": %s, "size": %d}, "update_time": %d%s}'
)
#: a row's JSON: its line, then its value's
_ROW = '{"line": %d, ' + _BODY


def _text_json(values: ValueTable) -> tuple[list[str], list[str]]:
    """Each text code's JSON, and as the optional policy field (empty for None)."""
    texts = [json.dumps(t) for t in values.texts]
    policies = ["" if t is None else f', "policy": {json.dumps(t)}' for t in values.texts]
    return texts, policies


def _partial_body(values: ValueTable, index: int) -> str:
    """A value with a missing field (null, which `%d` cannot write)."""
    return json.dumps(row_body(RowFields(values, index)))[1:]


def _bodies(values: ValueTable) -> Callable[[int], str]:
    """Each value's JSON, made from the columns with one `%` per value, once per value."""
    texts, policies = _text_json(values)
    columns = values.columns
    cache: dict[int, str] = {}

    def body(index: int) -> str:
        found = cache.get(index)
        if found is None:
            if index in values.partial:
                found = _partial_body(values, index)
            else:
                items: list[int | str] = [column[index] for column in columns]
                for k in TEXT_FIELDS:
                    items[k] = (policies if k == 12 else texts)[items[k]]  # type: ignore[index]
                found = _BODY % tuple(items)
            cache[index] = found
        return found

    return body


def _rows_json(rows: RowTable) -> Iterator[str]:
    """The rows' JSON objects, a chunk of rows (joined by ", ") at a time.

    A file of few values formats each value once; a file whose rows differ formats every
    row with one `%` over the columns, gathered in C (no Python step per field).
    """
    values = rows.values
    if len(values) * 2 <= len(rows):
        bodies = _bodies(values)
        for start in range(0, len(rows), _CHUNK):
            lines, refs = rows.lines[start : start + _CHUNK], rows.refs[start : start + _CHUNK]
            yield ", ".join(map('{{"line": {}, {}'.format, lines, map(bodies, refs)))
        return
    gather = _gather(values, len(rows) >= NUMPY_ROWS)
    partial = values.partial
    for start in range(0, len(rows), _CHUNK):
        lines, refs = rows.lines[start : start + _CHUNK], rows.refs[start : start + _CHUNK]
        out = list(map(_ROW.__mod__, zip(lines, *gather(refs))))
        if partial and not partial.keys().isdisjoint(refs):
            for i, ref in enumerate(refs):
                if ref in partial:
                    out[i] = f'{{"line": {lines[i]}, {_partial_body(values, ref)}'
        yield ", ".join(out)


def _gather(values: ValueTable, numpy: bool) -> Callable[[Sequence[int]], list[Iterable[object]]]:
    """A function from some value indexes to each field's items for them (the text fields'
    as JSON), by numpy's indexing for many rows, item by item otherwise."""
    texts, policies = _text_json(values)
    tables = {k: policies if k == 12 else texts for k in TEXT_FIELDS}

    def by_item(refs: Sequence[int], k: int) -> Iterable[object]:
        items = map(values.columns[k].__getitem__, refs)
        return map(tables[k].__getitem__, items) if k in tables else items

    if not numpy:
        return lambda refs: [by_item(refs, k) for k in range(len(values.columns))]
    import numpy as np

    columns = [None if isinstance(c, list) else np.asarray(c) for c in values.columns]
    objects = {k: np.array(table, dtype=object) for k, table in tables.items()}

    def by_index(refs: Sequence[int]) -> list[Iterable[object]]:
        index = np.asarray(refs)
        out: list[Iterable[object]] = []
        for k, column in enumerate(columns):
            if column is None:  # past 64 bits
                out.append(by_item(refs, k))
            else:
                found = column[index]
                out.append((objects[k][found] if k in objects else found).tolist())
        return out

    return by_index


def write(result: ParseResult, out: TextIO, path: str) -> None:
    """Write the AST; syntax errors use the same objects as `lint --format json`."""
    w = result.workload
    head = {
        "header": header_json(w.header),
        "count": None if w.count is None else {"text": w.count.text, "value": w.count.value},
    }
    out.write(json.dumps(head)[:-1])
    out.write(', "rows": [')
    rows, values = w.rows, w.rows.values
    for i, text in enumerate(_rows_json(rows)):
        out.write(", " if i else "")
        out.write(text)
    out.write('], "positions": {')
    if w.header is not None:
        header_pos = {
            "policy": span_json(w.header.policy_span),
            "fields": [span_json(f.span) for f in w.header.fields],
        }
        out.write(f'"header": {json.dumps(header_pos)}, ')
    out.write('"rows": [')
    # Positions come from the values' line shapes, which are few.
    shapes = [json.dumps([list(c) for c in shape]) for shape in values.shapes]
    of_value = values.shape.__getitem__
    for start in range(0, len(rows.refs), _CHUNK):
        chunk = rows.refs[start : start + _CHUNK]
        out.write(
            (", " if start else "") + ", ".join(map(shapes.__getitem__, map(of_value, chunk)))
        )
    out.write(']}, "errors": ')
    out.write(json.dumps([diagnostic_json(d, path, None) for d in result.diagnostics]))
    out.write("}\n")
