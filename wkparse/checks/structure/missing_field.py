"""WK110 missing-field: a row has fewer fields than SimAI reads; why and examples in
rules/WK110.toml.

The parser finds it as it reads (`wkparse.syntax.MISSING_FIELD`); this rule hands on what it
found. Rows whose fields a comma or a semicolon separates (a spreadsheet's export) are one
finding that names the separator, not one per row: every such row has the same cause.
"""

from __future__ import annotations

from bisect import bisect_left

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import N_, _, _plural

#: separators a row's fields are mistaken with, and how a message names each
SEPARATORS = {",": N_("commas"), ";": N_("semicolons")}
#: the fewest fields a row split on a wrong separator holds (SimAI's 12, less a short row's)
_FIELDS = 10


@file_check(syntax.MISSING_FIELD)
def missing_field(ctx: Context) -> list[Diagnostic]:
    found = ctx.parsed(syntax.MISSING_FIELD)
    by_separator: dict[str, list[Diagnostic]] = {}
    rest: list[Diagnostic] = []
    for d in found:
        separator = _separator(ctx, d.span.line)
        (by_separator.setdefault(separator, []) if separator else rest).append(d)
    for separator, ds in by_separator.items():
        if len(ds) < 2:  # one row: its own finding says enough
            rest.extend(ds)
            continue
        first, last = ds[0].span.line, ds[-1].span.line
        rows = _plural(len(ds), "{n} row", "{n} rows")
        rest.append(
            Diagnostic(
                syntax.MISSING_FIELD,
                _(
                    "fields are separated by {separator}, not tabs or spaces: SimAI reads each "
                    "of {rows} as one field (lines {first}-{last})"
                ).format(separator=_(SEPARATORS[separator]), rows=rows, first=first, last=last),
                ds[0].span,
            )
        )
    rest.sort(key=Diagnostic.sort_key)
    return rest


def _separator(ctx: Context, line: int) -> str | None:
    """The wrong separator the row on `line` uses: its first field holds the whole row."""
    rows = ctx.workload.rows
    index = bisect_left(rows.lines, line)
    if index >= len(rows.lines) or rows.lines[index] != line:
        return None
    name = rows.fields[index].name
    if not isinstance(name, str):
        return None
    for separator in SEPARATORS:
        if name.count(separator) + 1 >= _FIELDS:
            return separator
    return None
