"""WK501 header-vs-filename: a header size differs from the one the AICB file name records;
why and examples in rules/WK501.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.checks.filename.named_run import differs, file_name
from wkparse.checks.training import TP_KEY, set_value
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.aicb.names import parse_first_inference_filename, parse_v1_filename
from wkparse.models.simai.tables import TRANSFORMER_POLICIES


def _sizes(ctx: Context) -> tuple[tuple[str, str, int], ...]:
    """(header key, name label, size) for each size the file name records: AICB's current
    names, its first inference names (no phase) and AICB v1.0's (no ep)."""
    name = file_name(ctx) or (parse_first_inference_filename(ctx.path) if ctx.path else None)
    if name is not None:
        return (
            (TP_KEY, "tp", name.tp),
            ("pp", "pp", name.pp),
            ("ep", "ep", name.ep),
            ("all_gpus", "world_size", name.world),
        )
    v1 = parse_v1_filename(ctx.path) if ctx.path else None
    if v1 is not None:
        return ((TP_KEY, "tp", v1.tp), ("pp", "pp", v1.pp), ("all_gpus", "world_size", v1.world))
    return ()


@file_check("WK501")
def header_vs_filename(ctx: Context) -> Iterator[Diagnostic]:
    header = ctx.workload.header
    if header is None or header.policy not in TRANSFORMER_POLICIES:
        return
    for key, label, expected in _sizes(ctx):
        found = differs(header, key, expected)
        if found is None:
            continue
        declared, span = found
        yield Diagnostic(
            "WK501",
            _(
                "{key} is {declared} but the file name says {label}{expected}: the rows were "
                "written for {label} {expected}"
            ).format(key=key, declared=declared, label=label, expected=expected),
            span,
            fix=set_value(key, expected, span),
        )
