"""WK119 utf16-file: the file is UTF-16 or UTF-32 text, not ASCII; why and examples in
rules/WK119.toml.

The parser finds it as it reads (`wkparse.syntax.WIDE_ENCODING`); this rule hands on what it
found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.WIDE_ENCODING)
def utf16_file(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.WIDE_ENCODING)
