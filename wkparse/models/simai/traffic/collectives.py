"""How one collective in one kind of group becomes flows (MockNcclGroup.cc), as per-pair flow
counts that do not depend on its size, and the size of each flow, which does.

- Ring all-reduce: 2(n-1) steps; all-gather and reduce-scatter: n-1 (lines 1095-1294, 539,
  1562). Each flow is `S / n / channels` in C integer division (lines 1077-1078, 429-430,
  1445-1446); when that is 0 the `while (send_size < data_size)` loop never runs and the group
  makes no flow, so the collective never completes.
- All-to-all: one flow of `S / n` per ordered pair of the group (lines 342-391), no ring.
- NVLS (a TP all-reduce of 8 or more ranks on H100/H800 with `AS_NVLS_ENABLE=1`, lines
  2062-2083): only for a group inside one server (line 893): 4 chunks of `S / 4` (an `int`);
  each GPU sends each chunk to its NVSwitch, which sends it to every GPU (lines 878-932).
  Across servers it makes no flow.
- PXN (`AS_PXN_ENABLE=1`, all-reduce and reduce-scatter only: all-gather compares a pointer
  with a literal, line 1449): see `rings.step_sends`. Whether a rewired collective completes,
  and which flows it sends if not, is `frontend.sent`'s (a reduce-scatter stalls part way).
- A flow asked for 0 bytes is sent as 1 byte (entry.h line 180).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from wkparse.models.simai.tables import ComType, GroupType
from wkparse.models.simai.traffic import frontend, rings
from wkparse.models.simai.traffic.groups import Group, Layout
from wkparse.models.simai.traffic.rings import local_size
from wkparse.models.simai.traffic.topology import Topology

#: NVLS splits an all-reduce into this many chunks (MockNcclGroup.cc line 881)
NVLS_CHUNKS = 4
#: a TP all-reduce of at least this many ranks may take NVLS (line 2079)
NVLS_MIN_RANKS = 8
INT_MAX = 2**31 - 1

Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Env:
    """The environment variables that change flows (`getenv` in the mock: exactly "1")."""

    nvls: bool = False
    pxn: bool = False

    @classmethod
    def of(cls, variables: dict[str, str]) -> Env:
        return cls(variables.get("AS_NVLS_ENABLE") == "1", variables.get("AS_PXN_ENABLE") == "1")


@dataclass
class Part:
    """Groups of one collective whose flows all have one size: per pair, flows per
    collective, and how the collective's bytes give the flow size."""

    kind: GroupType
    flows: Counter[Pair]
    #: C's divisions in order, e.g. (n, channels) for a ring
    divisors: tuple[int, ...]
    #: a flow size of 0 makes no flow (the ring's loop) rather than a 1-byte flow
    ring: bool
    #: why these groups make no flow whatever the size (NVLS across servers), else None
    never: str | None = None
    #: the flow size is held in a C `int` (NVLS)
    int_size: bool = False
    total_flows: int = field(init=False)

    def __post_init__(self) -> None:
        self.total_flows = sum(self.flows.values())

    def flow_size(self, size: int) -> int:
        for d in self.divisors:
            size //= d
        if self.int_size and size > INT_MAX:
            raise NotModelled(f"an NVLS chunk of {size} B overflows the mock's int chunk size")
        return size

    def wire(self, flow_size: int) -> int:
        """Bytes one flow puts on the wire."""
        return flow_size if flow_size > 0 else 1


class NotModelled(ValueError):
    """A case the recordings and the source do not decide."""


@dataclass
class Plan:
    """One collective type in one group kind, under the run's environment."""

    com: ComType
    kind: GroupType
    algorithm: str
    parts: list[Part]
    #: why the collective never completes whatever its size
    stalls: str | None = None
    #: the flows it sends before it stalls (per pair, for one collective)
    done_before_stall: list[Part] = field(default_factory=list)


