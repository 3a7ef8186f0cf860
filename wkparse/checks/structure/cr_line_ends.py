"""WK120 cr-line-ends: lines end in a carriage return (CR) alone, with no line feed anywhere;
why and examples in rules/WK120.toml.

The parser finds it as it reads (`wkparse.syntax.CR_LINE_ENDS`); this rule hands on what it
found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.CR_LINE_ENDS)
def cr_line_ends(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.CR_LINE_ENDS)
