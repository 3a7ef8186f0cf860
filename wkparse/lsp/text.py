"""An open document's text: a new immutable version (a piece table) per incremental change.

pygls keeps its documents as one string and applies a change by walking every line in Python,
which costs a third of a second per keystroke on a million-row file. Here each version of the
text is a `Version`: a table of pieces (slices of the UTF-8 bytes the document was opened with,
and the bytes each edit typed), with the line starts as a numpy array. An edit on the event
loop makes the next version by cutting a few pieces and shifting that array; nothing copies
the text. The parser reads a version through `Version.stream()`, piece by piece, as it reads a
file, so the lint of an edit starts without joining 77 MB first; the pieces are joined only
when a whole-text reading asks for them (`Version.data`), or, after many edits, once the
diagnostics are out (`Version.joined`, `Text.adopt`). Only the event loop edits a `Text`; the
worker threads read versions, which never change.
Positions are LSP's: 0-based lines, characters counted in the code units the client and
server agreed on (UTF-16 unless the client offers another).
"""

from __future__ import annotations

import io
from bisect import bisect_right
from functools import cached_property
from typing import Any

import numpy as np

#: how the editor's text becomes bytes and back (a lone surrogate survives, as in `fix`)
ENCODING, ERRORS = "utf-8", "surrogateescape"
#: pieces a version may hold: past this many, the server joins them once its lint is out
MAX_PIECES = 64


def line_starts(data: bytes | memoryview) -> Any:
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


class Version:
    """One version of a document's text: never changed once made (an edit makes another)."""

    def __init__(
        self, pieces: tuple[memoryview, ...], starts: Any, ascii: bool, revision: int
    ) -> None:
        #: the text, in order; none is empty
        self.pieces = pieces
        ends, total = [], 0
        for p in pieces:
            total += len(p)
            ends.append(total)
        #: where each piece ends in the text
        self.ends = ends
        self.length = total
        self._starts = starts
        #: True when the text is known to be ASCII (columns are then byte offsets)
        self.ascii = ascii
        #: counts the edits since the document opened: an analysis is of the text on screen
        #: when its version's revision is the text's
        self.revision = revision

    @classmethod
    def of(cls, source: str | bytes, revision: int = 0) -> Version:
        data = source if isinstance(source, bytes) else source.encode(ENCODING, ERRORS)
        pieces = (memoryview(data),) if data else ()
        return cls(pieces, None, source.isascii(), revision)

    def __len__(self) -> int:
        return self.length

    @property
    def starts(self) -> Any:
        """Where each line starts (a numpy array of byte offsets; line 0 at 0)."""
        if self._starts is None:
            self._starts = line_starts(self.data)
        return self._starts

    @cached_property
    def data(self) -> bytes:
        """The whole text in one buffer (one copy of the pieces; the only one)."""
        if len(self.pieces) == 1:
            whole = self.pieces[0].obj
            if isinstance(whole, bytes) and len(whole) == self.length:
                return whole  # the bytes the text was opened (or joined) with
        return b"".join(self.pieces)

    def read(self, a: int, b: int) -> bytes:
        """Bytes a..b of the text (clamped)."""
        a, b = max(a, 0), min(b, self.length)
        if "data" in self.__dict__:
            return self.data[a:b]
        out = []
        i = bisect_right(self.ends, a)
        while a < b and i < len(self.pieces):
            begin = self.ends[i] - len(self.pieces[i])
            out.append(self.pieces[i][a - begin : min(b, self.ends[i]) - begin])
            a = self.ends[i]
            i += 1
        return b"".join(out)

    def stream(self) -> io.BufferedReader:
        """The text as a binary file the parser reads, without joining the pieces."""
        return io.BufferedReader(_Reader(self), 1 << 16)

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_bytes(self, number: int) -> bytes:
        """Line `number` (0-based) without its b"\\n" (a CR stays); b"" past the end."""
        starts = self.starts
        if not 0 <= number < len(starts):
            return b""
        end = int(starts[number + 1]) - 1 if number + 1 < len(starts) else self.length
        return self.read(int(starts[number]), end)

    def head(self, lines: int) -> bytes:
        """The first `lines` lines, with their line ends."""
        starts = self.starts
        return self.read(0, int(starts[lines]) if lines < len(starts) else self.length)

    def line(self, number: int) -> str:
        """Line `number` (0-based) without its line end; "" past the end."""
        return self.line_bytes(number).decode(ENCODING, ERRORS).rstrip("\r")

    def offset(self, line: int, character: int, encoding: str) -> int:
        """The byte offset of an LSP position (clamped to the text)."""
        starts = self.starts
        if line >= len(starts):
            return self.length
        if line < 0:
            return 0
        text = self.line(line)
        head = text[: to_index(text, character, encoding)]
        return int(starts[line]) + len(head.encode(ENCODING, ERRORS))

    def replaced(self, a: int, b: int, new: str, first: int, last: int) -> Version:
        """The next version: bytes a..b, on lines first..last, become `new`."""
        typed = new.encode(ENCODING, ERRORS)
        pieces: list[memoryview] = []
        pending = memoryview(typed) if typed else None

        def insert() -> None:
            nonlocal pending
            if pending is not None:
                pieces.append(pending)
                pending = None

        for piece, end in zip(self.pieces, self.ends, strict=True):
            begin = end - len(piece)
            if end <= a:
                pieces.append(piece)
            elif begin >= b:
                insert()
                pieces.append(piece)
            else:
                if begin < a:
                    pieces.append(piece[: a - begin])
                insert()
                if end > b:
                    pieces.append(piece[b - begin :])
        insert()  # at the very end, or into an empty text
        starts = self.starts
        inside = line_starts(typed)[1:] + a if b"\n" in typed else np.empty(0, dtype=np.int64)
        shift = len(typed) - (b - a)
        starts = np.concatenate((starts[: first + 1], inside, starts[last + 1 :] + shift))
        return Version(tuple(pieces), starts, self.ascii and new.isascii(), self.revision + 1)

    def joined(self) -> Version:
        """The same version in one piece."""
        return Version((memoryview(self.data),), self._starts, self.ascii, self.revision)


