"""WK504 activation-vs-filename: the activation size in the rows (or pp_comm) does not fit the
run the AICB file name records; why and examples in rules/WK504.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.aicb import AicbName
from wkparse.ast import Header
from wkparse.checks import Context
from wkparse.checks.filename.named_run import training_check
from wkparse.checks.training import read_number, set_value, value_span
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _


@training_check("WK504")
def activation_vs_filename(ctx: Context, header: Header, name: AicbName) -> Iterator[Diagnostic]:
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
