"""Body-consistency checks (WK3xx): the header's `vpp`, `ga` and `pp_comm` against the rows.

The header declares how the body is built (`ga` micro-batch groups of `vpp` transformer layers,
stage-to-stage traffic `pp_comm`); `wkparse.body` counts what the rows really hold. SimAI uses
the declared numbers only in its pipeline model (bubble = non-embedding time * (pp - 1) /
(ga * vpp), exposed PP time from `pp_comm`), so a disagreement changes the simulated time
without any warning. These checks run only on transformer training files that carry the keys:
inference files (`mode: 1`), MICRO and the ASTRA-sim 1.0 policies have no groups to count.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from wkparse.ast import Header, Span
from wkparse.body import GROUP_START, Group, count_layers, looks_like_group_start
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic, Edit, Fix
from wkparse.i18n import _
from wkparse.simai.cpp import stoi
from wkparse.simai.tables import TRANSFORMER_POLICIES
from wkparse.syntax import shown

TP_KEY = "model_parallel_NPU_group"


def training_header(ctx: Context) -> Header | None:
    """The header when the file is a transformer training workload, else None.

    Inference files (`mode: 1`) share the policy but have no micro-batch groups; checking them
    against training conventions would only produce noise.
    """
    header = ctx.workload.header
    if header is None or header.policy not in TRANSFORMER_POLICIES:
        return None
    if header.integer("mode") == 1:
        return None
    return header


def value_span(header: Header, key: str) -> Span | None:
    """Where the value SimAI reads for `key` stands (the key itself when it has no value)."""
    field = header.read(key)
    if field is None:
        return None
    return field.value.span if field.value is not None else field.span


def read_number(header: Header, key: str) -> int | None:
    """The number SimAI reads for `key`, with `std::stoi`'s leniency (`8388608.0` reads)."""
    field = header.read(key)
    if field is None or field.value is None:
        return None
    return stoi(field.value.text).value


def set_value(key: str, value: int, span: Span) -> Fix:
    """The unsafe fix `set key: value` on the value at `span`.

    Shared by every check that compares a header value with what the rows or the file name
    imply, so they all word and mark the fix alike.
    """
    return Fix(
        _("set {key}: {value}").format(key=key, value=value), (Edit(span, str(value)),), safe=False
    )


def _set(header: Header, key: str, value: int) -> Fix | None:
    """`set_value` on `key`'s value, when the header writes one to replace."""
    span = value_span(header, key)
    field = header.read(key)
    if span is None or field is None or field.value is None:
        return None
    return set_value(key, value, span)


def _name_span(ctx: Context, index: int) -> Span:
    row = ctx.workload.rows[index]
    return row.span("name")


def _pipeline(header: Header) -> int | None:
    """PP when it is > 1: only then does SimAI's bubble use vpp and ga at all."""
    pp = header.integer("pp")
    return pp if pp is not None and pp > 1 else None


def _has_layers(ctx: Context) -> bool:
    """Whether the micro-batch groups hold transformer layers (SimAI's own micro-benchmark
    files repeat bare `embedding_layer` rows: no groups to compare with ga or vpp)."""
    reference = ctx.body.reference
    return reference is not None and count_layers(reference.names) > 0


def _declared(
    ctx: Context,
    key: str,
    read: Callable[[Header, str], int | None] = Header.integer,
    single_stage: bool = False,
) -> tuple[Header, int, Span] | None:
    """A training header with PP > 1 (PP == 1 with `single_stage`), the value `read` gives for
    `key` and where it stands; None when the header writes no value to compare."""
    header = training_header(ctx)
    if header is None:
        return None
    pipelined = _pipeline(header) is not None
    if pipelined == single_stage or (single_stage and header.integer("pp") != 1):
        return None
    value, span = read(header, key), value_span(header, key)
    if value is None or span is None:
        return None
    return header, value, span


def _pipelined_value(
    ctx: Context, key: str, read: Callable[[Header, str], int | None] = Header.integer
) -> tuple[Header, int, Span] | None:
    """vpp, ga and pp_comm matter to SimAI's pipeline model only when PP > 1: the checks that
    compare them with the rows as errors run only then."""
    return _declared(ctx, key, read)


