"""The communicators SimAI's mock NCCL layer builds (MockNcclGroup.cc constructor, lines
26-160, sizes from Sys.cc `mock_nccl_grobal_group_init`, lines 1387-1402).

G is the topology's GPU count (the header's `all_gpus` is not used), TP the header's
`model_parallel_NPU_group` (0: every node, NVSwitches included), PP always 1, DP = G / TP,
EP the header's `ep`, DP_EP = DP / EP. TP groups are consecutive ranks, DP groups strided by
G / DP, EP groups take the rank at one position of `EP` consecutive TP groups, DP_EP groups
the rank at one position of TP groups `i, i + EP, ...`. EP and DP_EP groups are carved out of
TP groups, so with TP 1 there are none. A group of one rank is never built. The EP and DP_EP
loops build each group several times with the same ranks; a rank keeps the last, so each
collective runs once per distinct group."""

from __future__ import annotations

from dataclasses import dataclass

from wkparse.models.simai.tables import GroupType


class LayoutError(ValueError):
    """A group layout SimAI's mock refuses or dies on, said in one line."""


@dataclass(frozen=True, slots=True)
class Group:
    """One communicator: its ranks in the order the constructor adds them."""

    kind: GroupType
    ranks: tuple[int, ...]
    #: `nNodes`: ceil(TP / GPUs per server) for TP, the distinct servers otherwise
    servers: int

    @property
    def size(self) -> int:
        return len(self.ranks)


@dataclass(frozen=True, slots=True)
class Layout:
    """Every group of every type, and their sizes as the mock is given them."""

    tp: int
    dp: int
    ep: int
    dp_ep: int
    groups: dict[GroupType, tuple[Group, ...]]

    def of(self, kind: GroupType) -> tuple[Group, ...]:
        return self.groups.get(kind, ())


def build(gpus: int, per_server: int, nvswitches: int, tp_held: int, ep: int) -> Layout:
    """The groups for a run; raises LayoutError where SimAI builds none or stops."""
    tp = tp_held if tp_held != 0 else gpus + nvswitches
    if tp < 0 or tp > gpus:
        raise LayoutError(
            f"TP {tp} and {gpus} GPUs make DP = {gpus} / {tp} = {gpus // tp if tp else 0}: "
            "SimAI's mock divides by it (SIGFPE, not modelled)"
        )
    dp = gpus // tp
    if ep <= 0:
        raise LayoutError(f"ep {ep}: SimAI divides DP by it (SIGFPE, not modelled)")
    dp_ep = dp // ep
    if dp_ep <= 0:
        raise LayoutError(
            f"ep {ep} is more than DP {dp}: SimAI's mock divides by DP / EP = 0 (not modelled)"
        )
    if gpus % per_server != 0:
        raise LayoutError(
            f"{gpus} GPUs are not a multiple of {per_server} GPUs per server: SimAI's mock "
            "builds no group (MockNcclGroup.cc line 32; not modelled)"
        )
    if tp * dp != gpus or ep * dp_ep != dp:
        raise LayoutError(
            f"TP {tp} x DP {dp} is not {gpus} GPUs or EP {ep} x DP_EP {dp_ep} is not DP: "
            "SimAI's mock logs 'The group division method is incorrect' and builds no group "
            "(not modelled)"
        )
    groups: dict[GroupType, tuple[Group, ...]] = {}
    tp_groups: list[tuple[int, ...]] = []
    if tp > 1:
        servers = -(-tp // per_server)
        tp_groups = [tuple(i * tp + j for j in range(tp)) for i in range(gpus // tp)]
        groups[GroupType.TP] = tuple(Group(GroupType.TP, r, servers) for r in tp_groups)
    if dp > 1:
        stride = gpus // dp
        made = [tuple(i + j * stride for j in range(dp)) for i in range(stride)]
        groups[GroupType.DP] = tuple(_group(GroupType.DP, r, per_server) for r in made)
    if ep > 1 and tp_groups:
        made = []
        for block in range(len(tp_groups) // ep):
            first = block * ep
            for k in range(tp):
                made.append(tuple(tp_groups[t][k] for t in range(first, first + ep)))
        groups[GroupType.EP] = _distinct(GroupType.EP, made, per_server)
    if dp_ep > 1 and tp_groups:
        made = []
        for i in range(len(tp_groups) // dp_ep):
            for k in range(tp):
                members = range(i, i + dp_ep * ep, ep)
                made.append(tuple(tp_groups[t][k] for t in members if t < len(tp_groups)))
        groups[GroupType.DP_EP] = _distinct(GroupType.DP_EP, made, per_server)
    return Layout(tp, dp, ep, dp_ep, groups)


def _group(kind: GroupType, ranks: tuple[int, ...], per_server: int) -> Group:
    return Group(kind, ranks, len({r // per_server for r in ranks}))


def _distinct(kind: GroupType, made: list[tuple[int, ...]], per_server: int) -> tuple[Group, ...]:
    """The groups the ranks keep: for each rank the last group built that holds it."""
    last: dict[int, tuple[int, ...]] = {}
    for ranks in made:
        for r in ranks:
            last[r] = ranks
    return tuple(_group(kind, r, per_server) for r in dict.fromkeys(last.values()))
