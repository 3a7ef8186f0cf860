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
from wkparse.models.simai.tables import TRANSFORMER_POLICIES


@file_check("WK501")
def header_vs_filename(ctx: Context) -> Iterator[Diagnostic]:
    header, name = ctx.workload.header, file_name(ctx)
    if header is None or name is None or header.policy not in TRANSFORMER_POLICIES:
        return
    for key, label, expected in (
        (TP_KEY, "tp", name.tp),
        ("pp", "pp", name.pp),
        ("ep", "ep", name.ep),
        ("all_gpus", "world_size", name.world),
    ):
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
