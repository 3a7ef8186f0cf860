"""WK116 line-too-long: a line is longer than wkparse's line limit; why and examples in
rules/WK116.toml.

The parser finds it as it reads (`wkparse.syntax.LINE_TOO_LONG`); this rule hands on what it
found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.LINE_TOO_LONG)
def line_too_long(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.LINE_TOO_LONG)
