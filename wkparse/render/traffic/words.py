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
    stop = run.stop
    if stop is not None and not stop.partial_known:
        out.append(
            f"the {stop.collective} of layer {stop.layer} completes some of its flows before "
            "the run stalls; those are not modelled and not counted here"
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
