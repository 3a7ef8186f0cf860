"""Text to AST: `parse_text`, `parse_bytes`, `parse_file`.

Line 1 and 2 go through Lark; the rows are read in large blocks and split into lines, and each
distinct row line goes through the fast matcher compiled from the grammar and, when that
rejects it (or `fast=False`), through Lark and the classifier in `wkparse.syntax`. Repeated
lines (the norm: AICB writes the same group `ga` times) are looked up by their raw bytes and
cost one dictionary hit.
Syntax errors are returned as diagnostics; nothing here raises on bad input.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from wkparse import encoding, syntax
from wkparse.ast import (
    MAX_DIGITS,
    NUMBER_FIELDS,
    TEXT_FIELDS,
    CountLine,
    Header,
    HeaderField,
    LineError,
    RowTable,
    Span,
    Value,
    ValueTable,
    Workload,
)
from wkparse.diagnostics import Diagnostic, Fix
from wkparse.grammar import header_matcher, parser, row_matcher
from wkparse.i18n import _

BOM = encoding.UTF8_BOM
CUSTOMIZED_POLICY = "HYBRID_CUSTOMIZED"
#: bytes read at a time for the rows: big enough that the per-block work is noise
_BLOCK = 1 << 20


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds that hold whatever the file says."""

    max_bytes: int = 2 * 1024**3
    max_line_bytes: int = 65536


@dataclass(frozen=True, slots=True)
class ParseResult:
    workload: Workload
    diagnostics: tuple[Diagnostic, ...]

    @property
    def ok(self) -> bool:
        return not self.diagnostics


def parse_text(text: str, *, fast: bool = True, limits: Limits | None = None) -> ParseResult:
    return parse_bytes(text.encode("utf-8", "surrogatepass"), fast=fast, limits=limits)


def parse_bytes(data: bytes, *, fast: bool = True, limits: Limits | None = None) -> ParseResult:
    limits = limits or Limits()
    if len(data) > limits.max_bytes:
        return _too_large(len(data), limits)
    return _Parser(fast, limits).run(io.BytesIO(data), data[: encoding.TEXT_SNIFF_BYTES])


def parse_file(
    path: str | os.PathLike[str], *, fast: bool = True, limits: Limits | None = None
) -> ParseResult:
    """Parse a file from disk, streaming it. Raises OSError when it cannot be read.

    A device is refused (`/dev/zero` never ends a line, so reading it never ends either);
    a pipe (`<(cmd)`) has no size to check first, so it is read up to the byte limit.
    """
    limits = limits or Limits()
    info = os.stat(path)
    if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) or stat.S_ISSOCK(info.st_mode):
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    if info.st_size > limits.max_bytes:
        return _too_large(info.st_size, limits)
    with Path(path).open("rb") as stream:
        if stat.S_ISFIFO(info.st_mode):
            data = stream.read(limits.max_bytes + 1)
            if len(data) > limits.max_bytes:
                return _too_large(None, limits)
            return parse_bytes(data, fast=fast, limits=limits)
        head = stream.read(encoding.TEXT_SNIFF_BYTES)
        stream.seek(0)
        return _Parser(fast, limits).run(stream, head)


def read_stdin(limits: Limits) -> bytes:
    """Standard input, read up to one byte past the limit: enough for `parse_bytes` to
    report it as too large, without holding an endless pipe in memory."""
    return sys.stdin.buffer.read(limits.max_bytes + 1)


def _too_large(size: int | None, limits: Limits) -> ParseResult:
    """The result for input over the byte limit; `size` is None for a pipe (read up to it)."""
    limit = f"{limits.max_bytes:,}"
    if size is not None:
        message = _(
            "the file is {size} bytes, over the {limit}-byte limit (`max-bytes`); not read"
        ).format(size=f"{size:,}", limit=limit)
    else:
        message = _(
            "the input is longer than the {limit}-byte limit (`max-bytes`); not read"
        ).format(limit=limit)
    return _unread(Diagnostic(syntax.FILE_TOO_LARGE, message, Span(1, 1, 1, 1)))


