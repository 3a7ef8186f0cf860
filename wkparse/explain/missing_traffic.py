"""What an AICB file leaves out of the training it describes: the traffic Megatron-LM runs per
layer that the file does not carry (`wkparse.aicb.departures`, against
`wkparse.aicb.reference`), by phase and group, with the bytes missing per micro-batch group and
per iteration. Read with the AICB command's settings when explain was given it, else with what
the file's header and rows say; nothing for a file that is not AICB's training output.
"""

from __future__ import annotations

from wkparse.explain.context import Context
from wkparse.explain.model import MissingTraffic
from wkparse.i18n import _


def _args(command: str | None) -> object | None:
    """The training settings of an AICB command (None: none given, or not reproducible)."""
    if command is None:
        return None
    from wkparse.aicb import AicbError, generate
    from wkparse.aicb.training_args import TrainingArgs

    try:
        made = generate(command)
    except AicbError:
        return None
    return made.args if isinstance(made.args, TrainingArgs) else None


def missing_traffic(ctx: Context) -> tuple[tuple[MissingTraffic, ...], str | None]:
    """Each collective the file leaves out, and whether the command or the file set the reading."""
    if ctx.dialect != "transformer":
        return (), None
    from wkparse.aicb.departures import read
    from wkparse.aicb.training_args import TrainingArgs

    args = _args(ctx.aicb_command)
    reading = read(ctx.w, ctx.body, args if isinstance(args, TrainingArgs) else None)
    if reading is None:
        return (), None
    rows = ctx.w.rows
    out = []
    for d in reading.departures:
        want = d.expected
        out.append(
            MissingTraffic(
                block=d.block,
                phase=want.phase,
                group=want.group,
                collective=want.kind,
                what=_(want.what),
                source=want.source,
                blocks=d.blocks,
                of=d.of,
                zero=d.zero,
                size=want.size,
                per_group_bytes=d.missing,
                per_iteration_bytes=reading.per_iteration(d),
                instead=d.instead,
                issue=d.issue,
                line=rows[d.row].line,
            )
        )
    return tuple(out), "command" if args is not None else "file"
