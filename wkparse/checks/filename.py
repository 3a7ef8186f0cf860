"""File-name checks (WK5xx): an AICB file name records the run that wrote the file.

AICB names its output `...-world_size{W}-tp{T}-pp{P}-ep{E}-gbs{G}-mbs{M}-seq{S}-...txt` from the
configuration that really ran (`wkparse.aicb.parse_filename`), so a header that disagrees with
its name was edited, or the file renamed; and the name lets lint redo the generator's floored
arithmetic (ga, layers per stage) to show what it silently dropped. Names that do not follow
the scheme are not checked. The file has no position for its name, so each diagnostic points
at the header value (or row) the name is compared with.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator

from wkparse.aicb import AicbName, parse_filename
from wkparse.ast import Header, Span
from wkparse.checks import Context, FileCheck, file_check
from wkparse.checks.consistency import (
    TP_KEY,
    read_number,
    set_value,
    training_header,
    value_span,
)
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.simai.tables import TRANSFORMER_POLICIES


def _name(ctx: Context) -> AicbName | None:
    return parse_filename(ctx.path) if ctx.path else None


def _training(ctx: Context) -> tuple[Header, AicbName] | None:
    """Header and name when both describe a training run (inference names carry no gbs)."""
    header, name = training_header(ctx), _name(ctx)
    if header is None or name is None or name.inference_phase is not None:
        return None
    return header, name


TrainingCheck = Callable[[Context, Header, AicbName], Iterator[Diagnostic]]


def _training_check(code: str) -> Callable[[TrainingCheck], FileCheck]:
    """Register a check that runs only when the header and the name describe a training run.

    Most file-name checks compare a training header with a training name; the guard lives
    here once and the check receives both.
    """

    def register(fn: TrainingCheck) -> FileCheck:
        @functools.wraps(fn)
        def check(ctx: Context) -> Iterator[Diagnostic]:
            found = _training(ctx)
            if found is not None:
                yield from fn(ctx, *found)

        return file_check(code)(check)

    return register


def _differs(header: Header, key: str, expected: int | None) -> tuple[int, Span] | None:
    """The header's value for `key` and where it stands, when it is not what the name gives.

    None when the name gives nothing to compare (`expected` None) or the header has no
    readable value for `key`: other rules speak of a missing or unreadable key.
    """
    declared, span = header.integer(key), value_span(header, key)
    if expected is None or declared is None or span is None or declared == expected:
        return None
    return declared, span


def _span(header: Header, *keys: str) -> Span:
    """The first of `keys` the header has a value for, else the policy word."""
    for key in keys:
        span = value_span(header, key)
        if span is not None:
            return span
    return header.policy_span


@file_check("WK501")
def header_matches_name(ctx: Context) -> Iterator[Diagnostic]:
    header, name = ctx.workload.header, _name(ctx)
    if header is None or name is None or header.policy not in TRANSFORMER_POLICIES:
        return
    for key, label, expected in (
        (TP_KEY, "tp", name.tp),
        ("pp", "pp", name.pp),
        ("ep", "ep", name.ep),
        ("all_gpus", "world_size", name.world),
    ):
        differs = _differs(header, key, expected)
        if differs is None:
            continue
        declared, span = differs
        yield Diagnostic(
            "WK501",
            _(
                "{key} is {declared} but the file name says {label}{expected}: the rows were "
                "written for {label} {expected}"
            ).format(key=key, declared=declared, label=label, expected=expected),
            span,
            fix=set_value(key, expected, span),
        )


@_training_check("WK502")
def ga_matches_name(ctx: Context, header: Header, name: AicbName) -> Iterator[Diagnostic]:
    differs = _differs(header, "ga", name.ga)
    if differs is None:
        return
    ga, span = differs
    assert name.dp is not None and name.gbs is not None
    yield Diagnostic(
        "WK502",
        _(
            "ga is {ga} but the file name gives gbs{gbs} / (mbs{mbs} * DP {dp}) = {expected}: "
            "the header or the name was edited"
        ).format(ga=ga, gbs=name.gbs, mbs=name.mbs, dp=name.dp, expected=name.ga),
        span,
    )


@_training_check("WK503")
def global_batch_divides(ctx: Context, header: Header, name: AicbName) -> Iterator[Diagnostic]:
    step, ga = name.batch_per_step, name.ga
    # ga 0 (a global batch below one step) is WK306: the file then has no micro-batch at all
    if step is None or ga is None or name.gbs is None or ga == 0 or name.gbs % step == 0:
        return
    lower = ga * step
    yield Diagnostic(
        "WK503",
        _(
            "gbs{gbs} is not a multiple of mbs{mbs} * DP {dp} = {step}: AICB simulates "
            "{lower} samples per iteration, not {gbs}"
        ).format(gbs=name.gbs, mbs=name.mbs, dp=name.dp, step=step, lower=lower),
        _span(header, "ga"),
    )


@_training_check("WK504")
def activation_matches_name(ctx: Context, header: Header, name: AicbName) -> Iterator[Diagnostic]:
    body = ctx.body
    per_hidden = 2 * name.mbs * name.seq
    preset = name.preset
    activation, row = body.activation_bytes, body.activation_row
    if activation is not None and row is not None:
        span = ctx.workload.rows[row].span("fwd_size")
        if activation % per_hidden:
            yield Diagnostic(
                "WK504",
                _(
                    "activation size {activation} is not 2 * mbs{mbs} * seq{seq} * hidden: the "
                    "rows are for another batch or sequence than the name says"
                ).format(activation=activation, mbs=name.mbs, seq=name.seq),
                span,
            )
        elif preset is not None and activation // per_hidden != preset.hidden:
            yield Diagnostic(
                "WK504",
                _(
                    "activation size {activation} means hidden size {hidden}, but AICB's "
                    "{model} has {expected}: the rows model another model"
                ).format(
                    activation=activation,
                    hidden=activation // per_hidden,
                    model=name.model,
                    expected=preset.hidden,
                ),
                span,
            )
        return
    # no row carries the activation (TP 1): pp_comm is the only trace of it
    pp_comm, span_ = read_number(header, "pp_comm"), value_span(header, "pp_comm")
    if preset is None or name.pp <= 1 or pp_comm is None or span_ is None:
        return
    full = per_hidden * preset.hidden
    accepted = {full, full // name.tp} if name.sequence_parallel else {full}
    if pp_comm in accepted:
        return
    expected = full // name.tp if name.sequence_parallel else full
    yield Diagnostic(
        "WK504",
        _(
            "pp_comm is {pp_comm} but the file name's {model} gives {expected}: SimAI's "
            "pipeline traffic is off"
        ).format(pp_comm=pp_comm, model=name.model, expected=expected),
        span_,
        fix=set_value("pp_comm", expected, span_),
    )


@_training_check("WK505")
def vpp_matches_preset(ctx: Context, header: Header, name: AicbName) -> Iterator[Diagnostic]:
    preset, expected = name.preset, name.layers_per_stage
    differs = _differs(header, "vpp", expected)
    if preset is None or differs is None:
        return
    vpp, span = differs
    yield Diagnostic(
        "WK505",
        _(
            "vpp is {vpp} but AICB's {model} on pp{pp} has {expected} layers per stage: the "
            "file models {modelled} layers, not {layers}"
        ).format(
            vpp=vpp,
            model=name.model,
            pp=name.pp,
            expected=expected,
            modelled=vpp * name.pp,
            layers=preset.layers,
        ),
        span,
    )


@_training_check("WK506")
def layers_divide_into_stages(ctx: Context, header: Header, name: AicbName) -> Iterator[Diagnostic]:
    preset = name.preset
    if preset is None or name.pp <= 1 or preset.layers % name.pp == 0:
        return
    per_stage = preset.layers // name.pp
    yield Diagnostic(
        "WK506",
        _(
            "pp{pp} does not divide AICB's {model} {layers} layers: the file models "
            "{modelled} layers"
        ).format(pp=name.pp, model=name.model, layers=preset.layers, modelled=per_stage * name.pp),
        _span(header, "vpp", "pp"),
    )
