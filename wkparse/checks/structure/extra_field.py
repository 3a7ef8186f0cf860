"""WK111 extra-field: a row has more fields than SimAI reads; why and examples in rules/WK111.toml.

The parser finds it as it reads (`wkparse.syntax.EXTRA_FIELD`); this rule hands on what it found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.EXTRA_FIELD)
def extra_field(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.EXTRA_FIELD)
