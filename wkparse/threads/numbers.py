"""Numbers read from a thread's text: a run of ASCII digits, never more than an int can be.

A thread is anybody's text: `\\d` matches any script's digits, `str.isdigit` also superscripts
(which `int` refuses), and Python refuses to convert more than 4,300 digits. Every count, size
and GPU number triage reads goes through `whole_number`, which answers None for all of these.
"""

from __future__ import annotations

from wkparse.ast import MAX_DIGITS


def whole_number(text: str | None) -> int | None:
    """`text` (white space around it allowed) as a non-negative int; None unless it is ASCII
    digits, at most `ast.MAX_DIGITS` of them."""
    if text is None:
        return None
    digits = text.strip()
    plain = digits.isascii() and digits.isdigit() and len(digits) <= MAX_DIGITS
    return int(digits) if plain else None
