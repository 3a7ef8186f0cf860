"""WK215 pp-comm-without-colon: pp_comm is written without its colon; why and examples in
rules/WK215.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import header_check, replacement, shown
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tokens import Reading


@header_check("WK215")
def pp_comm_without_colon(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for o in r.reads.get("pp_comm", ()):
        if o.key_token.text != "pp_comm":
            continue
        yield Diagnostic(
            "WK215",
            _("`{field}` has no colon: SimAI reads it, but no other key works so").format(
                field=f"pp_comm {shown(o)}"
            ),
            o.key_token.span,
            fix=replacement(
                _("write {text}").format(text="`pp_comm:`"), o.key_token.span, "pp_comm:"
            ),
        )
