"""WK222 dlrm-bottom-layer-bare: a DLRM header gives the last bottom layer as a bare number; why
and examples in rules/WK222.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import Span
from wkparse.checks import Context
from wkparse.checks.header.reading import DLRM_KEY, header_check, replacement
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tables import DLRM_POLICIES
from wkparse.models.simai.tokens import Reading
from wkparse.syntax import shown as shown_token


@header_check("WK222", DLRM_POLICIES)
def dlrm_bottom_layer_bare(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    if r.written(DLRM_KEY) or not r.header.leading:
        return
    v = r.header.leading[0]
    at = v.span.column
    yield Diagnostic(
        "WK222",
        _(
            "the bare `{value}` after {policy} is ASTRA-sim 1.0's form: SimAI leaves the last "
            "bottom layer unset"
        ).format(value=shown_token(v.text), policy=r.header.policy),
        v.span,
        fix=replacement(
            _("write {text}").format(text=f"`{DLRM_KEY}: {v.text}`"),
            Span.on_line(1, at, at),
            f"{DLRM_KEY}: ",
            # SimAI then reads a layer it left unset, and ASTRA-sim 1.0 (which reads the
            # header by position) can no longer read the file
            safe=False,
        ),
    )