def _layers_against_vpp(ctx: Context, vpp: int) -> int | None:
    """The transformer layers per group when they differ from `vpp`; None when they agree or
    cannot be counted."""
    body = ctx.body
    reference = body.reference
    if vpp == 0 or reference is None:
        return None
    if any(reference.start < o.index < reference.end for o in body.orphan_lists):
        return None  # the typical group holds two layer lists: WK305 says where they part
    layers = count_layers(reference.names)
    if layers == vpp:
        return None
    return layers


def _groups_against_ga(ctx: Context, ga: int) -> int | None:
    """The micro-batch groups counted (those without an embedding row too) when they differ
    from `ga`; None when they agree or there are none."""
    body = ctx.body
    if ga == 0 or not body.has_groups:
        return None
    missing = len(body.orphan_lists)
    counted = len(body.groups) + missing
    if counted == ga:
        return None
    return counted


@file_check("WK301")
def vpp_matches_layers(ctx: Context) -> Iterator[Diagnostic]:
    found = _pipelined_value(ctx, "vpp")
    if found is None:
        return
    header, vpp, span = found
    layers = _layers_against_vpp(ctx, vpp)
    if layers is None:
        return
    yield Diagnostic(
        "WK301",
        _(
            "vpp is {vpp} but each micro-batch group holds {layers} transformer layers: {effect}"
        ).format(vpp=vpp, layers=layers, effect=_effect(layers, vpp)),
        span,
        # vpp: 0 would only trade this for SimAI's division by zero
        fix=_set(header, "vpp", layers) if layers else None,
    )


def _effect(counted: int, declared: int) -> str:
    if counted == 0:
        return _("SimAI sizes the pipeline bubble for layers the rows do not hold")
    return _(
        "SimAI's pipeline bubble comes out {counted}/{declared} of what the rows imply"
    ).format(counted=counted, declared=declared)


@file_check("WK302")
def ga_matches_groups(ctx: Context) -> Iterator[Diagnostic]:
    found = _pipelined_value(ctx, "ga")
    if found is None:
        return
    header, ga, span = found
    counted = _groups_against_ga(ctx, ga)
    if counted is None:
        return
    yield Diagnostic(
        "WK302",
        _("ga is {ga} but the body holds {counted} micro-batch groups: {effect}").format(
            ga=ga, counted=counted, effect=_effect(counted, ga)
        ),
        span,
        fix=_set(header, "ga", counted),
    )


@file_check("WK307")
def single_stage_vpp_mismatch(ctx: Context) -> Iterator[Diagnostic]:
    found = _declared(ctx, "vpp", single_stage=True)
    if found is None or not _has_layers(ctx):
        return
    header, vpp, span = found
    layers = _layers_against_vpp(ctx, vpp)
    if layers is None:
        return
    yield Diagnostic(
        "WK307",
        _(
            "vpp is {vpp} but the micro-batch group holds {layers} transformer layers "
            "(harmless to SimAI with pp: 1)"
        ).format(vpp=vpp, layers=layers),
        span,
        fix=_set(header, "vpp", layers) if layers else None,
    )


@file_check("WK308")
def single_stage_ga_mismatch(ctx: Context) -> Iterator[Diagnostic]:
    found = _declared(ctx, "ga", single_stage=True)
    if found is None or not _has_layers(ctx):
        return
    header, ga, span = found
    counted = _groups_against_ga(ctx, ga)
    if counted is None:
        return
    yield Diagnostic(
        "WK308",
        _(
            "ga is {ga} but the body holds {counted} micro-batch groups (harmless to SimAI "
            "with pp: 1)"
        ).format(ga=ga, counted=counted),
        span,
        fix=_set(header, "ga", counted),
    )


