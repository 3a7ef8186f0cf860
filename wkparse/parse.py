"""Text to AST: `parse_text`, `parse_bytes`, `parse_stream`, `parse_file`.

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
import re
import stat
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import BinaryIO

from wkparse import encoding, syntax
from wkparse.ast import (
    NUMBER_FIELDS,
    CountLine,
    Header,
    HeaderField,
    LineError,
    RowTable,
    Span,
    Value,
    Workload,
)
from wkparse.diagnostics import Diagnostic, Fix
from wkparse.grammar import header_matcher, parser, row_line
from wkparse.i18n import _
from wkparse.record import record
from wkparse.row_reader import BLANK_REF, RowColumns

BOM = encoding.UTF8_BOM
CUSTOMIZED_POLICY = "HYBRID_CUSTOMIZED"
#: bytes read at a time for the rows: big enough that the per-block work is noise
_BLOCK = 1 << 20


@record
class Limits:
    """Bounds that hold whatever the file says."""

    max_bytes: int = 2 * 1024**3
    max_line_bytes: int = 65536


@record
class ParseResult:
    workload: Workload
    diagnostics: tuple[Diagnostic, ...]

    @property
    def ok(self) -> bool:
        return not self.diagnostics


def parse_text(text: str, *, fast: bool = True, limits: Limits | None = None) -> ParseResult:
    return parse_bytes(text.encode("utf-8", "surrogatepass"), fast=fast, limits=limits)


def parse_bytes(data: bytes, *, fast: bool = True, limits: Limits | None = None) -> ParseResult:
    return parse_stream(io.BytesIO(data), len(data), fast=fast, limits=limits)


def parse_stream(
    stream: BinaryIO, size: int, *, fast: bool = True, limits: Limits | None = None
) -> ParseResult:
    """Parse the `size` bytes of a seekable binary stream, read in blocks as a file is: the
    language server's text is in pieces, and joining them first would copy it once more."""
    limits = limits or Limits()
    if size > limits.max_bytes:
        return _too_large(size, limits)
    head = stream.read(encoding.TEXT_SNIFF_BYTES)
    stream.seek(0)
    return _Parser(fast, limits, size).run(stream, head)


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
        return parse_stream(stream, info.st_size, fast=fast, limits=limits)


#: how every command names standard input (`-` on the command line) in what it prints
STDIN_NAME = "<stdin>"


def shown_path(path: object) -> str:
    """A path as the commands print it: standard input (`-`) as `STDIN_NAME`."""
    text = str(path)
    return STDIN_NAME if text == "-" else text


def read_stdin(limits: Limits) -> bytes:
    """Standard input, read up to one byte past the limit: enough for `parse_bytes` to
    report it as too large, without holding an endless pipe in memory."""
    return sys.stdin.buffer.read(limits.max_bytes + 1)


def read_input(path: Path, limits: Limits) -> bytes:
    """The file's bytes (stdin for `-`); raises OSError for what cannot be read whole."""
    if str(path) == "-":
        data = read_stdin(limits)
    else:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode) and not stat.S_ISFIFO(info.st_mode):
            raise OSError(0, "not a regular file")
        if stat.S_ISREG(info.st_mode) and info.st_size > limits.max_bytes:
            raise OSError(0, f"over the {limits.max_bytes:,}-byte limit")
        with path.open("rb") as stream:
            # a file in one read of its size (pieces joined would hold it twice); a pipe,
            # or a file that has grown since, in pieces up to the limit
            regular = stat.S_ISREG(info.st_mode)
            data = stream.read(info.st_size + 1) if regular else b""
            if len(data) > info.st_size or not regular:
                data += _read_past(stream, limits.max_bytes - len(data))
    if len(data) > limits.max_bytes:
        raise OSError(0, f"over the {limits.max_bytes:,}-byte limit")
    return data


def parse_file_and_bytes(
    path: str | os.PathLike[str], *, limits: Limits | None = None
) -> tuple[ParseResult, bytes | None]:
    """`parse_file`, and the bytes it parsed when it read them whole (None: over the byte
    limit, not read), read once: a pipe cannot be read twice, and a caller that needs the
    bytes too (explain's SimAI section) does not read the file again."""
    limits = limits or Limits()
    info = os.stat(path)
    regular, pipe = stat.S_ISREG(info.st_mode), stat.S_ISFIFO(info.st_mode)
    if not (regular or pipe) or info.st_size > limits.max_bytes:
        return parse_file(path, limits=limits), None  # refused, or too large to read
    with Path(path).open("rb") as stream:
        # a file in one read of its size (one allocation); a pipe, or a file that has grown
        # since, in pieces up to the limit
        data = stream.read(info.st_size + 1) if regular else b""
        if len(data) > info.st_size or not regular:
            data += _read_past(stream, limits.max_bytes - len(data))
    if len(data) > limits.max_bytes:
        return _too_large(None, limits), None
    return parse_bytes(data, limits=limits), data


