"""Syntax error codes, and the classification of a bad line into one of them.

The grammar decides whether a line is valid; this module only names what is wrong with an
invalid one, by lining its tokens up with the grammar's row slots the way SimAI's
field-by-field `>>` reading does (so a missing field shows where the shift starts).
"""

from __future__ import annotations

import re

from wkparse.ast import ROW_FIELDS, LineError
from wkparse.grammar import row_matcher

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

TOKEN = re.compile(r"[^ \t\v\f\r\n]+")
_FRACTIONAL = re.compile(
    r"[+-]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?[0-9]+[eE][+-]?[0-9]+"
)
_NEGATIVE = re.compile(r"-[0-9]+")
_INTEGER_PREFIX = re.compile(r"[+-]?[0-9]+")

#: how messages name each row field
FIELD_LABELS: dict[str, str] = {
    "name": "the layer name",
    "reserved": "the reserved field",
    "fwd_compute": "the forward compute time",
    "fwd_comm": "the forward comm type",
    "fwd_size": "the forward comm size",
    "ig_compute": "the input-grad compute time",
    "ig_comm": "the input-grad comm type",
    "ig_size": "the input-grad comm size",
    "wg_compute": "the weight-grad compute time",
    "wg_comm": "the weight-grad comm type",
    "wg_size": "the weight-grad comm size",
    "update_time": "the update time",
    "policy": "the row's policy (HYBRID_CUSTOMIZED)",
}

_SHIFT = "SimAI reads rows field by field, so every later field and row is misread"


def tokens(text: str) -> list[tuple[int, int, str]]:
    """Whitespace-separated tokens as (column, end_column, text), 1-based, end exclusive."""
    return [(m.start() + 1, m.end() + 1, m.group()) for m in TOKEN.finditer(text)]


def row_errors(toks: list[tuple[int, int, str]], expected: int) -> tuple[LineError, ...]:
    """Why a row line with these tokens is not a valid row of `expected` fields ((): it is)."""
    slots = row_matcher().slots
    bad = [i for i in range(min(len(toks), expected)) if not slots[i].pattern.fullmatch(toks[i][2])]
    n = len(toks)
    if n < expected:
        if bad:
            col, end, text = toks[bad[0]]
            label = FIELD_LABELS[ROW_FIELDS[bad[0]]]
            msg = (
                f"row has {n} fields where {expected} belong: `{text}` stands where {label} "
                f"belongs, so a field before it is missing; {_SHIFT}"
            )
        else:
            col = end = toks[-1][1] if toks else 1
            missing = ", ".join(FIELD_LABELS[f] for f in ROW_FIELDS[n:expected])
            msg = f"row has {n} fields where {expected} belong: missing {missing}; {_SHIFT}"
        return (LineError(MISSING_FIELD, col, end, msg),)
    slot_errors = tuple(_slot_error(i, toks[i]) for i in bad)
    if n > expected:
        col, end, text = toks[expected]
        msg = (
            f"row has {n} fields where {expected} belong: `{text}` and what follows is extra; "
            f"SimAI reads it as the next row's first field, so every later row is misread"
        )
        return (*slot_errors, LineError(EXTRA_FIELD, col, end, msg))
    return slot_errors


def _slot_error(index: int, token: tuple[int, int, str]) -> LineError:
    col, end, text = token
    label = FIELD_LABELS[ROW_FIELDS[index]]
    terminal = row_matcher().slots[index].terminal
    if terminal == "COMM":
        return LineError(
            NUMBER_FOR_TYPE,
            col,
            end,
            f"`{text}` stands where {label} belongs; a collective type is a word such as "
            f"ALLREDUCE or NONE",
        )
    if _FRACTIONAL.fullmatch(text):
        return LineError(
            FRACTIONAL_NUMBER,
            col,
            end,
            f"{label} is `{text}`, not an integer: SimAI's integer read stops at the dot and "
            f"takes the rest as the next field; {_SHIFT}",
        )
    if _NEGATIVE.fullmatch(text):
        return LineError(
            NEGATIVE_NUMBER,
            col,
            end,
            f"{label} is negative (`{text}`): SimAI reads it into an unsigned 64-bit integer",
        )
    return LineError(
        WORD_FOR_NUMBER,
        col,
        end,
        f"`{text}` stands where {label} (a non-negative integer) belongs; SimAI's read fails "
        f"there and every later row becomes an unnamed layer with undefined values",
    )


def count_error(text: str, column: int, end_column: int) -> LineError:
    """Why line 2 is not a clean row count."""
    stripped = text.strip(" \t\v\f\r")
    if not stripped:
        return LineError(
            COUNT_NOT_INTEGER,
            column,
            end_column,
            "line 2 is empty; it must hold the number of rows (SimAI's stoi throws on it)",
        )
    if _NEGATIVE.fullmatch(stripped):
        return LineError(
            COUNT_NOT_INTEGER,
            column,
            end_column,
            f"the row count is negative (`{stripped}`); it must be the number of rows",
        )
    prefix = _INTEGER_PREFIX.match(stripped)
    if prefix:
        return LineError(
            COUNT_TRAILING_JUNK,
            column,
            end_column,
            f"the row count `{stripped}` is not a plain integer: SimAI reads "
            f"{int(prefix.group())} and ignores `{stripped[prefix.end() :].strip()}`",
        )
    return LineError(
        COUNT_NOT_INTEGER,
        column,
        end_column,
        f"the row count `{stripped}` is not a number: SimAI's stoi throws and it crashes",
    )
