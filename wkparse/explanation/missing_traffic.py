"""What an AICB file leaves out of the training it describes: the traffic Megatron-LM runs per
layer that the file does not carry (`wkparse.models.aicb.reading.departures`, against
`wkparse.models.aicb.reading.reference`), by phase and group, with the bytes missing per
micro-batch group and
per iteration. Read with the AICB command's settings when explain was given it, else with what
the file's header and rows say; nothing for a file that is not AICB's training output.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wkparse.explanation.context import Context
from wkparse.explanation.model import MissingTraffic
from wkparse.i18n import _

if TYPE_CHECKING:
    from wkparse.models.aicb.training.args import TrainingArgs


def _args(command: str | None) -> TrainingArgs | None:
    """The training settings of an AICB command (None: none given, or not reproducible); made
    once per run, shared with lint's AICB rules (explain lints the file with the command too)."""
    if command is None:
        return None
    from wkparse.checks.aicb.expected import generated
    from wkparse.models.aicb import Generated
    from wkparse.models.aicb.training.args import TrainingArgs

    made = generated(command)
    if isinstance(made, Generated) and isinstance(made.args, TrainingArgs):
        return made.args
    return None


def missing_traffic(ctx: Context) -> tuple[tuple[MissingTraffic, ...], str | None]:
    """Each collective the file leaves out, and whether the command or the file set the reading."""
    if ctx.dialect != "transformer":
        return (), None
    from wkparse.models.aicb.reading.departures import read

    args = _args(ctx.aicb_command)
    reading = read(ctx.w, ctx.body, args)
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
