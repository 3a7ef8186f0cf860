"""Which files a lint run reads: paths named on the command line, and the walk of folders.

A folder walk follows symbolic links but never enters a folder twice (so link loops end),
lints only files matching the config's `include` globs, and skips `.txt` files that are not
workloads (notes, requirements) with a note instead of a flood of errors. A file named
explicitly is always linted. Nothing here prints: problems come back as items of the walk.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from wkparse import encoding, terminal
from wkparse.config import Config, ConfigError
from wkparse.i18n import N_, _
from wkparse.models.simai.tables import POLICIES
from wkparse.record import record

STDIN = "-"
#: the warning (exit 0) when the paths given hold no workload file at all
NO_WORKLOADS = N_("no workload files found")
BOM = encoding.UTF8_BOM
#: how much of a file the workload sniff reads: line 1 and 2 of any real header fit
SNIFF_BYTES = 4096
_POLICY_LIKE = re.compile(rb"[A-Z][A-Z0-9_]*")
#: a row's fields, whatever separates them (a damaged file may use commas or semicolons)
_FIELDS = re.compile(rb"[\s,;]+")
#: a comm-type field of a row (`NONE`, `ALLREDUCE`, `ALLGATHER_DP_EP`, ...)
_COMM_WORD = re.compile(rb"(?:NONE|ALLREDUCE|ALLGATHER|REDUCESCATTER|ALLTOALL|BROADCAST)\w*")
#: how many of the first lines decide whether rows of workload shape follow
_SHAPE_LINES = 8


def _is_device(mode: int) -> bool:
    return stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode)


@record
class Target:
    """A file to lint; `path` is None for standard input."""

    path: Path | None
    #: how messages name it: as the user wrote it, joined with the walked names
    display: str


@record
class Skipped:
    """A file a folder walk left out, with the reason (reported as a note)."""

    display: str
    reason: str


@record
class Unreadable:
    """A path that cannot be read (reported as an error: exit 2)."""

    display: str
    reason: str


Item = Target | Skipped | Unreadable


def looks_like_workload(head: bytes, name: str | None = None) -> bool:
    """Decide from the first bytes (and the file's name) whether a file is a workload, or a
    damaged one, without parsing it: a damaged workload must be linted, never skipped.

    A workload: line 1 starts with a policy word (after an optional BOM), or with a
    policy-like upper-case word followed by an integer line 2 (a mistyped policy). A damaged
    one: a policy word anywhere on line 1; rows of workload shape (a name, then numbers and
    comm types, whatever separates them) among the first lines; or a name AICB gives its
    files, whatever the bytes (an empty or binary file so named is a run that went wrong).
    """
    if name is not None and _aicb_named(name):
        return True
    wide = encoding.sniff(head)
    if wide is not None:  # a workload saved as UTF-16 is still a workload, reported as WK119
        head = head[wide.bom :].decode(wide.codec, "replace").encode("utf-8")
    if head.startswith(BOM):
        head = head[len(BOM) :]
    lines = head.split(b"\n", _SHAPE_LINES)
    words = lines[0].split()
    if any(word.decode("ascii", "replace") in POLICIES for word in words):
        return True
    if any(_row_shaped(line) for line in lines[1:_SHAPE_LINES]):
        return True
    if len(lines) < 2:
        return False
    second = lines[1].split()
    counted = bool(second) and second[0].isdigit()
    # a blank line 1 before a count line is a header lost, not a note
    return counted and (not words or bool(_POLICY_LIKE.fullmatch(words[0])))


def _row_shaped(line: bytes) -> bool:
    """A workload row, perhaps with the wrong separators: a name, then at least 9 fields of
    which two or more are comm types and most others integers."""
    fields = [f for f in _FIELDS.split(line.strip()) if f]
    if not 10 <= len(fields) <= 14:
        return False
    comms = sum(1 for f in fields[1:] if _COMM_WORD.fullmatch(f))
    numbers = sum(1 for f in fields[1:] if f.lstrip(b"-+").replace(b".", b"", 1).isdigit())
    return comms >= 2 and comms + numbers >= len(fields) - 2


def _aicb_named(name: str) -> bool:
    """Whether `name` is a file name AICB writes (any era, training or inference)."""
    if "world_size" not in name:  # every AICB name holds it: most files are decided here
        return False
    from wkparse.models.aicb.names import (
        parse_filename,
        parse_first_inference_filename,
        parse_v1_filename,
    )

    return any(
        parse(name) is not None
        for parse in (parse_filename, parse_v1_filename, parse_first_inference_filename)
    )


def walk(paths: Sequence[Path], settings: Callable[[Path], Config]) -> Iterator[Item]:
    """Expand the command line's paths, in order; folders are walked in name order.

    `settings(folder)` gives the config that applies in a folder (its include and exclude).
    Each file is yielded once even when reached twice (repeated argument, symlink, `-`).
    """
    seen_files: set[tuple[int, int]] = set()
    seen_dirs: set[tuple[int, int]] = set()
    stdin_read = False
    for path in paths:
        text = str(path)
        if text == STDIN:
            if not stdin_read:  # a second `-` would read an exhausted stream as an empty file
                yield Target(None, STDIN)
            stdin_read = True
            continue
        try:
            info = path.stat()
        except OSError as exc:
            yield Unreadable(text, _reason(exc))
            continue
        if stat.S_ISDIR(info.st_mode):
            yield from _walk_dir(path, text, settings, seen_dirs, seen_files)
        elif _is_device(info.st_mode):
            # /dev/zero never ends a line: reading it would never end either.
            yield Unreadable(text, _("not a regular file"))
        elif _first_visit(info, seen_files):
            yield Target(path, text)  # a named pipe (`<(cmd)`) is read like a file


def _walk_dir(
    root: Path,
    display: str,
    settings: Callable[[Path], Config],
    seen_dirs: set[tuple[int, int]],
    seen_files: set[tuple[int, int]],
) -> Iterator[Item]:
    if not _first_visit(root.stat(), seen_dirs):
        return
    # A stack of open folders, not recursion: a deep tree must not hit the recursion limit.
    stack: list[_Folder] = []
    opened = _Folder.open(root, display, "", settings)
    if isinstance(opened, Unreadable):
        yield opened
        return
    stack.append(opened)
    while stack:
        folder = stack[-1]
        entry = next(folder.entries, None)
        if entry is None:
            stack.pop()
            continue
        name = entry.name
        rel = f"{folder.relative}{name}"
        shown = os.path.join(folder.display, name)
        config = folder.config
        if config.excluded(name, rel):
            continue
        try:
            info = entry.stat()  # follows links
        except OSError as exc:
            if config.included(name, rel):
                yield Unreadable(shown, _reason(exc, entry.is_symlink()))
            continue
        if entry.is_dir():
            if _first_visit(info, seen_dirs):
                sub = _Folder.open(Path(entry.path), shown, rel + "/", settings)
                if isinstance(sub, Unreadable):
                    yield sub
                else:
                    stack.append(sub)
        elif not config.included(name, rel):
            continue
        elif not stat.S_ISREG(info.st_mode):
            yield Skipped(shown, _("not a regular file"))
        elif _first_visit(info, seen_files):
            yield sniff(Path(entry.path), shown)


@record(frozen=False)
class _Folder:
    """A folder being walked: its remaining entries in name order and its settings."""

    entries: Iterator[os.DirEntry[str]]
    display: str
    relative: str
    config: Config

    @classmethod
    def open(
        cls, path: Path, display: str, relative: str, settings: Callable[[Path], Config]
    ) -> _Folder | Unreadable:
        try:
            with os.scandir(path) as scan:
                entries = sorted(scan, key=lambda e: e.name)
            config = settings(path)
        except OSError as exc:
            return Unreadable(display, _reason(exc))
        except ConfigError as exc:
            return Unreadable(display, str(exc))
        return cls(iter(entries), display, relative, config)


def sniff(path: Path, display: str) -> Item:
    """A Target when the file looks like a workload, else why not (Skipped or Unreadable)."""
    try:
        with path.open("rb") as f:
            head = f.read(SNIFF_BYTES)
    except OSError as exc:
        return Unreadable(display, _reason(exc))
    if looks_like_workload(head, path.name):
        return Target(path, display)
    return Skipped(display, _("not a workload: line 1 does not start with a policy word"))


def _first_visit(info: os.stat_result, seen: set[tuple[int, int]]) -> bool:
    key = (info.st_dev, info.st_ino)
    if key in seen:
        return False
    seen.add(key)
    return True


def _reason(exc: OSError, link: bool = False) -> str:
    if link and isinstance(exc, FileNotFoundError):
        return _("broken symbolic link")
    return terminal.reason(exc)


def read_lines(stream: Iterable[bytes], wanted: Iterable[int]) -> dict[int, str]:
    """The text of the wanted line numbers, decoded as the parser decodes them.

    Columns in diagnostics count characters of that decoding (BOM removed from line 1,
    invalid bytes replaced), so an underline drawn under this text lines up.
    """
    want = set(wanted)
    out: dict[int, str] = {}
    if not want:
        return out
    last = max(want)
    for number, raw in enumerate(stream, start=1):
        if number == 1 and encoding.sniff(raw):
            break  # read as UTF-8, a UTF-16 line is noise: WK119 says what the file is
        if number in want:
            if number == 1 and raw.startswith(BOM):
                raw = raw[len(BOM) :]
            out[number] = raw.decode("utf-8", "replace").rstrip("\r\n")
        if number >= last:
            break
    return out
