"""`wkparse traffic --format csv`: `src,dst,bytes,flows`, one line per node pair with flows
(node ids from 0; ids from the GPU count up are NVSwitches)."""

from __future__ import annotations

from wkparse.models.simai.traffic import TrafficRun


def render(run: TrafficRun) -> str:
    lines = ["src,dst,bytes,flows"]
    lines += [f"{s},{d},{b},{f}" for (s, d), (b, f) in sorted(run.pairs.items()) if f]
    return "\n".join(lines) + "\n"
