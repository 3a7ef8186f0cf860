"""What SimAI-Simulation, the ns-3 backend (`SimAI_simulator -w FILE -n TOPO -c CONF`), does
with a file, checked against runs of the real program (aliyun/SimAI cef83f9, recorded in
`../shared/simai-ns3-oracle/`).

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

from wkparse.models.simai import outcome
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

    def size(self, group: GroupType) -> int:
        return {
            GroupType.TP: self.tp,
            GroupType.DP: self.dp,
            GroupType.EP: self.ep,
            GroupType.DP_EP: self.dp_ep,
        }.get(group, 0)

    def communicator(self, group: GroupType) -> bool:
        """Whether each rank holds a communicator for the group (made for sizes above 1)."""
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


def make_groups(tp: int, ep: int, gpus: int, per_server: int = GPUS_PER_SERVER) -> Ns3Groups:
    """The groups for the TP and EP SimAI holds (0 when unset) on `gpus` GPUs, `per_server`
    of them (and one NVSwitch) in a server."""
    nodes = gpus + -(-gpus // per_server)
    tp = tp or nodes
    dp = gpus // tp if tp > 0 else 0
    dp_ep = dp // ep if ep > 0 else 0
    return Ns3Groups(gpus, nodes, tp, dp, ep, dp_ep)


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


PHASE_WORDS = {"fwd": "forward", "ig": "input-gradient", "wg": "weight-gradient"}


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


def plan_step(
    name: str, plan: PhasePlan, read_size: int | None, groups: Ns3Groups, policy: str
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
    runs = (
        com is not ComType.NONE
        and group is not GroupType.NONE
        and size is not None
        and size > 0
        and groups.moves(name)
    )
    crashes = runs and group is GroupType.EP and not groups.communicator(group)
    wire = 0
    if runs and not crashes and size is not None:
        ranks = groups.size(group)
        # one ring per rank the group has inside a server (TP groups are consecutive ranks)
        channels = min(ranks, GPUS_PER_SERVER) if group is GroupType.TP else 1
        wire = _wire_bytes(com, size, ranks, groups.gpus, channels)
    return Step(name, compute, stops(compute), com, group, size, runs, crashes, wire, raised)


@dataclass(frozen=True, slots=True)
class LayerSteps:
    fwd: Step
    ig: Step
    wg: Step

    def phase(self, name: str) -> Step:
        return self.fwd if name == "fwd" else self.ig if name == "ig" else self.wg

    def ends(self, name: str) -> str | None:
        """How the run ends at this phase: "stop", "crash" or None (it goes on)."""
        step = self.phase(name)
        return "stop" if step.stops else "crash" if step.crashes else None


#: what decides a phase's step: the comm word, the size, and the compute only when it stops
PhaseKey = tuple[str, "int | None", "int | None"]
LayerKey = tuple[PhaseKey, PhaseKey, PhaseKey]


def phase_key(comm: str, size: int | None, compute: int | None) -> PhaseKey:
    return (comm, size, compute if stops(compute) else None)


class Steps:
    """Layers' steps for one run, made once per distinct `LayerKey`: a million rows that
    differ only in their compute times share a handful."""

    def __init__(self, policy: str, groups: Ns3Groups) -> None:
        self.policy = policy
        self.groups = groups
        self._plans = Groups(groups.tp, groups.ep, groups.dp)
        self._made: dict[LayerKey, LayerSteps] = {}

    def key(self, fwd: PhaseRead, ig: PhaseRead, wg: PhaseRead) -> LayerKey:
        return tuple(phase_key(r.comm, r.size, r.compute) for r in (fwd, ig, wg))  # type: ignore[return-value]

    def of(self, key: LayerKey) -> LayerSteps:
        found = self._made.get(key)
        if found is None:
            steps = []
            for name, (comm, size, compute) in zip(("fwd", "ig", "wg"), key):
                read = PhaseRead(compute, comm, size)
                plan = plan_phase(name, read, self.policy, self._plans)
                steps.append(plan_step(name, plan, size, self.groups, self.policy))
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


def walk(keys: Sequence[K], steps_of: Callable[[K], LayerSteps], tail: int = 0) -> Walk:
    """Go through the layers as the simulator does, up to where it crashes or stalls.

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
    ends_fwd = [k for k, st in distinct.items() if st.ends("fwd")]
    if ends_fwd:
        wanted = set(ends_fwd)
        i = next(i for i, k in enumerate(keys) if k in wanted)
        halt = Halt(i, "fwd", distinct[keys[i]].ends("fwd") or "")
    else:
        back = [k for k, st in distinct.items() if st.ends("ig") or st.ends("wg")]
        if back:
            wanted = set(back)
            if tail and keys[-1] in wanted:
                i = counts - 1
            else:
                i = max(i for i, k in enumerate(keys) if k in wanted)
            st = distinct[index_of(i)]
            phase = "ig" if st.ends("ig") else "wg"
            halt = Halt(i, phase, st.ends(phase) or "")
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
    wire = skipped = 0
    for k, n in fwd_layers.items():
        wire += n * distinct[k].fwd.wire_bytes
        skipped += n * _skipped(distinct[k].fwd)
    for k, n in back_layers.items():
        for step in (distinct[k].ig, distinct[k].wg):
            wire += n * step.wire_bytes
            skipped += n * _skipped(step)
    if partial_ig is not None:
        wire += distinct[partial_ig].ig.wire_bytes
        skipped += _skipped(distinct[partial_ig].ig)
    raised = sum(n for k, n in fwd_layers.items() if distinct[k].fwd.raised)
    first_raised = None
    if raised:
        first_raised = next(i for i, k in enumerate(keys) if distinct[k].fwd.raised)
    return Walk(halt, wire, raised, first_raised, skipped)


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
    #: the run ends as an older SimAI's did (`version_stop`): known from source and users'
    #: reports, so no traffic or outputs are predicted
    older_stop: bool = False
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

    def key(self, layer: LayerRead) -> LayerKey:
        found = self._keys.get(id(layer))
        if found is None:
            if self._steps is None:
                assert self.groups is not None
                self._steps = Steps(self.reading.header.policy or "", self.groups)
            found = self._keys[id(layer)] = self._steps.key(layer.fwd, layer.ig, layer.wg)
        return found

    def steps(self, layer: LayerRead) -> LayerSteps:
        self.key(layer)
        assert self._steps is not None
        return self._steps.of(self._keys[id(layer)])

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