@file_check("WK303")
def pp_comm_matches_activation(ctx: Context) -> Iterator[Diagnostic]:
    found = _pipelined_value(ctx, "pp_comm", read_number)
    if found is None:
        return
    header, declared, span = found
    tp = header.integer(TP_KEY)
    body = ctx.body
    activation, row = body.activation_bytes, body.activation_row
    if not tp or activation is None or row is None:
        return
    sp = body.sequence_parallel and tp > 1
    expected = activation // tp if sp else activation
    if declared == expected:
        return
    line = ctx.workload.rows.lines[row]
    if sp:
        message = _(
            "pp_comm is {declared}, not activation {activation} (line {line}) / TP {tp} = "
            "{expected}: SimAI's pipeline traffic is off"
        )
    else:
        message = _(
            "pp_comm is {declared}, not the activation size on line {line}, {expected}: "
            "SimAI's pipeline traffic is off"
        )
    yield Diagnostic(
        "WK303",
        message.format(
            declared=declared, activation=activation, line=line, tp=tp, expected=expected
        ),
        span,
        fix=_set(header, "pp_comm", expected),
    )


@file_check("WK304")
def groups_are_identical(ctx: Context) -> Iterator[Diagnostic]:
    header = training_header(ctx)
    body = ctx.body
    reference = body.reference
    if header is None or reference is None or len(body.shapes) < 2:
        return
    merged = {m.index for m in body.orphan_lists}
    odd = [
        (n, g)
        for n, g in enumerate(body.groups, 1)
        if g.names != reference.names and not any(g.start < i < g.end for i in merged)
    ]
    if not odd:
        return
    number, group = odd[0]
    index, what = _first_difference(group, reference)
    others = _(" ({n} more differ)").format(n=len(odd) - 1) if len(odd) > 1 else ""
    yield Diagnostic(
        "WK304",
        _("micro-batch group {number} of {groups} differs from the others{others}: {what}").format(
            number=number, groups=len(body.groups), others=others, what=what
        ),
        _name_span(ctx, index),
    )


def _first_difference(group: Group, reference: Group) -> tuple[int, str]:
    """The row index where `group` first departs from `reference`, and how, in words."""
    for i, (a, b) in enumerate(zip(group.names, reference.names)):
        if a != b:
            return group.start + i, _("row {n} is `{name}`, not `{expected}`").format(
                n=i + 1, name=_name(a), expected=_name(b)
            )
    if group.size < reference.size:
        missing = reference.names[group.size]
        return (
            group.end - 1,
            _("{rows} rows, not {expected} (no `{name}`)").format(
                rows=group.size, expected=reference.size, name=_name(missing)
            ),
        )
    return (
        group.start + reference.size,
        _("{rows} rows, not {expected} (extra `{name}`)").format(
            rows=group.size, expected=reference.size, name=_name(group.names[reference.size])
        ),
    )


def _name(name: str | None) -> str:
    """A row's name as a message quotes it."""
    return shown(name or "")


@file_check("WK305")
def groups_start_with_embedding(ctx: Context) -> Iterator[Diagnostic]:
    header = training_header(ctx)
    body = ctx.body
    if header is None or header.integer("ga") is None:
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
                ).format(line=line, name=_name(name), start=GROUP_START),
                _name_span(ctx, missing.index),
                fix=_rename_to_embedding(_name_span(ctx, missing.index)),
            )
        else:
            yield Diagnostic(
                "WK305",
                _(
                    "the layer list at line {line} has no `{start}` row: it merges with the "
                    "group before it"
                ).format(line=line, start=GROUP_START),
                _name_span(ctx, missing.index),
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
        span = _name_span(ctx, candidate)
        return Diagnostic(
            "WK305",
            _(
                "no row is named `{start}`; `{name}` on line {line} looks like it: SimAI counts "
                "it in the pipeline bubble"
            ).format(start=GROUP_START, name=_name(names[candidate]), line=span.line),
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
        _name_span(ctx, first),
    )


@file_check("WK306")
def body_has_micro_batches(ctx: Context) -> Iterator[Diagnostic]:
    header = training_header(ctx)
    if header is None:
        return
    ga, span = header.integer("ga"), value_span(header, "ga")
    body = ctx.body
    if ga is None or span is None or body.has_groups or count_layers(body.names):
        return
    yield Diagnostic(
        "WK306",
        _(
            "ga is {ga} but the body holds no transformer layer: SimAI simulates no training step"
        ).format(ga=ga),
        span,
    )
