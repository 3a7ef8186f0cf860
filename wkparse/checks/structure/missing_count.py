"""WK102 missing-count: the file ends after the header: the row count line is missing; why and
examples in rules/WK102.toml.

The parser finds it as it reads (`wkparse.syntax.MISSING_COUNT`); this rule hands on what it
found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.MISSING_COUNT)
def missing_count(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.MISSING_COUNT)
