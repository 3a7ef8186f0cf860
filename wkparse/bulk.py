"""Runs of new row lines read with numpy: every number of a run in one `numpy.fromstring`.

`wkparse.row_reader` imports this module only for a file large enough to repay numpy's
import, and only for runs of lines whose shapes all match the grammar's row with no number
longer than 18 digits. The text tokens holding digits or signs are blanked (their text is
read from each line), the other text bytes dropped, so what is left of the run is its
numbers, 8 per line, each `[+-]?[0-9]{1,18}`. The count is checked, and numpy's warnings
(numpy 1.x warns and stops at data it cannot read, where 2.x raises) never reach the user:
on any doubt nothing is appended and the caller reads the run in Python.
"""

from __future__ import annotations

import warnings
from array import array
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from wkparse.ast import NUMBER_FIELDS, SHAPE, TEXT_FIELDS, ValueTable, narrowest
from wkparse.row_shapes import Shape, numbers_only

if TYPE_CHECKING:
    from numpy.typing import NDArray


#: the fewest rows `Pending` makes room for
ROOM = 1 << 12
#: a block of rows for `Pending`: column index -> (values, their least and most)
Block = dict[int, tuple["NDArray[np.integer]", int, int]]


class Pending:
    """Columns read in bulk, held in numpy buffers until the table is next needed.

    An `array.array` extended a block at a time grows by a sixteenth, copying itself each
    time (on a million rows, most of the columns' cost); a buffer sized from the file's
    length is filled in place instead (its untouched pages cost no memory) and moved into
    the table's arrays once, by `flush`.
    """

    def __init__(self, expect: int) -> None:
        #: rows held, and room for how many
        self.size = 0
        self.room = max(expect, ROOM)
        #: column index (SHAPE for the shape column) -> buffer, and its values' bounds
        self.buffers: dict[int, NDArray[np.integer]] = {}
        self.bounds: dict[int, tuple[int, int]] = {}

    def add(self, table: ValueTable, columns: Block) -> None:
        """Append one block of rows."""
        count = len(next(iter(columns.values()))[0])
        if self.size + count > self.room:
            self.room = max(2 * self.room, self.size + count)
            for k, buffer in self.buffers.items():
                grown = np.empty(self.room, dtype=buffer.dtype)
                grown[: self.size] = buffer[: self.size]
                self.buffers[k] = grown
        for k, (values, low, high) in columns.items():
            if k in self.bounds:
                least, most = self.bounds[k]
                low, high = min(low, least), max(high, most)
            self.bounds[k] = (low, high)
            dtype = _dtype(table, k, low, high)
            if k not in self.buffers:
                buffer = self.buffers[k] = np.empty(self.room, dtype=dtype)
            elif (buffer := self.buffers[k]).dtype != dtype:
                wide = np.empty(self.room, dtype=dtype)
                wide[: self.size] = buffer[: self.size]
                buffer = self.buffers[k] = wide
            buffer[self.size : self.size + count] = values
        self.size += count

    def flush(self, table: ValueTable) -> None:
        """Move the rows held into `table`, a column at a time."""
        size = self.size
        for k in list(self.buffers):
            values = self.buffers.pop(k)[:size]
            table.extend_array(k, values, self.bounds[k])
            del values
        self.bounds.clear()
        self.size = 0


def _dtype(table: ValueTable, k: int, low: int, high: int) -> str:
    """The buffer type for column `k`: the narrowest typecode the column may take that holds
    [low, high], else int64 (the table then decides from the values themselves)."""
    column = table.shape if k == SHAPE else table.columns[k]
    return (not isinstance(column, list) and narrowest(column.typecode, low, high)) or "q"


def append(
    pending: Pending,
    table: ValueTable,
    joined: bytes,
    keys: Sequence[bytes],
    ids: Sequence[int],
    shapes: Sequence[Shape | None],
    code: Callable[[list[bytes]], list[int]],
) -> bool:
    """Append the lines of `joined` (their shape keys, their shapes' ids in `shapes`) to
    `pending`; False, with nothing appended, when a number could not be read exactly."""
    count = len(ids)
    used = sorted(set(ids))
    present: list[Shape] = [shapes[i] for i in used]  # type: ignore[misc]
    lookup = np.zeros(used[-1] + 1, dtype=np.intp)
    lookup[used] = np.arange(len(used))
    local = lookup[_array(ids)]
    texts = np.array([[c or 0 for c in s.texts] for s in present], dtype=np.uint32)[local]
    tokens: list[tuple[NDArray[np.intp], int, list[bytes]]] = []
    if any(s.blanks for s in present):
        buf = numbers_only(_blank(joined, keys, present, local, tokens))
    else:
        buf = numbers_only(joined)
    numbers = _read(buf, count * len(NUMBER_FIELDS))
    if numbers is None:
        return False
    for rows, slot, words in tokens:
        texts[rows, slot] = code(words)
    numbers = numbers.reshape(count, len(NUMBER_FIELDS))
    columns: Block = {
        k: (texts[:, slot], 0, len(table.texts)) for slot, k in enumerate(TEXT_FIELDS)
    }
    for slot, k in enumerate(NUMBER_FIELDS):
        low = min(s.bounds[slot][0] for s in present)
        high = max(s.bounds[slot][1] for s in present)
        columns[k] = (numbers[:, slot], low, high)
    index = np.array([s.index for s in present], dtype=np.uint32)[local]
    columns[SHAPE] = (index, 0, len(table.shapes))
    pending.add(table, columns)
    return True


def _array(ids: Sequence[int]) -> NDArray[np.integer]:
    """Small non-negative ints as a numpy array (from bytes or an array: a list is slower)."""
    try:
        return np.frombuffer(bytes(ids), dtype=np.uint8)
    except ValueError:
        return np.frombuffer(array("I", ids), dtype=np.uint32)


def _blank(
    joined: bytes,
    keys: Sequence[bytes],
    present: list[Shape],
    local: NDArray[np.intp],
    tokens: list[tuple[NDArray[np.intp], int, list[bytes]]],
) -> bytes:
    """The lines with the text tokens that hold digits or signs blanked, shape by shape;
    the tokens whose text each line gives are added to `tokens` as (rows, text slot, the
    rows' tokens)."""
    lengths = np.fromiter(map(len, keys), dtype=np.intp, count=len(keys)) + 1
    starts = np.cumsum(lengths) - lengths
    order = np.argsort(local, kind="stable")  # the rows of each shape, together, in order
    ends = np.searchsorted(local[order], np.arange(len(present) + 1))
    edit = np.frombuffer(bytearray(joined), dtype=np.uint8)
    for s, shape in enumerate(present):
        if not shape.blanks:
            continue
        rows = order[ends[s] : ends[s + 1]]
        at = starts[rows]
        offsets = np.concatenate([np.arange(a, b) for a, b in shape.blanks])
        edit[(at[:, None] + offsets).ravel()] = 32
        for slot, a, b in shape.reads:
            tokens.append((rows, slot, [joined[x + a : x + b] for x in at.tolist()]))
    return edit.tobytes()


def _read(buf: bytes, expected: int) -> NDArray[np.int64] | None:
    """The numbers in `buf`, or None unless there are exactly `expected` of them."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            numbers = np.fromstring(buf, dtype=np.int64, sep=" ")
        except (ValueError, Warning):
            return None
    return numbers if numbers.size == expected else None
