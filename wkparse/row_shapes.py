"""Line shapes the row reader and the bulk reader share (`Shape`, `numbers_only`).

Both `wkparse.row_reader` (which finds the shapes) and `wkparse.bulk` (which reads long runs
of them with numpy) need them; kept here, below both, so neither imports the other's module
at its top and no import cycle forms.
"""

from __future__ import annotations

#: the largest number numpy is trusted to read into an int64: 18 digits (19 may pass 2**63)
_NUMPY_MOST = 10**18 - 1
#: digits and signs kept, whitespace to a space, every other byte dropped (`numbers_only`)
_SPACES = bytes(c if c in b"0123456789+-" else 32 for c in range(256))
_DROPPED = bytes(c for c in range(256) if c not in b"0123456789+- \t\n\r\x0b\x0c")


class Shape:
    """A line shape that matches the grammar's row, and how its lines are read in bulk."""

    __slots__ = ("blanks", "bounds", "index", "numpy", "reads", "run", "texts", "width")

    def __init__(
        self,
        index: int,
        width: int,
        texts: tuple[int | None, ...],
        reads: tuple[tuple[int, int, int], ...],
        blanks: tuple[tuple[int, int], ...],
        bounds: tuple[tuple[int, int], ...],
    ) -> None:
        #: its index among the table's shapes (token positions)
        self.index = index
        #: how many tokens its lines have
        self.width = width
        #: each text field's code (TEXT_FIELDS order), None where the token holds a digit and
        #: is read from each line
        self.texts = texts
        #: (text field slot, start byte, end byte) of each token read from each line
        self.reads = reads
        #: byte ranges of the text tokens holding digits or signs: blanked to read the numbers
        self.blanks = blanks
        #: the least and most each number field can hold (from its digits and sign)
        self.bounds = bounds
        #: whether numpy reads its numbers exactly (none longer than 18 digits)
        self.numpy = all(max(-low, high) <= _NUMPY_MOST for low, high in bounds)
        #: lines of shapes of the same run kind are read in bulk together
        self.run = (width, self.numpy)


def numbers_only(lines: bytes | bytearray) -> bytes:
    """What is left of row lines whose text tokens hold no digit or sign: their numbers,
    separated by spaces (the text tokens' bytes are dropped, not blanked: less to scan)."""
    return bytes(lines).translate(_SPACES, _DROPPED)
