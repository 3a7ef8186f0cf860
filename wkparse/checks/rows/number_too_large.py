"""WK408 number-too-large: a row number is too large for the integer SimAI reads it into; why
and examples in rules/WK408.toml.

Two places: the reserved field (a signed 32-bit int, checked once per distinct value, found
from the columns in C) and the unsigned times and sizes (a typed column holds at most 2^64-1,
so only one that widened to a list can hold more).
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import ROW_FIELDS, RowFields
from wkparse.checks import Context, RowProblem, diagnostics_on_rows, file_check
from wkparse.checks.rows.fields import INT32, RESERVED
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _

UINT64_MAX = 2**64 - 1
#: the unsigned number fields (reserved is signed, and narrower)
_NUMBER_FIELDS = tuple(
    i for i, name in enumerate(ROW_FIELDS) if name.endswith(("compute", "size", "time"))
)


@file_check("WK408")
def number_too_large(ctx: Context) -> Iterator[Diagnostic]:
    problems: dict[int, list[RowProblem]] = {}
    _reserved_too_large(ctx, problems)
    _numbers_too_large(ctx, problems)
    yield from diagnostics_on_rows(ctx, problems)


def _reserved_problem(fields: RowFields) -> RowProblem | None:
    reserved = fields.reserved
    if reserved is None or INT32[0] <= reserved <= INT32[1]:
        return None
    return RowProblem(
        "WK408",
        RESERVED,
        _(
            "the reserved field is {value}, outside SimAI's 32-bit integer: every later "
            "field is misread"
        ).format(value=_number(reserved)),
        "-1",
    )


def _reserved_too_large(ctx: Context, problems: dict[int, list[RowProblem]]) -> None:
    """The reserved values out of range, asked once per distinct value (the engine's way for
    a row check), and the values the columns do not hold whole one by one."""
    values = ctx.workload.rows.values
    grouping = ctx.columns.group([RESERVED], whole=True)
    bad: dict[int, RowProblem] = {}
    for group, index in enumerate(grouping.first):
        problem = _reserved_problem(RowFields(values, index))
        if problem is not None:
            bad[group] = problem
    for index, group in grouping.members(bad):
        problems.setdefault(index, []).append(bad[group])
    for index in values.partial:
        problem = _reserved_problem(RowFields(values, index))
        if problem is not None:
            problems.setdefault(index, []).append(problem)


def _numbers_too_large(ctx: Context, problems: dict[int, list[RowProblem]]) -> None:
    # A typed column holds at most 2^64-1: only one that widened to a list can hold more.
    values = ctx.workload.rows.values
    for index in _NUMBER_FIELDS:
        column = values.column(index)
        if not isinstance(column, list):
            continue
        for where, value in enumerate(column):
            if value > UINT64_MAX:
                problems.setdefault(where, []).append(
                    RowProblem(
                        "WK408",
                        index,
                        _(
                            "{field} is {value}, over 2^64-1: SimAI's read fails and every "
                            "later field is misread"
                        ).format(field=ROW_FIELDS[index], value=_number(value)),
                    )
                )


def _number(value: int) -> str:
    """A number as a message quotes it: whole unless it is too long to read at a glance."""
    digits = str(value)
    if len(digits) <= 24:
        return digits
    return _("a {n}-digit number").format(n=f"{len(digits.lstrip('-')):,}")
