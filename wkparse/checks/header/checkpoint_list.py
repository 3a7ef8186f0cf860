"""WK218 checkpoint-list: a checkpoint list names more than one layer; why and examples in
rules/WK218.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import checkpoint_lists, field_span, header_check
from wkparse.diagnostics import Diagnostic
from wkparse.simai.tables import TRANSFORMER_POLICIES
from wkparse.simai.tokens import Reading


@header_check("WK218", TRANSFORMER_POLICIES)
def checkpoint_list(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for o, f in checkpoint_lists(r):
        count = (o.result.value if o.result else None) or 0
        indexes = [v.text for v in f.values[1:]]
        if count <= 0 or len(indexes) < 2:
            continue
        times = f" (read {count} times)" if count > 1 else ""
        yield Diagnostic(
            "WK218",
            f"`{o.key}` lists {len(indexes)} layers, but SimAI marks only layer "
            f"{indexes[0]}{times}",
            field_span(f),
        )
