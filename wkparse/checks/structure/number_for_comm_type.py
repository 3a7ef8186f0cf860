"""WK115 number-for-comm-type: a number stands where a collective type belongs; why and
examples in rules/WK115.toml.

The parser finds it as it reads (`wkparse.syntax.NUMBER_FOR_TYPE`); this rule hands on what it
found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.NUMBER_FOR_TYPE)
def number_for_comm_type(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.NUMBER_FOR_TYPE)
