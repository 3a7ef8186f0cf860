"""WK401 unknown-comm-type: a comm type SimAI does not know; why and examples in rules/WK401.toml.

`wkparse.checks.rows.classify` tells the four ways a comm type goes wrong apart.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import RowFields
from wkparse.checks import Context, RowProblem, row_check
from wkparse.checks.rows.classify import comm_problems
from wkparse.checks.rows.fields import COMM_FIELDS


@row_check("WK401", reads=COMM_FIELDS)
def unknown_comm_type(ctx: Context, fields: RowFields) -> Iterator[RowProblem]:
    return comm_problems(fields, "WK401")
