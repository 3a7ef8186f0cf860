"""WK118 file-too-large: the file is larger than wkparse's size limit; why and examples in
rules/WK118.toml.

The parser finds it as it reads (`wkparse.syntax.FILE_TOO_LARGE`); this rule hands on what it
found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.FILE_TOO_LARGE)
def file_too_large(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.FILE_TOO_LARGE)