def _unread(diagnostic: Diagnostic, *, lines: int = 0, bom: bool = False) -> ParseResult:
    """The result for input the parser stops at before line 1 is read as a header: no
    header, no rows, and the one diagnostic that says why."""
    return ParseResult(Workload(None, None, RowTable(), lines, bom), (diagnostic,))


def _wide_encoding(wide: encoding.WideEncoding, first: bytes) -> ParseResult:
    """One diagnostic for a UTF-16 or UTF-32 file, not one per misread field: read as UTF-8
    every line of it would be wrong, and for the same reason."""
    word = encoding.first_word(first, wide)
    starts = _("; it starts with `{word}`").format(word=syntax.shown(word)) if word else ""
    if wide.bom:
        text = _("the file is {encoding} text with a byte order mark{starts}")
    else:
        text = _("the file is {encoding} text without a byte order mark{starts}")
    message = _("{text}; SimAI reads bytes, finds no policy and exits").format(
        text=text.format(encoding=wide.name, starts=starts)
    )
    fix = Fix(_("convert the file to UTF-8 without a byte order mark"), ())
    return _unread(Diagnostic(syntax.WIDE_ENCODING, message, Span.on_line(1, 1, 2), fix=fix))


def _not_text(reason: str) -> ParseResult:
    """One diagnostic for binary data: nothing in it is read as a workload, or rewritten."""
    message = _("not a text file ({reason}); SimAI cannot read it as a workload").format(
        reason=reason
    )
    return _unread(Diagnostic(syntax.NOT_TEXT, message, Span(1, 1, 1, 1)))


def _cr_line_ends(first: bytes, bom: bool) -> ParseResult:
    """One diagnostic for a file whose lines end in CR alone: to SimAI, and to any reader
    that splits on LF, it is one long line 1, so the usual checks would all misfire."""
    column = len(first[: first.index(b"\r")].decode("utf-8", "replace")) + 1
    message = _(
        "lines end in CR alone, with no LF anywhere: SimAI reads the whole file as line 1 "
        "and crashes"
    )
    fix = Fix(_("end every line with LF"), ())
    span = Span.on_line(1, column, column + 1)
    return _unread(Diagnostic(syntax.CR_LINE_ENDS, message, span, fix=fix), lines=1, bom=bom)


