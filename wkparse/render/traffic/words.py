"""What every rendering of `wkparse traffic` says about the model and the run."""

from __future__ import annotations

from wkparse.models.simai.traffic import MODEL, TrafficRun
from wkparse.models.simai.traffic.model import MOCK_COMMIT, SIMAI_COMMIT

PHASES = {"fwd": "forward", "ig": "input-gradient", "wg": "weight-gradient"}


def simai_facts(run: TrafficRun) -> dict[str, object]:
    t = run.topology
    return {
        "model": MODEL,
        "simai_commit": SIMAI_COMMIT,
        "mock": MOCK_COMMIT,
        "checked_against": "../shared/simai-traffic (SimAI_simulator runs of that build)",
        "topology": t.source,
        "gpu_type": t.gpu_type,
        "env": dict(run.env),
        "algorithms": dict(sorted(run.algorithms.items())),
    }


def notes(run: TrafficRun) -> list[str]:
    out = []
    if run.stop is not None:
        out.append(
            "the counts hold the flows completed before the stop, the stopping collective's "
            "own included; SimAI runs one collective at a time, so none after it"
        )
    return out


def stop_line(run: TrafficRun) -> str:
    stop = run.stop
    if stop is None:
        return "finished: every pass completes"
    return (
        f"stops at layer {stop.layer} ({stop.name}), {PHASES[stop.phase]} {stop.collective}: "
        f"{stop.why}"
    )
