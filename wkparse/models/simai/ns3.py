"""What SimAI-Simulation, the ns-3 backend (`SimAI_simulator -w FILE -n TOPO -c CONF`), does
with a file, checked against runs of the real program (aliyun/SimAI cef83f9, recorded in
`../shared/simai-ns3-oracle/`; b83ea3d4, 02532997 and 7f06c19c in
`../shared/simai-ns3-versions/`, whose endings `ns3_endings` words).

It reads the file with the same code as SimAI-Analytical (`Workload.cc`), so the reading is
`wkparse.models.simai.run.simulate`'s. What differs comes after the reading:

- **Groups.** The GPU count is the topology's (`-g` here, default `all_gpus`). The mock NCCL
  layer builds TP groups of `tp` ranks, DP groups of GPUs / TP (pipeline stages ignored), EP
  groups of `ep` and DP_EP groups of DP / EP, each only when it has more than one rank; EP and
  DP_EP groups are carved out of the TP groups, so with `tp` 1 none is built and every node
  logs "No corresponding group information" once per such group type.
- **Which collectives move bytes.** Forward and input-gradient collectives run in the
  model-parallel dimensions, weight-gradient ones in the data-parallel ones. With `tp` 1 there
  is no model-parallel dimension: every forward and input-gradient collective is skipped
  ("all dims disabled") and costs nothing; with `tp` = GPUs there is no data-parallel one.
- **The crash.** A collective that does move bytes in a group that was never built (the EP
  group of `ep: 1`) dereferences a missing communicator: SIGSEGV, exit 139, at the first such
  row. Measured on `ALLTOALL_EP` rows; other missing groups are left out (not recorded).
- **Older SimAIs** (`versions.SWITCHES`, backend "ns3"). Before 02532997 the ns-3 reader
  knows only the plain comm names (an `_EP`/`_DP_EP` one is no collective) and a plain
  ALLTOALL aborts the run once issued (exit 134). A collective of 1-4095 B is issued and never
  completes: the run stops silently there; 7f06c19c raises forward sizes to 4096 B, not the
  input- and weight-gradient ones. The EndToEnd CSV has no summary lines before 7f06c19c.
- **The silent stop.** A compute time that is 2^31 ns or more once scaled through a 32-bit
  float is cut to an `int` when its event is scheduled, while the event is filed under the
  uncut time: the event never fires, the workload stalls, ns-3 runs out of events and the
  program exits 0 with no pass finished and no results.
- **Outputs.** The EndToEnd CSV is created empty at the start and written only at the end;
  the detailed CSV and `send.txt` stay empty; the dimension-utilization CSV exists only after a
  finished run. A missing `vpp:` makes only the bubble time NaN (the total stays a number).
- **Run time is bytes.** Every collective becomes packets; see `RATE_BYTES_PER_S`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from wkparse.ast import PHASE_WORDS
from wkparse.i18n import N_, _
from wkparse.models.simai import ns3_endings, outcome
from wkparse.models.simai.analytical import FORWARD_MINIMUM, Groups, PhasePlan, plan_phase
from wkparse.models.simai.outcome import Outcome
from wkparse.models.simai.rows import LayerRead, PhaseRead
from wkparse.models.simai.run import SimaiRun, simulate
from wkparse.models.simai.tables import FWD_IN_BCKWD, ComType, GroupType, decode_comm
from wkparse.models.simai.timeline import INT_LIMIT, cut_int
from wkparse.models.simai.versions import DEFAULT, SimaiVersion

#: SimAI's topology generator puts 8 GPUs (and one NVSwitch) in a server unless told otherwise
GPUS_PER_SERVER = 8
#: a scaled compute time at or above this is cut to a different `int` when scheduled
STOP_COMPUTE_NS = INT_LIMIT
#: the least compute that scales to STOP_COMPUTE_NS: the 32-bit float tie rounds up to even
STOP_FROM = STOP_COMPUTE_NS - 64
#: the run time of the recordings (`timeout 300`): a run estimated past it gets a warning
BUDGET_S = 300.0
#: Packets simulated per wall second, as bytes on the wire (the sum over GPUs of what each
#: sends, SimAI's `All data sent from node` lines, which `wire_bytes` reproduces exactly on
#: every finished recording): the fastest rate any recording reached, rounded up.
#: `mixtral_ep1` run2 moved 60.2 GB (row 0's 4.9 GB TP all-gather, then rows 1-4) before it
#: crashed at 87.3 s: 0.69 GB/s, on a 2-core machine in a debug build. The finished runs
#: were slower (0.03-0.15 GB/s: `micro` 1.17 GB in 7.8-9.0 s, `small__big_colls_div1024`
#: 0.57 GB in 5.1 s, `mixtral_ep2__div1024` 2.64 GB in 87.9 s: many small flows cost more
#: per byte). So bytes / this rate is a lower bound on the wall time, not a forecast.
RATE_BYTES_PER_S = 700e6
#: the run-folder outputs, `{nodes}` being GPUs + NVSwitches
END_TO_END = "ncclFlowModel_EndToEnd.csv"
DETAILED = "ncclFlowModel_detailed_{nodes}.csv"
UTILIZATION = "ncclFlowModel_test1_dimension_utilization_0.csv"
SEND = "send.txt"
#: SimAI's fixed paths (SimAI.conf and MockNcclLog)
FCT = "/etc/astra-sim/simulation/llama_hpn7_fct.txt"
PFC = "/etc/astra-sim/simulation/llama_hpn7_pfc.txt"
TRACE = "/etc/astra-sim/simulation/llama_hpn7_mix.tr"
LOG = "/etc/astra-sim/SimAI.log"
NO_GROUP = (
    "No corresponding group information is generated, and there is an error in creating the "
    "ring channel."
)
BACKEND = "SimAI-Simulation"
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Ns3Groups:
    """The communicators SimAI-Simulation's mock NCCL layer makes for one run."""

    gpus: int
    #: GPUs + NVSwitches: the systems SimAI creates (`total nodes:`)
    nodes: int
    tp: int
    dp: int
    ep: int
    dp_ep: int
    #: the mock NCCL layer makes EP and DP_EP communicators at all (from 02532997)
    expert_groups: bool = True

    def size(self, group: GroupType) -> int:
        return {
            GroupType.TP: self.tp,
            GroupType.DP: self.dp,
            GroupType.EP: self.ep,
            GroupType.DP_EP: self.dp_ep,
        }.get(group, 0)

    def communicator(self, group: GroupType) -> bool:
        """Whether each rank holds a communicator for the group (made for sizes above 1)."""
        if group in (GroupType.EP, GroupType.DP_EP) and not self.expert_groups:
            return False
        return self.size(group) > 1

    def built(self, group: GroupType) -> bool:
        """Whether the group's ranks were laid out (EP and DP_EP are made of TP groups)."""
        if not self.communicator(group):
            return False
        return group in (GroupType.TP, GroupType.DP) or self.tp > 1

    @property
    def missing_group_logs(self) -> int:
        """SimAI.log's "No corresponding group information" ERROR lines: one per node for
        each communicator whose group was never laid out."""
        types = (GroupType.TP, GroupType.DP, GroupType.EP, GroupType.DP_EP)
        return self.nodes * sum(self.communicator(g) and not self.built(g) for g in types)

    @property
    def model_dims(self) -> bool:
        """Whether forward and input-gradient collectives have a dimension to run in."""
        return self.tp > 1

    @property
    def data_dims(self) -> bool:
        """Whether weight-gradient collectives have one: what is left of the nodes after TP."""
        return (
            self.nodes > 1 if self.tp <= 1 else self.tp < self.nodes and self.nodes // self.tp > 1
        )

    def moves(self, phase: str) -> bool:
        return self.data_dims if phase == "wg" else self.model_dims

    @property
    def unrecorded(self) -> str | None:
        """Why the group layout is one no recording covers (the prediction may not hold)."""
        if self.ep <= 0:
            return "ep is 0: SimAI-Simulation divides DP by it"
        if self.tp <= 0 or self.gpus % self.tp or self.dp % self.ep:
            return f"TP {self.tp} and EP {self.ep} do not divide {self.gpus} GPUs into groups"
        return None