class _Reader(io.RawIOBase):
    """A version's bytes as a raw binary file: each read copies its pieces once."""

    def __init__(self, version: Version) -> None:
        self.version = version
        self.position = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.position, io.SEEK_END: self.version.length}
        self.position = max(base[whence] + offset, 0)
        return self.position

    def readinto(self, buffer: Any) -> int:
        v = self.version
        target = memoryview(buffer).cast("B")
        a, b = self.position, min(self.position + len(target), v.length)
        done = 0
        i = bisect_right(v.ends, a)
        while a < b:
            piece, end = v.pieces[i], v.ends[i]
            begin = end - len(piece)
            chunk = piece[a - begin : min(b, end) - begin]
            target[done : done + len(chunk)] = chunk
            done += len(chunk)
            a += len(chunk)
            i += 1
        self.position = a
        return done


class Text:
    """A document's current text: the newest `Version`, replaced at each edit."""

    def __init__(self, source: str | bytes, encoding: str = "utf-16") -> None:
        self.version = Version.of(source)
        #: what LSP positions count: utf-16 (LSP's default), utf-8 or utf-32
        self.encoding = encoding

    @property
    def revision(self) -> int:
        return self.version.revision

    def snapshot(self) -> Version:
        """The text as it stands (no copy: versions never change)."""
        return self.version

    def reset(self, source: str) -> None:
        """The whole text replaced (a change without a range)."""
        self.version = Version.of(source, self.version.revision + 1)

    def replace(self, start: tuple[int, int], end: tuple[int, int], new: str) -> None:
        """Apply one incremental change: the range start..end (LSP positions) becomes `new`."""
        v = self.version
        a = v.offset(*start, self.encoding)
        b = max(a, v.offset(*end, self.encoding))
        lines = len(v.starts)
        first = min(max(start[0], 0), lines - 1)
        last = min(max(end[0], first), lines - 1)
        self.version = v.replaced(a, b, new, first, last)

    def adopt(self, joined: Version) -> None:
        """Take a version joined elsewhere (`Version.joined`, on a worker thread) when the text
        still stands at its revision: reads and the next edits then cut one piece."""
        if self.version.revision == joined.revision:
            self.version = joined

    @property
    def line_count(self) -> int:
        return self.version.line_count

    def line(self, number: int) -> str:
        """Line `number` (0-based) without its line end; "" past the end."""
        return self.version.line(number)
