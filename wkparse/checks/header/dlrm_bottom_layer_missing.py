"""WK221 dlrm-bottom-layer-missing: a DLRM header lacks DLRM_LAST_BOTTOM_LAYER; why and examples in
rules/WK221.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import DLRM_KEY, header_check
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tables import DLRM_POLICIES
from wkparse.models.simai.tokens import Reading


@header_check("WK221", DLRM_POLICIES)
def dlrm_bottom_layer_missing(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    if r.written(DLRM_KEY) or r.header.leading:
        return
    yield Diagnostic(
        "WK221",
        _("{policy} has no `{key}:`: SimAI runs the DLRM schedule on an undefined layer").format(
            policy=r.header.policy, key=DLRM_KEY
        ),
        r.header.span,
    )
