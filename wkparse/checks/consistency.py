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

from wkparse.aicb import parse_filename
from wkparse.ast import Header, Span
from wkparse.body import GROUP_START, Group, count_layers, looks_like_group_start
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic, Edit, Fix
from wkparse.simai.cpp import stoi
from wkparse.simai.tables import TRANSFORMER_POLICIES

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
    return Fix(f"set {key}: {value}", (Edit(span, str(value)),), safe=False)


def _set(header: Header, key: str, value: int) -> Fix | None:
    """`set_value` on `key`'s value, when the header writes one to replace."""
    span = value_span(header, key)
    field = header.read(key)
    if span is None or field is None or field.value is None:
        return None
    return set_value(key, value, span)


def _lines(ctx: Context, start: int, end: int) -> str:
    """`lines a-b` for the row indexes start..end-1."""
    lines = ctx.workload.rows.lines
    first, last = lines[start], lines[end - 1]
    return f"line {first}" if first == last else f"lines {first}-{last}"


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


def _layers_against_vpp(ctx: Context, vpp: int) -> tuple[int, str] | None:
    """(transformer layers per group, where the first group stands) when they differ from
    `vpp`; None when they agree or cannot be counted."""
    body = ctx.body
    reference = body.reference
    if vpp == 0 or reference is None:
        return None
    if any(reference.start < o.index < reference.end for o in body.orphan_lists):
        return None  # the typical group holds two layer lists: WK305 says where they part
    layers = count_layers(reference.names)
    if layers == vpp:
        return None
    return layers, _lines(ctx, reference.start, reference.end)


def _groups_against_ga(ctx: Context, ga: int) -> tuple[int, str] | None:
    """(micro-batch groups counted, where they stand and how many lack an embedding row) when
    they differ from `ga`; None when they agree or there are none."""
    body = ctx.body
    if ga == 0 or not body.has_groups:
        return None
    missing = len(body.orphan_lists)
    counted = len(body.groups) + missing
    if counted == ga:
        return None
    where = _lines(ctx, body.group_starts[0], body.epilogue_start)
    note = f", {missing} of them without an embedding_layer row" if missing else ""
    return counted, where + note


@file_check("WK301")
def vpp_matches_layers(ctx: Context) -> Iterator[Diagnostic]:
    found = _pipelined_value(ctx, "vpp")
    if found is None:
        return
    header, vpp, span = found
    differs = _layers_against_vpp(ctx, vpp)
    if differs is None:
        return
    layers, where = differs
    yield Diagnostic(
        "WK301",
        f"vpp is {vpp} but each micro-batch group holds {layers} transformer layers "
        f"(the first: {where}); SimAI divides the "
        f"pipeline bubble by ga * vpp, {_effect(layers, vpp)}; "
        + (f"set vpp: {layers}" if layers else "restore the groups' layers"),
        span,
        # vpp: 0 would only trade this for SimAI's division by zero
        fix=_set(header, "vpp", layers) if layers else None,
    )


def _effect(counted: int, declared: int) -> str:
    if counted == 0:
        return "so the bubble is sized for layers the rows do not hold"
    return f"so the bubble comes out {counted}/{declared} times what the rows imply"


@file_check("WK302")
def ga_matches_groups(ctx: Context) -> Iterator[Diagnostic]:
    found = _pipelined_value(ctx, "ga")
    if found is None:
        return
    header, ga, span = found
    differs = _groups_against_ga(ctx, ga)
    if differs is None:
        return
    counted, where = differs
    yield Diagnostic(
        "WK302",
        f"ga is {ga} but the body holds {counted} micro-batch groups ({where}); "
        f"SimAI divides the pipeline bubble by ga * vpp, {_effect(counted, ga)}; "
        f"set ga: {counted}",
        span,
        fix=_set(header, "ga", counted),
    )


@file_check("WK307")
def single_stage_vpp_mismatch(ctx: Context) -> Iterator[Diagnostic]:
    found = _declared(ctx, "vpp", single_stage=True)
    if found is None or not _has_layers(ctx):
        return
    header, vpp, span = found
    differs = _layers_against_vpp(ctx, vpp)
    if differs is None:
        return
    layers, where = differs
    yield Diagnostic(
        "WK307",
        f"vpp is {vpp} but the micro-batch group holds {layers} transformer layers ({where}); "
        f"harmless to SimAI with pp: 1, but the header contradicts the rows"
        + (f"; set vpp: {layers}" if layers else ""),
        span,
        fix=_set(header, "vpp", layers) if layers else None,
    )


