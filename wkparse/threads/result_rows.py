"""The layer rows of a pasted SimAI result CSV (`layer_name,<run>,fwd compute,...`): for each
row and phase (fwd, wg, ig) its total communication time and the algbw and busbw SimAI printed.

Because SimAI prints algbw = size / time (GB = 2^30 B, `Layer::compute_busbw`), a phase's
collective size is about algbw x 2^30 x time: a thread that pastes an analytical result but
not its workload file still shows how large each collective is."""

from __future__ import annotations

import math
from dataclasses import dataclass

from wkparse.models.simai.report import GIB

#: the header's first cell, and the columns of (total comm, algbw, busbw) per phase
_HEAD = "layer_name"
_PHASES = {"fwd": (8, 9, 10), "wg": (11, 12, 13), "ig": (14, 15, 16)}
_WIDTH = 17


@dataclass(frozen=True)
class Phase:
    line: int
    layer: str
    phase: str
    total_us: float
    algbw: float
    busbw: float

    @property
    def size(self) -> float:
        """The collective's bytes, as far as the printed algbw (2 decimals) tells."""
        return self.algbw * GIB * self.total_us / 1e6


def phases(line: int, text: str) -> list[Phase]:
    """The phases with traffic (a time above 0 and a number for algbw) of the layer rows
    under a `layer_name,...` header in `text`; `line` is the text's first line."""
    out: list[Phase] = []
    width = 0
    for offset, raw in enumerate(text.splitlines()):
        cells = [c.strip() for c in raw.split(",")]
        if cells[0] == _HEAD:
            width = len(cells)
            continue
        if width != _WIDTH or len(cells) != _WIDTH:
            continue
        for name, (total, algbw, busbw) in _PHASES.items():
            numbers = [_number(cells[i]) for i in (total, algbw, busbw)]
            if any(n is None for n in numbers):
                continue
            t, a, b = (float(n) for n in numbers if n is not None)
            if t > 0 and a > 0:
                out.append(Phase(line + offset, cells[0], name, t, a, b))
    return out


def _number(cell: str) -> float | None:
    try:
        value = float(cell)
    except ValueError:
        return None
    return value if math.isfinite(value) else None
