"""WK220 inference-mode: the header marks an inference workload (mode: 1), which SimAI simulates as
training; why and examples in rules/WK220.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import field_span, header_check
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.aicb.formulas import MODE_KEY, is_inference
from wkparse.models.simai.tables import TRANSFORMER_POLICIES
from wkparse.models.simai.tokens import Reading
from wkparse.syntax import shown as shown_token


@header_check("WK220", TRANSFORMER_POLICIES)
def inference_mode(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    f = r.header.read(MODE_KEY)
    if f is None or f.value is None or not is_inference(r.header):
        return
    pp = r.value("pp")
    bubble = f" (pp {pp})" if pp and pp > 1 else ""  # identifiers: no words
    yield Diagnostic(
        "WK220",
        _("`mode: {value}` marks inference, but SimAI simulates a training iteration{pp}").format(
            value=shown_token(f.value.text), pp=bubble
        ),
        field_span(f),
    )
