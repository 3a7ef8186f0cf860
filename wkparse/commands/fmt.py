"""`wkparse fmt`: rewrite workload files in the canonical form (see wkparse.format).

Behaviour, after black and ruff:
- a file already canonical is left alone (not even rewritten), a changed one is replaced
  atomically with its permissions kept (wkparse.atomic);
- `--check` writes nothing and exits 1 when any file would change, naming each one;
- `--diff` writes nothing, prints a unified diff per file that would change and exits 1 when
  it printed one, as `ruff format --diff` does;
- `-` reads standard input and writes the canonical text to standard output (with `--check`
  or `--diff`, only the verdict or the diff);
- a file with syntax errors is never rewritten: its errors are reported and the exit is 1;
- an unreadable path (or one whose folder's config file is broken) exits 2, after every other
  path has been processed.
Folders are walked as `wkparse lint` walks them (wkparse.discover: `include` and `exclude`
from the nearest config file, non-workload `.txt` files skipped with a note), and
`--skip-non-workloads` skips named non-workloads as it does there.
Standard output carries only formatted text and diffs; every message goes to standard error,
so `wkparse fmt --diff dir > fix.patch` gives a clean patch.
"""

from __future__ import annotations

import difflib
import io
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from wkparse import discover, terminal
from wkparse.atomic import atomic_write
from wkparse.config import ConfigError, Resolver
from wkparse.format import canonical_chunks, is_canonical
from wkparse.parse import STDIN_NAME, ParseResult, parse_bytes, parse_file, read_stdin

if TYPE_CHECKING:
    from wkparse.diagnostics import Diagnostic

_NO_NEWLINE = "\\ No newline at end of file\n"


@dataclass
class _Tally:
    changed: int = 0
    unchanged: int = 0
    broken: int = 0
    #: not formatted until `lint --fix` converts it (UTF-16 text, CR line ends)
    unconverted: int = 0
    skipped: int = 0
    #: not formatted for lines below the rows that are no rows (notes, lint's WK105 warning)
    notes: int = 0
    #: canonical but for a byte order mark, which fmt keeps and SimAI fails on (WK107)
    marked: int = 0


def run(
    paths: list[Path],
    *,
    check: bool,
    diff: bool,
    skip_non_workloads: bool = False,
    verbose: bool = False,
) -> int:
    """Format every path; return the exit code (0, 1 or 2, the worst over all paths).

    `skip_non_workloads` skips named files whose line 1 is no workload policy, as lint's
    option of the same name does (pre-commit names every `.txt` it sees); a skipped file is
    named only with `verbose`, else one line counts them.
    """
    resolver = Resolver()
    tally = _Tally()
    status = 0
    for item in discover.walk(paths, resolver.for_path):
        if isinstance(item, discover.Target) and skip_non_workloads and item.path:
            item = discover.sniff(item.path, item.display)
        if isinstance(item, discover.Unreadable):
            _say(f"error: {item.display}: {item.reason}")
            status = 2
        elif isinstance(item, discover.Skipped):
            tally.skipped += 1
            if verbose:
                _say(f"note: {item.display}: skipped, {item.reason}")
        else:
            status = max(status, _target(item, resolver, tally, check=check, diff=diff))
    if tally.skipped:
        listed = "" if verbose else " (--verbose lists them)"
        what = (
            "file that is not a workload" if tally.skipped == 1 else "files that are not workloads"
        )
        _say(f"note: skipped {tally.skipped:,} {what}{listed}")
    if (
        tally.changed
        + tally.unchanged
        + tally.broken
        + tally.notes
        + tally.unconverted
        + tally.marked
    ):
        _say(_summary(tally, check or diff))
    elif status == 0:
        _say(f"warning: {discover.NO_WORKLOADS}")
    return status


def _target(
    target: discover.Target, resolver: Resolver, tally: _Tally, *, check: bool, diff: bool
) -> int:
    try:
        limits = resolver.for_path(target.path).limits
    except ConfigError as exc:
        _say(f"error: {target.display}: {exc}")
        return 2
    if target.path is None:
        data = read_stdin(limits)
        return _stdin(parse_bytes(data, limits=limits), data, tally, check=check, diff=diff)
    path = target.path
    try:
        result = parse_file(path, limits=limits)
        if not _report_errors(target.display, result, tally):
            return 1
        with path.open("rb") as stream:
            same = is_canonical(result, stream)
        if same:
            return _unchanged(target.display, result, tally)
        if diff:
            original = path.read_bytes().decode("utf-8", "replace")
            _write_diff(target.display, original, "".join(canonical_chunks(result)))
        if check or diff:
            tally.changed += 1
            _say(f"would reformat {target.display}")
            _marked(target.display, result)
            return 1
        atomic_write(path, _encoded(result))
        tally.changed += 1  # only once written: a file left unchanged is an error, not a count
    except OSError as exc:
        _say(f"error: {target.display}: {terminal.reason(exc)}")
        return 2
    _say(f"reformatted {target.display}")
    return _marked(target.display, result)


def _unchanged(display: str, result: ParseResult, tally: _Tally) -> int:
    """A canonical file: "already formatted", unless it starts with a byte order mark."""
    if result.workload.bom:
        tally.marked += 1
        return _marked(display, result)
    tally.unchanged += 1
    return 0


