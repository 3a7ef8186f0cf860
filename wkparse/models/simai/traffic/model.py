"""One run of a workload file through SimAI_simulator's flow model: every flow counted (never
listed) per node pair, walked in the order the run issues collectives, up to where it stops.

Order: every layer's forward collective from the first layer, then from the last layer back
each layer's input-gradient then weight-gradient collective (the order `ns3.walk` uses). A run
stops at the first collective that never completes (no flows, NVLS across servers, a PXN
reduce-scatter), a compute time SimAI's `int` cuts, or a crash (`ns3.simulate_ns3`); the
flows of the collectives before it are counted, nothing after it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from wkparse.ast import PHASE_WORDS
from wkparse.models.simai.ns3 import Ns3Run, Step, simulate_ns3
from wkparse.models.simai.tables import ComType, GroupType
from wkparse.models.simai.traffic import groups as group_layout
from wkparse.models.simai.traffic import rings
from wkparse.models.simai.traffic.collectives import Env, NotModelled, Part, Plan, plan
from wkparse.models.simai.traffic.groups import Layout, LayoutError
from wkparse.models.simai.traffic.topology import Topology
from wkparse.models.simai.versions import DEFAULT, SimaiVersion

#: the recorded build the model was checked against
MODEL = (
    "SimAI's flow model (the mock NCCL layer of SimAI_simulator, the ns-3 backend) as the "
    "recorded build runs it: SimAI cef83f9 with SimAI 1.6's mock (632e1469^), since SimCCL's "
    "pinned commit is not published"
)
SIMAI_COMMIT = "cef83f9ddd96540e3e9f48934f11335d52d54fce"
MOCK_COMMIT = "632e1469^ (f5efb5a9)"


class TrafficError(ValueError):
    """Why no traffic can be told for this file and topology, in one line."""


@dataclass(frozen=True, slots=True)
class Stop:
    """Where and why the run stops before every pass finished."""

    layer: int
    name: str
    phase: str
    #: the comm word as the file has it (ALLREDUCE, REDUCESCATTER_DP_EP, ...)
    collective: str
    why: str
    #: SimAI's exit status then (0: it runs out of events; 139: SIGSEGV)
    exit_code: int = 0


@dataclass(slots=True)
class LayerTraffic:
    """The collectives of one layer name in one phase (`attention_layer`'s forward
    ALLREDUCE, ...): how many ran, the first layer, their flows. Kept per name, not per row,
    so a million rows of a few kinds cost a few entries."""

    name: str
    phase: str
    collective: str
    group: str
    first: int
    collectives: int = 0
    bytes: int = 0
    flows: int = 0


@dataclass(frozen=True, slots=True)
class Ring:
    """One group's ring: channel 0's order from its first rank."""

    ranks: tuple[int, ...]
    servers: int
    channels: int
    order: tuple[int, ...]


@dataclass
class _Tally:
    """Per part: collectives run, and the sum of their bytes per flow."""

    count: int = 0
    flow_bytes: int = 0


@dataclass
class TrafficRun:
    """The traffic of one run: node pairs (GPUs, and NVSwitches under NVLS) with bytes and
    flows, and where it came from."""

    topology: Topology
    layout: Layout
    env: dict[str, str]
    stop: Stop | None
    #: (src, dst) -> [bytes, flows], every node
    pairs: dict[tuple[int, int], list[int]]
    by_dimension: dict[str, list[int]]
    by_layer: list[LayerTraffic]
    #: dimension (TP, DP, EP, DP_EP) -> (src, dst) -> [bytes, flows]
    pairs_by_dimension: dict[str, dict[tuple[int, int], list[int]]] = field(default_factory=dict)
    #: the algorithm each collective took (`ALLREDUCE_TP`: ring, NVLS, PXN ring, direct)
    algorithms: dict[str, str] = field(default_factory=dict)
    #: bytes of a flow -> flows of that size, over the run
    sizes: Counter[int] = field(default_factory=Counter)
    #: the flows the stopping collective completed before the run stopped
    stop_flows: int = 0

    @property
    def finished(self) -> bool:
        return self.stop is None

    def matrix(self) -> list[list[int]]:
        """`[src, dst, bytes, flows]` for GPU pairs, sorted."""
        g = self.topology.gpus
        return [
            [s, d, b, f] for (s, d), (b, f) in sorted(self.pairs.items()) if s < g and d < g and f
        ]

    def non_gpu(self) -> list[list[object]]:
        """`[src, dst, src_kind, dst_kind, bytes, flows]` for pairs with an NVSwitch."""
        t = self.topology
        return [
            [s, d, t.kind(s), t.kind(d), b, f]
            for (s, d), (b, f) in sorted(self.pairs.items())
            if (s >= t.gpus or d >= t.gpus) and f
        ]

    @property
    def total_flows(self) -> int:
        return sum(f for _, f in self.pairs.values())

    @property
    def total_bytes(self) -> int:
        return sum(b for b, _ in self.pairs.values())

    def by_phase(self) -> dict[str, list[int]]:
        """Bytes and flows of the forward, input-gradient and weight-gradient collectives."""
        out: dict[str, list[int]] = {}
        for x in self.by_layer:
            cell = out.setdefault(x.phase, [0, 0])
            cell[0] += x.bytes
            cell[1] += x.flows
        return {p: out[p] for p in ("fwd", "ig", "wg") if p in out}

    def flow_sizes(self) -> list[list[int]]:
        """`[bytes, flows]` per flow size over every flow, smallest first."""
        return [[size, n] for size, n in sorted(self.sizes.items())]

    def server_split(self) -> tuple[int, int, int, int]:
        """GPU-GPU (intra bytes, intra flows, inter bytes, inter flows)."""
        t = self.topology
        ib = iflows = xb = xflows = 0
        for s, d, b, f in self.matrix():
            if t.server(s) == t.server(d):
                ib, iflows = ib + b, iflows + f
            else:
                xb, xflows = xb + b, xflows + f
        return ib, iflows, xb, xflows

    def sent_by_node(self) -> dict[int, int]:
        """Bytes each node sends (SimAI's `All data sent from node N is B` lines)."""
        out: Counter[int] = Counter()
        for (s, _), (b, _) in self.pairs.items():
            out[s] += b
        return {n: b for n, b in sorted(out.items()) if b}

    def received_by_node(self) -> dict[int, int]:
        out: Counter[int] = Counter()
        for (_, d), (b, _) in self.pairs.items():
            out[d] += b
        return {n: b for n, b in sorted(out.items()) if b}

    def rings(self) -> dict[str, list[Ring]]:
        """Each built group's ring in channel 0's order, from its first rank, and its channel
        count (every other channel is a rotation of the same in-server cycle)."""
        out: dict[str, list[Ring]] = {}
        for kind, groups in self.layout.groups.items():
            listed = []
            for g in groups:
                chans = rings.channels(g)
                nxt = {m.rank: m.next for m in chans[0]}
                order = [chans[0][0].rank]
                while len(order) < len(nxt) and nxt[order[-1]] != order[0]:
                    order.append(nxt[order[-1]])
                listed.append(Ring(tuple(sorted(g.ranks)), g.servers, len(chans), tuple(order)))
            out[kind.value] = listed
        return out


def model_traffic(
    data: bytes,
    topology: Topology,
    env: dict[str, str] | None = None,
    version: SimaiVersion = DEFAULT,
) -> TrafficRun:
    """The flows SimAI_simulator's flow model makes for `data` on `topology`. Raises
    TrafficError (the file or the layout cannot run) or NotModelled."""
    env = dict(env or {})
    if version is not DEFAULT:
        raise TrafficError(f"the traffic model describes SimAI {DEFAULT.short} only")
    ns3 = simulate_ns3(data, topology.gpus, version, topology.gpus_per_server)
    if ns3.groups is None or ns3.reading.rows is None:
        raise TrafficError(
            f"SimAI_simulator makes no traffic: {ns3.outcome.message.splitlines()[0]}"
        )
    h = ns3.reading.header
    try:
        layout = group_layout.build(
            topology.gpus, topology.gpus_per_server, topology.nvswitches, h.held("tp"), h.held("ep")
        )
    except LayoutError as exc:
        raise TrafficError(str(exc)) from exc
    return _Walker(ns3, topology, layout, env).run()


class _Walker:
    def __init__(self, ns3: Ns3Run, topology: Topology, layout: Layout, env: dict[str, str]):
        self.ns3 = ns3
        self.topology = topology
        self.layout = layout
        self.env = env
        self.flags = Env.of(env)
        self.plans: dict[tuple[ComType, GroupType], Plan] = {}
        self.tallies: dict[int, tuple[Part, _Tally]] = {}
        self.by_layer: dict[tuple[str, str, str, str], LayerTraffic] = {}
        self.sizes: Counter[int] = Counter()
        self.stop_flows = 0

    def plan_of(self, com: ComType, kind: GroupType) -> Plan:
        key = (com, kind)
        found = self.plans.get(key)
        if found is None:
            found = self.plans[key] = plan(com, kind, self.layout, self.topology, self.flags)
        return found

    def run(self) -> TrafficRun:
        stop = self._walk()
        pairs: dict[tuple[int, int], list[int]] = {}
        dims: dict[str, list[int]] = {}
        by_dim: dict[str, dict[tuple[int, int], list[int]]] = {}
        for part, tally in self.tallies.values():
            if not tally.count:
                continue
            mine = by_dim.setdefault(part.kind.value, {})
            for pair, n in part.flows.items():
                for table in (pairs, mine):
                    cell = table.setdefault(pair, [0, 0])
                    cell[0] += n * tally.flow_bytes
                    cell[1] += n * tally.count
            dim = dims.setdefault(part.kind.value, [0, 0])
            dim[0] += part.total_flows * tally.flow_bytes
            dim[1] += part.total_flows * tally.count
        algorithms = {f"{c.value}_{k.value}": p.algorithm for (c, k), p in self.plans.items()}
        return TrafficRun(
            self.topology,
            self.layout,
            self.env,
            stop,
            pairs,
            dims,
            list(self.by_layer.values()),
            dict(sorted(by_dim.items())),
            algorithms,
            self.sizes,
            self.stop_flows if stop is not None else 0,
        )

    def _walk(self) -> Stop | None:
        ns3 = self.ns3
        assert ns3.reading.rows is not None
        layers = ns3.reading.rows.layers.layers
        halt = ns3.halt
        order = [(i, "fwd") for i in range(len(layers))]
        if halt is not None and halt.index >= len(layers):
            # in the layers made after the stream failed: after every read layer's forward
            # pass (its backward pass starts with them)
            for i, phase in order:
                if (stop := self._collective(i, phase)) is not None:
                    return stop
            return self._halted(halt.index, halt.phase)
        for i in reversed(range(len(layers))):
            order += [(i, "ig"), (i, "wg")]
        for i, phase in order:
            if halt is not None and (halt.index, halt.phase) == (i, phase):
                return self._halted(i, phase)
            if (stop := self._collective(i, phase)) is not None:
                return stop
        return None

    def _layer_name(self, index: int) -> str:
        rows = self.ns3.reading.rows
        assert rows is not None
        table = rows.layers
        layer = table.layers[index] if index < len(table.layers) else table.tail
        return (layer.name if layer is not None else "") or "(empty)"

    def _halted(self, index: int, phase: str) -> Stop:
        """The stop `ns3.simulate_ns3` finds: a compute time that never fires, or a crash."""
        ns3 = self.ns3
        rows = ns3.reading.rows
        assert rows is not None
        table = rows.layers
        layer = table.layers[index] if index < len(table.layers) else table.tail
        assert layer is not None
        read = layer.phase(phase)
        return Stop(
            index,
            self._layer_name(index),
            phase,
            read.comm,
            ns3.outcome.message.splitlines()[0],
            ns3.outcome.exit_code,
        )

    def _collective(self, index: int, phase: str) -> Stop | None:
        rows = self.ns3.reading.rows
        assert rows is not None
        layer = rows.layers.layers[index]
        step: Step = self.ns3.steps(layer).phase(phase)
        if not step.runs or step.crashes or step.size is None:
            return None
        size = step.size
        p = self.plan_of(step.type, step.group)
        name = self._layer_name(index)
        comm = layer.phase(phase).comm
        flows = total = 0
        never: list[str] = []
        counted = p.done_before_stall if p.stalls is not None else p.parts
        for part in counted:
            if part.never is not None:
                never.append(part.never)
                continue
            fs = part.flow_size(size)
            if part.ring and fs == 0:
                never.append(
                    f"each flow would be {size} B / {part.divisors[0]} ranks / "
                    f"{part.divisors[1]} channels = 0 B: the mock makes no flow and the "
                    "collective never completes"
                )
                continue
            tally = self.tallies.setdefault(id(part), (part, _Tally()))[1]
            tally.count += 1
            tally.flow_bytes += part.wire(fs)
            flows += part.total_flows
            total += part.total_flows * part.wire(fs)
            self.sizes[part.wire(fs)] += part.total_flows
        if flows:
            key = (name, phase, comm, step.group.value)
            entry = self.by_layer.get(key)
            if entry is None:
                entry = self.by_layer[key] = LayerTraffic(
                    name, phase, comm, step.group.value, index
                )
            entry.collectives += 1
            entry.bytes += total
            entry.flows += flows
        self.stop_flows = flows
        if never:
            why = (
                f"{PHASE_WORDS[phase]} {comm} of {size} B in {step.group.value} groups: {never[0]}"
            )
            return Stop(index, name, phase, comm, why)
        if p.stalls is not None:
            why = (
                f"{PHASE_WORDS[phase]} {comm} of {size} B in {step.group.value} groups: {p.stalls}"
            )
            return Stop(index, name, phase, comm, why)
        return None


__all__ = [
    "MODEL",
    "LayerTraffic",
    "NotModelled",
    "Stop",
    "TrafficError",
    "TrafficRun",
    "model_traffic",
]
