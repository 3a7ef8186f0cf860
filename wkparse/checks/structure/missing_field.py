"""WK110 missing-field: a row has fewer fields than SimAI reads; why and examples in
rules/WK110.toml.

The parser finds it as it reads (`wkparse.syntax.MISSING_FIELD`); this rule hands on what it
found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.MISSING_FIELD)
def missing_field(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.MISSING_FIELD)
