"""Lint's findings as explain shows them: diagnostics sharing code and message grouped into
one `Finding` with the lines they point at and the section of the file they fall in."""

from __future__ import annotations

from bisect import bisect_right

from wkparse.diagnostics import Diagnostic
from wkparse.explanation.context import Context
from wkparse.explanation.model import Finding

#: lines listed per finding; `count` says how many there are
_FINDING_LINES = 20


def findings(ctx: Context) -> tuple[Finding, ...]:
    grouped: dict[tuple[str, str, str | None], list[Diagnostic]] = {}
    for d in ctx.diagnostics:
        key = (d.code, d.message, str(d.severity) if d.severity is not None else None)
        grouped.setdefault(key, []).append(d)
    from wkparse.catalog import opt_in_codes

    off = opt_in_codes()
    out = []
    for (code, message, severity), ds in grouped.items():
        lines = sorted({d.span.line for d in ds})
        first = min(ds, key=lambda d: (d.span.line, d.span.column))
        out.append(
            Finding(
                code,
                severity,
                message,
                first.span.line,
                first.span.column,
                tuple(lines[:_FINDING_LINES]),
                len(ds),
                section(ctx, first.span.line),
                code in off,
            )
        )
    out.sort(key=lambda f: (f.line, f.code))
    return tuple(out)


def section(ctx: Context, line: int) -> str:
    """The part of the file `line` is in: header, count, prologue, groups, epilogue, body
    or file (a line holding no row)."""
    if line == 1:
        return "header"
    if line == 2:
        return "count"
    rows = ctx.w.rows
    body = ctx.body
    index = bisect_right(rows.lines, line) - 1
    if index < 0 or rows.lines[index] != line:
        return "file"
    if not body.has_groups:
        return "epilogue" if index >= body.epilogue_start and ctx.aicb_rows else "body"
    if index < body.prologue_end:
        return "prologue"
    if index < body.epilogue_start:
        return "groups"
    return "epilogue"