#: what the ns-3 backend did before a fix, known from the fix's source diff and users' logs;
#: none of it was run by wkparse (there are no ns-3 recordings before cef83f9)
NO_ALLTOALL = (
    "{what} in the {phase} pass of layer {index}: before 02532997 the ns-3 backend has no "
    "all-to-all flow model and no EP/DP_EP groups; SimAI#44 (ALLTOALL in microAllReduce.txt) "
    "aborted with `We assume at least one NIC is alive` (a user's report and the source of "
    "02532997, not run)"
)
SMALL_STALL = (
    "{what} of {size} B in the {phase} pass of layer {index}: before 7f06c19c collectives "
    "under 4 KiB stall the ns-3 backend (users' reports SimAI#75, #102; the fix raises them "
    "to 4096 B; from the source, not run)"
)
WIDE_SIZE = (
    "{what} of {size} B in the {phase} pass of layer {index}: before a920cdc2 (first in "
    "f5efb5a9) the ns-3 frontend counts sent bytes in a 32-bit int, which this size overflows "
    "(from the source of a920cdc2, not run)"
)


def _in_time_order(n: int) -> Iterator[tuple[int, str]]:
    """(layer, phase) in the order a training step issues them: forward, then backward."""
    for i in range(n):
        yield i, "fwd"
    for i in reversed(range(n)):
        yield i, "wg"
        yield i, "ig"


def version_stop(run: SimaiRun, version: SimaiVersion) -> tuple[Outcome | None, list[str]]:
    """How the ns-3 backend at `version` ends where an older one did differently, and its
    warnings (all from source diffs and users' reports, none recorded)."""
    if run.rows is None:
        return None, []
    table = run.rows.layers
    warnings: list[str] = []
    seen: set[tuple[int, str]] = set()
    for index, phase in _in_time_order(len(table)):
        layer = table[index]
        key = (id(layer), phase)
        if key in seen:
            continue
        seen.add(key)
        read = layer.phase(phase)
        com, group = decode_comm(read.comm, phase)
        if com is ComType.NONE or group is GroupType.NONE or read.size is None:
            continue
        what = read.comm
        facts = {"what": what, "phase": phase, "index": index, "size": read.size}
        if not version.has("ns3_alltoall") and (
            com is ComType.ALLTOALL or group in (GroupType.EP, GroupType.DP_EP)
        ):
            return Outcome(134, "signal", NO_ALLTOALL.format(**facts), layer=index), warnings
        if not version.has("ns3_small_message") and 0 < read.size < FORWARD_MINIMUM:
            return Outcome(124, "hang", SMALL_STALL.format(**facts), layer=index), warnings
        if not version.has("ns3_64bit_sizes") and read.size >= 2**31 and not warnings:
            warnings.append(WIDE_SIZE.format(**facts))
    return None, warnings


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
    run.groups = make_groups(h.held("tp"), h.held("ep"), gpus, per_server)
    stop, older = version_stop(reading, version) if version is not DEFAULT else (None, [])
    if stop is not None:
        run.outcome = stop
        run.older_stop = True
        run.warnings = (*run.warnings, *older)
        return run
    _walk(run)
    warnings = [*run.warnings, *older]
    unrecorded = run.groups.unrecorded
    if unrecorded is not None:
        warnings.append(f"{unrecorded}; no recording covers this, the prediction may not hold")
    if run.halt is None:
        run.outcome = Outcome(0, "ok", f"{BACKEND} finished.")
    elif run.halt.how == "crash":
        run.outcome = Outcome(139, "signal", crash_message(run, run.halt), layer=run.halt.index)
    else:
        run.outcome = Outcome(0, "no-result", stop_message(run, run.halt), layer=run.halt.index)
    if reading.first_undefined is not None:
        run.outcome = Outcome(
            run.outcome.exit_code,
            run.outcome.kind,
            run.outcome.message,
            undefined=True,
            layer=run.outcome.layer,
        )
    if run.too_long:
        what = "its traffic" if run.halt is None else "its traffic before it ends"
        warnings.append(
            f"{what} is {run.wire_bytes / 1e9:,.1f} GB on the wire: at least "
            f"{run.estimated_s:,.0f} s of packet-level simulation, and nothing is written "
            "until the end"
        )
    run.warnings = tuple(warnings)
    run.notes = tuple(_notes(run))
    return run


def _notes(run: Ns3Run) -> Iterator[str]:
    h = run.reading.header
    g = run.groups
    assert g is not None
    if run.finishes and h.value("vpp") is None:
        yield (
            "no `vpp:`: the EndToEnd summary's bubble time is NaN or Inf; Total time stays a number"
        )
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
