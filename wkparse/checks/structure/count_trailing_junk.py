"""WK104 count-trailing-junk: the row count on line 2 has something after its digits; why and
examples in rules/WK104.toml.

The parser finds it as it reads (`wkparse.syntax.COUNT_TRAILING_JUNK`); this rule hands on what
it found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.COUNT_TRAILING_JUNK)
def count_trailing_junk(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.COUNT_TRAILING_JUNK)
