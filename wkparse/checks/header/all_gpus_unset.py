"""WK202 all-gpus-unset: all_gpus is missing, zero or negative; why and examples in
rules/WK202.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import MISMATCH, header_check, last_int
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tables import TRANSFORMER_POLICIES
from wkparse.models.simai.tokens import Reading


@header_check("WK202", TRANSFORMER_POLICIES)
def all_gpus_unset(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    if not r.written("all_gpus"):
        yield Diagnostic(
            "WK202",
            _("the header has no `all_gpus:` (the world size): SimAI prints {warning}").format(
                warning=MISMATCH
            ),
            r.header.span,
        )
        return
    read = last_int(r, "all_gpus")
    if read is not None and read.value <= 0:
        yield Diagnostic(
            "WK202",
            _("all_gpus is {value}: SimAI prints {warning}").format(
                value=read.value, warning=MISMATCH
            ),
            read.token.span,
        )
