"""WK112 word-for-number: a word stands where a number belongs in a row; why and examples in
rules/WK112.toml.

The parser finds it as it reads (`wkparse.syntax.WORD_FOR_NUMBER`); this rule hands on what it
found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.WORD_FOR_NUMBER)
def word_for_number(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.WORD_FOR_NUMBER)
