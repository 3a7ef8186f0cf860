"""`wkparse lint` for people: each diagnostic with its source line, the span underlined.

    samples/bad.txt:2:1: error[WK105]: line 2 declares 3 rows but the file has 2: ...
       |
     2 | 3
       | ^ count-mismatch
       = fix: set the count to 2

Colours come from rich's Console (off when output is not a terminal or NO_COLOR is set),
but lines are assembled as plain strings with the ANSI codes computed once: rich's markup
costs ~0.3 ms a print, which a file with 100,000 findings cannot afford. Output without
colour needs no Console at all (`TextFormatter(None, names, out=stream)`), so a piped or
colourless run never imports rich. Everything taken
from the file (paths, source, messages quoting tokens) is stripped of control characters,
so a hostile file cannot drive the terminal.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import IO, TYPE_CHECKING, ClassVar

from wkparse.diagnostics import Diagnostic, Severity
from wkparse.encoding import binary_text
from wkparse.i18n import _, _plural
from wkparse.parse import shown_path
from wkparse.render.lint.base import FileReport, Summary

if TYPE_CHECKING:
    from rich.console import Console

#: widest excerpt of a source line; longer lines are cut around the span
WINDOW = 120
TAB = 4
STYLES = {
    "path": "bold",
    "code": "bold",
    "gutter": "blue",
    "name": "dim",
    "fix": "green",
    "error": "bold red",
    "warning": "bold yellow",
    "info": "bold cyan",
}
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def clean(text: str) -> str:
    """Control characters shown as escapes (tabs kept: source lines are tab-separated)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


class Paint:
    """ANSI start/end codes per style, rendered once from rich's styles."""

    def __init__(self, console: Console | None) -> None:
        self.codes: dict[str, tuple[str, str]] = {}
        system = None if console is None else console.color_system
        if system is None:
            return
        from rich.color import ColorSystem
        from rich.style import Style

        colors = {
            "standard": ColorSystem.STANDARD,
            "256": ColorSystem.EIGHT_BIT,
            "truecolor": ColorSystem.TRUECOLOR,
            "windows": ColorSystem.WINDOWS,
        }
        for name, spec in STYLES.items():
            rendered = Style.parse(spec).render("\0", color_system=colors[system])
            start, _, end = rendered.partition("\0")
            self.codes[name] = (start, end)

    def __call__(self, text: str, style: str) -> str:
        codes = self.codes.get(style)
        return text if codes is None else f"{codes[0]}{text}{codes[1]}"


