"""Applying the fixes that lint rules attach to diagnostics (`wkparse lint --fix`).

A `Fix` is a set of `Edit`s, each replacing a span on one line (1-based columns, end
exclusive, counted in characters of the decoded line as the parser counts them). Fixes are
applied all edits or none, bottom-up so that an earlier edit never moves a later span. When
two fixes overlap, the first (in file order) is applied and the other is left for the next
round: the file is re-linted and the fixes then found are applied, until none is left or
`MAX_ROUNDS` rounds have run. Unsafe fixes (those that change what SimAI computes) are
applied only when asked. Everything an edit does not touch is kept byte for byte, line
endings and a byte order mark included; on line 1 column 0 addresses the byte order mark
(the parser's columns start after it), so `Edit(Span(1, 0, 1, 1), "")` removes it. The three
fixes without edits, WK119's, WK120's and WK101's, convert the whole file (UTF-16 to UTF-8, CR
line ends to LF, a blank line 1 above the policy line deleted) before the others run.

`fix_text` is pure; `fix_file` reads, fixes and atomically rewrites one file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path

from wkparse import encoding, syntax
from wkparse.atomic import atomic_write
from wkparse.config import Config
from wkparse.diagnostics import Diagnostic, Edit, Fix

#: re-lint rounds before giving up on fixes that keep producing new fixes
MAX_ROUNDS = 10
_BOM = "\ufeff"
#: how file bytes become text and back: invalid UTF-8 survives the round trip unchanged
_ENCODING, _ERRORS = "utf-8", "surrogateescape"

Relint = Callable[[str], list[Diagnostic]]
#: an edit as (line index, start, end, text) in the split text; start and end are indexes
_Resolved = tuple[int, int, int, str]
#: undecodable bytes, as surrogateescape decoding leaves them
_ESCAPED = re.compile("[\udc80-\udcff]")


@dataclass(frozen=True, slots=True)
class Fixed:
    """What `fix_text` did: the new text and the diagnostics found in it."""

    text: str
    #: fixes applied over all rounds
    applied: int
    #: the diagnostics of the final text (those given, when no fix applied)
    diagnostics: list[Diagnostic]


@dataclass(frozen=True, slots=True)
class FileFixed:
    """What `fix_file` did to one file."""

    #: fixes applied over all rounds; 0 means the file was not written
    applied: int
    #: the lint diagnostics of the file as it now is, sorted and with severities, as
    #: `wkparse.engine.lint` returns them: what `lint --fix` should report
    diagnostics: list[Diagnostic]


def fix_file(
    path: str | os.PathLike[str],
    diagnostics: Sequence[Diagnostic],
    unsafe: bool = False,
    *,
    config: Config | None = None,
) -> FileFixed:
    """Apply the fixes in `diagnostics` (lint's output for the file at `path`) in place.

    Safe fixes only, unless `unsafe`. The file is re-linted with `config` (the same one the
    caller linted with, so the same codes run) after each round, and rewritten atomically
    once at the end, only when a fix applied; its mode bits are kept. Returns the number of
    fixes applied and the diagnostics of the fixed file, so the caller need not lint again.
    The path given to the re-lint is the one on `diagnostics` (else `str(path)`), so
    per-file settings apply as they did. Raises OSError when the file cannot be read or
    written (the file is then unchanged).
    """
    from wkparse.engine import lint
    from wkparse.parse import parse_bytes

    shown = next((d.path for d in diagnostics if d.path is not None), str(path))
    limits = (config or Config()).limits

    def relint(text: str) -> list[Diagnostic]:
        return lint(parse_bytes(_encode(text), limits=limits), shown, config)

    data = Path(path).read_bytes()
    if encoding.not_text(data[: encoding.TEXT_SNIFF_BYTES]) is not None:
        return FileFixed(0, list(diagnostics))  # binary data is never rewritten (WK121)
    original = text = data.decode(_ENCODING, _ERRORS)
    conversions = 0
    # A UTF-16 file with CR line ends needs both conversions, one after the other.
    for _ in _CONVERSIONS:
        converted = whole_file_converted(data, diagnostics)
        if converted is None:
            break
        text, diagnostics, data = converted, relint(converted), _encode(converted)
        conversions += 1
    fixed = fix_text(text, diagnostics, unsafe=unsafe, relint=relint)
    applied = fixed.applied + conversions
    if applied and fixed.text != original:
        atomic_write(path, [_encode(fixed.text)])
    return FileFixed(applied, fixed.diagnostics)


def whole_file_converted(data: bytes, diagnostics: Sequence[Diagnostic]) -> str | None:
    """The whole file converted, when a conversion's diagnostic (with its fix) is among
    `diagnostics`; None when none is, or the file does not convert cleanly.

    These fixes are not edits within a line: they change how every byte is read, so they
    run first, and the other fixes are then found in (and applied to) the converted text.
    """
    for d in diagnostics:
        convert = _CONVERSIONS.get(d.code)
        if convert is not None and d.fix is not None:
            return convert(data)
    return None


def _from_wide_encoding(data: bytes) -> str | None:
    wide = encoding.sniff(data[: encoding.SNIFF_BYTES])
    return encoding.decode(data, wide) if wide is not None else None


def _from_cr_line_ends(data: bytes) -> str:
    # WK120 is only reported for a file with no LF at all: every CR ends a line.
    return data.decode(_ENCODING, _ERRORS).replace("\r", "\n")


def _without_blank_first_line(data: bytes) -> str | None:
    # WK101 carries a fix only when the policy line follows the blank line 1
    text = data.decode(_ENCODING, _ERRORS)
    bom = _BOM if text.startswith(_BOM) else ""
    first, newline, rest = text[len(bom) :].partition("\n")
    return bom + rest if newline and not first.strip() else None


#: the fixes that rewrite the whole file or its line structure, by the code they fix
_CONVERSIONS: dict[str, Callable[[bytes], str | None]] = {
    syntax.WIDE_ENCODING: _from_wide_encoding,
    syntax.CR_LINE_ENDS: _from_cr_line_ends,
    syntax.MISSING_POLICY: _without_blank_first_line,
}


def fix_text(
    text: str, diagnostics: Sequence[Diagnostic], *, unsafe: bool, relint: Relint
) -> Fixed:
    """Apply fixes round after round; `relint(text)` gives the diagnostics of a new text."""
    current, found, applied = text, list(diagnostics), 0
    for _ in range(MAX_ROUNDS):
        fixes = fixable(found, unsafe=unsafe)
        if not fixes:
            break
        new, count = apply_fixes(current, fixes)
        if count == 0 or new == current:
            break
        current, applied = new, applied + count
        found = relint(current)
    return Fixed(current, applied, found)


def fixable(diagnostics: Iterable[Diagnostic], *, unsafe: bool) -> list[Fix]:
    """The fixes that may be applied, in file order, each once (a fix attached to two
    diagnostics is one fix)."""
    fixes: dict[tuple[Edit, ...], tuple[tuple[int, int, int], Fix]] = {}
    for d in diagnostics:
        fix = d.fix
        if fix is None or not fix.edits or not (fix.safe or unsafe):
            continue
        edits = fix.edits if len(fix.edits) == 1 else tuple(sorted(fix.edits, key=_start))
        fixes.setdefault(edits, (_start(edits[0]), fix))
    return [fix for _, fix in sorted(fixes.values(), key=itemgetter(0))]


def apply_fixes(text: str, fixes: Sequence[Fix]) -> tuple[str, int]:
    """Apply every fix that is valid and overlaps no fix before it; return the text and the
    number applied. A fix with an edit off its line (or spanning lines) is skipped."""
    bom = text.startswith(_BOM)
    lines = (text[1:] if bom else text).split("\n")
    if bom:
        # Column 0 of line 1 is the mark, so the parser's columns still point right.
        lines[0] = _BOM + lines[0]
    # Accepted ranges by line: a row rule can fix every one of a million rows, and each new
    # fix must only be compared with the edits already on its own lines.
    taken: dict[int, list[tuple[int, int]]] = {}
    chosen: list[_Resolved] = []
    applied = 0
    for fix in fixes:
        resolved = [_resolve(e, lines, bom) for e in fix.edits]
        edits = [r for r in resolved if r is not None]
        if len(edits) != len(resolved) or _conflicts(edits, taken):
            continue
        for index, start, end, _ in edits:
            ranges = taken.get(index)
            if ranges is None:
                taken[index] = [(start, end)]
            else:
                ranges.append((start, end))
        chosen.extend(edits)
        applied += 1
    # Bottom-up, so that no edit moves a range still to be replaced; accepted ranges never
    # share a start, so the order is total.
    chosen.sort(reverse=True)
    for index, start, end, replacement in chosen:
        line = lines[index]
        lines[index] = line[:start] + replacement + line[end:]
    return "\n".join(lines), applied


def _start(edit: Edit) -> tuple[int, int, int]:
    return (edit.span.line, edit.span.column, edit.span.end_column)


def _resolve(edit: Edit, lines: list[str], bom: bool) -> _Resolved | None:
    """Where the edit falls in `lines`, or None when it does not fit on its line."""
    span = edit.span
    line_number = span.line
    if span.end_line != line_number or not 1 <= line_number <= len(lines):
        return None
    shift = 0 if bom and line_number == 1 else -1
    start, end = span.column + shift, span.end_column + shift
    line = lines[line_number - 1]
    # Line ends (a CR before the LF) are not part of any span; neither are escaped bytes,
    # whose columns the parser counts differently (one replacement character per sequence).
    if not 0 <= start <= end <= len(line.rstrip("\r")) or _ESCAPED.search(line, 0, end):
        return None
    return (line_number - 1, start, end, edit.text)


def _conflicts(edits: list[_Resolved], taken: dict[int, list[tuple[int, int]]]) -> bool:
    """Whether an edit overlaps an accepted one or another edit of the same fix."""
    for i, (index, start, end, _) in enumerate(edits):
        ranges = taken.get(index, [])
        own = [(s, e) for line, s, e, _ in edits[:i] if line == index]
        for other_start, other_end in (*ranges, *own) if own else ranges:
            # Two insertions at one point conflict too: their order would be a guess.
            if (start < other_end and other_start < end) or start == other_start:
                return True
    return False


def _encode(text: str) -> bytes:
    return text.encode(_ENCODING, _ERRORS)