def _marked(display: str, result: ParseResult) -> int:
    """1 with the reason when the file keeps a byte order mark: fmt changes no meaning, so it
    keeps the mark, but a file SimAI fails on (WK107, lint's error) is never well formatted."""
    if not result.workload.bom:
        return 0
    _say(
        f"{display}:1:1: WK107 a UTF-8 byte order mark precedes the policy: SimAI fails on it "
        "(fmt keeps it; `wkparse lint --fix` removes it)"
    )
    return 1


def _stdin(result: ParseResult, data: bytes, tally: _Tally, *, check: bool, diff: bool) -> int:
    if not _report_errors(STDIN_NAME, result, tally):
        return 1
    changed = not is_canonical(result, io.BytesIO(data))
    marked = 0
    if changed:
        tally.changed += 1
        marked = _marked(STDIN_NAME, result)
    else:
        marked = _unchanged(STDIN_NAME, result, tally)
    if diff and changed:
        text = "".join(canonical_chunks(result))
        _write_diff(STDIN_NAME, data.decode("utf-8", "replace"), text)
    if check or diff:
        if changed:
            _say(f"would reformat {STDIN_NAME}")
        return 1 if changed else marked
    _stdout(b"".join(_encoded(result)) if changed else data)
    return marked


def _report_errors(display: str, result: ParseResult, tally: _Tally) -> bool:
    """Report the syntax errors on stderr; True when there were none (the file may be
    formatted)."""
    for d in _as_lint_tells(display, result):
        _say(f"{display}:{d.span.line}:{d.span.column}: {d.code} {d.message}")
    if not result.diagnostics:
        return True
    # a file the parser did not read (UTF-16, CR line ends, a blank line 1 above the policy)
    # whose one finding `lint --fix` fixes: its rows are not wrong, only unread
    [first, *rest] = result.diagnostics
    if not rest and first.fix is not None and first.fix.safe and not first.fix.edits:
        _say(
            f"error: {display}: not formatted: {first.fix.description} first "
            "(`wkparse lint --fix` does)"
        )
        tally.unconverted += 1
    elif _only_notes(result):
        _say(
            f"error: {display}: not formatted: the lines below its rows are no rows (notes), "
            "which have no canonical form; move them out of the file"
        )
        tally.notes += 1
    else:
        _say(f"error: {display}: not formatted, it has syntax errors")
        tally.broken += 1
    return False


def _only_notes(result: ParseResult) -> bool:
    """Whether every syntax error is on a line below the rows SimAI reads (notes)."""
    from wkparse.models.simai.reach import reach

    notes = set(reach(result.workload).notes)
    return all(d.span.line in notes for d in result.diagnostics)


def _as_lint_tells(display: str, result: ParseResult) -> list[Diagnostic]:
    """The parser's errors, but those lint tells otherwise: notes below the rows and a row
    cut off at the end of the file are lint's WK105 (SimAI never reads the notes; after the
    cut it makes phantom layers), not rows that misread every later field (WK110)."""
    if not result.diagnostics:
        return []
    from wkparse.models.simai.reach import reach

    found, rows = reach(result.workload), result.workload.rows
    told = set(found.notes) | ({rows.lines[found.cut]} if found.cut is not None else set())
    if not any(d.span.line in told for d in result.diagnostics):
        return list(result.diagnostics)
    from wkparse.config import Config
    from wkparse.engine import lint

    count = lint(result, display, Config(select=("WK105",)))
    rest = [d for d in result.diagnostics if d.span.line not in told]
    return sorted([*count, *rest], key=lambda d: (d.span.line, d.span.column))


def _encoded(result: ParseResult) -> Iterator[bytes]:
    return (chunk.encode("utf-8") for chunk in canonical_chunks(result))


def _write_diff(display: str, before: str, after: str) -> None:
    """The unified diff; line ends CRLF made LF are said in one line (on standard error),
    not shown as every line removed and added again."""
    if "\r\n" in before and "\r\n" not in after:
        _say(f"{display}: line endings CRLF -> LF")
        before = before.replace("\r\n", "\n")
        if before == after:
            return
    lines = difflib.unified_diff(_lines(before), _lines(after), display, display)
    _stdout("".join(_terminated(lines)).encode("utf-8", "replace"))


def _lines(text: str) -> list[str]:
    # Split on LF only: str.splitlines would also break at characters SimAI reads as text.
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _terminated(lines: Iterable[str]) -> Iterator[str]:
    """Diff lines, with the marker patch(1) expects after a last line without a newline."""
    for line in lines:
        if line.endswith("\n"):
            yield line
        else:
            yield line + "\n" + _NO_NEWLINE


def _summary(tally: _Tally, dry: bool) -> str:
    parts: list[str] = []
    if tally.changed:
        verb = "would be reformatted" if dry else "reformatted"
        parts.append(f"{_files(tally.changed)} {verb}")
    if tally.unchanged:
        parts.append(f"{_files(tally.unchanged)} already formatted")
    if tally.broken:
        parts.append(f"{_files(tally.broken)} not formatted (syntax errors)")
    if tally.notes:
        parts.append(f"{_files(tally.notes)} not formatted (notes below the rows)")
    if tally.unconverted:
        parts.append(f"{_files(tally.unconverted)} not formatted (`wkparse lint --fix` first)")
    if tally.marked:
        parts.append(f"{_files(tally.marked)} formatted but for a byte order mark (WK107)")
    return ", ".join(parts)


def _files(n: int) -> str:
    return f"{n} file" if n == 1 else f"{n} files"


def _say(message: str) -> None:
    print(message, file=sys.stderr)


def _stdout(data: bytes) -> None:
    # Bytes, not text: the output must be the file's exact bytes whatever the locale says.
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
