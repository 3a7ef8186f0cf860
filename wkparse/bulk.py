"""Runs of new row lines read with numpy: every number of a run in one `numpy.fromstring`.

`wkparse.row_reader` imports this module only for a file large enough to repay numpy's import,
and only for runs of lines whose shapes all match the grammar's row with no number longer
than 18 digits. The text tokens holding digits or signs are blanked first, so what is left
of the run is its numbers, 8 per line, each `[+-]?[0-9]{1,18}`. The count is checked, and
numpy's warnings (numpy 1.x warns and stops at data it cannot read, where 2.x raises) never
reach the user: on any doubt nothing is appended and the caller reads the run in Python.
"""

from __future__ import annotations

import warnings
from array import array
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from wkparse.ast import NUMBER_FIELDS, TEXT_FIELDS, ValueTable
from wkparse.row_reader import NUMBERS_ONLY, Shape

if TYPE_CHECKING:
    from numpy.typing import NDArray


def append(
    table: ValueTable,
    joined: bytes,
    keys: Sequence[bytes],
    ids: Sequence[int],
    shapes: Sequence[Shape | None],
    code: Callable[[bytes], int],
) -> bool:
    """Append the lines of `joined` (their shape keys, their shapes' ids in `shapes`) to
    `table`; False, with nothing appended, when a number could not be read exactly."""
    count = len(ids)
    used = sorted(set(ids))
    present: list[Shape] = [shapes[i] for i in used]  # type: ignore[misc]
    lookup = np.zeros(used[-1] + 1, dtype=np.intp)
    lookup[used] = np.arange(len(used))
    local = lookup[_array(ids)]
    texts = np.array([[c or 0 for c in s.texts] for s in present], dtype=np.uint32)[local]
    buf = joined.translate(NUMBERS_ONLY)
    tokens: list[tuple[int, int, bytes]] = []
    if any(s.blanks for s in present):
        buf = _blank(joined, buf, keys, present, local, tokens)
    numbers = _read(buf, count * len(NUMBER_FIELDS))
    if numbers is None:
        return False
    if tokens:
        rows, slots, words = zip(*tokens)
        texts[list(rows), list(slots)] = list(map(code, words))
    numbers = numbers.reshape(count, len(NUMBER_FIELDS))
    codes = (0, len(table.texts) - 1)
    for slot, k in enumerate(TEXT_FIELDS):
        table.extend_array(k, texts[:, slot], codes)
    for slot, k in enumerate(NUMBER_FIELDS):
        low = min(s.bounds[slot][0] for s in present)
        high = max(s.bounds[slot][1] for s in present)
        table.extend_array(k, numbers[:, slot], (low, high))
    index = np.array([s.index for s in present], dtype=np.uint32)[local]
    table.shape.frombytes(index.astype(table.shape.typecode).data.cast("B"))
    return True


def _array(ids: Sequence[int]) -> NDArray[np.integer]:
    """Small non-negative ints as a numpy array (from bytes or an array: a list is slower)."""
    try:
        return np.frombuffer(bytes(ids), dtype=np.uint8)
    except ValueError:
        return np.frombuffer(array("I", ids), dtype=np.uint32)


def _blank(
    joined: bytes,
    buf: bytes,
    keys: Sequence[bytes],
    present: list[Shape],
    local: NDArray[np.intp],
    tokens: list[tuple[int, int, bytes]],
) -> bytes:
    """`buf` with the text tokens that hold digits or signs blanked; the tokens whose text
    each line gives are added to `tokens` as (row, text slot, bytes)."""
    count = len(keys)
    lengths = np.fromiter(map(len, keys), dtype=np.intp, count=count) + 1
    starts = np.cumsum(lengths) - lengths
    marked = np.array([bool(s.blanks) for s in present])[local]
    rows = np.flatnonzero(marked)
    edit = bytearray(buf)
    for row, start, s in zip(rows.tolist(), starts[rows].tolist(), local[rows].tolist()):
        shape = present[s]
        for a, b in shape.blanks:
            edit[start + a : start + b] = b" " * (b - a)
        for slot, a, b in shape.reads:
            tokens.append((row, slot, joined[start + a : start + b]))
    return bytes(edit)


def _read(buf: bytes, expected: int) -> NDArray[np.int64] | None:
    """The numbers in `buf`, or None unless there are exactly `expected` of them."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            numbers = np.fromstring(buf, dtype=np.int64, sep=" ")
        except (ValueError, Warning):
            return None
    return numbers if numbers.size == expected else None
