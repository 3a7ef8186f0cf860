"""WK213 pp-comm-without-pipeline: pp_comm is not 0 although there is only one pipeline stage; why
and examples in rules/WK213.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import MISMATCH, header_check, last_int, replacement
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tables import TRANSFORMER_POLICIES
from wkparse.models.simai.tokens import Reading
from wkparse.syntax import shown as shown_token


@header_check("WK213", TRANSFORMER_POLICIES)
def pp_comm_without_pipeline(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    pp, read = r.value("pp"), last_int(r, "pp_comm")
    if pp != 1 or read is None or read.value == 0:
        return
    span = read.token.span
    yield Diagnostic(
        "WK213",
        _("pp is 1 but pp_comm is {value}: SimAI expects 0 and prints {warning}").format(
            value=shown_token(read.token.text), warning=MISMATCH
        ),
        span,
        fix=replacement(
            _("set {key} to {value}").format(key="pp_comm", value=0), span, "0", safe=False
        ),
    )
