"""An open document's text, edited in place as the editor's incremental changes arrive.

pygls keeps its documents as one string and applies a change by walking every line in Python,
which costs a third of a second per keystroke on a million-row file. Here the line starts are
kept as a numpy array: a change is two string slices and one shift of the array after it, all
in C. Positions are LSP's: 0-based lines, characters counted in the code units the client
and server agreed on (UTF-16 unless the client offers another).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _line_starts(source: str) -> Any:
    """Offsets (in characters) where each line starts; line 0 starts at 0."""
    if source.isascii():
        raw = np.frombuffer(source.encode("ascii"), dtype=np.uint8)
    else:
        raw = np.frombuffer(source.encode("utf-32-le"), dtype=np.uint32)
    ends = np.flatnonzero(raw == 10)
    return np.concatenate(([0], ends + 1)).astype(np.int64)


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


class Text:
    """A document's current text and where its lines start."""

    def __init__(self, source: str, encoding: str = "utf-16") -> None:
        self.source = source
        #: what LSP positions count: utf-16 (LSP's default), utf-8 or utf-32
        self.encoding = encoding
        self._starts: Any = None

    @property
    def starts(self) -> Any:
        if self._starts is None:
            self._starts = _line_starts(self.source)
        return self._starts

    def adopt(self, starts: Any) -> None:
        """Take line starts counted elsewhere (a lint thread's) for this very text."""
        if self._starts is None:
            self._starts = starts

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line(self, number: int) -> str:
        """Line `number` (0-based) without its line end; "" past the end."""
        starts = self.starts
        if not 0 <= number < len(starts):
            return ""
        begin = int(starts[number])
        end = int(starts[number + 1]) - 1 if number + 1 < len(starts) else len(self.source)
        return self.source[begin:end].rstrip("\r")

    def offset(self, line: int, character: int) -> int:
        """The string index of an LSP position (clamped to the text)."""
        starts = self.starts
        if line >= len(starts):
            return len(self.source)
        if line < 0:
            return 0
        return int(starts[line]) + to_index(self.line(line), character, self.encoding)

    def replace(self, start: tuple[int, int], end: tuple[int, int], new: str) -> None:
        """Apply one incremental change: the range start..end (LSP positions) becomes `new`."""
        a = self.offset(*start)
        b = max(a, self.offset(*end))
        self.source = self.source[:a] + new + self.source[b:]
        starts = self.starts
        first = min(max(start[0], 0), len(starts) - 1)
        last = min(max(end[0], first), len(starts) - 1)
        inside = _line_starts(new)[1:] + a if "\n" in new else np.empty(0, dtype=np.int64)
        shift = len(new) - (b - a)
        self._starts = np.concatenate(
            (
                starts[: first + 1],
                inside,
                starts[last + 1 :] + shift,
            )
        )
