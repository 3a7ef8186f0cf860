"""WK409 reserved-not-minus-one: a row's reserved field is not -1; why and examples in
rules/WK409.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import RowFields
from wkparse.checks import Context, RowProblem, row_check
from wkparse.checks.rows.fields import INT32, RESERVED
from wkparse.i18n import _


@row_check("WK409", reads=("reserved",))
def reserved_not_minus_one(ctx: Context, fields: RowFields) -> Iterator[RowProblem]:
    reserved = fields.reserved
    if reserved is None or reserved == -1 or not INT32[0] <= reserved <= INT32[1]:
        return
    yield RowProblem(
        "WK409",
        RESERVED,
        _(
            "the reserved field is {value}, not -1: SimAI ignores it, but it hints at a "
            "shifted or foreign row"
        ).format(value=reserved),
        "-1",
        safe_fix=True,
    )
