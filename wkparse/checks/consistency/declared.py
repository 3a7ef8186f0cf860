"""What the consistency rules share: the header's declared `vpp`, `ga` and `pp_comm` next to
what the body holds, the fix that sets a declared value, and how a message names a row.
"""

from __future__ import annotations

from wkparse.ast import Header, Span
from wkparse.body import count_layers
from wkparse.checks import Context
from wkparse.checks.training import set_value, training_header, value_span
from wkparse.diagnostics import Fix
from wkparse.i18n import _
from wkparse.models.simai.reach import reach
from wkparse.models.simai.tokens import header_value
from wkparse.syntax import shown


def fix_value(
    ctx: Context, header: Header, key: str, value: int, *, counted: bool = True
) -> Fix | None:
    """`set_value` on `key`'s value, when the header writes one to replace. A value `counted`
    from the rows is no fix where they stop before line 2's count (cut off, or phantom
    layers: WK105): it would make the damaged file look whole; nor where whole rows follow
    the count (WK105's fix, the count, is the one: the value counted from the rows SimAI
    reads would break the file once the count is set)."""
    if counted and (ctx.rows_short or reach(ctx.file).unread_rows):
        return None
    span = value_span(header, key)
    field = header.read(key)
    if span is None or field is None or field.value is None:
        return None
    return set_value(key, value, span)


def name_span(ctx: Context, index: int) -> Span:
    row = ctx.workload.rows[index]
    return row.span("name")


def row_name(name: str | None) -> str:
    """A row's name as a message quotes it."""
    return shown(name or "")


def _pipeline(header: Header) -> int | None:
    """PP when it is > 1: only then does SimAI's bubble use vpp and ga at all."""
    pp = header_value(header, "pp")
    return pp if pp is not None and pp > 1 else None


def has_layers(ctx: Context) -> bool:
    """Whether the micro-batch groups hold transformer layers (SimAI's own micro-benchmark
    files repeat bare `embedding_layer` rows: no groups to compare with ga or vpp)."""
    reference = ctx.body.reference
    return reference is not None and count_layers(reference.names) > 0


def declared(ctx: Context, key: str, single_stage: bool = False) -> tuple[Header, int, Span] | None:
    """A training header with PP > 1 (PP == 1 with `single_stage`), the value SimAI reads for
    `key` and where it stands; None when the header writes no value to compare."""
    header = training_header(ctx)
    if header is None:
        return None
    pipelined = _pipeline(header) is not None
    if pipelined == single_stage or (single_stage and header_value(header, "pp") != 1):
        return None
    value, span = header_value(header, key), value_span(header, key)
    if value is None or span is None:
        return None
    return header, value, span


def pipelined_value(ctx: Context, key: str) -> tuple[Header, int, Span] | None:
    """vpp, ga and pp_comm matter to SimAI's pipeline model only when PP > 1: the checks that
    compare them with the rows as errors run only then."""
    return declared(ctx, key)


def layers_against_vpp(ctx: Context, vpp: int) -> int | None:
    """The transformer layers per group when they differ from `vpp`; None when they agree or
    cannot be counted."""
    body = ctx.body
    reference = body.reference
    if vpp == 0 or reference is None:
        return None
    inside = [o.index for o in body.orphan_lists if reference.start < o.index < reference.end]
    # the typical group holds further layer lists (WK305 says where they part): each is a
    # micro-batch, as ga counts them, so its first list is the stage's layers
    names = reference.names[: min(inside) - reference.start] if inside else reference.names
    layers = count_layers(names)
    if layers == vpp:
        return None
    return layers


def groups_against_ga(ctx: Context, ga: int) -> int | None:
    """The micro-batch groups counted (those without an embedding row too) when they differ
    from `ga`; None when they agree or there are none."""
    body = ctx.body
    if ga == 0 or not body.has_groups:
        return None
    counted = body.micro_batches
    if counted == ga:
        return None
    return counted


def bubble_effect(counted: int, written: int) -> str:
    """What a declared vpp or ga that differs from the rows does to SimAI's pipeline bubble."""
    if counted == 0:
        return _("SimAI sizes the pipeline bubble for layers the rows do not hold")
    return _(
        "SimAI's pipeline bubble comes out {counted}/{declared} of what the rows imply"
    ).format(counted=counted, declared=written)