class _Parser:
    def __init__(self, fast: bool, limits: Limits) -> None:
        self.fast = fast
        self.limits = limits
        self.diagnostics: list[Diagnostic] = []
        self.customized = False

    # ---- file ---------------------------------------------------------------------------

    def run(self, stream: Iterable[bytes], head: bytes) -> ParseResult:
        """Parse the lines of `stream`, whose first bytes (up to TEXT_SNIFF_BYTES) are `head`."""
        reason = encoding.not_text(head[: encoding.TEXT_SNIFF_BYTES])
        if reason is not None:
            return _not_text(reason)
        lines: Iterator[bytes] = iter(stream)
        first = next(lines, b"")
        wide = encoding.sniff(first)
        if wide is not None:
            return _wide_encoding(wide, first)
        bom = first.startswith(BOM)
        if bom:
            first = first[len(BOM) :]
        if not first:
            return self._empty_file(bom)
        second = next(lines, None)
        if second is None and _lone_carriage_returns(first) >= 2:
            return _cr_line_ends(first, bom)
        endings: set[bytes] = {first[-2:]}
        header = self._header(first)
        if second is None:
            # `_header` has already reported any bad bytes on this line.
            text = first.decode("utf-8", "replace")
            end = len(text.rstrip("\r\n")) + 1
            self._error(
                syntax.MISSING_COUNT,
                1,
                end,
                end,
                _("the file ends after the header: line 2 must give the number of rows"),
            )
            return self._result(header, None, RowTable(), 1, bom, endings, first)
        endings.add(second[-2:])
        count = self._count(second)
        table, last, line_count, blank = self._rows(lines, endings)
        return self._result(
            header,
            count,
            table,
            line_count,
            bom,
            endings,
            last if last is not None else second,
            blank,
        )

    def _result(
        self,
        header: Header | None,
        count: CountLine | None,
        table: RowTable,
        line_count: int,
        bom: bool,
        endings: set[bytes],
        last: bytes,
        blank: tuple[int, ...] = (),
    ) -> ParseResult:
        kinds = frozenset("crlf" if e == b"\r\n" else "lf" for e in endings if e.endswith(b"\n"))
        workload = Workload(
            header, count, table, line_count, bom, kinds, last.endswith(b"\n"), blank
        )
        return ParseResult(workload, tuple(self.diagnostics))

    def _empty_file(self, bom: bool) -> ParseResult:
        self._error(
            syntax.EMPTY_FILE,
            1,
            1,
            1,
            _(
                "the file is empty: a workload starts with a policy line such as "
                "HYBRID_TRANSFORMER_FWD_IN_BCKWD"
            ),
        )
        return ParseResult(Workload(None, None, RowTable(), 0, bom), tuple(self.diagnostics))

    def _error(self, code: str, line: int, column: int, end_column: int, message: str) -> None:
        self.diagnostics.append(Diagnostic(code, message, Span.on_line(line, column, end_column)))

    def _decode(self, raw: bytes, line: int, errors: list[LineError] | None = None) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            column = len(raw[: exc.start].decode("utf-8", "replace")) + 1
            bad = raw[exc.start : exc.end].hex(" ")
            # The column is in the message too, so renderers that show only the line
            # (explain's inline findings) still say where the bytes are.
            message = _(
                "bytes {bytes} at column {column} are not UTF-8 (workload files are ASCII text)"
            ).format(bytes=bad, column=column)
            if errors is None:
                self._error(syntax.INVALID_UTF8, line, column, column + 1, message)
            else:
                errors.append(LineError(syntax.INVALID_UTF8, column, column + 1, message))
            return raw.decode("utf-8", "replace")

    def _too_long(self, raw: bytes) -> str | None:
        if len(raw) <= self.limits.max_line_bytes:
            return None
        return _(
            "line is {size} bytes long, over the {limit}-byte limit (`max-line-bytes` in the "
            "config); it was not parsed"
        ).format(size=f"{len(raw):,}", limit=f"{self.limits.max_line_bytes:,}")

    # ---- line 1 and 2 -------------------------------------------------------------------

    def _header(self, raw: bytes) -> Header | None:
        long = self._too_long(raw)
        if long:
            self._error(syntax.LINE_TOO_LONG, 1, 1, 2, long)
            return None
        text = self._decode(raw, 1).rstrip("\r\n")
        if not text.strip(" \t\v\f\r"):
            self._error(
                syntax.MISSING_POLICY,
                1,
                1,
                1,
                _("line 1 is blank: it must start with the parallelism policy"),
            )
            return None
        if self.fast:
            fast = _fast_header(text)
            if fast is not None:
                self.customized = fast.policy == CUSTOMIZED_POLICY
                return fast
        from lark import Token, Tree

        tree = parser().parse(text, start="header")
        policy = tree.children[0]
        assert isinstance(policy, Token)
        leading: list[Value] = []
        fields: list[HeaderField] = []
        for child in tree.children[1:]:
            assert isinstance(child, Tree)
            if child.data == "leading_value":
                leading.append(_value(child.children[0], 1))
                continue
            key = child.children[0]
            assert isinstance(key, Token)
            values = tuple(
                _value(v.children[0], 1) for v in child.children[1:] if isinstance(v, Tree)
            )
            colon = child.data == "field"
            fields.append(
                HeaderField(str(key)[:-1] if colon else str(key), _span(key, 1), values, colon)
            )
        self.customized = str(policy) == CUSTOMIZED_POLICY
        end = len(text.rstrip(" \t\v\f\r")) + 1
        return Header(
            str(policy), _span(policy, 1), tuple(leading), tuple(fields), Span.on_line(1, 1, end)
        )

    def _count(self, raw: bytes) -> CountLine | None:
        long = self._too_long(raw)
        if long:
            self._error(syntax.LINE_TOO_LONG, 2, 1, 2, long)
            return None
        text = self._decode(raw, 2).rstrip("\r\n")
        toks = syntax.tokens(text)
        column = toks[0][0] if toks else 1
        end = toks[-1][1] if toks else 1
        value: int | None = None
        matcher = header_matcher() if self.fast else None
        token: str | None
        words = [m.group() for m in matcher.token.finditer(text)] if matcher else []
        if matcher is not None and len(words) == 1 and matcher.count.fullmatch(words[0]):
            token = words[0]
        else:
            from lark.exceptions import UnexpectedInput

            try:
                token = str(parser().parse(text, start="count").children[0])
            except UnexpectedInput:
                token = None
        if token is not None and not syntax.too_many_digits(token):
            value = int(token)
        else:
            err = syntax.count_error(text, column, end)
            self._error(err.code, 2, err.column, err.end_column, err.message)
        return CountLine(text, value, Span.on_line(2, column, end))

    # ---- rows ---------------------------------------------------------------------------

    def _rows(
        self, lines: Iterator[bytes], endings: set[bytes]
    ) -> tuple[RowTable, bytes | None, int, tuple[int, ...]]:
        """Rows in blocks of lines: a block whose lines are all known costs a few C loops,
        and a block of new lines is read column by column (see `_Columns`).

        Lines are keyed without their b"\\n"; the unterminated last line, if any, is parsed on
        its own, as it is the only line whose key could differ from the same text mid-file.
        """
        read: Callable[[int], bytes] | None = getattr(lines, "read", None)
        if read is None:
            read = io.BytesIO(b"".join(lines)).read
        reader = _Columns(self)
        # Until the first blank line, row i stands on line 3 + i and no numbers are stored.
        row_lines: array[int] | None = None
        refs: array[int] = array("I")
        blank: list[int] = []
        lineno = 2
        last: bytes | None = None
        parts: list[bytes] = []  # the line the current block ends inside
        crlf = lf = 0
        for block in iter(partial(read, _BLOCK), b""):
            chunk = block.split(b"\n")
            if len(chunk) == 1:
                parts.append(block)
                continue
            if parts:
                parts.append(chunk[0])
                chunk[0] = b"".join(parts)
            rest = chunk.pop()
            parts = [rest] if rest else []
            ends = len(chunk)
            cr = sum(1 for _ in filter(_ends_in_cr, chunk)) if b"\r" in block else 0
            crlf, lf = crlf + cr, lf + ends - cr
            values = reader.block(chunk)
            if _BLANK_REF in values:
                if row_lines is None:
                    row_lines = array("q", range(3, 3 + len(refs)))
                for number, ref in enumerate(values, lineno + 1):
                    if ref == _BLANK_REF:
                        blank.append(number)
                    else:
                        row_lines.append(number)
                        refs.append(ref)
            else:
                if row_lines is not None:
                    row_lines.extend(range(lineno + 1, lineno + 1 + len(values)))
                refs.extend(values)
            lineno += len(values)
            last = chunk[-1] + b"\n"
        tail = b"".join(parts)
        if tail:
            lineno += 1
            last = tail
            ref = reader.single(tail)
            if ref == _BLANK_REF:
                blank.append(lineno)
            else:
                if row_lines is not None:
                    row_lines.append(lineno)
                refs.append(ref)
        if crlf:
            endings.add(b"\r\n")
        if lf:
            endings.add(b"\n")
        numbers = range(3, 3 + len(refs)) if row_lines is None else row_lines
        table = reader.table
        if table.partial:
            bad = {i for i, p in table.partial.items() if p.errors}
            for line, ref in zip(numbers, refs):
                if ref in bad:
                    for e in table.errors_of(ref):
                        self._error(e.code, line, e.column, e.end_column, e.message)
        return RowTable(numbers, refs, table), last, lineno, tuple(blank)

    def _row(self, raw: bytes) -> _Reading | None:
        """One line read on its own: None for a blank line."""
        if not raw.strip():
            return None
        long = self._too_long(raw)
        if long:
            return _Reading([None] * 13, (), (LineError(syntax.LINE_TOO_LONG, 1, 2, long),))
        errors: list[LineError] = []
        text = self._decode(raw, 0, errors).rstrip("\r\n")
        matcher = row_matcher()
        if self.fast and not errors and not syntax.has_huge_number(text):
            match = (matcher.customized if self.customized else matcher.plain).fullmatch(text)
            if match:
                return _from_match(match.groups(), match.regs[1:])
        return self._row_slow(text, errors)

    def _row_slow(self, text: str, errors: list[LineError]) -> _Reading:
        """Lark decides; on rejection the classifier names the error and fills what fits."""
        from lark.exceptions import UnexpectedInput

        expected = 13 if self.customized else 12
        toks = syntax.tokens(text)
        tree = None
        # Only a line of `expected` tokens can be a row, so Lark is not asked about the others
        # (a hostile line of thousands of tokens would cost it seconds, for the same answer).
        if len(toks) == expected:
            try:
                tree = parser().parse(text, start="row")
            except UnexpectedInput:
                tree = None
        # A token too long to be an int passes the grammar but not `row_errors`.
        found = syntax.row_errors(toks, expected)
        if tree is not None and len(toks) == expected and not errors and not found:
            return _from_tree(tree)
        errors.extend(found)
        values: list[str | None] = [
            t[2] if i < expected and syntax.fits(i, t[2]) else None for i, t in enumerate(toks[:13])
        ]
        values += [None] * (13 - len(values))
        if not self.customized:
            values[12] = None
        return _reading(values, tuple((c, e) for c, e, _ in toks), tuple(errors))