def make_groups(
    tp: int,
    ep: int,
    gpus: int,
    per_server: int = GPUS_PER_SERVER,
    version: SimaiVersion = DEFAULT,
) -> Ns3Groups:
    """The groups for the TP and EP SimAI holds (0 when unset) on `gpus` GPUs, `per_server`
    of them (and one NVSwitch) in a server, as the mock NCCL layer of `version` makes them."""
    nodes = gpus + -(-gpus // per_server)
    tp = tp or nodes
    dp = gpus // tp if tp > 0 else 0
    dp_ep = dp // ep if ep > 0 else 0
    return Ns3Groups(gpus, nodes, tp, dp, ep, dp_ep, version.has("ns3_group_names"))


@dataclass(frozen=True, slots=True)
class Step:
    """One phase of one layer as SimAI-Simulation runs it."""

    phase: str
    compute_ns: int | None
    #: the compute is cut to an int that never fires: the run stops silently here
    stops: bool
    type: ComType
    group: GroupType
    #: bytes after SimAI's scaling and the forward raise to 4096
    size: int | None
    #: the collective runs (its dimensions exist and it has bytes)
    runs: bool
    #: it runs in a group never built: the simulator crashes generating it
    crashes: bool
    #: bytes all GPUs together put on the wire for it
    wire_bytes: int
    #: the forward size was below 4096 and raised to it
    raised: bool
    #: node 0 prints `collective issued` for it (a type, a group, dimensions; size 0 too)
    issued: bool = False
    #: how the run ends once it is issued: "abort" (a plain ALLTOALL before 02532997) or
    #: "small" (1-4095 B: it never completes); None: it completes
    ends_issued: str | None = None
    #: a collective by 02532997's names that this version's ns-3 reader reads as none
    dropped: bool = False


def _wire_bytes(com: ComType, size: int, ranks: int, gpus: int, channels: int) -> int:
    """Bytes one collective puts on the wire over all GPUs: a ring of `ranks` steps, each
    rank sending its 1/ranks share split over `channels` rings (rounded down per ring)."""
    if ranks <= 1 or size <= 0:
        return 0
    share = size // ranks // channels * channels * (ranks - 1)
    per_rank = 2 * share if com is ComType.ALLREDUCE else share
    return per_rank * gpus


def stops(compute: int | None) -> bool:
    """Whether a compute time (ns, as read) stalls the run: SimAI's `int` cuts it
    (`timeline.cut_int`, the same cut that hangs or empties SimAI-Analytical's run)."""
    return compute is not None and compute >= STOP_FROM and cut_int(compute) is not None


#: the comm words the ns-3 build's reader knows before 02532997 (`ns3_group_names`)
PLAIN_NAMES = frozenset(
    {"ALLREDUCE", "ALLGATHER", "REDUCESCATTER", "ALLTOALL", "ALLREDUCEALLTOALL"}
)


def ns3_comm(comm: str, version: SimaiVersion) -> str:
    """The comm word as this version's ns-3 reader takes it: before 02532997 any other word
    (`ALLTOALL_EP`, `ALLGATHER_DP_EP`) is no collective."""
    if version.has("ns3_group_names") or comm in PLAIN_NAMES:
        return comm
    return "NONE"


def plan_step(
    name: str,
    plan: PhasePlan,
    read_size: int | None,
    groups: Ns3Groups,
    policy: str,
    version: SimaiVersion = DEFAULT,
    dropped: bool = False,
) -> Step:
    compute = plan.compute_ns
    size = plan.size
    raised = (
        name == "fwd"
        and policy == FWD_IN_BCKWD
        and size == FORWARD_MINIMUM
        and read_size is not None
        and read_size < FORWARD_MINIMUM
    )
    com, group = plan.type, plan.group
    issued = (
        com is not ComType.NONE
        and group is not GroupType.NONE
        and size is not None
        and groups.moves(name)
    )
    runs = issued and size is not None and size > 0
    crashes = runs and group is GroupType.EP and not groups.communicator(group)
    wire = 0
    ends_issued = None
    if runs and not crashes and size is not None:
        ranks = groups.size(group)
        # one ring per rank the group has inside a server (TP groups are consecutive ranks)
        channels = min(ranks, GPUS_PER_SERVER) if group is GroupType.TP else 1
        wire = _wire_bytes(com, size, ranks, groups.gpus, channels)
        if com is ComType.ALLTOALL and not version.has("ns3_alltoall"):
            ends_issued = "abort"
        elif size < FORWARD_MINIMUM:
            ends_issued = "small"
    return Step(
        name,
        compute,
        stops(compute),
        com,
        group,
        size,
        runs,
        crashes,
        wire,
        raised,
        issued and not crashes,
        ends_issued,
        dropped,
    )


@dataclass(frozen=True, slots=True)
class LayerSteps:
    fwd: Step
    ig: Step
    wg: Step

    def phase(self, name: str) -> Step:
        return self.fwd if name == "fwd" else self.ig if name == "ig" else self.wg

    def ends(self, name: str) -> str | None:
        """How the run ends at this phase: "stop" (its compute), "crash", "abort", "small"
        (`Step.ends_issued`) or None (it goes on)."""
        step = self.phase(name)
        return "stop" if step.stops else "crash" if step.crashes else step.ends_issued

    def blocks(self, name: str) -> str | None:
        """How the run stops issuing at this phase: `ends`, but a weight-gradient collective
        that never completes does not stop it (it is issued non-blocking: the backward pass
        goes on, `pass: 0 finished` is printed, and the run waits for its stream at the end)."""
        how = self.ends(name)
        return None if name == "wg" and how == "small" else how


#: what decides a phase's step: the comm word, the size, and the compute only when it stops
PhaseKey = tuple[str, "int | None", "int | None"]
LayerKey = tuple[PhaseKey, PhaseKey, PhaseKey]


def phase_key(comm: str, size: int | None, compute: int | None) -> PhaseKey:
    return (comm, size, compute if stops(compute) else None)


class Steps:
    """Layers' steps for one run, made once per distinct `LayerKey`: a million rows that
    differ only in their compute times share a handful."""

    def __init__(self, policy: str, groups: Ns3Groups, version: SimaiVersion = DEFAULT) -> None:
        self.policy = policy
        self.groups = groups
        self.version = version
        self._plans = Groups(groups.tp, groups.ep, groups.dp)
        self._made: dict[LayerKey, LayerSteps] = {}

    def key(self, fwd: PhaseRead, ig: PhaseRead, wg: PhaseRead) -> LayerKey:
        return tuple(phase_key(r.comm, r.size, r.compute) for r in (fwd, ig, wg))  # type: ignore[return-value]

    def of(self, key: LayerKey) -> LayerSteps:
        found = self._made.get(key)
        if found is None:
            steps = []
            for name, (comm, size, compute) in zip(("fwd", "ig", "wg"), key):
                taken = ns3_comm(comm, self.version)
                dropped = taken != comm and decode_comm(comm, name)[0] is not ComType.NONE
                read = PhaseRead(compute, taken, size)
                plan = plan_phase(name, read, self.policy, self._plans, self.version)
                steps.append(
                    plan_step(name, plan, size, self.groups, self.policy, self.version, dropped)
                )
            found = self._made[key] = LayerSteps(*steps)
        return found


@dataclass(frozen=True)
class Walk:
    """How far the simulator gets through the layers, and what it moved on the way."""

    halt: Halt | None
    wire_bytes: int
    #: how many forward sizes were raised to 4096 B before the end, and the first such layer
    raised: int
    first_raised: int | None
    #: collectives that move no bytes for want of a dimension
    skipped: int
    #: `collective issued` lines up to the end, and the last one's (layer, phase)
    issued: int = 0
    last_issued: tuple[int, str] | None = None
    #: collectives this version's ns-3 reader reads as none (`Step.dropped`) up to the end
    dropped: int = 0
    #: the first weight-gradient collective that never completes before the end (the run
    #: issues on past it, but never finishes)
    stuck: Halt | None = None


#: endings that come after the collective is issued (its `collective issued` line is printed)
AFTER_ISSUE = ("abort", "small")


def walk(keys: Sequence[K], steps_of: Callable[[K], LayerSteps], tail: int = 0) -> Walk:
    """Go through the layers as the simulator does, up to where it crashes, aborts or stops.

    `keys[i]` names layer i's values (layers with equal keys run alike); the last key stands
    for `tail` more layers after them (SimAI's layers past the end of a file). Every forward
    pass from the first layer, then from the last layer back, input gradient before weight
    gradient. Work is per distinct key, so a million equal rows cost little.
    """
    counts = len(keys) + tail
    distinct = {k: steps_of(k) for k in dict.fromkeys(keys)}

    def index_of(pos: int) -> K:
        return keys[min(pos, len(keys) - 1)]

    halt: Halt | None = None
    ends_fwd = [k for k, st in distinct.items() if st.blocks("fwd")]
    if ends_fwd:
        wanted = set(ends_fwd)
        i = next(i for i, k in enumerate(keys) if k in wanted)
        halt = Halt(i, "fwd", distinct[keys[i]].blocks("fwd") or "")
    else:
        back = [k for k, st in distinct.items() if st.blocks("ig") or st.blocks("wg")]
        if back:
            i = _last_index(keys, set(back), tail, counts)
            st = distinct[index_of(i)]
            phase = "ig" if st.blocks("ig") else "wg"
            halt = Halt(i, phase, st.blocks(phase) or "")
    stuck: Halt | None = None
    if halt is None or halt.phase != "fwd":
        # the first weight-gradient collective that never completes, in the backward passes
        # that ran before the halt (from the last layer down)
        never = {k for k, st in distinct.items() if st.ends("wg") == "small"}
        if never:
            i = _last_index(keys, never, tail, counts)
            if halt is None or i > halt.index:
                stuck = Halt(i, "wg", "small")
    # what ran: whole layers before the halt in each direction, and the halt's own layer
    fwd_layers: Counter[K] = Counter()
    back_layers: Counter[K] = Counter()
    done_fwd = counts if halt is None or halt.phase != "fwd" else halt.index
    fwd_layers.update(keys[: min(done_fwd, len(keys))])
    if done_fwd > len(keys):
        fwd_layers[keys[-1]] += done_fwd - len(keys)
    partial_ig: K | None = None
    if halt is None or halt.phase != "fwd":
        first_back = 0 if halt is None else halt.index + 1
        back_layers.update(keys[first_back:])
        if tail:
            back_layers[keys[-1]] += counts - max(first_back, len(keys))
        if halt is not None and halt.phase == "wg":
            partial_ig = index_of(halt.index)
    ran: list[tuple[int, Step]] = [(n, distinct[k].fwd) for k, n in fwd_layers.items()]
    ran += [(n, s) for k, n in back_layers.items() for s in (distinct[k].ig, distinct[k].wg)]
    if partial_ig is not None:
        ran.append((1, distinct[partial_ig].ig))
    wire = sum(n * s.wire_bytes for n, s in ran)
    skipped = sum(n * _skipped(s) for n, s in ran)
    issued = sum(n * s.issued for n, s in ran)
    dropped = sum(n * s.dropped for n, s in ran)
    if halt is not None and halt.how in AFTER_ISSUE:
        issued += 1
    raised = sum(n for k, n in fwd_layers.items() if distinct[k].fwd.raised)
    first_raised = None
    if raised:
        first_raised = next(i for i, k in enumerate(keys) if distinct[k].fwd.raised)
    last = _last_issued(keys, distinct, halt, counts)
    return Walk(halt, wire, raised, first_raised, skipped, issued, last, dropped, stuck)


def _last_index(keys: Sequence[K], wanted: set[K], tail: int, counts: int) -> int:
    """The last layer whose key is wanted (the tail's layers count when the last key is)."""
    if tail and keys[-1] in wanted:
        return counts - 1
    return max(i for i, k in enumerate(keys) if k in wanted)


def _last_issued(
    keys: Sequence[K], distinct: dict[K, LayerSteps], halt: Halt | None, counts: int
) -> tuple[int, str] | None:
    """The (layer, phase) of the last `collective issued` line before the run ends: the
    backward pass is searched from its end (layer 0's weight gradient, or the halt) toward
    the last layer, then the forward pass from its end back."""
    if halt is not None and halt.how in AFTER_ISSUE:
        return halt.index, halt.phase
    last_key = len(keys) - 1

    def steps(i: int) -> LayerSteps:
        return distinct[keys[min(i, last_key)]]

    if halt is None or halt.phase != "fwd":
        # the backward pass runs layer by layer from the last: input gradient, weight gradient
        order: list[tuple[int, str]] = []
        if halt is None:
            order.append((0, "wg"))
            start = 0
        else:
            start = halt.index
        if halt is None or halt.phase == "wg":
            order.append((start, "ig"))
        i = start + 1
        for where in order:
            if steps(where[0]).phase(where[1]).issued:
                return where
        while i < counts:
            st = steps(i)
            if st.wg.issued:
                return i, "wg"
            if st.ig.issued:
                return i, "ig"
            # past the file's rows every layer is the last key's: none of them issues
            i = counts if i >= last_key else i + 1
    done_fwd = counts if halt is None or halt.phase != "fwd" else halt.index
    i = done_fwd - 1
    while i >= 0:
        if steps(i).fwd.issued:
            return i, "fwd"
        i = min(i, last_key) - 1
    return None


def _skipped(step: Step) -> int:
    return int(step.type is not ComType.NONE and not step.runs and (step.size or 0) > 0)


@dataclass(frozen=True, slots=True)
class Output:
    """One file the run writes: where, and whether it holds anything."""

    name: str
    empty: bool


@dataclass(frozen=True, slots=True)
class Halt:
    """Where the run ends early: the layer index and the phase (`fwd`, `ig`, `wg`)."""

    index: int
    phase: str
    #: "crash" or "stop"
    how: str


@dataclass
class Ns3Run:
    """What `SimAI_simulator` does with one file on a topology of `gpus` GPUs."""

    reading: SimaiRun
    gpus: int | None
    outcome: Outcome = outcome.OK
    groups: Ns3Groups | None = None
    halt: Halt | None = None
    warnings: tuple[str, ...] = ()
    #: facts about this backend's results for the file (NaN bubble, raised sizes, ...)
    notes: tuple[str, ...] = ()
    #: bytes on the wire up to where the run ends (all of them when it finishes)
    wire_bytes: int = 0
    #: whether any collective moved bytes before the run ended
    traffic_before_end: bool = False
    #: how many forward sizes were raised to 4096 B, and the first such layer
    raised: tuple[int, int | None] = (0, None)
    #: collectives skipped for want of a dimension (TP 1 or DP 1): they cost nothing
    skipped: int = 0
    #: `collective issued` lines (node 0's) up to the end, and the last one's (layer, phase)
    issued: int = 0
    last_issued: tuple[int, str] | None = None
    #: collectives this version's ns-3 reader reads as none (before 02532997: `_EP`, `_DP_EP`)
    dropped: int = 0
    _keys: dict[int, LayerKey] = field(default_factory=dict, repr=False)
    _steps: Steps | None = field(default=None, repr=False)

    @property
    def finishes(self) -> bool:
        return self.outcome.exit_code == 0 and self.halt is None and self.groups is not None

    @property
    def estimated_s(self) -> float:
        """The least wall time the packet-level run needs for its traffic (`RATE_BYTES_PER_S`)."""
        return self.wire_bytes / RATE_BYTES_PER_S

    @property
    def too_long(self) -> bool:
        return self.estimated_s > BUDGET_S

    @property
    def version(self) -> SimaiVersion:
        return self.reading.version

    @property
    def end_to_end_lines(self) -> int | None:
        """The lines of a finished run's EndToEnd.csv: from 7f06c19c the two summary lines,
        then the column names, one row per layer, the SUM and `total exposed comm` lines;
        None when it stays empty."""
        if not self.finishes:
            return None
        summary = 2 if self.version.has("ns3_csv_summary") else 0
        return summary + 1 + self.reading.layer_count + 2

    def key(self, layer: LayerRead) -> LayerKey:
        found = self._keys.get(id(layer))
        if found is None:
            if self._steps is None:
                assert self.groups is not None
                policy = self.reading.header.policy or ""
                self._steps = Steps(policy, self.groups, self.version)
            found = self._keys[id(layer)] = self._steps.key(layer.fwd, layer.ig, layer.wg)
        return found

    def steps(self, layer: LayerRead) -> LayerSteps:
        self.key(layer)
        assert self._steps is not None
        return self._steps.of(self._keys[id(layer)])

    def step_at(self, index: int, phase: str) -> Step:
        assert self.reading.rows is not None
        return self.steps(self.reading.rows.layers[index]).phase(phase)

    def outputs(self, killed: bool = False) -> list[Output]:
        """The files the run leaves, and which are empty; `killed`: stopped by a timeout."""
        if self.groups is None:
            return []
        done = self.finishes and not killed
        out = [
            Output(END_TO_END, not done),
            Output(DETAILED.format(nodes=self.groups.nodes), True),
        ]
        if done:
            out.append(Output(UTILIZATION, False))
        out += [
            Output(SEND, True),
            Output(FCT, not self.traffic_before_end),
            Output(PFC, True),
            Output(TRACE, False),
            Output(LOG, False),
        ]
        return out

    def empty_outputs(self, killed: bool = False) -> list[str]:
        return [o.name for o in self.outputs(killed) if o.empty]


def _walk(run: Ns3Run) -> None:
    assert run.reading.rows is not None
    table = run.reading.rows.layers
    keys = [run.key(x) for x in table.layers]
    tail = table.tail_count if table.tail is not None else 0
    if table.tail is not None:
        keys.append(run.key(table.tail))
        tail -= 1
    assert run._steps is not None
    done = walk(keys, run._steps.of, tail)
    run.halt, run.wire_bytes, run.skipped = done.halt, done.wire_bytes, done.skipped
    run.raised = (done.raised, done.first_raised)
    run.traffic_before_end = done.wire_bytes > 0
    run.issued, run.last_issued, run.dropped = done.issued, done.last_issued, done.dropped
    if run.halt is None:
        # the run issues to the end but waits for this collective's stream forever
        run.halt = done.stuck


def _name(run: Ns3Run, index: int) -> str:
    assert run.reading.rows is not None
    return run.reading.rows.layers[index].name or "(empty)"


def crash_message(run: Ns3Run, halt: Halt) -> str:
    assert run.reading.rows is not None
    step = getattr(run.steps(run.reading.rows.layers[halt.index]), halt.phase)
    return (
        f"Segmentation fault (SIGSEGV): {step.type.value}_{step.group.value} in the "
        f"{PHASE_WORDS[halt.phase]} pass of layer {halt.index} ({_name(run, halt.index)}) runs "
        f"in an EP group of {run.groups.ep if run.groups else 0} rank, which has no communicator"
    )


def stop_message(run: Ns3Run, halt: Halt) -> str:
    assert run.reading.rows is not None
    step = getattr(run.steps(run.reading.rows.layers[halt.index]), halt.phase)
    return (
        f"{PHASE_WORDS[halt.phase]} compute {step.compute_ns} ns of layer {halt.index} "
        f"({_name(run, halt.index)}) is 2^31 ns or more as a 32-bit float: its event never "
        "fires, the run ends with exit 0, no pass finished and empty results"
    )


def abort_message(run: Ns3Run, halt: Halt) -> str:
    step = run.step_at(halt.index, halt.phase)
    return ns3_endings.abort_message(
        run.version, step.type.value, PHASE_WORDS[halt.phase], halt.index, _name(run, halt.index)
    )


def small_message(run: Ns3Run, halt: Halt) -> str:
    step = run.step_at(halt.index, halt.phase)
    return ns3_endings.small_message(
        run.version,
        _comm_word(run, halt),
        step.size or 0,
        PHASE_WORDS[halt.phase],
        halt.index,
        _name(run, halt.index),
        run.reading.header.policy == FWD_IN_BCKWD,
    )


def _comm_word(run: Ns3Run, halt: Halt) -> str:
    """The comm word as the row writes it (`ALLGATHER`, `ALLTOALL_EP`)."""
    assert run.reading.rows is not None
    return run.reading.rows.layers[halt.index].phase(halt.phase).comm


WIDE_SIZE = N_(
    "{what} of {size} B in the {phase} pass of layer {index}, over {n} GPUs: before a920cdc2 "
    "(first in f5efb5a9) the ns-3 frontend counts the bytes of a message between two GPUs in a "
    "32-bit int, which a ring step of this collective ({size} / {n} B) can pass (from the "
    "source of a920cdc2, not run)"
)


def wide_size(run: SimaiRun, version: SimaiVersion, groups: Ns3Groups) -> str | None:
    """The first collective, in time order, whose ring step (its size over its group's GPUs)
    reaches 2 GiB, before a920cdc2 counts a message's bytes in 64 bits: the counters hold one
    pair's message, not the whole collective."""
    if run.rows is None or version.has("ns3_64bit_sizes"):
        return None
    table = run.rows.layers
    order = [(i, "fwd") for i in range(len(table))]
    order += [(i, p) for i in reversed(range(len(table))) for p in ("ig", "wg")]
    seen: set[tuple[int, str]] = set()
    for index, phase in order:
        layer = table[index]
        if (id(layer), phase) in seen:
            continue
        seen.add((id(layer), phase))
        read = layer.phase(phase)
        com, group = decode_comm(read.comm, phase)
        if com is ComType.NONE or group is GroupType.NONE or read.size is None:
            continue
        n = max(groups.size(group), 1)
        if read.size // n >= 2**31:
            facts = {"what": read.comm, "phase": phase, "index": index, "size": read.size, "n": n}
            return _(WIDE_SIZE).format(**facts)
    return None


#: the reader is `Workload.cc`, compiled into both backends: recorded for SimAI-Analytical
POSITIONAL_NOTE = (
    "SimAI {short} reads line 1 by position and the count in the same stream (recorded for "
    "SimAI-Analytical at this version; the ns-3 backend reads with the same Workload.cc: "
    "from the source, not run)"
)


def simulate_ns3(
    data: bytes,
    gpus: int | None = None,
    version: SimaiVersion = DEFAULT,
    per_server: int = GPUS_PER_SERVER,
) -> Ns3Run:
    """Predict `SimAI_simulator -w FILE` on a topology of `gpus` GPUs (default: all_gpus),
    `per_server` in a server, as SimAI at `version` runs it."""
    run = _simulate_ns3(data, gpus, version, per_server)
    if not version.has("header_by_name"):
        run.notes = (POSITIONAL_NOTE.format(short=version.short), *run.notes)
    return run


def _simulate_ns3(data: bytes, gpus: int | None, version: SimaiVersion, per_server: int) -> Ns3Run:
    reading = simulate(data, gpus, version=version)
    if gpus is None:
        gpus = reading.header.value("all_gpus")
    run = Ns3Run(reading, gpus, warnings=reading.warnings)
    if reading.rows is None:
        # the reader stopped: the same code, the same ending
        run.outcome = reading.outcome
        return run
    if reading.layer_count == 0 or not reading.header.transformer:
        run.outcome = (
            reading.outcome
            if reading.layer_count == 0
            else Outcome(
                0, "ok", f"{reading.header.policy} runs are not modelled for {BACKEND}", True
            )
        )
        return run
    if not gpus:
        run.outcome = Outcome(
            0, "ok", "no GPU count: give the topology's with -g (all_gpus is unset)", True
        )
        return run
    h = reading.header
    run.groups = make_groups(h.held("tp"), h.held("ep"), gpus, per_server, version)
    _walk(run)
    warnings = list(run.warnings)
    wide = wide_size(reading, version, run.groups)
    if wide is not None:
        warnings.append(wide)
    unrecorded = run.groups.unrecorded
    if unrecorded is not None:
        warnings.append(f"{unrecorded}; no recording covers this, the prediction may not hold")
    run.outcome = _ending(run)
    if reading.first_undefined is not None:
        run.outcome = Outcome(
            run.outcome.exit_code,
            run.outcome.kind,
            run.outcome.message,
            undefined=True,
            layer=run.outcome.layer,
        )
    if run.too_long:
        said = (
            _(
                "its traffic is {gb} GB on the wire: {s} s of packet-level simulation at the "
                "fastest rate a recorded run reached (0.7 GB/s), and nothing is written until "
                "the end"
            )
            if run.halt is None
            else _(
                "its traffic before it ends is {gb} GB on the wire: {s} s of packet-level "
                "simulation at the fastest rate a recorded run reached (0.7 GB/s), and nothing "
                "is written until the end"
            )
        )
        warnings.append(said.format(gb=f"{run.wire_bytes / 1e9:,.1f}", s=f"{run.estimated_s:,.0f}"))
    run.warnings = tuple(warnings)
    run.notes = tuple(_notes(run))
    return run


def _ending(run: Ns3Run) -> Outcome:
    halt = run.halt
    if halt is None:
        return Outcome(0, "ok", N_("SimAI-Simulation finished."))
    if halt.how == "crash":
        return Outcome(139, "signal", crash_message(run, halt), layer=halt.index)
    if halt.how == "abort":
        return Outcome(134, "signal", abort_message(run, halt), layer=halt.index)
    if halt.how == "small":
        return Outcome(0, "no-result", small_message(run, halt), layer=halt.index)
    return Outcome(0, "no-result", stop_message(run, halt), layer=halt.index)


def _notes(run: Ns3Run) -> Iterator[str]:
    h = run.reading.header
    g = run.groups
    assert g is not None
    summary = run.version.has("ns3_csv_summary")
    if run.finishes and not summary:
        yield ns3_endings.older_csv_note(run.version)
    if run.finishes and summary and h.value("vpp") is None:
        yield (
            "no `vpp:`: the EndToEnd summary's bubble time is NaN or Inf; Total time stays a number"
        )
    if run.dropped:
        yield ns3_endings.dropped_note(run.version, run.dropped)
    n, first = run.raised
    if n:
        sizes = "size below 4096 B is" if n == 1 else "sizes below 4096 B are"
        yield f"{n} forward {sizes} raised to 4096 B (first: layer {first})"
    if run.skipped:
        why = "TP is 1" if not g.model_dims else "no data-parallel dimension is left"
        what = "collective moves" if run.skipped == 1 else "collectives move"
        yield f"{run.skipped} {what} no bytes and cost nothing ({why})"
    if g.missing_group_logs:
        yield f"SimAI.log gets {g.missing_group_logs} ERROR lines: {NO_GROUP}"
