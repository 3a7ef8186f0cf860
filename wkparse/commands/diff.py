"""`wkparse diff A B`: what really differs between two workload files (either may be `-`).

Exit 0 when the files mean the same (the same header as SimAI reads it, the same facts, the
same rows), 1 when they differ, 2 when a side cannot be read or has syntax errors (reported
on stderr as `wkparse lint` reports them: a broken file has no meaning to compare) or when the
arguments are wrong. Each side is read with the limits of its own configuration, as lint
reads it; a broken configuration is reported and the defaults are used.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from wkparse import terminal
from wkparse.ast import RowTable
from wkparse.config import Config, ConfigError, Resolver
from wkparse.i18n import english_count
from wkparse.parse import ParseResult, parse_bytes, parse_file_and_bytes, read_stdin

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.console import Console

    from wkparse.diagnostics import Diagnostic
    from wkparse.models.simai.versions import SimaiVersion

FORMATS = ("text", "json", "markdown")


class _Unusable(Exception):
    """A side that cannot be compared; its problem has been reported."""


def run(a: Path, b: Path, format: str) -> int:
    errors = terminal.console(stderr=True, highlight=False, soft_wrap=True)
    if format not in FORMATS:
        return _usage(errors, f"unknown format {format!r}; use one of {', '.join(FORMATS)}")
    if str(a) == "-" and str(b) == "-":
        return _usage(errors, "only one side can be standard input ('-')")
    resolver = Resolver()
    try:
        sides = [_read(path, resolver, errors) for path in (a, b)]
    except _Unusable:
        return 2
    from dataclasses import replace

    from wkparse.difference import diff
    from wkparse.difference.simai import simai_change

    (ra, da, ka, va), (rb, db, kb, vb) = sides
    d = diff(ra, rb, str(a), str(b))
    if not d.equal:
        d = replace(d, simai=simai_change(da, str(a), db, str(b), (ka, kb), (va, vb)))
    if format == "json":
        from wkparse.render.diff import json as diff_json

        diff_json.write(d, sys.stdout)
    elif format == "markdown":
        from wkparse.render.diff import markdown as diff_markdown

        sys.stdout.write(diff_markdown.render(d))
    else:
        from wkparse.render.diff import text as diff_text

        terminal.console(highlight=False, soft_wrap=True).print(diff_text.render(d), end="")
    if d.equal:
        return 0
    if format != "text":  # why the exit is 1, where a person reads it
        r = d.rows
        rows = f"{r.changed:,} changed, {r.added:,} added, {r.removed:,} removed, {r.moved:,} moved"
        terminal.say(
            errors,
            "note",
            f"{a} and {b} differ: {english_count(len(d.header), 'header key')}, "
            f"{english_count(len(d.facts), 'fact')}; rows: {rows}",
            "cyan",
        )
    return 1


def _usage(errors: Console, message: str) -> int:
    terminal.error(errors, message)
    return 2


def _read(
    path: Path, resolver: Resolver, errors: Console
) -> tuple[ParseResult, bytes, RowTable | None, SimaiVersion]:
    """The parsed side, its bytes (SimAI-Analytical's prediction reads the bytes), read once
    (`<(cmd)` is a pipe), its rows for the prediction when they were read under the default
    limits (as SimAI's model reads them; None: the model parses the bytes), and the SimAI its
    configuration names (`simai = "REV"`), as lint and explain of it use."""
    stdin = str(path) == "-"
    try:
        config = resolver.for_path(None if stdin else path)
    except ConfigError as exc:  # the same error, exit 2, as lint and fmt give
        terminal.error(errors, f"{path}: {exc}")
        raise _Unusable from None
    data = b""
    try:
        if stdin:
            data = read_stdin(config.limits)
            result = parse_bytes(data, limits=config.limits)
        else:
            result, read = parse_file_and_bytes(path, limits=config.limits)
            data = read or b""
    except OSError as exc:
        reason = terminal.reason(exc)
        terminal.error(errors, f"{path}: {reason}")
        raise _Unusable from None
    from wkparse.models.simai.reach import reach

    # lines below the rows SimAI reads that are no rows (notes) are never read: they stop
    # neither lint nor explain, nor the diff; a row cut off short still does
    notes = set(reach(result.workload).notes)
    blocking = [d for d in result.diagnostics if d.span.line not in notes]
    if blocking:
        _report_syntax(path, data, result, blocking, config, errors)
        raise _Unusable
    from wkparse.models.simai.parsed_rows import reusable_rows

    return result, data, reusable_rows(result, config.limits), config.simai_version


def _report_syntax(
    path: Path,
    data: bytes,
    result: ParseResult,
    blocking: Sequence[Diagnostic],
    config: Config,
    errors: Console,
) -> None:
    """The syntax errors exactly as `wkparse lint` prints them, then why diff stops."""
    from wkparse.catalog import summaries
    from wkparse.commands.lint import _source_lines
    from wkparse.engine import lint
    from wkparse.render.lint.base import FileReport
    from wkparse.render.lint.text import TextFormatter

    shown = str(path)  # `-` for standard input: lint's renderer names it
    codes, where = {d.code for d in blocking}, {d.span.line for d in blocking}
    # lint may tell a parser's error as another finding on its line (a row cut off short
    # is WK105): that one, so the reason has its line
    found = [d for d in lint(result, shown, config) if d.code in codes or d.span.line in where]
    # the excerpts from the bytes read (a pipe cannot be opened again); a file too large to
    # have been read is read again for its few lines
    again = shown != "-" and not data and path.is_file()
    lines = _source_lines(path if again else None, data, {d.span.line for d in found})
    names = {code: rule.name for code, rule in summaries().items()}
    TextFormatter(errors, names).handle(FileReport(shown, found, lines))
    terminal.error(
        errors,
        f"{path}: {english_count(len(blocking), 'syntax error')}; diff "
        "compares files that parse (`wkparse lint` shows them too)",
    )
