"""Numbers users write (in a thread, an option, a command): a run of ASCII digits, never more
than an int can be.

Such text is anybody's: a regex's `\\d` matches any script's digits, `str.isdigit` also
superscripts (which `int` refuses), and Python refuses to convert more than 4,300 digits.
`whole_number` answers None for all of these. (SimAI's own reading of a number is
`cpp.stoi`; the workload file's is the parser's.)
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
