"""SimAI-Analytical's bandwidth model before 26b4574b: the `-busbw` file and
`Layer::compute_time` of b1c1eb66 … 4e66932a (from their source; the recorded native runs of
`../shared/simai-versions` replay it byte for byte).

The file (SimAI's `example/busbw.yaml`) gives GB/s per group (TP, DP, EP; PP from 03613a7a)
and collective; its first line is skipped, `null` leaves -1. A collective takes
size / 2**30 / busbw x 1e9 x (n - 1) / n ns (twice that for an all-reduce), stored in a Tick:
- TP and EP groups of at most `-g_p_s` GPUs, and DP/DP_EP groups when `-g` equals `-g_p_s`,
  are "inside" a server: an all-reduce there takes the TP all-reduce busbw, a TP all-gather or
  reduce-scatter the TP all-gather busbw, a TP or EP all-to-all its own; anything else costs 0;
- a TP group across servers takes the TP figures; a DP group the DP ones, a DP_EP group the
  EP ones (all-gather, reduce-scatter and all-to-all all at the all-gather busbw); an EP group
  across servers costs 0.
There is no small-message latency and no size limit, and a group of one GPU costs 0.
"""

from __future__ import annotations

from wkparse.models.simai.busbw_file import YamlBusbw
from wkparse.models.simai.comm import GIB, CommTime
from wkparse.models.simai.ieee import div, tick
from wkparse.models.simai.tables import ComType, GroupType

U32 = 2**32


class YamlNetwork:
    """Collective times under one busbw file (`Layer::compute_time` before 26b4574b)."""

    def __init__(self, bw: YamlBusbw, tp: int, gpus: int, gpus_per_server: int) -> None:
        self.bw = bw
        self.tp = tp
        self.gpus = gpus
        self.gps = gpus_per_server % U32
        self._memo: dict[tuple[ComType, GroupType, int, int], CommTime] = {}

    def time(self, com: ComType, group: GroupType, ranks: int, size: int) -> CommTime:
        key = (com, group, ranks, size)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self._time(com, group, ranks, size)
        return got

    def _busbw(self, com: ComType, group: GroupType) -> tuple[float, int] | None:
        """The busbw and the all-reduce factor; None for a collective that costs 0."""
        tp_u = self.tp % U32
        inside = (group in (GroupType.TP, GroupType.EP) and tp_u <= self.gps) or (
            group in (GroupType.DP, GroupType.DP_EP)
            and self.gpus % U32 == self.gps
            and tp_u <= self.gps
        )
        b = self.bw
        if inside:
            if com is ComType.ALLREDUCE:
                return b.get("TP", "allreduce"), 2
            if group is GroupType.TP and com in (ComType.ALLGATHER, ComType.REDUCESCATTER):
                return b.get("TP", "allgather"), 1
            if group is GroupType.TP and com is ComType.ALLTOALL:
                return b.get("TP", "alltoall"), 1
            if group is GroupType.EP and com is ComType.ALLTOALL:
                return b.get("EP", "alltoall"), 1
            return None
        section = {GroupType.TP: "TP", GroupType.DP: "DP", GroupType.DP_EP: "EP"}.get(group)
        if section is None:
            return None
        if com is ComType.ALLREDUCE:
            return b.get(section, "allreduce"), 2
        if com in (ComType.ALLGATHER, ComType.REDUCESCATTER):
            return b.get(section, "allgather"), 1
        if com is ComType.ALLTOALL:
            return (
                (b.get(section, "alltoall"), 1)
                if group is GroupType.TP
                else (
                    b.get(section, "allgather"),
                    1,
                )
            )
        return None

    def _time(self, com: ComType, group: GroupType, ranks: int, size: int) -> CommTime:
        if com is ComType.NONE:
            return CommTime(0)
        found = self._busbw(com, group)
        if found is None:
            return CommTime(0)
        busbw, factor = found
        x = div(float(size) * 1.0 / GIB, busbw) * 1e9
        if factor == 2:
            x = x * 2
        x = div(x * (ranks - 1), ranks / 1.0)
        return CommTime(tick(x), busbw)
