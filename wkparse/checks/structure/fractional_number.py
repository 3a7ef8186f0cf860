"""WK113 fractional-number: a row holds a fractional number where SimAI reads an integer; why
and examples in rules/WK113.toml.

The parser finds it as it reads (`wkparse.syntax.FRACTIONAL_NUMBER`); this rule hands on what
it found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.FRACTIONAL_NUMBER)
def fractional_number(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.FRACTIONAL_NUMBER)
