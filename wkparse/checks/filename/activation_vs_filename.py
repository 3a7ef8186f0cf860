"""WK504 activation-vs-filename: the activation size in the rows (or pp_comm) does not fit the
run the AICB file name records; why and examples in rules/WK504.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import Header
from wkparse.checks import Context
from wkparse.checks.filename.named_run import training_check
from wkparse.checks.training import set_value, value_span
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.aicb import AicbName
from wkparse.models.aicb.formulas import activation as activation_bytes
from wkparse.models.aicb.formulas import hidden_of, pp_comm_bytes
from wkparse.models.simai.tokens import header_value


@training_check("WK504")
def activation_vs_filename(ctx: Context, header: Header, name: AicbName) -> Iterator[Diagnostic]:
    body = ctx.body
    preset = name.preset
    activation, row = body.activation_bytes, body.activation_row
    if activation is not None and row is not None:
        span = ctx.workload.rows[row].span("fwd_size")
        hidden = hidden_of(activation, name.mbs, name.seq)
        if hidden is None:
            yield Diagnostic(
                "WK504",
                _(
                    "activation size {activation} is not 2 * mbs{mbs} * seq{seq} * hidden: the "
                    "rows are for another batch or sequence than the name says"
                ).format(activation=activation, mbs=name.mbs, seq=name.seq),
                span,
            )
        elif preset is not None and hidden != preset.hidden:
            yield Diagnostic(
                "WK504",
                _(
                    "activation size {activation} means hidden size {hidden}, but AICB's "
                    "{model} has {expected}: the rows model another model"
                ).format(
                    activation=activation,
                    hidden=hidden,
                    model=name.model,
                    expected=preset.hidden,
                ),
                span,
            )
        return
    # no row carries the activation (TP 1): pp_comm is the only trace of it
    pp_comm, span_ = header_value(header, "pp_comm"), value_span(header, "pp_comm")
    if preset is None or name.pp <= 1 or pp_comm is None or span_ is None:
        return
    full = activation_bytes(name.mbs, name.seq, preset.hidden)
    expected = pp_comm_bytes(full, name.tp, sequence_parallel=name.sequence_parallel)
    # AICB before 2025-01-02 wrote the whole activation under sequence parallelism too
    if pp_comm in (expected, full):
        return
    yield Diagnostic(
        "WK504",
        _(
            "pp_comm is {pp_comm} but the file name's {model} gives {expected}: SimAI's "
            "pipeline traffic is off"
        ).format(pp_comm=pp_comm, model=name.model, expected=expected),
        span_,
        fix=set_value("pp_comm", expected, span_),
    )
