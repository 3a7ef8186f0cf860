"""Syntax error codes, and the classification of a bad line into one of them.

The grammar decides whether a line is valid; this module only names what is wrong with an
invalid one, by lining its tokens up with the grammar's row slots the way SimAI's
field-by-field `>>` reading does (so a missing field shows where the shift starts).
"""

from __future__ import annotations

import re

from wkparse.ast import MAX_DIGITS, ROW_FIELDS, LineError
from wkparse.cpp import stoi
from wkparse.grammar import row_matcher
from wkparse.i18n import N_, _, ngettext

EMPTY_FILE = "WK100"
MISSING_POLICY = "WK101"
MISSING_COUNT = "WK102"
COUNT_NOT_INTEGER = "WK103"
COUNT_TRAILING_JUNK = "WK104"
MISSING_FIELD = "WK110"
EXTRA_FIELD = "WK111"
WORD_FOR_NUMBER = "WK112"
FRACTIONAL_NUMBER = "WK113"
NEGATIVE_NUMBER = "WK114"
NUMBER_FOR_TYPE = "WK115"
LINE_TOO_LONG = "WK116"
INVALID_UTF8 = "WK117"
FILE_TOO_LARGE = "WK118"
WIDE_ENCODING = "WK119"
CR_LINE_ENDS = "WK120"
NOT_TEXT = "WK121"
#: every code above: the parser reports them as it reads, and each one's rule only hands on
#: what the parser found (`wkparse.checks.structure`), so lint loads such a rule only for a
#: file where the parser found its code
PARSER_CODES = frozenset(
    {
        EMPTY_FILE,
        MISSING_POLICY,
        MISSING_COUNT,
        COUNT_NOT_INTEGER,
        COUNT_TRAILING_JUNK,
        MISSING_FIELD,
        EXTRA_FIELD,
        WORD_FOR_NUMBER,
        FRACTIONAL_NUMBER,
        NEGATIVE_NUMBER,
        NUMBER_FOR_TYPE,
        LINE_TOO_LONG,
        INVALID_UTF8,
        FILE_TOO_LARGE,
        WIDE_ENCODING,
        CR_LINE_ENDS,
        NOT_TEXT,
    }
)

TOKEN = re.compile(r"[^ \t\v\f\r\n]+")
_FRACTIONAL = re.compile(
    r"[+-]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?[0-9]+[eE][+-]?[0-9]+"
)
_NEGATIVE = re.compile(r"-[0-9]+")

#: how messages name each row field (translated where used: `_(FIELD_LABELS[name])`)
FIELD_LABELS: dict[str, str] = {
    "name": N_("the layer name"),
    "reserved": N_("the reserved field"),
    "fwd_compute": N_("the forward compute time"),
    "fwd_comm": N_("the forward comm type"),
    "fwd_size": N_("the forward comm size"),
    "ig_compute": N_("the input-grad compute time"),
    "ig_comm": N_("the input-grad comm type"),
    "ig_size": N_("the input-grad comm size"),
    "wg_compute": N_("the weight-grad compute time"),
    "wg_comm": N_("the weight-grad comm type"),
    "wg_size": N_("the weight-grad comm size"),
    "update_time": N_("the update time"),
    "policy": N_("the row's policy (HYBRID_CUSTOMIZED)"),
}

#: grammar terminals whose tokens become ints
_NUMERIC = frozenset({"UINT", "SINT"})
#: longest token quoted whole in a message; longer ones are elided so one hostile line cannot
#: make every report it appears in megabytes long
_SHOWN = 40


