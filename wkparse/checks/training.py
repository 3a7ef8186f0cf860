"""What the consistency (WK3xx) and file-name (WK5xx) rules both read from a header: whether
it is a transformer training header, where a key's value stands, and the fix that sets it.
Neither area owns these, so neither imports the other. The number SimAI reads for a key is
`wkparse.models.simai.header_value`'s, as everywhere.
"""

from __future__ import annotations

from wkparse.ast import Header, Span
from wkparse.checks import Context
from wkparse.diagnostics import Edit, Fix
from wkparse.i18n import _
from wkparse.models.aicb.formulas import is_inference
from wkparse.models.simai.tables import TRANSFORMER_POLICIES

TP_KEY = "model_parallel_NPU_group"


def training_header(ctx: Context) -> Header | None:
    """The header when the file is a transformer training workload, else None.

    Inference files (`mode: 1`) share the policy but have no micro-batch groups; checking them
    against training conventions would only produce noise.
    """
    header = ctx.workload.header
    if header is None or header.policy not in TRANSFORMER_POLICIES or is_inference(header):
        return None
    return header


def value_span(header: Header, key: str) -> Span | None:
    """Where the value SimAI reads for `key` stands (the key itself when it has no value)."""
    field = header.read(key)
    if field is None:
        return None
    return field.value.span if field.value is not None else field.span


def set_value(key: str, value: int, span: Span) -> Fix:
    """The unsafe fix `set key: value` on the value at `span`.

    Shared by every check that compares a header value with what the rows or the file name
    imply, so they all word and mark the fix alike.
    """
    return Fix(
        _("set {key}: {value}").format(key=key, value=value), (Edit(span, str(value)),), safe=False
    )