@functools.lru_cache(maxsize=4096)
def excerpt(source: str, column: int, end_column: int) -> tuple[str, int, int]:
    """The shown text and the underline's start and width in it (tabs expanded, long lines cut).

    Columns are 1-based characters, end exclusive; a zero-width span gets one caret. Cached:
    AICB repeats each row line `ga` times, so a finding on a row repeats with the same text.
    """
    start, end = column - 1, max(end_column - 1, column)
    prefix = suffix = ""
    if len(source) > WINDOW:
        left = max(0, min(start - WINDOW // 3, len(source) - WINDOW))
        right = left + WINDOW
        prefix = "..." if left > 0 else ""
        suffix = "..." if right < len(source) else ""
        source, start, end = source[left:right], start - left, min(end, right) - left

    # Tab stops depend only on what precedes a character, so the width of a prefix's
    # display is the display position of the character after it.
    def width(upto: int) -> int:
        return len(clean(source[: max(upto, 0)]).expandtabs(TAB)) + max(upto - len(source), 0)

    caret = width(start)
    return (
        f"{prefix}{clean(source).expandtabs(TAB)}{suffix}",
        len(prefix) + caret,
        max(1, width(end) - caret),
    )


class TextFormatter:
    needs_source: ClassVar[bool] = True

    def __init__(
        self,
        console: Console | None,
        names: Mapping[str, str],
        *,
        out: IO[str] | None = None,
        colours: Callable[[], Console] | None = None,
    ) -> None:
        """Print through `console` (its stream and colours), or without one to `out`: plain
        text (see wkparse.terminal.plain), or in the colours of the console `colours` makes,
        asked for at the first finding (a run that finds nothing never imports rich)."""
        stream = console.file if console is not None else out
        if stream is None:
            raise ValueError("TextFormatter needs a console or an output stream")
        self.out: IO[str] = stream
        self.names = names
        self._colours = colours
        self._paint = None if colours is not None and console is None else Paint(console)

    @property
    def paint(self) -> Paint:
        if self._paint is None:
            self._paint = Paint(self._colours() if self._colours is not None else None)
        return self._paint

    def start(self) -> None:
        pass

    def handle(self, report: FileReport) -> None:
        if not report.diagnostics:
            return
        path = clean(shown_path(report.path))
        chunks = []
        for first, *more in repeats(report.diagnostics):
            text = self.diagnostic(first, path, report.lines)
            if more:
                gutter = " " * (len(str(first.span.line)) + 1)
                text = text[:-1] + f"{gutter} {self.paint('=', 'gutter')} {like_it(more)}\n\n"
            chunks.append(text)
        self.out.write("".join(chunks))
        self.out.flush()

    def diagnostic(self, d: Diagnostic, path: str, lines: Mapping[int, str]) -> str:
        paint = self.paint
        span = d.span
        severity = str(d.severity or Severity.ERROR)
        head = (
            f"{paint(f'{path}:{span.line}:{span.column}:', 'path')} "
            f"{paint(severity, severity)}[{paint(d.code, 'code')}]: {clean(d.message)}\n"
        )
        out = [head]
        source = lines.get(span.line)
        if source is not None and binary_text(source):
            source = _("(binary data, not shown)")
            span = replace(span, column=1, end_line=span.line, end_column=len(source) + 1)
        name = self.names.get(d.code, "")
        number = str(span.line)
        gutter = " " * (len(number) + 1)
        bar = paint("|", "gutter")
        if source is not None:
            end = span.end_column if span.end_line == span.line else len(source) + 1
            shown, offset, width = excerpt(source, span.column, end)
            carets = paint("^" * width, severity)
            out.append(f"{gutter} {bar}\n")
            out.append(f" {paint(number, 'gutter')} {bar} {shown}\n")
            out.append(f"{gutter} {bar} {' ' * offset}{carets} {paint(name, 'name')}\n")
        if d.fix is not None:
            safety = "" if d.fix.safe else _(" (unsafe: apply with --fix --unsafe-fixes)")
            out.append(f"{gutter} {paint('= fix:', 'fix')} {clean(d.fix.description)}{safety}\n")
        out.append("\n")
        return "".join(out)

    def stop(self, summary: Summary) -> None:
        self.out.write(summary_line(summary) + "\n")
        self.out.flush()


#: a number a message quotes from the file (`100.0`, `-1`): findings differing only there have
#: the same cause
_QUOTED_NUMBER = re.compile(r"`[-+]?[0-9][0-9.,eE+-]*`")
#: the most line ranges a folded finding lists before giving only its first and last line
_RANGES = 4


def repeats(diagnostics: Sequence[Diagnostic]) -> list[list[Diagnostic]]:
    """The diagnostics grouped by cause (code, severity and message, the numbers a message
    quotes aside), each group in file order, the groups in the order of their first member:
    text output tells a group once (JSON, SARIF, annotations and the server keep each)."""
    groups: dict[tuple[str, object, str], list[Diagnostic]] = {}
    for d in diagnostics:
        key = (d.code, d.severity, _QUOTED_NUMBER.sub("`N`", d.message))
        groups.setdefault(key, []).append(d)
    return list(groups.values())


def like_it(more: Sequence[Diagnostic]) -> str:
    """`... and 7,350 more like it, lines 5-7354`: the folded rest of a group."""
    lines = sorted({d.span.line for d in more})
    ranges: list[tuple[int, int]] = []
    for line in lines:
        if ranges and line == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], line)
        else:
            ranges.append((line, line))
    if len(ranges) > _RANGES:
        ranges = [(lines[0], lines[-1])]
    where = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)
    place = (_("line {where}") if len(lines) == 1 else _("lines {where}")).format(where=where)
    return _("... and {n} more like it, {place}").format(n=f"{len(more):,}", place=place)


def summary_line(summary: Summary) -> str:
    counts = summary.counts
    errors, warnings, infos = (
        counts.get(s, 0) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)
    )
    parts = [
        text
        for n, text in (
            (errors, _plural(errors, "{n} error", "{n} errors")),
            (warnings, _plural(warnings, "{n} warning", "{n} warnings")),
            (infos, _plural(infos, "{n} info", "{n} info")),
        )
        if n
    ]
    files = _plural(summary.files, "{n} file", "{n} files")
    if parts:
        text = _("Found {findings} in {files}.").format(findings=_(", ").join(parts), files=files)
    elif summary.problems:  # not "passed": some paths were never checked
        text = _("No findings in {files}.").format(files=files)
    elif not summary.files:
        text = _("No workload files checked.")
    else:
        text = _("All checks passed ({files}).").format(files=files)
    if summary.fixed:
        text += _(" Fixed {problems}.").format(
            problems=_plural(summary.fixed, "{n} problem", "{n} problems")
        )
    if summary.skipped:
        text += _(" Skipped {files}.").format(
            files=_plural(summary.skipped, "{n} non-workload file", "{n} non-workload files")
        )
        if not summary.skipped_listed:
            text += _(" --verbose lists them.")
    if summary.problems:
        text += _(" {paths} could not be linted.").format(
            paths=_plural(len(summary.problems), "{n} path", "{n} paths")
        )
    return text
