"""WK305 missing-embedding-layer: a micro-batch group lacks its `embedding_layer` row; why and
examples in rules/WK305.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import Span
from wkparse.body import GROUP_START, count_layers, looks_like_group_start
from wkparse.checks import Context, file_check
from wkparse.checks.consistency.declared import name_span, row_name
from wkparse.checks.training import training_header
from wkparse.diagnostics import Diagnostic, Edit, Fix
from wkparse.i18n import _
from wkparse.models.simai.tokens import header_value


@file_check("WK305")
def missing_embedding_layer(ctx: Context) -> Iterator[Diagnostic]:
    header = training_header(ctx)
    body = ctx.body
    if header is None or header_value(header, "ga") is None:
        return
    if not body.has_groups:
        names = body.names_between(0, body.epilogue_start)
        if count_layers(names) == 0:
            return
        yield _no_embedding_at_all(ctx, names)
        return
    for missing in body.orphan_lists:
        line = ctx.workload.rows.lines[missing.index]
        if missing.renamed:
            name = body.names_between(missing.index, missing.index + 1)[0]
            yield Diagnostic(
                "WK305",
                _(
                    "the micro-batch group at line {line} starts with `{name}`, not `{start}`: "
                    "SimAI counts it in the pipeline bubble"
                ).format(line=line, name=row_name(name), start=GROUP_START),
                name_span(ctx, missing.index),
                fix=_rename_to_embedding(name_span(ctx, missing.index)),
            )
        else:
            yield Diagnostic(
                "WK305",
                _(
                    "the layer list at line {line} has no `{start}` row: it merges with the "
                    "group before it"
                ).format(line=line, start=GROUP_START),
                name_span(ctx, missing.index),
            )


def _rename_to_embedding(span: Span) -> Fix:
    """WK305's fix: rename the row that looks like a group's start to the name SimAI knows.

    Unsafe: it moves that row's time out of the pipeline bubble.
    """
    return Fix(
        _("rename to {name}").format(name=GROUP_START), (Edit(span, GROUP_START),), safe=False
    )


def _no_embedding_at_all(ctx: Context, names: tuple[str | None, ...]) -> Diagnostic:
    candidate = next((i for i, n in enumerate(names) if looks_like_group_start(n)), None)
    if candidate is not None:
        span = name_span(ctx, candidate)
        return Diagnostic(
            "WK305",
            _(
                "no row is named `{start}`; `{name}` on line {line} looks like it: SimAI counts "
                "it in the pipeline bubble"
            ).format(start=GROUP_START, name=row_name(names[candidate]), line=span.line),
            span,
            fix=_rename_to_embedding(span),
        )
    first = next(i for i, n in enumerate(names) if (n or "").startswith("attention"))
    return Diagnostic(
        "WK305",
        _(
            "transformer layers (from line {line}) but no `{start}` row: the micro-batch "
            "groups cannot be told apart"
        ).format(line=ctx.workload.rows.lines[first], start=GROUP_START),
        name_span(ctx, first),
    )
