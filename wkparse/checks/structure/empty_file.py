"""WK100 empty-file: the file is empty; why and examples in rules/WK100.toml.

The parser finds it as it reads (`wkparse.syntax.EMPTY_FILE`); this rule hands on what it found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.EMPTY_FILE)
def empty_file(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.EMPTY_FILE)