def shown(text: str, limit: int = _SHOWN, keep: str = "") -> str:
    """A token (or, with a larger `limit` and tabs kept, a line) as messages quote it: whole
    when short, elided with its length when not, and with control and format characters but
    `keep` escaped, so a hostile file cannot put a NUL or a terminal escape sequence into a
    report. The bound holds after escaping: a token of control characters is elided like any
    other, never cut inside an escape."""
    cut = text[: 2 * limit] + text[-2 * limit :] if len(text) > 4 * limit else text
    pieces = [c if c.isprintable() or c in keep else _escape(c) for c in cut]
    if cut is text and sum(map(len, pieces)) <= limit:
        return "".join(pieces)
    head = "".join(_fit(pieces, limit * 3 // 5))
    tail = "".join(reversed(_fit(pieces[::-1], limit // 5)))
    return f"{head}...{tail} ({len(text):,} characters)"


def _fit(pieces: list[str], width: int) -> list[str]:
    """The leading pieces that fit in `width` characters (an escape is never split)."""
    out: list[str] = []
    used = 0
    for piece in pieces:
        used += len(piece)
        if used > width:
            break
        out.append(piece)
    return out


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def too_many_digits(text: str) -> bool:
    """Whether a number token is too long to become an int (see `MAX_DIGITS`)."""
    return len(text) > MAX_DIGITS and len(text.lstrip("+-")) > MAX_DIGITS


def fits(index: int, text: str) -> bool:
    """Whether `text` can fill row slot `index`: its terminal matches and, for a number, it
    is short enough to be read."""
    slot = row_matcher().slots[index]
    if not slot.pattern.fullmatch(text):
        return False
    return slot.terminal not in _NUMERIC or not too_many_digits(text)


def has_huge_number(text: str) -> bool:
    """Whether a line holds a token too long to become an int (cheap for ordinary lines)."""
    return len(text) > MAX_DIGITS and any(too_many_digits(m.group()) for m in TOKEN.finditer(text))


def tokens(text: str) -> list[tuple[int, int, str]]:
    """Whitespace-separated tokens as (column, end_column, text), 1-based, end exclusive."""
    return [(m.start() + 1, m.end() + 1, m.group()) for m in TOKEN.finditer(text)]


def row_errors(toks: list[tuple[int, int, str]], expected: int) -> tuple[LineError, ...]:
    """Why a row line with these tokens is not a valid row of `expected` fields ((): it is)."""
    slots = row_matcher().slots
    n = len(toks)
    bad = [i for i in range(min(n, expected)) if not fits(i, toks[i][2])]
    if n < expected:
        # Only a token of the wrong kind shows where a field went missing; a number too long
        # to read is reported on its own.
        shifted = [i for i in bad if not slots[i].pattern.fullmatch(toks[i][2])]
        huge = tuple(_slot_error(i, toks[i]) for i in bad if i not in shifted)
        if shifted:
            col, end, text = toks[shifted[0]]
            msg = ngettext(
                "row has {n} field where {expected} belong: `{token}` is where {label} "
                "belongs; SimAI misreads every later field",
                "row has {n} fields where {expected} belong: `{token}` is where {label} "
                "belongs; SimAI misreads every later field",
                n,
            ).format(n=n, expected=expected, token=shown(text), label=_label(shifted[0]))
        else:
            col = end = toks[-1][1] if toks else 1
            lost = ROW_FIELDS[n:expected]
            label = _(FIELD_LABELS[lost[0]])
            if len(lost) > 1:
                label = _("{label} and {more} more").format(label=label, more=len(lost) - 1)
            msg = ngettext(
                "row has {n} field where {expected} belong: {label} missing; SimAI misreads "
                "every later field",
                "row has {n} fields where {expected} belong: {label} missing; SimAI misreads "
                "every later field",
                n,
            ).format(n=n, expected=expected, label=label)
        return (*huge, LineError(MISSING_FIELD, col, end, msg))
    slot_errors = tuple(_slot_error(i, toks[i]) for i in bad)
    if n > expected:
        col, end, text = toks[expected]
        msg = _(
            "row has {n} fields where {expected} belong: `{token}` onward is extra; SimAI "
            "misreads every later row"
        ).format(n=n, expected=expected, token=shown(text))
        return (*slot_errors, LineError(EXTRA_FIELD, col, end, msg))
    return slot_errors


def _label(index: int) -> str:
    """How messages name row field `index`, in the language in effect."""
    return _(FIELD_LABELS[ROW_FIELDS[index]])


def _slot_error(index: int, token: tuple[int, int, str]) -> LineError:
    col, end, text = token
    label = _label(index)
    slot = row_matcher().slots[index]
    terminal = slot.terminal
    if terminal in _NUMERIC and too_many_digits(text) and slot.pattern.fullmatch(text):
        return LineError(
            WORD_FOR_NUMBER,
            col,
            end,
            _(
                "{label} has {digits} digits, too many for SimAI's 64-bit read; every later "
                "row is misread"
            ).format(label=label, digits=f"{len(text.lstrip('+-')):,}"),
        )
    text = shown(text)
    if terminal == "COMM":
        return LineError(
            NUMBER_FOR_TYPE,
            col,
            end,
            _("`{token}` is where {label} belongs (a word such as ALLREDUCE or NONE)").format(
                token=text, label=label
            ),
        )
    if _FRACTIONAL.fullmatch(text):
        return LineError(
            FRACTIONAL_NUMBER,
            col,
            end,
            _(
                "{label} is `{token}`, not an integer: SimAI stops at the dot and misreads "
                "every later field"
            ).format(label=label, token=text),
        )
    if _NEGATIVE.fullmatch(text):
        return LineError(
            NEGATIVE_NUMBER,
            col,
            end,
            _(
                "{label} is negative (`{token}`): SimAI reads it into an unsigned 64-bit integer"
            ).format(label=label, token=text),
        )
    return LineError(
        WORD_FOR_NUMBER,
        col,
        end,
        _("`{token}` is where {label} (an integer) belongs; SimAI misreads every later row").format(
            token=text, label=label
        ),
    )


def count_error(text: str, column: int, end_column: int) -> LineError:
    """Why line 2 is not a clean row count, as SimAI's `std::stoi` (`wkparse.models.simai`)
    reads it."""
    stripped = text.strip(" \t\v\f\r")
    read = stoi(stripped)
    if read.error == "out_of_range":
        digits = len(stripped[: read.consumed].lstrip("+-"))
        return LineError(
            COUNT_NOT_INTEGER,
            column,
            end_column,
            _(
                "the row count has {digits} digits: SimAI's stoi throws (out of range) and it "
                "crashes"
            ).format(digits=f"{digits:,}"),
        )
    if not stripped:
        return LineError(
            COUNT_NOT_INTEGER,
            column,
            end_column,
            _("line 2 is empty; it must hold the number of rows (SimAI's stoi throws on it)"),
        )
    if read.value is not None and read.value < 0:
        return LineError(
            COUNT_NOT_INTEGER,
            column,
            end_column,
            _("the row count is negative (`{count}`); it must be the number of rows").format(
                count=shown(stripped)
            ),
        )
    if read.value is not None:
        return LineError(
            COUNT_TRAILING_JUNK,
            column,
            end_column,
            _(
                "the row count is not a plain integer: SimAI reads {value} and ignores `{rest}`"
            ).format(value=read.value, rest=shown(stripped[read.consumed :].strip())),
        )
    return LineError(
        COUNT_NOT_INTEGER,
        column,
        end_column,
        _("the row count `{count}` is not a number: SimAI's stoi throws and it crashes").format(
            count=shown(stripped)
        ),
    )
