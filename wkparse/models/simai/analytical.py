"""What SimAI-Analytical takes from each layer (`Layer::report`, `Layer::compute_time`).

- Compute times and sizes are multiplied by a float scale of 1 and stored back in 64 bits, so
  they pass through a 32-bit float: 201326593 B is simulated as 201326592 B, and a negative
  size (wrapped to nearly 2**64 by `>>`) becomes 0.
- The compute it reports per phase is the nanoseconds / 1000, printed with no decimals; its
  `total comp` is the sum of the unrounded values, rounded once.
- Group sizes: forward and input-gradient phases run in TP ranks (EP ranks for an `_EP`
  collective; a `_DP_EP` one there still gets TP ranks); the weight-gradient phase in DP ranks,
  DP / EP for `_DP_EP`. DP is `-g` / (TP x PP) in integer division: a TP or PP of 0 divides by
  zero (SIGFPE), as does an EP of 0 under a `_DP_EP` weight-gradient collective.
- A phase is simulated as traffic of its group (SimAI prints a `Communication Type` line for
  it) only when its type is a collective, its size is not between 2 B and 1 MiB - 1 B (those
  get a fixed latency instead), and its group is TP, or EP, DP or DP_EP with more than one
  rank. With HYBRID_TRANSFORMER_FWD_IN_BCKWD, forward sizes of 1-4095 B are first raised to
  4096 B. Before 7f06c19c no size is raised, and before 26b4574b no size gets a fixed latency
  (`versions.SWITCHES`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain

from wkparse.cpp import c_div, scaled
from wkparse.models.simai.rows import LayerRead, PhaseRead
from wkparse.models.simai.sums import running_sum
from wkparse.models.simai.tables import FWD_IN_BCKWD, ComType, GroupType, decode_comm
from wkparse.models.simai.versions import DEFAULT, SimaiVersion

#: sizes strictly between these get SimAI's fixed small-message latency, not its group model
SMALL_MESSAGE = (1, 1048576)
#: forward sizes below this (and above 0) are raised to it under HYBRID_TRANSFORMER_FWD_IN_BCKWD
FORWARD_MINIMUM = 4096
PHASES = ("fwd", "ig", "wg")


@dataclass(frozen=True, slots=True)
class Groups:
    """Ranks per group for one run: TP and EP from the header, DP from `-g`."""

    tp: int
    ep: int
    dp: int | None


@dataclass(frozen=True, slots=True)
class PhasePlan:
    """One phase as SimAI-Analytical uses it."""

    compute_ns: int | None
    #: the phase's compute as SimAI reports it: microseconds rounded to the nearest integer
    compute_us: int | None
    type: ComType
    group: GroupType
    #: the ranks SimAI gives the collective; None for no collective or no group
    group_size: int | None
    #: the bytes SimAI simulates, after its conversions
    size: int | None
    #: whether SimAI simulates it as traffic of its group (None: unknown without -g)
    scheduled: bool | None
    #: the compute in microseconds before rounding (what `total comp` adds up)
    exact_us: float | None


def microseconds(compute_ns: int | None) -> float | None:
    return None if compute_ns is None else float(scaled(compute_ns)) / 1000.0


def reported(us: float | None) -> int | None:
    """A time as SimAI prints it: fixed notation, no decimals (round half to even)."""
    return None if us is None else int(f"{us:.0f}")


def group_size(phase: str, group: GroupType, groups: Groups) -> int | None:
    """The ranks SimAI passes for a phase's collective (DP-dependent sizes need `-g`)."""
    if phase != "wg":
        return groups.ep if group is GroupType.EP else groups.tp
    if groups.dp is None or (group is GroupType.DP_EP and groups.ep == 0):
        return None
    return c_div(groups.dp, groups.ep) if group is GroupType.DP_EP else groups.dp


def plan_phase(
    phase: str, read: PhaseRead, policy: str, groups: Groups, version: SimaiVersion = DEFAULT
) -> PhasePlan:
    com, group = decode_comm(read.comm, phase)
    size = None if read.size is None else scaled(read.size)
    raises = policy == FWD_IN_BCKWD and version.has("small_forward")
    if phase == "fwd" and raises and size is not None and 0 < size < 4096:
        size = FORWARD_MINIMUM
    ranks = group_size(phase, group, groups) if com is not ComType.NONE else None
    scheduled: bool | None
    if com is ComType.NONE or group is GroupType.NONE:
        scheduled = False
    elif size is None:
        scheduled = None
    elif SMALL_MESSAGE[0] < size < SMALL_MESSAGE[1] and version.has("cal_busbw"):
        scheduled = False
    elif group is GroupType.TP:
        scheduled = True
    else:
        scheduled = None if ranks is None else ranks > 1
    if group is GroupType.NONE:
        ranks = None
    us = microseconds(read.compute)
    return PhasePlan(read.compute, reported(us), com, group, ranks, size, scheduled, us)


@dataclass(frozen=True, slots=True)
class LayerPlan:
    fwd: PhasePlan
    ig: PhasePlan
    wg: PhasePlan

    def phase(self, name: str) -> PhasePlan:
        return self.fwd if name == "fwd" else self.ig if name == "ig" else self.wg

    def scheduled(self) -> list[tuple[str, PhasePlan]]:
        """The phases SimAI simulates as group traffic, in the order it reports them."""
        return [(n, p) for n in ("fwd", "wg", "ig") if (p := self.phase(n)).scheduled]


def plan_layer(
    layer: LayerRead, policy: str, groups: Groups, version: SimaiVersion = DEFAULT
) -> LayerPlan:
    return LayerPlan(*(plan_phase(n, layer.phase(n), policy, groups, version) for n in PHASES))


Triple = tuple[float, float, float]


def exact_triple(plan: LayerPlan) -> Triple | None:
    """A layer's forward, weight-gradient and input-gradient microseconds, in the order SimAI
    adds them up; None when one is garbage."""
    f, w, i = plan.fwd.exact_us, plan.wg.exact_us, plan.ig.exact_us
    return None if f is None or w is None or i is None else (f, w, i)


def total_compute(layers: Iterable[Triple], tail: Triple | None = None, times: int = 0) -> float:
    """SimAI's `total comp` before printing: per layer, forward then weight-gradient then
    input-gradient microseconds, added in that order in double precision; then `times` more
    layers of `tail`."""
    return running_sum(chain.from_iterable(layers), tail or (), times)