def _extend(refs: array[int], values: Sequence[int]) -> None:
    """Append a block's value indexes: a long run of new values (a range) in one C call when
    numpy is loaded already (the bulk reader loads it), not an item at a time."""
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(values, range) and len(values) > 1024:
        run = numpy.arange(values.start, values.stop, values.step, refs.typecode)
        refs.frombytes(run.tobytes())
    else:
        refs.extend(values)


def _read_past(stream: BinaryIO, limit: int) -> bytes:
    """The stream's bytes, up to one past `limit`, read in pieces: read(limit) would reserve
    the whole limit up front."""
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = stream.read(min(1 << 24, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


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


#: a line that starts with a policy-like word (capitals and underscores), not a count
_POLICY_FIRST = re.compile(rb"[ \t]*[A-Z][A-Z_]*(?:[ \t\r\n]|$)")


def _blank_line_before_policy(bom: bool) -> ParseResult:
    """One diagnostic, with its fix, for a blank line 1 above the policy line: every line is
    one lower than SimAI reads it, so the count and row checks would all misfire (the policy
    line read as the count, the count as a row)."""
    message = _(
        "line 1 is blank and the policy line follows it: SimAI finds no policy on line 1 and "
        "cannot read the file; delete the blank line"
    )
    fix = Fix(_("delete the blank line 1"), ())
    return _unread(
        Diagnostic(syntax.MISSING_POLICY, message, Span.on_line(1, 1, 1), fix=fix), bom=bom
    )


class _Parser:
    def __init__(self, fast: bool, limits: Limits, size: int | None = None) -> None:
        self.fast = fast
        #: the input's size in bytes, when known: numpy reads the rows of a large file
        self.size = size
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
        if second is not None and not first.strip() and _POLICY_FIRST.match(second):
            return _blank_line_before_policy(bom)
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
        and a block of new lines is read column by column (see `wkparse.row_reader`).

        Lines are keyed without their b"\\n"; the unterminated last line, if any, is parsed on
        its own, as it is the only line whose key could differ from the same text mid-file.
        """
        read: Callable[[int], bytes] | None = getattr(lines, "read", None)
        if read is None:
            read = io.BytesIO(b"".join(lines)).read
        reader = RowColumns(
            self._row,
            fast=self.fast,
            customized=self.customized,
            max_line_bytes=self.limits.max_line_bytes,
            size=self.size,
        )
        # Until the first blank line, row i stands on line 3 + i and no numbers are stored.
        row_lines: array[int] | None = None
        refs: array[int] = array("I")
        blank: list[int] = []
        lineno = 2
        last: bytes | None = None
        parts: list[bytes] = []  # the line the current block ends inside
        crlf = lf = 0
        for block in iter(partial(read, _BLOCK), b""):
            end = block.rfind(b"\n")
            if end < 0:
                parts.append(block)
                continue
            # whole lines, without the last b"\n": copied once (the tail before it joined
            # to a view of the block, not to a copy of its slice)
            body = b"".join([*parts, memoryview(block)[:end]]) if parts else block[:end]
            parts = [block[end + 1 :]] if end + 1 < len(block) else []
            values = reader.block(body)
            cr = body.count(b"\r\n") + body.endswith(b"\r") if b"\r" in body else 0
            crlf, lf = crlf + cr, lf + len(values) - cr
            if BLANK_REF in values:
                if row_lines is None:
                    row_lines = array("q", range(3, 3 + len(refs)))
                for number, ref in enumerate(values, lineno + 1):
                    if ref == BLANK_REF:
                        blank.append(number)
                    else:
                        row_lines.append(number)
                        refs.append(ref)
            else:
                if row_lines is not None:
                    row_lines.extend(range(lineno + 1, lineno + 1 + len(values)))
                _extend(refs, values)
            lineno += len(values)
            last = body[body.rfind(b"\n") + 1 :] + b"\n"
        tail = b"".join(parts)
        if tail:
            lineno += 1
            last = tail
            ref = reader.single(tail)
            if ref == BLANK_REF:
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
        table = reader.finish()
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
        if self.fast and not errors and not syntax.has_huge_number(text):
            match = row_line(self.customized).fullmatch(text)
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


@record
class _Reading:
    """One line's 13 values (numbers as ints), token positions and errors."""

    values: list[int | str | None]
    columns: tuple[tuple[int, int], ...]
    errors: tuple[LineError, ...] = ()


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
