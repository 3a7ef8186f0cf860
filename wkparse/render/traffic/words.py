"""What every rendering of `wkparse traffic` says about the model and the run."""

from __future__ import annotations

from wkparse.ast import PHASE_WORDS
from wkparse.models.simai.traffic import MODEL, TrafficRun
from wkparse.models.simai.traffic.model import MOCK_COMMIT, SIMAI_COMMIT


def switches(n: int) -> str:
    """`1 NVSwitch`, `2 NVSwitches`."""
    return f"{n:,} NVSwitch" if n == 1 else f"{n:,} NVSwitches"


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
    collective = f"{PHASE_WORDS[stop.phase]} {stop.collective}"
    # the model's own reasons name the collective first; a halt's (ns-3's message) does not
    why = stop.why if stop.why.startswith(collective) else f"{collective}: {stop.why}"
    return f"stops at layer {stop.layer} ({stop.name}), {why}"


#: ranks of a ring shown in one sentence before it is cut
RING_SHOWN = 8


def who_talks(run: TrafficRun) -> str:
    """One sentence for explain: where SimAI-Simulation's bytes go, and the rings."""
    t = run.topology
    intra, _, inter, _ = run.server_split()
    nvls = sum(b for (s, d), (b, _) in run.pairs.items() if max(s, d) >= t.gpus)
    total = intra + inter + nvls
    if not total:
        where = "no collective moves bytes"
    else:
        parts = [f"{intra:,} B stay inside servers", f"{inter:,} B cross between them"]
        if nvls:
            parts.append(f"{nvls:,} B go through the NVSwitches (NVLS)")
        where = ", ".join(parts) + f" ({100 * inter / total:.0f}% between servers)"
    rings = []
    for kind, groups in run.rings().items():
        if kind not in run.by_dimension or not groups:
            continue
        first = groups[0]
        shown = " -> ".join(str(r) for r in first.order[:RING_SHOWN])
        more = " -> ..." if len(first.order) > RING_SHOWN else ""
        rings.append(f"{kind} {shown}{more} -> {first.order[0]} ({first.channels} channels)")
    said = (
        f"Who talks to whom in SimAI-Simulation on {t.gpus} GPUs, {t.gpus_per_server} per "
        f"server: {where}"
    )
    if rings:
        said += "; first rings: " + "; ".join(rings)
    if run.stop is not None:
        said += f"; the flows stop at layer {run.stop.layer} ({run.stop.name})"
    return said + " (wkparse traffic gives the GPU x GPU matrix)."