def plan(com: ComType, kind: GroupType, layout: Layout, topo: Topology, env: Env) -> Plan:
    groups = layout.of(kind)
    if not groups:
        raise NotModelled(f"a {com.value} in {kind.value} groups SimAI never built")
    if com is ComType.ALLTOALL:
        return Plan(com, kind, "direct", _by_shape(groups, _all_to_all, ring=False))
    nvls = (
        com is ComType.ALLREDUCE
        and kind is GroupType.TP
        and env.nvls
        and topo.nvls_capable
        and groups[0].size >= NVLS_MIN_RANKS
    )
    if nvls:
        return Plan(com, kind, "NVLS", _nvls_parts(groups, topo))
    pxn = env.pxn and com in (ComType.ALLREDUCE, ComType.REDUCESCATTER)
    steps = 2 if com is ComType.ALLREDUCE else 1
    parts = _by_shape(groups, lambda g: _ring(g, pxn, steps), ring=True)
    algorithm = "PXN ring" if pxn else "ring"
    if not pxn or not any(_rewired(g) for g in groups):
        return Plan(com, kind, algorithm, parts)
    listed = sent = 0
    partial: dict[tuple[int, ...], Counter[Pair]] = {}
    for g in groups:
        try:
            done, count = frontend.completed(g, com is ComType.ALLREDUCE, pxn)
        except frontend.TooLarge as exc:
            raise NotModelled(
                f"whether a PXN {com.value} completes is found by running its flows, at most "
                f"{frontend.MOST_FLOWS:,} of them at once; this one needs {exc}"
            ) from exc
        listed += count
        sent += sum(done.values())
        partial.setdefault((g.size, local_size(g)), Counter()).update(done)
    if sent == listed:
        return Plan(com, kind, algorithm, parts)
    why = (
        f"a {com.value} rewired by PXN stalls after {sent:,} of its {listed:,} flows: its "
        "forwarded hops after the first step are typed RING, not PXN_INIT (MockNcclGroup.cc "
        "line 593 against 489), while their receiver waits under the PXN_INIT tag "
        "(NcclFlowModel.cc ready())"
    )
    done_parts = [Part(kind, flows, d, ring=True) for d, flows in partial.items()]
    return Plan(com, kind, algorithm, parts, why, done_parts)


def _rewired(group: Group) -> bool:
    return any(rings.rewired(c, group.servers) for c in rings.channels(group))


Shape = Callable[[Group], tuple[Counter[Pair], tuple[int, ...]]]


def _by_shape(groups: tuple[Group, ...], shape: Shape, ring: bool) -> list[Part]:
    """One part per distinct divisor chain (groups of one kind nearly always share one)."""
    merged: dict[tuple[int, ...], Counter[Pair]] = {}
    kind = groups[0].kind
    for g in groups:
        flows, divisors = shape(g)
        merged.setdefault(divisors, Counter()).update(flows)
    return [Part(kind, flows, d, ring) for d, flows in merged.items()]


def _ring(group: Group, pxn: bool, rounds: int) -> tuple[Counter[Pair], tuple[int, ...]]:
    n = group.size
    chans = rings.channels(group)
    steps = rounds * (n - 1)
    flows: Counter[Pair] = Counter()
    for channel in chans:
        for pair in rings.step_sends(channel, pxn, group.servers):
            flows[pair] += steps
    return flows, (n, len(chans))


def _all_to_all(group: Group) -> tuple[Counter[Pair], tuple[int, ...]]:
    flows: Counter[Pair] = Counter({(a, b): 1 for a in group.ranks for b in group.ranks if a != b})
    return flows, (group.size,)


def _nvls_parts(groups: tuple[Group, ...], topo: Topology) -> list[Part]:
    inside: Counter[Pair] = Counter()
    across = False
    for g in groups:
        if g.servers != 1:
            across = True
            continue
        switch = topo.nvswitch(topo.server(g.ranks[0]))
        for r in g.ranks:
            inside[(r, switch)] += NVLS_CHUNKS
            inside[(switch, r)] += NVLS_CHUNKS
    kind = groups[0].kind
    parts = []
    if inside:
        parts.append(Part(kind, inside, (NVLS_CHUNKS,), ring=False, int_size=True))
    if across:
        why = "NVLS across servers: the mock makes NVLS flows only for a group inside one server"
        parts.append(Part(kind, Counter(), (NVLS_CHUNKS,), ring=False, never=why))
    return parts
