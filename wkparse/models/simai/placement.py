"""Where SimAI-Analytical puts a group's ranks: the (nodes, GPUs per node, NICs per node)
it hands its bandwidth model for each collective (`Layer::compute_time`), and the ratio-table
column it reads (`Layer::cal_ratio`).

With g = `-g_p_s` and n = `-n_p_s` (both unsigned; divisions are C integer divisions):
- TP: one node of TP GPUs with n NICs when TP <= g, else TP / g nodes of g GPUs;
- EP (more than one rank): one node of g / TP GPUs when TP x EP <= g, else TP x EP / g nodes
  of max(g / TP, 1) GPUs with n / TP (or n / g when TP > g) NICs;
- DP (more than one rank): DP nodes of g / TP GPUs with n / TP NICs when TP <= g, else DP
  nodes of one GPU with n / g NICs. `nodes` is the DP size whatever g is;
- DP_EP: as DP with TP x EP in place of TP;
- any other group, or a DP/EP/DP_EP group of one rank: no traffic (time 0).
n / TP of 0 NICs gives a bandwidth of -1 (see `busbw`).
"""

from __future__ import annotations

from dataclasses import dataclass

from wkparse.cpp import wrap_int32
from wkparse.models.simai.tables import ComType, GroupType

U32 = 2**32


def u32(x: int) -> int:
    return x % U32


@dataclass(frozen=True, slots=True)
class Placement:
    nodes: int
    gpus: int
    nics: float


def place(group: GroupType, tp: int, ranks: int, ep: int, gps: int, nps: int) -> Placement | None:
    """The cal_busbw arguments for a collective of `ranks` ranks in `group`; None: no traffic."""
    if group is GroupType.TP:
        if u32(tp) <= gps:
            return Placement(1, tp, float(nps))
        return Placement(wrap_int32(u32(tp) // gps), wrap_int32(gps), float(nps))
    if ranks <= 1:
        return None
    if group is GroupType.EP:
        span = u32(wrap_int32(tp * ranks))
        if span <= gps:
            return Placement(1, wrap_int32(gps // u32(tp)), float(nps))
        per = gps // u32(tp)
        nics = nps // gps if u32(tp) > gps else nps // u32(tp)
        return Placement(wrap_int32(span // gps), wrap_int32(per if per > 1 else 1), float(nics))
    if group is GroupType.DP:
        if u32(tp) <= gps:
            return Placement(ranks, wrap_int32(gps // u32(tp)), float(nps // u32(tp)))
        return Placement(ranks, 1, float(nps // gps))
    if group is GroupType.DP_EP:
        width = u32(wrap_int32(tp * ep))
        if width <= gps:
            return Placement(ranks, wrap_int32(gps // width), float(nps // width))
        return Placement(ranks, 1, float(nps // gps))
    return None


def ratio_column(
    com: ComType, group: GroupType, tp: int, ranks: int, gps: int, nvlink: bool
) -> tuple[str, int] | None:
    """(table, node count) SimAI looks the size up in; None: the ratio is 1."""
    if com in (ComType.ALLGATHER, ComType.REDUCESCATTER) and group is GroupType.TP:
        nodes = 1 if u32(tp) < gps else wrap_int32(u32(tp) // gps)
        return ("nvlink" if nvlink else "nic", nodes)
    if com is ComType.ALLTOALL and group is GroupType.EP:
        span = u32(wrap_int32(tp * ranks))
        if span <= gps:
            return ("ata", 1)
        if u32(tp) >= gps:
            return ("ata", 9)
        return ("ata", wrap_int32(span // gps))
    if com is ComType.ALLTOALL and group is GroupType.TP:
        return ("ata", 1 if u32(tp) <= gps else wrap_int32(u32(tp) // gps))
    return None
