"""WK103 count-not-integer: line 2 is not a row count; why and examples in rules/WK103.toml.

The parser finds it as it reads (`wkparse.syntax.COUNT_NOT_INTEGER`); this rule hands on what
it found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.COUNT_NOT_INTEGER)
def count_not_integer(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.COUNT_NOT_INTEGER)
