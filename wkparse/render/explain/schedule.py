"""One iteration's pipeline schedule as blocks on a time line, for the SVG and Mermaid pictures.

SimAI runs the same rows for every micro-batch on every stage and adds the bubble,
(PP-1)/(GA*vpp) of the layer time, as one lump. The plan spreads that idle time the way a
pipeline does (a stage waits for the stages before it, then idles after its last micro-batch),
so every stage idles exactly the bubble. At most `MAX_SLOTS` micro-batches and `MAX_STAGES`
stages are laid out; one `more` block stands for the micro-batches in between.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wkparse.explanation import Explanation, RowNote

MAX_SLOTS = 12
MAX_STAGES = 8


def shown_indices(n: int, limit: int) -> list[int | None]:
    """Indices 0..n-1, or the first ones, None (an ellipsis) and the last when n > limit."""
    if n <= limit:
        return list(range(n))
    head = limit - 2
    return [*range(head), None, n - 1]


@dataclass(frozen=True, slots=True)
class Block:
    #: fwd, bwd, bubble, or more (the micro-batches not laid out)
    kind: str
    start: float
    end: float
    #: 1-based micro-batch of a fwd or bwd block; for `more`, how many it stands for
    micro_batch: int


@dataclass(frozen=True)
class Schedule:
    pp: int
    ga: int
    #: forward : backward drawn 1 : 2 because the file's compute times are placeholders
    placeholder: bool
    #: (stage, its blocks) in order; stage None is an ellipsis for the stages not laid out
    stages: tuple[tuple[int | None, tuple[Block, ...]], ...]
    #: the time line's length, in the compute time's unit (ns, or placeholder units)
    span: float


def plan(e: Explanation) -> Schedule | None:
    """The schedule of a training file with micro-batch groups, None for any other file."""
    rows = e.structure.reference
    if not rows or not e.ga or e.ga < 1 or e.dialect != "transformer":
        return None
    fwd, bwd = _micro_batch_ns(rows)
    placeholder = e.placeholder_compute or not fwd + bwd
    if placeholder:
        fwd, bwd = 1, 2
    pp = e.pp if e.pp and e.pp > 0 else 1
    slots = shown_indices(e.ga, MAX_SLOTS)
    idle = (pp - 1) / e.vpp if e.vpp and pp > 1 else 0.0
    stages: list[tuple[int | None, tuple[Block, ...]]] = []
    for s in shown_indices(pp, MAX_STAGES):
        if s is None:
            stages.append((None, ()))
            continue
        blocks: list[Block] = []
        lead = s * idle * fwd / (pp - 1) if pp > 1 else 0.0
        t = 0.0
        if lead:
            blocks.append(Block("bubble", 0.0, lead, 0))
            t = lead
        for m in slots:
            if m is None:
                blocks.append(Block("more", t, t + fwd + bwd, e.ga - len(slots) + 1))
                t += fwd + bwd
                continue
            blocks.append(Block("fwd", t, t + fwd, m + 1))
            blocks.append(Block("bwd", t + fwd, t + fwd + bwd, m + 1))
            t += fwd + bwd
        trail = idle * (fwd + bwd) - lead
        if trail:
            blocks.append(Block("bubble", t, t + trail, 0))
        stages.append((s, tuple(blocks)))
    span = (len(slots) + idle) * (fwd + bwd)
    return Schedule(pp, e.ga, placeholder, tuple(stages), span) if span > 0 else None


def _micro_batch_ns(rows: Sequence[RowNote]) -> tuple[int, int]:
    """Forward and backward (input- plus weight-gradient) compute of one micro-batch group."""
    fwd = bwd = 0
    for row in rows:
        for ph in row.phases:
            if ph.phase == "fwd":
                fwd += ph.compute_ns or 0
            else:
                bwd += ph.compute_ns or 0
    return fwd, bwd
