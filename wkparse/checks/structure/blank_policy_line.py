"""WK101 blank-policy-line: line 1 is blank: the parallelism policy is missing; why and
examples in rules/WK101.toml.

The parser finds it as it reads (`wkparse.syntax.MISSING_POLICY`); this rule hands on what it
found.
"""

from __future__ import annotations

from wkparse import syntax
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic


@file_check(syntax.MISSING_POLICY)
def blank_policy_line(ctx: Context) -> list[Diagnostic]:
    return ctx.parsed(syntax.MISSING_POLICY)
