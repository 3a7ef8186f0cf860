"""WK201 missing-key: a transformer header lacks a key SimAI reads; why and examples in
rules/WK201.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import Span
from wkparse.checks import Context
from wkparse.checks.header.reading import (
    ORDER,
    SIZE_KEYS,
    TP,
    field_end,
    header_check,
    short_effect,
    unknown_fields,
)
from wkparse.diagnostics import Diagnostic, Edit, Fix
from wkparse.i18n import _
from wkparse.models.simai.tables import TRANSFORMER_POLICIES
from wkparse.models.simai.tokens import Reading
from wkparse.syntax import shown as shown_token


def _insertion_point(r: Reading, key: str) -> int:
    """The column after which AICB would have written `key`."""
    earlier = ORDER[: ORDER.index(key)] if key in ORDER else ORDER
    column = r.tokens[len(r.header.leading)].span.end_column
    for f in r.header.fields:
        if f.colon and f.key in earlier:
            column = max(column, field_end(f))
    return column


def _insert(r: Reading, key: str, value: int) -> Edit:
    at = _insertion_point(r, key)
    return Edit(Span.on_line(1, at, at), f" {key}: {value}")


def _era(key: str) -> str:
    if key == TP:
        return "every AICB era writes it"
    if key == "vpp":
        from wkparse.models.aicb.revisions import (  # AICB's history: only for this message
            introduced,
        )

        return f"AICB wrote no vpp before {introduced('vpp').date}; its v1.0 headers carry only TP"
    return "AICB's v1.0 headers (and its multi-allreduce micro-benchmark) carry only TP"


def _counted(ctx: Context, key: str) -> int | None:
    """vpp or ga as the body shows them, when the body has micro-batch groups."""
    body = ctx.body
    if not body.has_groups:
        return None
    if key == "ga":
        return len(body.groups)
    if key == "vpp":
        return body.layers_per_group or None
    return None


@header_check("WK201", TRANSFORMER_POLICIES)
def missing_key(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    typos = {s: f for f, s in unknown_fields(r) if s is not None}
    for key in SIZE_KEYS[:-1]:
        if r.written(key):
            continue
        fix = None
        counted = _counted(ctx, key)
        if counted is not None:
            if key == "vpp":
                what = _("add `{key}: {n}` (layers per micro-batch group counted in the body)")
            else:
                what = _("add `{key}: {n}` (micro-batch groups counted in the body)")
            fix = Fix(
                what.format(key=key, n=counted),
                (_insert(r, key, counted),),
                safe=False,
            )
        hint = ""
        if key in typos:
            typo = typos[key]
            written = f"{typo.key}:" if typo.colon else typo.key
            hint = _(" (SimAI ignores `{key}`)").format(key=shown_token(written))
        yield Diagnostic(
            "WK201",
            _("the header has no `{key}:`{hint}: SimAI reads 0 and {effect}").format(
                key=key, hint=hint, effect=short_effect(key, ns3=ctx.target == "simai-ns3")
            ),
            r.header.span,
            fix=fix,
        )
