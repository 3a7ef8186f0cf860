"""WK121 not-text: the file is not text: it holds NUL bytes or is mostly undecodable bytes; why
and examples in rules/WK121.toml.

The parser finds it as it reads (`wkparse.syntax.NOT_TEXT`); this rule hands on what it found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.NOT_TEXT)
def not_text(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.NOT_TEXT)
