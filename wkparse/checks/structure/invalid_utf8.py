"""WK117 invalid-utf8: a line holds bytes that are not UTF-8; why and examples in rules/WK117.toml.

The parser finds it as it reads (`wkparse.syntax.INVALID_UTF8`); this rule hands on what it found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.INVALID_UTF8)
def invalid_utf8(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.INVALID_UTF8)
