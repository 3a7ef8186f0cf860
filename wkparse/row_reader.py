"""Row lines into a `ValueTable`, a block of lines at a time (the parser's row reader).

Repeated lines are found in a cache of raw lines (bounded, and switched off for files whose
lines do not repeat, where it would only cost). New lines are checked by their shape: the
line with every digit replaced by 0 matches the grammar's row exactly when the line does
(every terminal treats all digits alike), and has the same token positions, so the few
distinct shapes are matched once each. A run of new lines whose shapes all match is then
appended column by column: the text fields come from the shapes (or, for a text token that
holds digits, from the lines), the numbers from the lines with every other token dropped.
No object per field per row survives. Any other line is read on its own (`Parser._row`), by
the grammar-derived matcher or by Lark.

The numbers of a long run are read by numpy (`wkparse.bulk`), imported only for a file large
enough to repay its import, and held in numpy buffers until the table is next needed; a
number numpy could misread (past 18 digits) keeps its run on the Python path, which reads
any run (and every short one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from wkparse.ast import MAX_DIGITS, NUMBER_FIELDS, SHAPE, TEXT_FIELDS, LineError, ValueTable
from wkparse.grammar import row_line
from wkparse.row_shapes import Shape, numbers_only

if TYPE_CHECKING:
    from wkparse.bulk import Pending

#: the value index a blank line gets
BLANK_REF = -1
#: most distinct lines the repeat cache holds before it starts over
_CACHE_LINES = 1 << 16
#: a line longer than this may hold a number too long to read: it is read on its own
SHORT_LINE = MAX_DIGITS
#: a run of new lines shorter than this is read in Python (numpy's per-call cost)
NUMPY_RUN = 256
#: new lines read in Python before numpy is worth its import (60-120 ms): about 4 MB of rows
NUMPY_AFTER_LINES = 50_000
#: a file at least this large reads its runs of new lines with numpy from the first one
NUMPY_FILE_BYTES = 4 << 20
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")


class Reading(Protocol):
    """One line's 13 values (numbers as ints), token positions and errors."""

    @property
    def values(self) -> Sequence[int | str | None]: ...
    @property
    def columns(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def errors(self) -> tuple[LineError, ...]: ...


class RowColumns:
    """Reads row lines into `table`; `single` reads one line on its own (None: blank)."""

    def __init__(
        self,
        single: Callable[[bytes], Reading | None],
        *,
        fast: bool,
        customized: bool,
        max_line_bytes: int,
        size: int | None,
    ) -> None:
        self.read_one = single
        self.fast = fast
        self.customized = customized
        self.short = min(SHORT_LINE, max_line_bytes)
        self.table = ValueTable()
        self.cache: dict[bytes, int] | None = {}
        #: line shape -> its id in `shapes`, where a shape whose lines are read one by one
        #: has None (as has id 0, for lines too long to remember)
        self.shape_ids: dict[bytes, int] = {}
        self.shapes: list[Shape | None] = [None]
        #: token bytes -> text code, for the name, comm and policy columns
        self.codes: dict[bytes, int] = {}
        #: number field -> what its column held so far: "same" number, "few", "many"
        self.kinds: dict[int, str] = {}
        #: new lines read in bulk so far, and how many before numpy is used
        self.fresh = 0
        large = size is not None and size >= NUMPY_FILE_BYTES
        self.numpy_after = 0 if large else NUMPY_AFTER_LINES
        self.size = size
        #: rows read in bulk, not yet in the table (`wkparse.bulk.Pending`)
        self.pending: Pending | None = None

    def block(self, body: bytes) -> Sequence[int]:
        """Each line's value index (`BLANK_REF` for a blank line), for the lines of `body`
        (joined by b"\\n", without the last one's)."""
        cache = self.cache
        if cache is None:
            return self._new(body)
        lines = body.split(b"\n")
        try:
            return list(map(cache.__getitem__, lines))
        except KeyError:
            pass
        new = [line for line in dict.fromkeys(lines) if line not in cache]
        refs = self._new(b"\n".join(new), new)
        if len(new) * 2 > len(lines) and len(cache) + len(new) > len(lines):
            # Mostly new lines, again: this file's lines do not repeat.
            self.cache = None
            found = dict(zip(new, refs))
            found.update((line, cache[line]) for line in lines if line not in found)
            return list(map(found.__getitem__, lines))
        if len(cache) + len(new) > _CACHE_LINES:
            found = {line: cache[line] for line in lines if line in cache}
            cache.clear()
            cache.update(found)
        cache.update(zip(new, refs))
        return list(map(cache.__getitem__, lines))

    def single(self, raw: bytes) -> int:
        reading = self.read_one(raw)
        if reading is None:
            return BLANK_REF
        self._flush()
        return self.table.add(reading.values, reading.columns, reading.errors)

    def finish(self) -> ValueTable:
        """The table, once every line is read."""
        self._flush()
        return self.table

    def _flush(self) -> None:
        """Move the rows read in bulk into the table (before it is appended to otherwise)."""
        if self.pending is not None and self.pending.size:
            self.pending.flush(self.table)

    def _length(self) -> int:
        """Values read so far."""
        return len(self.table) + (self.pending.size if self.pending is not None else 0)

    def _new(self, joined: bytes, lines: list[bytes] | None = None) -> Sequence[int]:
        """Value indexes of the lines of `joined`, not seen before, in order (`lines`: the
        same lines, split, when the caller has them)."""
        if not self.fast:
            return [
                self.single(raw + b"\n")
                for raw in (lines if lines is not None else joined.split(b"\n"))
            ]
        keys = joined.translate(_DIGITS_TO_ZERO).split(b"\n")
        ids = self._ids(keys)
        shapes = self.shapes
        used = set(ids)
        kinds = {None if (s := shapes[i]) is None else s.run for i in used}
        if len(kinds) == 1 and None not in kinds:
            return self._append(joined, keys, ids, used)
        # Mixed: runs of matching lines of one kind in bulk, the others one by one, in order.
        lines = lines if lines is not None else joined.split(b"\n")
        out: list[int] = []
        start = 0
        for i, sid in enumerate(ids):
            shape = shapes[sid]
            if shape is None:
                out.append(self.single(lines[i] + b"\n"))
                start = i + 1
                continue
            after = shapes[ids[i + 1]] if i + 1 < len(ids) else None
            if after is None or after.run != shape.run:
                run = slice(start, i + 1)
                out += self._append(b"\n".join(lines[run]), keys[run], ids[run], set(ids[run]))
                start = i + 1
        return out

    def _ids(self, keys: list[bytes]) -> list[int]:
        """Each line shape's id in `shapes`, reading the shapes not seen before. Id 0 is for
        lines read one by one; a line too long to be read in bulk is not remembered."""
        shape_ids = self.shape_ids
        try:
            return list(map(shape_ids.__getitem__, keys))
        except KeyError:
            pass
        if len(shape_ids) > _CACHE_LINES:  # not a file of few shapes: start over
            shape_ids.clear()
            del self.shapes[1:]
        for key in dict.fromkeys(keys):
            if key not in shape_ids and len(key) <= self.short:
                shape_ids[key] = len(self.shapes)
                self.shapes.append(self._shape(key))
        return [shape_ids.get(key, 0) for key in keys]

    def _shape(self, key: bytes) -> Shape | None:
        """How lines of this shape are read in bulk; None: one by one."""
        try:
            text = key.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError:
            return None
        match = row_line(self.customized).fullmatch(text)
        if match is None:
            return None
        return self._read_shape(text, match.groups(), match.regs[1:])

    def _read_shape(
        self, text: str, groups: Sequence[str | None], regs: Sequence[tuple[int, int]]
    ) -> Shape:
        table = self.table
        columns = tuple((a + 1, b + 1) for a, b in regs if a >= 0)
        words = list(groups) + [None] * (13 - len(groups))
        texts: list[int | None] = []
        reads: list[tuple[int, int, int]] = []
        blanks: list[tuple[int, int]] = []
        for slot, k in enumerate(TEXT_FIELDS):
            word = words[k]
            if word is None or not set(word) & set("0+-"):
                texts.append(table.code(word))
                continue
            # Byte offsets: a line of UTF-8 text may have fewer characters than bytes.
            a, b = regs[k]
            span = (len(text[:a].encode("utf-8")), len(text[:b].encode("utf-8")))
            blanks.append(span)
            if "0" in word:  # the shape hides which digits: each line has its own text
                texts.append(None)
                reads.append((slot, *span))
            else:
                texts.append(table.code(word))
        bounds = tuple(_bounds(words[k] or "") for k in NUMBER_FIELDS)
        return Shape(
            table.add_shape(columns),
            len(columns),
            tuple(texts),
            tuple(reads),
            tuple(blanks),
            bounds,
        )

    def _append(self, joined: bytes, keys: list[bytes], ids: list[int], used: set[int]) -> range:
        """Append lines whose shapes all match, of one run kind; their indexes."""
        start = self._length()
        self.fresh += len(ids)
        shape = self.shapes[ids[0]]
        assert shape is not None
        if shape.numpy and len(ids) >= NUMPY_RUN and self.fresh > self.numpy_after:
            from wkparse import bulk

            if self.pending is None:
                # Room for the file's rows, if they are as long as these.
                rows = len(ids) * (self.size or 0) // max(len(joined), 1)
                self.pending = bulk.Pending(rows + rows // 8)
            table, shapes = self.table, self.shapes
            if bulk.append(self.pending, table, joined, keys, ids, shapes, self._codes):
                return range(start, start + len(ids))
        self._flush()
        self._append_python(joined, ids, used)
        return range(start, start + len(ids))

    def _codes(self, tokens: list[bytes]) -> list[int]:
        """The codes of text tokens (the known ones found in C)."""
        found = list(map(self.codes.get, tokens))
        if None in found:
            found = [self._code(t) if c is None else c for t, c in zip(tokens, found)]
        return found  # type: ignore[return-value]

    def _code(self, token: bytes) -> int:
        """The code of a text token, as bytes."""
        found = self.codes.get(token)
        if found is None:
            found = self.codes[token] = self.table.code(token.decode("utf-8"))
        return found

    def _append_python(self, joined: bytes, ids: list[int], used: set[int]) -> None:
        """`_append` in Python: split into tokens, converted column by column."""
        table = self.table
        shapes: dict[int, Shape] = {i: self.shapes[i] for i in used}  # type: ignore[misc]
        width = next(iter(shapes.values())).width
        count = len(ids)
        numbers: list[bytes]
        plain = all(not s.blanks for s in shapes.values())
        if plain:
            # No digit or sign in a text token: the numbers are all that is left.
            numbers = numbers_only(joined).split()
            stride = len(NUMBER_FIELDS)
            slots: Sequence[int] = range(stride)
        else:
            numbers = joined.split()
            stride = width
            slots = NUMBER_FIELDS
        for j, k in enumerate(TEXT_FIELDS):
            codes = {i: shape.texts[j] for i, shape in shapes.items()}
            same = set(codes.values())
            if None in same:  # a text token with digits: read from each line
                table.extend_numbers(k, map(self._code, numbers[k::width]))
            elif len(same) == 1:
                table.extend_numbers(k, [same.pop()] * count)  # type: ignore[list-item]
            else:
                table.extend_numbers(k, map(codes.__getitem__, ids))  # type: ignore[arg-type]
        for slot, k in zip(slots, NUMBER_FIELDS):
            table.extend_numbers(k, self._numbers(k, numbers[slot::stride]))
        of_shape = {i: shape.index for i, shape in shapes.items()}
        table.extend_numbers(SHAPE, map(of_shape.__getitem__, ids))

    def _numbers(self, field: int, column: list[bytes]) -> list[int]:
        """The numbers of one column of tokens, converted as cheaply as the column allows.

        A column that holds one number throughout (reserved, update time) is cheap to tell
        so; one of few numbers (sizes) converts each once; the others (compute times that
        vary) item by item. What a column turned out to be is remembered for the next block.
        """
        kind = self.kinds.get(field)
        if kind is None or kind == "same":
            first = column[0]
            if column.count(first) == len(column):
                self.kinds[field] = "same"
                return [int(first)] * len(column)
            kind = "few" if len(set(column[:512])) <= 32 else "many"
        if kind == "few":
            numbers = dict.fromkeys(column)
            if len(numbers) * 8 <= len(column):
                self.kinds[field] = "few"
                for token in numbers:
                    numbers[token] = int(token)
                return list(map(numbers.__getitem__, column))  # type: ignore[arg-type]
        self.kinds[field] = "many"
        return list(map(int, column))


def _bounds(token: str) -> tuple[int, int]:
    """The least and most a number token of this shape can be (its digits are zeros)."""
    most = 10 ** len(token.lstrip("+-")) - 1
    return (-most, 0) if token.startswith("-") else (0, most)
