"""WK114 negative-number: a row holds a negative time or size; why and examples in
rules/WK114.toml.

The parser finds it as it reads (`wkparse.syntax.NEGATIVE_NUMBER`); this rule hands on what it
found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.NEGATIVE_NUMBER)
def negative_number(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.NEGATIVE_NUMBER)
