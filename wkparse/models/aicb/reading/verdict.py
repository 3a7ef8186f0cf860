"""What `explain` says about AICB: the command's file, the file against its command, the name.

Explain states these as notes; the departures themselves are lint's WK6xx findings (which
explain lists where they occur), so this module only counts them, it never compares again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _, ngettext
from wkparse.models.aicb.names import parse_filename

if TYPE_CHECKING:  # AICB's generator is imported only by what runs it (16 ms)
    from wkparse.models.aicb.generation import Generated


def about_command(made: Generated, command: str) -> list[str]:
    """Notes for a file explained from its command alone."""
    if made.invocation.via_script:
        text = _(
            "This is the file AICB writes for `{command}` (the scripts' generator, 2025-12), "
            "as {path}, {rows} rows."
        )
    else:
        text = _(
            "This is the file AICB writes for `{command}` (the generator, 2025-12), as {path}, "
            "{rows} rows."
        )
    path = f"{made.directory}{made.filename}"
    notes = [text.format(command=command, path=path, rows=f"{made.workload.row_count:,}")]
    return notes + [_("AICB run: {note}").format(note=note) for note in made.notes]


def against_command(findings: Sequence[Diagnostic], command: str) -> str:
    """The verdict for a file explained together with the command that made it."""
    departures = [d for d in findings if d.code.startswith("WK6")]
    if not departures:
        return _("It matches what AICB writes for `{command}`.").format(command=command)
    if any(d.code == "WK601" for d in departures):
        return _("It cannot be compared with AICB's output: {message}.").format(
            message=departures[0].message
        )
    first = min(departures, key=lambda d: (d.span.line, d.span.column))
    return ngettext(
        "It departs from what AICB writes for `{command}`: {n} difference (WK602-WK605), the "
        "first at line {line}: {message}.",
        "It departs from what AICB writes for `{command}`: {n} differences (WK602-WK605), the "
        "first at line {line}: {message}.",
        len(departures),
    ).format(command=command, n=len(departures), line=first.span.line, message=first.message)


def from_name(path: str | None) -> str | None:
    """What an AICB file name alone records, and what only the command could tell."""
    name = parse_filename(path) if path else None
    if name is None:
        return None
    shared = {"model": name.model, "world": name.world, "tp": name.tp, "pp": name.pp, "ep": name.ep}
    if name.inference_phase is not None:
        recorded = _(
            "model {model}, world size {world}, tp {tp}, pp {pp}, ep {ep}, batch {mbs}, "
            "sequence {seq}, phase {phase}"
        ).format(**shared, mbs=name.mbs, seq=name.seq, phase=name.inference_phase)
    else:
        recorded = _(
            "model {model}, world size {world}, tp {tp}, pp {pp}, ep {ep}, global batch {gbs}, "
            "micro batch {mbs}, sequence {seq}, MoE {moe}"
        ).format(
            **shared,
            gbs=name.gbs,
            mbs=name.mbs,
            seq=name.seq,
            moe=_("on") if name.moe else _("off"),
        )
    return _(
        "The AICB file name records {recorded}; it does not say whether sequence parallelism, "
        "AIOB compute times, recompute or SwiGLU were used: give --aicb-command to compare "
        "the file with what AICB writes."
    ).format(recorded=recorded)