#: the value index `_Columns` gives a blank line
_BLANK_REF = -1
#: most distinct lines the repeat cache holds before it starts over
_CACHE_LINES = 1 << 16
#: a line this long may hold a number too long to read: it is read on its own
_SHORT_LINE = MAX_DIGITS
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
#: every byte but digits and signs to a space: what is left of a row is its numbers
_NUMBERS_ONLY = bytes(c if c in b"0123456789+-" else 32 for c in range(256))


def _ends_in_cr(line: bytes) -> bool:
    return line.endswith(b"\r")


@dataclass(frozen=True, slots=True)
class _Reading:
    """One line's 13 values (numbers as ints), token positions and errors."""

    values: list[int | str | None]
    columns: tuple[tuple[int, int], ...]
    errors: tuple[LineError, ...] = ()


class _Columns:
    """Row lines into a `ValueTable`, a block of lines at a time.

    Repeated lines are found in a cache of raw lines (bounded, and switched off for files
    whose lines do not repeat, where it would only cost). New lines are checked by their
    shape: the line with every digit replaced by 0 matches the grammar's row exactly when
    the line does (every terminal treats all digits alike), and has the same token
    positions, so the few distinct shapes are matched once each. A block of new lines whose
    shapes all match is then split into tokens in one call and appended column by column:
    no object per field per row survives. Any other line is read on its own (`_Parser._row`),
    by the grammar-derived matcher or by Lark.
    """

    def __init__(self, parser: _Parser) -> None:
        self.parser = parser
        self.table = ValueTable()
        self.cache: dict[bytes, int] | None = {}
        #: line shape -> how its lines are read in bulk, or None: one by one
        self.shapes: dict[bytes, _Shape | None] = {}
        #: token bytes -> text code, for the name, comm and policy columns
        self.codes: dict[bytes, int] = {}
        #: number field -> what its column held so far: "same" number, "few", "many"
        self.kinds: dict[int, str] = {}

    def block(self, lines: list[bytes]) -> list[int]:
        """Each line's value index (`_BLANK_REF` for a blank line)."""
        cache = self.cache
        if cache is None:
            return self._new(lines)
        try:
            return list(map(cache.__getitem__, lines))
        except KeyError:
            pass
        new = [line for line in dict.fromkeys(lines) if line not in cache]
        refs = self._new(new)
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
        reading = self.parser._row(raw)
        if reading is None:
            return _BLANK_REF
        return self.table.add(reading.values, reading.columns, reading.errors)

    def _new(self, lines: list[bytes]) -> list[int]:
        """Value indexes of lines not seen before, in order."""
        if not lines:
            return []
        short = min(_SHORT_LINE, self.parser.limits.max_line_bytes)
        if not self.parser.fast or max(map(len, lines)) > short:
            return [self.single(raw + b"\n") for raw in lines]
        joined = b"\n".join(lines)
        shapes = joined.translate(_DIGITS_TO_ZERO).split(b"\n")
        known = self.shapes
        distinct = [known[s] if s in known else self._shape(s) for s in dict.fromkeys(shapes)]
        widths = {0 if shape is None else shape.width for shape in distinct}
        if len(widths) == 1 and 0 not in widths:
            return self._append(joined, shapes, distinct)  # type: ignore[arg-type]
        # Mixed: runs of matching lines in bulk, the others one by one, in line order.
        out: list[int] = []
        start = 0
        for i, key in enumerate(shapes):
            shape = known[key]
            if shape is None:
                out.append(self.single(lines[i] + b"\n"))
                start = i + 1
                continue
            after = known[shapes[i + 1]] if i + 1 < len(shapes) else None
            if after is None or after.width != shape.width:
                run = slice(start, i + 1)
                same = [s for k in dict.fromkeys(shapes[run]) if (s := known[k]) is not None]
                out += self._append(b"\n".join(lines[run]), shapes[run], same)
                start = i + 1
        return out

    def _shape(self, key: bytes) -> _Shape | None:
        """Whether lines of this shape can be read in bulk (None: one by one), and how."""
        shape = None
        try:
            text = key.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError:
            text = None
        if text is not None:
            matcher = row_matcher()
            customized = self.parser.customized
            match = (matcher.customized if customized else matcher.plain).fullmatch(text)
            if match is not None:
                table = self.table
                columns = tuple((a + 1, b + 1) for a, b in match.regs[1:] if a >= 0)
                words = list(match.groups()) + [None] * (13 - len(match.groups()))
                texts = [words[k] for k in TEXT_FIELDS]
                # Digits and signs in a text token are lost or ambiguous in the shape.
                pure = not any(set(t or "") & set("0+-") for t in texts)
                codes = tuple(map(table.code, texts)) if pure else None
                shape = _Shape(table.add_shape(columns), len(columns), codes)
        self.shapes[key] = shape
        return shape

    def _append(self, joined: bytes, keys: list[bytes], shapes: list[_Shape]) -> list[int]:
        """Append lines whose shapes all match with the same token count; their indexes.

        When no text token of these shapes holds a digit or a sign, the shapes give the
        text fields, and only the numbers are split out of the lines.
        """
        table = self.table
        width = shapes[0].width
        start = len(table)
        known = self.shapes
        index_of = {key: known[key].index for key in dict.fromkeys(keys)}  # type: ignore[union-attr]
        indexes = list(map(index_of.__getitem__, keys))
        numbers: list[bytes]
        if all(shape.texts is not None for shape in shapes):
            by_index = {shape.index: shape.texts for shape in shapes}
            for j, k in enumerate(TEXT_FIELDS):
                codes = {i: texts[j] for i, texts in by_index.items()}  # type: ignore[index]
                same = set(codes.values())
                if len(same) == 1:
                    table.columns[k].extend([same.pop()] * len(indexes))
                else:
                    table.columns[k].extend(map(codes.__getitem__, indexes))
            numbers = joined.translate(_NUMBERS_ONLY).split()
            stride = len(NUMBER_FIELDS)
            slots: Sequence[int] = range(stride)
        else:
            numbers = joined.split()
            stride = width
            slots = NUMBER_FIELDS
            self._texts(numbers, width)
        count = len(keys)
        for slot, k in zip(slots, NUMBER_FIELDS):
            table.extend_numbers(k, self._numbers(k, numbers[slot::stride]))
        table.shape.extend(indexes)
        return list(range(start, start + count))

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

    def _texts(self, tokens: list[bytes], width: int) -> None:
        """The text columns of lines split into `width` tokens each."""
        table, codes = self.table, self.codes
        for k in TEXT_FIELDS:
            if k >= width:
                table.columns[k].extend([0] * (len(tokens) // width))
                continue
            column = tokens[k::width]
            for token in dict.fromkeys(column):
                if token not in codes:
                    codes[token] = table.code(token.decode("utf-8"))
            table.columns[k].extend(map(codes.__getitem__, column))


@dataclass(frozen=True, slots=True)
class _Shape:
    """A line shape that matches the grammar's row: its index among the table's shapes
    (token positions), its token count, and its text fields' codes when the shape alone
    gives them (no digit or sign in a text token)."""

    index: int
    width: int
    texts: tuple[int, ...] | None


def _reading(
    values: list[str | None],
    columns: tuple[tuple[int, int], ...],
    errors: tuple[LineError, ...] = (),
) -> _Reading:
    """Row tokens (as written) to values: the number fields become ints."""
    out: list[int | str | None] = list(values)
    for k in NUMBER_FIELDS:
        text = values[k]
        out[k] = None if text is None else int(text)
    return _Reading(out, columns, errors)


def _lone_carriage_returns(line: bytes) -> int:
    """How many CRs in `line` end no line (CRLF's CR does)."""
    return line.count(b"\r") - line.count(b"\r\n")


def _fast_header(text: str) -> Header | None:
    """Line 1 read with the grammar's terminals, as Lark would build it; None to ask Lark."""
    matcher = header_matcher()
    if matcher is None:
        return None
    tokens = [(m.start() + 1, m.end() + 1, m.group()) for m in matcher.token.finditer(text)]
    if not tokens or not matcher.policy.fullmatch(tokens[0][2]):
        return None
    leading: list[Value] = []
    fields: list[HeaderField] = []
    # (key, its span, values so far, colon) of the item being read
    item: tuple[str, Span, list[Value], bool] | None = None
    for column, end, token in tokens[1:]:
        kind = next((k for pattern, k in matcher.kinds if pattern.fullmatch(token)), None)
        span = Span.on_line(1, column, end)
        if kind == "value":
            (leading if item is None else item[2]).append(Value(token, span))
        elif kind in ("field", "bare_field"):
            if item is not None:
                fields.append(HeaderField(item[0], item[1], tuple(item[2]), item[3]))
            colon = kind == "field"
            item = (token[:-1] if colon else token, span, [], colon)
        else:
            return None
    if item is not None:
        fields.append(HeaderField(item[0], item[1], tuple(item[2]), item[3]))
    column, end, policy = tokens[0]
    last = len(text.rstrip(" \t\v\f\r")) + 1
    return Header(
        policy,
        Span.on_line(1, column, end),
        tuple(leading),
        tuple(fields),
        Span.on_line(1, 1, last),
    )


def _value(token: object, line: int) -> Value:
    return Value(str(token), _span(token, line))


def _span(token: object, line: int) -> Span:
    column = getattr(token, "column", 1) or 1
    end = getattr(token, "end_column", column) or column
    return Span.on_line(line, column, end)


def _from_match(groups: tuple[str | None, ...], spans: tuple[tuple[int, int], ...]) -> _Reading:
    values = list(groups) + [None] * (13 - len(groups))
    return _reading(values, tuple((s + 1, e + 1) for s, e in spans if s >= 0))


def _from_tree(tree: object) -> _Reading:
    from lark import Token

    toks = [t for t in tree.scan_values(lambda v: isinstance(v, Token))]  # type: ignore[attr-defined]
    values: list[str | None] = [str(t) for t in toks] + [None] * (13 - len(toks))
    return _reading(values, tuple((t.column, t.end_column) for t in toks))