@file_check("WK308")
def single_stage_ga_mismatch(ctx: Context) -> Iterator[Diagnostic]:
    found = _declared(ctx, "ga", single_stage=True)
    if found is None or not _has_layers(ctx):
        return
    header, ga, span = found
    differs = _groups_against_ga(ctx, ga)
    if differs is None:
        return
    counted, where = differs
    yield Diagnostic(
        "WK308",
        f"ga is {ga} but the body holds {counted} micro-batch groups ({where}); harmless to "
        f"SimAI with pp: 1, but the header contradicts the rows; set ga: {counted}",
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
    source = f"the activation size the rows carry is {activation} (line {line})"
    if sp and declared == activation:
        detail = (
            f"pp_comm is {declared}, the whole activation, but with sequence parallelism "
            f"each of the {tp} TP ranks sends 1/{tp} of it: {source}, and AICB since 2025-01 "
            f"writes {activation} / {tp} = {expected} (AICB 2024-12 wrote the undivided size)"
        )
    elif sp:
        detail = (
            f"pp_comm is {declared} but {source}; with sequence parallelism pp_comm is that "
            f"divided by TP: {activation} / {tp} = {expected}"
        )
    else:
        detail = (
            f"pp_comm is {declared} but {source}: without sequence parallelism the two are equal"
        )
    yield Diagnostic(
        "WK303",
        f"{detail}; SimAI's exposed pipeline time (with -pp_o below 1) scales with pp_comm; "
        f"set pp_comm: {expected}",
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
    shared = body.shapes[reference.names]
    others = f"; {len(odd) - 1} more groups differ too" if len(odd) > 1 else ""
    yield Diagnostic(
        "WK304",
        f"micro-batch group {number} of {len(body.groups)} ({_lines(ctx, group.start, group.end)}) "
        f"differs from the layer list {shared} groups share: {what}{others}; SimAI's "
        f"bubble and the header's ga and vpp assume ga copies of one stage, so ga * vpp no "
        f"longer describes the rows; make the groups identical or check the edit that made "
        f"them differ",
        _name_span(ctx, index),
    )


def _first_difference(group: Group, reference: Group) -> tuple[int, str]:
    """The row index where `group` first departs from `reference`, and how, in words."""
    for i, (a, b) in enumerate(zip(group.names, reference.names)):
        if a != b:
            return group.start + i, f"its row {i + 1} is `{a}` where the others have `{b}`"
    if group.size < reference.size:
        missing = reference.names[group.size]
        return (
            group.end - 1,
            f"it ends after {group.size} rows where the others have {reference.size} "
            f"(next would be `{missing}`)",
        )
    return (
        group.start + reference.size,
        f"it has {group.size} rows where the others have {reference.size}; the extra "
        f"rows start with `{group.names[reference.size]}`",
    )


@file_check("WK305")
def groups_start_with_embedding(ctx: Context) -> Iterator[Diagnostic]:
    header = training_header(ctx)
    body = ctx.body
    if header is None or header.integer("ga") is None:
        return
    names = body.names[: body.epilogue_start]
    if not body.has_groups:
        if count_layers(names) == 0:
            return
        yield _no_embedding_at_all(ctx, names)
        return
    for missing in body.orphan_lists:
        line = ctx.workload.rows.lines[missing.index]
        if missing.renamed:
            name = body.names[missing.index]
            yield Diagnostic(
                "WK305",
                f"the micro-batch group at line {line} starts with `{name}`, not "
                f"`{GROUP_START}`: SimAI leaves only rows named exactly `{GROUP_START}` out "
                f"of the pipeline bubble, so this row's time is counted in it, and the group "
                f"reads as part of the one before it; rename it `{GROUP_START}`",
                _name_span(ctx, missing.index),
                fix=_rename_to_embedding(_name_span(ctx, missing.index)),
            )
        else:
            yield Diagnostic(
                "WK305",
                f"the layer list at line {line} has no `{GROUP_START}` row before it, unlike "
                f"the other micro-batch groups: it reads as part of the group before it, and "
                f"SimAI's bubble leaves only rows named `{GROUP_START}` out; restore the "
                f"group's `{GROUP_START}` row (and the count on line 2)",
                _name_span(ctx, missing.index),
            )


def _rename_to_embedding(span: Span) -> Fix:
    """WK305's fix: rename the row that looks like a group's start to the name SimAI knows.

    Unsafe: it moves that row's time out of the pipeline bubble.
    """
    return Fix(f"rename to {GROUP_START}", (Edit(span, GROUP_START),), safe=False)


def _no_embedding_at_all(ctx: Context, names: tuple[str | None, ...]) -> Diagnostic:
    candidate = next((i for i, n in enumerate(names) if looks_like_group_start(n)), None)
    if candidate is not None:
        span = _name_span(ctx, candidate)
        return Diagnostic(
            "WK305",
            f"no row is named `{GROUP_START}`; line {span.line} `{names[candidate]}` looks like "
            f"the embedding: SimAI leaves only rows named exactly `{GROUP_START}` out of the "
            f"pipeline bubble, and the micro-batch groups cannot be told apart without it; "
            f"rename it `{GROUP_START}`",
            span,
            fix=_rename_to_embedding(span),
        )
    first = next(i for i, n in enumerate(names) if (n or "").startswith("attention"))
    return Diagnostic(
        "WK305",
        f"the body holds transformer layers (the first at line "
        f"{ctx.workload.rows.lines[first]}) but no row named `{GROUP_START}`: SimAI leaves "
        f"only that name out of the pipeline bubble, and the ga micro-batch groups cannot be "
        f"told apart without it (older AICB non-AIOB sequence-parallel output has none); "
        f"regenerate with a current AICB",
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
    rows = len(body.names)
    kept = f"only its {rows} once-per-iteration rows" if rows else "no rows at all"
    if ga == 0:
        cause = (
            "ga is 0 and the body holds no micro-batch (" + kept + "): AICB floors "
            "global_batch / (micro_batch * DP)" + _floor_detail(ctx) + " and writes no layer "
            "rows for 0 micro-batches"
        )
        fix = (
            "and with ga: 0 its bubble divides by zero (NaN total); regenerate with a global "
            "batch of at least micro_batch * DP"
        )
    else:
        cause = f"ga is {ga} but the body holds no transformer layer rows ({kept})"
        fix = "so the result is no training step; regenerate the file or restore its groups"
    yield Diagnostic(
        "WK306",
        f"{cause}; SimAI simulates an iteration with no forward or backward pass at all, {fix}",
        span,
    )


def _floor_detail(ctx: Context) -> str:
    name = parse_filename(ctx.path) if ctx.path else None
    if name is None or name.gbs is None or name.dp is None:
        return ""
    step = name.mbs * name.dp
    return (
        f" (the file name: gbs {name.gbs} / (mbs {name.mbs} * DP {name.dp}) = "
        f"{name.gbs}/{step}, floored to {name.gbs // step})"
    )
