"""WK901 known-generator-defect: an AICB file leaves out traffic the training it describes runs
(Megatron-LM's per-layer collectives, `wkparse.models.aicb.reading.reference`); why and examples in
rules/WK901.toml. Opt-in: the file is what AICB writes, and SimAI reads it as written.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.checks.aicb.expected import expected
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import N_, _

CODE = "WK901"

#: how messages name the blocks (translated where shown)
BLOCKS = {
    "attention": N_("attention"),
    "mlp": N_("MLP"),
    "moe": N_("MoE"),
}


@file_check(CODE)
def known_generator_defect(ctx: Context) -> Iterator[Diagnostic]:
    from wkparse.models.aicb.reading.departures import read
    from wkparse.models.aicb.training.args import TrainingArgs

    made = expected(ctx)
    args = made.args if made is not None and isinstance(made.args, TrainingArgs) else None
    reading = read(ctx.workload, ctx.body, args)
    if reading is None:
        return
    rows = ctx.workload.rows
    for d in reading.departures:
        want = d.expected
        collective = f"{want.phase} {want.group} {want.kind}"
        size = _(", {size} B each").format(size=want.size) if want.size else ""
        if d.block == "gradients":
            if d.instead:
                text = _(
                    "AICB leaves out {collective} ({what}) of the gradient step{size}; it writes "
                    "{instead} instead"
                )
            else:
                text = _("AICB leaves out {collective} ({what}) of the gradient step{size}")
        elif d.zero:
            text = _(
                "AICB writes {collective} ({what}) with 0 bytes in {n} of {of} {block} blocks per "
                "micro-batch; Megatron-LM moves {bytes} B each"
            )
        else:
            text = _(
                "AICB leaves out {collective} ({what}) in {n} of {of} {block} blocks per "
                "micro-batch{size}"
            )
        message = text.format(
            collective=collective,
            what=_(want.what),
            size=size,
            instead=d.instead,
            n=d.blocks,
            of=d.of,
            block=_(BLOCKS.get(d.block, d.block)),
            bytes=want.size if want.size is not None else "?",
        )
        if d.issue:
            message += _(" (see {issue})").format(issue=d.issue)
        yield Diagnostic(CODE, message, rows[d.row].span(f"{want.phase}_comm"))
