"""`wkparse traffic` as text: the model, where the run ends, totals, by dimension, the busiest
pairs and the rings."""

from __future__ import annotations

from wkparse.ast import PHASE_WORDS
from wkparse.models.simai.traffic import MODEL, TrafficRun
from wkparse.render.traffic.words import notes, stop_line, switches

BUSIEST = 10
LAYERS_SHOWN = 5
RINGS_SHOWN = 4


def render(run: TrafficRun, path: str) -> str:
    t = run.topology
    intra, intra_flows, inter, inter_flows = run.server_split()
    out = [
        # the outcome first, as simai's first line gives it
        f"{path}: {stop_line(run)} (GPU traffic in SimAI_simulator's flow model)",
        f"model: {MODEL}",
        f"topology: {t.gpus} GPUs, {t.gpus_per_server} per server, "
        f"{switches(t.nvswitches)}, "
        f"{t.gpu_type or '(no GPU type)'} ({t.source})",
    ]
    if run.env:
        out.append("environment: " + " ".join(f"{k}={v}" for k, v in sorted(run.env.items())))
    out += [f"note: {n}" for n in notes(run)]
    out += [
        "",
        f"total: {run.total_bytes:,} B in {run.total_flows:,} flows",
        f"  GPU to GPU inside a server: {intra:,} B in {intra_flows:,} flows",
        f"  GPU to GPU between servers: {inter:,} B in {inter_flows:,} flows",
    ]
    sent = [b for n, b in run.sent_by_node().items() if n < t.gpus]
    received = [b for n, b in run.received_by_node().items() if n < t.gpus]
    if sent:
        out.append(f"  each GPU sends {_span(sent, t.gpus)} and receives {_span(received, t.gpus)}")
    non_gpu = run.non_gpu()
    if non_gpu:
        b = sum(v[0] for (s, d), v in run.pairs.items() if max(s, d) >= t.gpus)
        f = sum(v[1] for (s, d), v in run.pairs.items() if max(s, d) >= t.gpus)
        out.append(f"  GPU and NVSwitch (NVLS): {b:,} B in {f:,} flows")
    if run.by_dimension:
        out += ["", "by dimension:"]
        for kind, (b, f) in sorted(run.by_dimension.items()):
            algorithms = sorted(
                {a for k, a in run.algorithms.items() if k.split("_", 1)[1] == kind}
            )
            out.append(f"  {kind:6} {b:>16,} B {f:>12,} flows  ({', '.join(algorithms)})")
        out += ["", "by phase:"]
        for phase, (b, f) in run.by_phase().items():
            out.append(f"  {PHASE_WORDS[phase]:15} {b:>16,} B {f:>12,} flows")
    layers = sorted(run.by_layer, key=lambda x: (-x.bytes, x.first))[:LAYERS_SHOWN]
    if layers:
        out += ["", "most bytes by layer and phase:"]
        for x in layers:
            what = f"{x.name} {PHASE_WORDS[x.phase]} {x.collective} ({x.group})"
            times = f"x {x.collectives:,}"
            out.append(f"  {what:48} {times:>9} {x.bytes:>16,} B {x.flows:>10,} flows")
    pairs = sorted(run.pairs.items(), key=lambda kv: (-kv[1][0], kv[0]))[:BUSIEST]
    if pairs:
        out += ["", f"busiest pairs (of {sum(1 for v in run.pairs.values() if v[1])}):"]
        for (s, d), (b, f) in pairs:
            where = _where(run, s, d)
            out.append(f"  {s:>5} -> {d:<5} {b:>16,} B {f:>10,} flows  {where}")
    rings = run.rings()
    if rings:
        out += ["", "rings (channel 0; the other channels rotate each server's part):"]
        for kind, groups in rings.items():
            out.append(f"  {kind}: {len(groups)} groups")
            for g in groups[:RINGS_SHOWN]:
                ring = " -> ".join(str(r) for r in g.order)
                servers = "1 server" if g.servers == 1 else f"{g.servers} servers"
                out.append(f"    {ring} -> back; {g.channels} channels, {servers}")
            if len(groups) > RINGS_SHOWN:
                out.append(f"    ... {len(groups) - RINGS_SHOWN} more")
    return "\n".join(out) + "\n"


def _span(values: list[int], gpus: int) -> str:
    """`N B` when every GPU has the same, else `N to M B`."""
    low = 0 if len(values) < gpus else min(values)
    high = max(values)
    return f"{high:,} B" if low == high else f"{low:,} to {high:,} B"


def _where(run: TrafficRun, s: int, d: int) -> str:
    t = run.topology
    if s >= t.gpus or d >= t.gpus:
        return "NVSwitch"
    return "same server" if t.server(s) == t.server(d) else "between servers"
