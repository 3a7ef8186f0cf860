"""WK105 count-mismatch: the row count on line 2 differs from the rows SimAI finds after it;
why and examples in rules/WK105.toml.

What follows the count is told as what it is (`wkparse.models.simai.reach`): a file cut off
inside its last row, layers SimAI makes from nothing (phantom layers), rows past the count, or
notes below the rows that SimAI never reads. Setting the count changes what SimAI simulates, so
its fix is unsafe, and no fix is offered where it would make a damaged file look whole.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import CountLine, Span
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic, Edit, Fix, Severity
from wkparse.i18n import _, _plural
from wkparse.models.simai.reach import Reach, reach


@file_check("WK105")
def count_mismatch(ctx: Context) -> Iterator[Diagnostic]:
    count = ctx.file.count
    if count is None:
        return
    found = reach(ctx.file)
    if found.declared is None:
        return
    if found.cut is not None:
        yield _cut(ctx, found)
    elif found.notes:
        yield _notes(ctx, count, found)
    elif found.unread_rows or found.phantom:
        yield _mismatch(count, found)


def _mismatch(count: CountLine, found: Reach) -> Diagnostic:
    declared, present = found.declared or 0, found.read + found.unread_rows
    if declared > present:
        effect = _plural(
            found.phantom,
            "the file was cut short or the count is wrong: SimAI adds {n} phantom layer",
            "the file was cut short or the count is wrong: SimAI adds {n} phantom layers",
        )
    else:
        effect = _plural(
            found.unread_rows, "SimAI ignores the last row", "SimAI ignores the last {n} rows"
        )
    fix = Fix(
        _("set the count to {n}").format(n=present), (Edit(count.span, str(present)),), safe=False
    )
    return Diagnostic(
        "WK105",
        _("line 2 declares {declared} but the file has {present}: {effect}").format(
            declared=_plural(declared, "{n} row", "{n} rows"), present=f"{present:,}", effect=effect
        ),
        _whole(count.span),
        fix=fix,
    )


def _notes(ctx: Context, count: CountLine, found: Reach) -> Diagnostic:
    """Lines below the rows SimAI reads that are not rows: never read, so harmless to SimAI
    (a warning), and no count would make them rows."""
    first, last = found.notes[0], found.notes[-1]
    lines = (
        _("line {first}").format(first=first)
        if first == last
        else _("lines {first}-{last}").format(first=first, last=last)
    )
    message = _(
        "{lines} after the {declared} that line 2 declares are not rows (notes?): SimAI never "
        "reads them"
    ).format(lines=lines, declared=_plural(found.declared or 0, "{n} row", "{n} rows"))
    if found.unread_rows:
        message += _plural(
            found.unread_rows,
            "; it also ignores {n} row past the count",
            "; it also ignores {n} rows past the count",
        )
        severity = None
    else:
        severity = Severity.WARNING
    rows = ctx.file.rows
    span = rows[found.read].whole if found.unread_rows == 0 else _whole(count.span)
    return Diagnostic("WK105", message, span, severity=severity)


def _cut(ctx: Context, found: Reach) -> Diagnostic:
    """A file that ends inside a row: truncated. Nothing is fixed: every fix (the count, ga,
    the cut name) would leave a shorter file that simulates as if it were whole."""
    rows = ctx.file.rows
    cut = rows[found.cut or 0]
    whole = rows.lines[found.cut - 1] if found.cut else 2
    fields = len(cut.fields.columns)
    message = _(
        "the file is cut off inside the row on line {line} ({fields}): its last whole row is "
        "line {whole}; line 2 declares {declared}, {effect}"
    ).format(
        line=cut.line,
        fields=_plural(fields, "it holds {n} field", "it holds {n} fields"),
        whole=whole,
        declared=_plural(found.declared or 0, "{n} row", "{n} rows"),
        effect=_plural(
            found.phantom, "SimAI adds {n} phantom layer", "SimAI adds {n} phantom layers"
        ),
    )
    return Diagnostic("WK105", message, cut.whole)


def _whole(span: Span) -> Span:
    return Span(span.line, span.column, span.end_line, span.end_column)
