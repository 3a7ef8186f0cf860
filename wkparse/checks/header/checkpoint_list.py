"""WK218 checkpoint-list: a checkpoint list names more than one layer; why and examples in
rules/WK218.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import checkpoint_lists, field_span, header_check
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tables import TRANSFORMER_POLICIES
from wkparse.models.simai.tokens import Reading


@header_check("WK218", TRANSFORMER_POLICIES)
def checkpoint_list(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for o, f in checkpoint_lists(r):
        count = (o.result.value if o.result else None) or 0
        indexes = [v.text for v in f.values[1:]]
        if count <= 0 or len(indexes) < 2:
            continue
        times = _(" (read {count} times)").format(count=count) if count > 1 else ""
        yield Diagnostic(
            "WK218",
            _("`{key}` lists {n} layers, but SimAI marks only layer {first}{times}").format(
                key=o.key, n=len(indexes), first=indexes[0], times=times
            ),
            field_span(f),
        )
