"""An open document's text, edited in place as the editor's incremental changes arrive.

pygls keeps its documents as one string and applies a change by walking every line in Python,
which costs a third of a second per keystroke on a million-row file. Here the text is kept as
the UTF-8 bytes the parser reads, with the edits since it was last joined beside it, and the
line starts as a numpy array: an edit on the event loop costs one shift of that array, and
the bytes are joined once, on the lint thread (`snapshot`), where they are read anyway.
Positions are LSP's: 0-based lines, characters counted in the code units the client and
server agreed on (UTF-16 unless the client offers another).
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

#: how the editor's text becomes bytes and back (a lone surrogate survives, as in `fix`)
ENCODING, ERRORS = "utf-8", "surrogateescape"
#: edits kept beside the bytes before they are joined on the spot
MAX_EDITS = 64

#: an edit of the text as it stood after the edits before it: bytes a..b become `new`
_Edit = tuple[int, int, bytes]


def line_starts(data: bytes) -> Any:
    """Byte offsets where each line starts (a numpy array); line 0 starts at 0."""
    ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)
    return np.concatenate((np.zeros(1, dtype=np.int64), ends + 1))


def _units(ch: str, encoding: str) -> int:
    """How many code units of `encoding` (utf-8, utf-16, utf-32) one character takes."""
    if encoding == "utf-32":
        return 1
    if encoding == "utf-16":
        return 2 if ord(ch) > 0xFFFF else 1
    return len(ch.encode("utf-8", "surrogatepass"))


def to_index(line: str, character: int, encoding: str = "utf-16") -> int:
    """The index into `line` of a column counted in `encoding`'s code units (clamped)."""
    if line.isascii() or encoding == "utf-32":
        return min(character, len(line))
    units = 0
    for i, ch in enumerate(line):
        if units >= character:
            return i
        units += _units(ch, encoding)
    return len(line)


def to_units(line: str, index: int, encoding: str = "utf-16") -> int:
    """The column, in `encoding`'s code units, of an index into `line`."""
    if line.isascii() or encoding == "utf-32":
        return min(index, len(line))
    return sum(_units(ch, encoding) for ch in line[:index])


def _apply(data: bytes, edits: list[_Edit]) -> bytes:
    for a, b, new in edits:
        # views, not slices: the text is copied once per edit, not three times
        view = memoryview(data)
        data = b"".join((view[:a], new, view[b:]))
    return data


def _piece(data: bytes, edits: list[_Edit], a: int, b: int) -> bytes:
    """Bytes a..b of `data` after `edits`, without joining the whole text."""
    if not edits:
        return data[a:b]
    *before, (ea, eb, new) = edits
    end = ea + len(new)
    shift = len(new) - (eb - ea)
    out = b""
    if a < ea:
        out += _piece(data, before, a, min(b, ea))
    if b > ea and a < end:
        out += new[max(a, ea) - ea : min(b, end) - ea]
    if b > end:
        out += _piece(data, before, max(a, end) - shift, b - shift)
    return out


class Text:
    """A document's current text (as bytes and edits) and where its lines start."""

    def __init__(self, source: str | bytes, encoding: str = "utf-16") -> None:
        self._data = source if isinstance(source, bytes) else source.encode(ENCODING, ERRORS)
        self._edits: list[_Edit] = []
        self._length = len(self._data)
        #: what LSP positions count: utf-16 (LSP's default), utf-8 or utf-32
        self.encoding = encoding
        #: bumped by every edit: an analysis is of the text on screen when its revision is this
        self.revision = 0
        self._starts: Any = None
        self._lock = threading.Lock()

    def snapshot(self) -> tuple[bytes, int]:
        """The whole text and its revision; the edits are joined here (a worker thread), once."""
        with self._lock:
            data, edits, revision = self._data, list(self._edits), self.revision
        if not edits:
            return data, revision
        joined = _apply(data, edits)
        with self._lock:
            if self._data is data and self._edits[: len(edits)] == edits:
                self._data, self._edits = joined, self._edits[len(edits) :]
        return joined, revision

    def reset(self, source: str) -> None:
        """The whole text replaced (a change without a range)."""
        data = source.encode(ENCODING, ERRORS)
        with self._lock:
            self._data, self._edits, self._length = data, [], len(data)
            self._starts = None
            self.revision += 1

    def adopt(self, starts: Any, revision: int) -> None:
        """Take line starts counted elsewhere (a lint thread's) for this revision."""
        with self._lock:
            if self._starts is None and self.revision == revision:
                self._starts = starts

    @property
    def starts(self) -> Any:
        if self._starts is None:
            data, revision = self.snapshot()
            starts = line_starts(data)
            with self._lock:
                if self.revision == revision:
                    self._starts = starts
            return starts
        return self._starts

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def _bytes(self, a: int, b: int) -> bytes:
        with self._lock:
            data, edits = self._data, list(self._edits)
        return _piece(data, edits, a, b)

    def line(self, number: int) -> str:
        """Line `number` (0-based) without its line end; "" past the end."""
        starts = self.starts
        if not 0 <= number < len(starts):
            return ""
        begin = int(starts[number])
        end = int(starts[number + 1]) - 1 if number + 1 < len(starts) else self._length
        return self._bytes(begin, end).decode(ENCODING, ERRORS).rstrip("\r")

    def offset(self, line: int, character: int) -> int:
        """The byte offset of an LSP position (clamped to the text)."""
        starts = self.starts
        if line >= len(starts):
            return self._length
        if line < 0:
            return 0
        text = self.line(line)
        head = text[: to_index(text, character, self.encoding)]
        return int(starts[line]) + len(head.encode(ENCODING, ERRORS))

    def replace(self, start: tuple[int, int], end: tuple[int, int], new: str) -> None:
        """Apply one incremental change: the range start..end (LSP positions) becomes `new`."""
        a = self.offset(*start)
        b = max(a, self.offset(*end))
        added = new.encode(ENCODING, ERRORS)
        starts = self.starts
        first = min(max(start[0], 0), len(starts) - 1)
        last = min(max(end[0], first), len(starts) - 1)
        inside = line_starts(added)[1:] + a if b"\n" in added else np.empty(0, dtype=np.int64)
        shift = len(added) - (b - a)
        with self._lock:
            self._starts = np.concatenate((starts[: first + 1], inside, starts[last + 1 :] + shift))
            self._edits.append((a, b, added))
            self._length += shift
            self.revision += 1
        if len(self._edits) > MAX_EDITS:
            self.snapshot()
