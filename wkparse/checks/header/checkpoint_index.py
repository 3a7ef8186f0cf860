"""WK219 checkpoint-index: a checkpoint list is malformed or names a layer that does not exist; why
and examples in rules/WK219.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import checkpoint_lists, field_span, header_check
from wkparse.cpp import stoi
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tables import TRANSFORMER_POLICIES
from wkparse.models.simai.tokens import Reading


@header_check("WK219", TRANSFORMER_POLICIES)
def checkpoint_index(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    count_line = ctx.workload.count
    layers = (
        count_line.value
        if count_line is not None and count_line.value is not None
        else len(ctx.workload.rows)
    )
    for o, f in checkpoint_lists(r):
        count = (o.result.value if o.result else None) or 0
        if count <= 0:
            continue
        first = r.tokens[o.index + 2] if o.index + 2 < len(r.tokens) else None
        if first is None or stoi(first.text).value is None:
            got = f"`{first.text}`" if first is not None else _("the end of the line")
            yield Diagnostic(
                "WK219",
                _(
                    "`{key}: {count}` announces {count} layer indexes but {got} follows: "
                    "SimAI crashes"
                ).format(key=o.key, count=count, got=got),
                field_span(f),
            )
            continue
        for v in f.values[1:]:
            index = stoi(v.text).value
            if index is not None and not 0 <= index < layers:
                yield Diagnostic(
                    "WK219",
                    _(
                        "`{key}` names layer {index}, past the last layer ({last}): SimAI "
                        "silently checkpoints nothing"
                    ).format(key=o.key, index=index, last=layers - 1),
                    v.span,
                )
