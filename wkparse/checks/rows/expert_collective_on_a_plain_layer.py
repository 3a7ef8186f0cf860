"""WK410 expert-collective-on-a-plain-layer: an expert-group collective with bytes, in a file
with ep: 1, on a row AICB never gives one (a hand edit); why and examples in rules/WK410.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.checks.rows.expert_collective_without_ep import expert_collectives
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _


@file_check("WK410")
def expert_collective_on_a_plain_layer(ctx: Context) -> Iterator[Diagnostic]:
    message = _(
        "`{comm}` of {size} bytes {column} of a row AICB never gives one, with ep: 1: SimAI's "
        "one-rank expert group moves nothing"
    )
    yield from expert_collectives(ctx, "WK410", message, on_aicb_rows=False)
