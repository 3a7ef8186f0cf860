"""The time SimAI-Analytical gives one collective (`Layer::compute_time`) and the algbw/busbw
it prints for it (`Layer::compute_busbw`).

- No collective: 0.
- 1 < size < 1 MiB: a fixed latency by group size (2: 10 us, 4: 12, 8: 15, 16: 66, 32: 135,
  64: 200, 128: 320; any other size 0), whatever the group.
- Otherwise the group's placement gives a bus bandwidth (`busbw`), scaled by a ratio from
  SimAI's tables (`ratios`), and the time is size / 2**30 / (ratio x busbw) x 1e9 x (n-1)/n
  ns, twice that for an all-reduce, stored in a 64-bit `Tick`: a bandwidth of 0 (a one-GPU
  TP group) gives NaN and so 2**63 ns; a negative one wraps to nearly 2**64 ns.
"""

from __future__ import annotations

from dataclasses import dataclass

from wkparse.models.simai import ratios
from wkparse.models.simai.busbw import cal_busbw
from wkparse.models.simai.ieee import div, f32, tick
from wkparse.models.simai.options import SimaiOptions
from wkparse.models.simai.placement import place, ratio_column
from wkparse.models.simai.tables import ComType, GroupType

#: SimAI's fixed latency in ns of a message of 2 B to 1 MiB - 1 B, by group size
LATENCY_NS = {2: 10000, 4: 12000, 8: 15000, 16: 66000, 32: 135000, 64: 200000, 128: 320000}
SMALL = (1, 1048576)
GIB = 1073741824
COLLECTIVE_NAMES = {
    ComType.ALLREDUCE: "allreduce",
    ComType.ALLGATHER: "allgather",
    ComType.REDUCESCATTER: "reducescatter",
    ComType.ALLTOALL: "alltoall",
}


@dataclass(frozen=True, slots=True)
class CommTime:
    """One phase's collective as SimAI times it."""

    ns: int
    #: the bandwidth model's answer (None: fixed latency or no traffic)
    busbw: float | None = None
    ratio: float | None = None
    #: the cal_busbw arguments (nodes, GPUs per node, NICs per node)
    placement: tuple[int, int, float] | None = None
    retcode: int = 0


class Network:
    """The bandwidth options of one run, and collective times under them (memoised: AICB
    files repeat a few collectives many times)."""

    def __init__(self, opts: SimaiOptions, tp: int, ep: int) -> None:
        self.opts = opts
        self.tp = tp
        self.ep = ep
        self.gps = opts.g_p_s
        self.nps = opts.n_p_s
        self._memo: dict[tuple[ComType, GroupType, int, int], CommTime | ratios.OutOfRange] = {}

    def time(self, com: ComType, group: GroupType, ranks: int, size: int) -> CommTime:
        """Raises `ratios.OutOfRange` where SimAI throws `Data size out of range`."""
        key = (com, group, ranks, size)
        got = self._memo.get(key)
        if got is None:
            try:
                got = self._time(com, group, ranks, size)
            except ratios.OutOfRange as exc:
                got = exc
            self._memo[key] = got
        if isinstance(got, ratios.OutOfRange):
            raise got
        return got

    def _time(self, com: ComType, group: GroupType, ranks: int, size: int) -> CommTime:
        if com is ComType.NONE:
            return CommTime(0)
        if SMALL[0] < size < SMALL[1]:
            return CommTime(LATENCY_NS.get(ranks, 0))
        where = place(group, self.tp, ranks, self.ep, self.gps, self.nps)
        if where is None:
            return CommTime(0)
        o = self.opts
        name = COLLECTIVE_NAMES[com]
        bw = cal_busbw(
            o.gpu_type_value,
            o.nvlink,
            o.nic,
            where.nics,
            where.nodes,
            name,
            where.gpus,
            o.nic_type,
        )
        column = ratio_column(com, group, self.tp, ranks, self.gps, bw.nvlink)
        ratio = 1.0
        if column is not None:
            ratio = ratios.lookup(float(size), column[1], ratios.table(column[0]))
        x = float(size) * 1.0 / GIB
        x = div(x, f32(ratio * bw.busbw))
        x = x * 1e9
        if com is ComType.ALLREDUCE:
            x = x * 2
        x = x * (ranks - 1)
        x = div(x, ranks / 1.0)
        placed = (where.nodes, where.gpus, where.nics)
        return CommTime(tick(x), bw.busbw, ratio, placed, bw.retcode)


def bandwidths(com: ComType, ranks: int, size: int, total_ns: int) -> tuple[float, float]:
    """(algbw, busbw) as SimAI prints them for a phase, both `float`s."""
    algbw = f32(div(float(size), total_ns / 1000.0) * 1000000 * 1.0 / GIB)
    if com is ComType.ALLREDUCE:
        busbw = f32(div(f32(f32(algbw * 2) * (ranks - 1)), ranks / 1.0))
    elif com is ComType.NONE:
        busbw = 0.0
    else:
        busbw = f32(div(f32(algbw * (ranks - 1)), ranks / 1.0))
    return algbw, busbw
