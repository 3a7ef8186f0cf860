"""What `explain` says about AICB: the command's file, the file against its command, the name.

Explain states these as notes; the departures themselves are lint's WK6xx findings (which
explain lists where they occur), so this module only counts them, it never compares again.
"""

from __future__ import annotations

from collections.abc import Sequence

from wkparse.aicb.generation import Generated
from wkparse.aicb.names import parse_filename
from wkparse.diagnostics import Diagnostic


def about_command(made: Generated, command: str) -> list[str]:
    """Notes for a file explained from its command alone."""
    where = "the scripts' generator" if made.invocation.via_script else "the generator"
    notes = [
        f"This is the file AICB writes for `{command}` ({where}, 2025-12), "
        f"as {made.directory}{made.filename}, {made.workload.row_count:,} rows."
    ]
    return notes + [f"AICB run: {note}" for note in made.notes]


def against_command(findings: Sequence[Diagnostic], command: str) -> str:
    """The verdict for a file explained together with the command that made it."""
    departures = [d for d in findings if d.code.startswith("WK6")]
    if not departures:
        return f"It matches what AICB writes for `{command}`."
    if any(d.code == "WK601" for d in departures):
        return f"It cannot be compared with AICB's output: {departures[0].message}."
    first = min(departures, key=lambda d: (d.span.line, d.span.column))
    return (
        f"It departs from what AICB writes for `{command}`: {len(departures)} "
        f"{'difference' if len(departures) == 1 else 'differences'} (WK602-WK605), the first "
        f"at line {first.span.line}: {first.message}."
    )


def from_name(path: str | None) -> str | None:
    """What an AICB file name alone records, and what only the command could tell."""
    name = parse_filename(path) if path else None
    if name is None:
        return None
    if name.inference_phase is not None:
        recorded = (
            f"model {name.model}, world size {name.world}, tp {name.tp}, pp {name.pp}, "
            f"ep {name.ep}, batch {name.mbs}, sequence {name.seq}, phase {name.inference_phase}"
        )
    else:
        recorded = (
            f"model {name.model}, world size {name.world}, tp {name.tp}, pp {name.pp}, "
            f"ep {name.ep}, global batch {name.gbs}, micro batch {name.mbs}, sequence "
            f"{name.seq}, MoE {'on' if name.moe else 'off'}"
        )
    return (
        f"The AICB file name records {recorded}; it does not say whether sequence parallelism, "
        "AIOB compute times, recompute or SwiGLU were used: give --aicb-command to compare "
        "the file with what AICB writes."
    )
