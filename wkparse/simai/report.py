"""SimAI-Analytical's EndToEnd.csv, predicted: per layer, the compute, the exposed and total
communication of each phase and its algbw/busbw; then the summary line (`Layer::report`).

Per layer, in file order:
- each phase's collective is timed (`comm.Network.time`: forward, weight-gradient, then
  input-gradient); a size past the ratio tables throws, and SimAI's report stops there: the
  layers before it are in the CSV, no summary is written, and the run still exits 0;
- every layer but one named `embedding_layer` adds its forward and input-gradient comm and
  its three compute times to the bubble base;
- the exposed weight-gradient comm is the total x (1 - `-dp_o`), summed as DP (or DP_EP for a
  `_DP_EP` collective); the exposed forward and input-gradient comm is the total x (1 -
  `-tp_o`), or (1 - `-ep_o`) where the forward collective is in EP, summed as TP or EP. Each
  product is taken in `float` and stored back in a 64-bit `Tick`.
After the last layer:
- `Expose_PP_comm` = 2 x vpp x ga x pp_comm / 2**30 / r x 1e9 / 1000 us, times (1 - r) with
  r = `-pp_o` (r = 1 gives 0; r = 0 gives infinity, which a `Tick` holds as 0);
- bubble = bubble base x (PP - 1) / (ga x vpp): a missing vpp (0) makes it infinite (or NaN
  with PP 1), and the total `NaN or Inf`;
- total = compute + exposed comm + bubble + PP comm; each summary value is printed with its
  share of the total.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

from wkparse.cpp import U64, c_div, scaled, wrap_int32
from wkparse.simai.comm import CommTime, Network, bandwidths
from wkparse.simai.ieee import DEFAULT_NAN, TWO_63, div, f32, fixed, scale_tick, tick, whole
from wkparse.simai.options import SimaiOptions
from wkparse.simai.ratios import OutOfRange
from wkparse.simai.rows import LayerRead
from wkparse.simai.tables import ComType, GroupType, decode_comm

FREQ = 1000.0
GIB = 1073741824
RUN_NAME = "Analytical_test"
SUMMARY_KEYS = (
    "File name, Expose DP comm, Expose DP_EP comm, Expose TP comm, Expose_EP_comm, "
    "Expose_PP_comm, bubble time, total comp, total exposed comm, Total time"
)
LAYER_HEADER = (
    "layer_name,{run},fwd compute,wg compute,ig compute,fwd exposed comm,wg exposed comm,"
    "ig exposed comm,fwd total comm,algbw,busbw,wg total comm,algbw,busbw,ig total comm,"
    "algbw,busbw"
)
TOTAL_KEYS = (
    "expose_dp_comm_us",
    "expose_dp_ep_comm_us",
    "expose_tp_comm_us",
    "expose_ep_comm_us",
    "expose_pp_comm_us",
    "bubble_time_us",
    "total_comp_us",
    "total_exposed_comm_us",
)


@dataclass(frozen=True, slots=True)
class PhaseResult:
    compute_ns: int
    exposed_ns: int
    total: CommTime
    algbw: float
    busbw: float
    com: ComType
    group: GroupType
    ranks: int
    size: int


@dataclass(frozen=True, slots=True)
class LayerResult:
    """One layer's numbers; identical layers share one."""

    name: str
    fwd: PhaseResult
    wg: PhaseResult
    ig: PhaseResult
    bubble_ns: int
    row: str

    def phase(self, name: str) -> PhaseResult:
        return self.fwd if name == "fwd" else self.ig if name == "ig" else self.wg


@dataclass
class Report:
    """The report SimAI writes. `stop` is None when it wrote the summary, "out_of_range"
    when a collective's size was past the ratio tables (no summary), and `stopped_at` the
    layer where that happened."""

    file_name: str
    layers: list[LayerResult] = field(default_factory=list)
    #: index into `layers` per reported layer (identical layers share one result)
    order: list[int] = field(default_factory=list)
    stop: str | None = None
    stopped_at: int | None = None
    totals: dict[str, float] = field(default_factory=dict)
    summary: str | None = None
    #: the first (layer, phase) whose group is one GPU: bandwidth 0, an infinite time
    #: (2**63 ns as SimAI stores it)
    first_infinite: tuple[int, str] | None = None
    #: the first (layer, phase) whose bandwidth is -1 (0 NICs or an unknown type): a time
    #: that wraps to nearly 2**64 ns, and an exposed share of 0
    first_wrapped: tuple[int, str] | None = None
    #: the identical layers SimAI makes after its reading failed: `tail_count` copies of
    #: `layers[tail]` after those in `order` (never one entry per copy: a count line may
    #: declare a billion)
    tail: int | None = None
    tail_count: int = 0
    #: the first layer index of each entry of `layers`
    first_index: list[int] = field(default_factory=list)

    @property
    def row_count(self) -> int:
        return len(self.order) + self.tail_count

    @property
    def total_time_us(self) -> float | None:
        return self.totals.get("total_time_us")

    @property
    def finite(self) -> bool:
        """Whether SimAI's total is a number (not `NaN or Inf`)."""
        t = self.total_time_us
        return t is not None and math.isfinite(t)

    @property
    def broken(self) -> bool:
        """Whether SimAI's result is no usable time: no summary, NaN/Inf, or an infinite
        collective in it."""
        return self.summary is None or not self.finite or self.first_infinite is not None

    def rows(self) -> Iterator[tuple[int, LayerResult]]:
        for i, k in enumerate(self.order):
            yield i, self.layers[k]
        if self.tail is not None:
            layer = self.layers[self.tail]
            for i in range(len(self.order), self.row_count):
                yield i, layer

    def distinct(self) -> Iterator[tuple[int, LayerResult]]:
        """Each distinct layer once, with the index of its first row."""
        return zip(self.first_index, self.layers)

    def csv(self) -> str:
        """EndToEnd.csv, byte for byte."""
        return "".join(self.csv_chunks())

    def csv_chunks(self) -> Iterator[str]:
        if self.summary is not None:
            yield SUMMARY_KEYS + "\n" + self.summary + "\n"
        if not self.row_count:
            return
        yield LAYER_HEADER.format(run=RUN_NAME) + "\n"
        rows = [layer.row for layer in self.layers]
        chunk: list[str] = []
        for k in self.order:
            chunk.append(rows[k])
            if len(chunk) >= 20000:
                yield "\n".join(chunk) + "\n"
                chunk = []
        if chunk:
            yield "\n".join(chunk) + "\n"
        if self.tail is not None:
            block = (rows[self.tail] + "\n") * 20000
            whole_blocks, rest = divmod(self.tail_count, 20000)
            for _ in range(whole_blocks):
                yield block
            yield (rows[self.tail] + "\n") * rest


def _us(ns: int) -> float:
    return float(ns) / FREQ


def _bw(x: float) -> str:
    return fixed(x, 2)


class Reporter:
    """Builds the report of one run: the header values, DP from -g, and the options."""

    def __init__(
        self,
        opts: SimaiOptions,
        tp: int,
        ep: int,
        pp: int,
        vpp: int,
        ga: int,
        pp_comm: int,
        dp: int,
        policy_raise: bool,
    ) -> None:
        self.opts = opts
        self.tp, self.ep, self.pp, self.vpp, self.ga = tp, ep, pp, vpp, ga
        self.pp_comm = pp_comm
        self.dp = dp
        self.raise_small = policy_raise
        self.net = Network(opts, tp, ep)
        self.keep_dp = f32(1 - opts.dp_overlap)
        self.keep_tp = f32(1 - opts.tp_overlap)
        self.keep_ep = f32(1 - opts.ep_overlap)
        self._comms: dict[tuple[str, str, int], PhaseResult] = {}
        self._texts: dict[tuple[int, int, ComType], str] = {}
        self._kept: dict[tuple[int, float], int] = {}

    def ranks(self, phase: str, group: GroupType) -> int:
        if phase == "wg":
            return c_div(self.dp, self.ep) if group is GroupType.DP_EP else self.dp
        return self.ep if group is GroupType.EP else self.tp

    def _comm(self, phase: str, comm: str, raw_size: int) -> PhaseResult:
        """A phase's collective, without its compute (memoised: AICB repeats a few)."""
        key = (phase, comm, raw_size)
        found = self._comms.get(key)
        if found is None:
            com, group = decode_comm(comm, phase)
            size = scaled(raw_size)
            if phase == "fwd" and self.raise_small and 0 < size < 4096:
                size = 4096
            ranks = self.ranks(phase, group)
            total = self.net.time(com, group, ranks, size)
            algbw, busbw = bandwidths(com, ranks, size, total.ns)
            found = PhaseResult(0, total.ns, total, algbw, busbw, com, group, ranks, size)
            self._comms[key] = found
        return found

    def _cells(self, p: PhaseResult) -> str:
        """A phase's total comm, algbw and busbw cells (its collective's `CommTime` is shared
        by every phase with the same collective and size)."""
        key = (id(p.total), p.size, p.com)
        found = self._texts.get(key)
        if found is None:
            found = f"{whole(_us(p.total.ns))},{_bw(p.algbw)},{_bw(p.busbw)}"
            self._texts[key] = found
        return found

    def _exposed(self, ns: int, keep: float) -> int:
        key = (ns, keep)
        found = self._kept.get(key)
        if found is None:
            found = self._kept[key] = scale_tick(ns, keep)
        return found

    def layer(self, layer: LayerRead) -> LayerResult:
        """Raises OutOfRange where SimAI's report stops."""
        phases = []
        for name in ("fwd", "wg", "ig"):
            read = layer.phase(name)
            assert read.size is not None and read.compute is not None
            p = self._comm(name, read.comm, read.size)
            phases.append(_with(p, scaled(read.compute), p.exposed_ns))
        f, w, i = phases
        bubble = (f.exposed_ns + f.compute_ns + w.compute_ns + i.compute_ns + i.exposed_ns) % U64
        keep = self.keep_ep if f.group is GroupType.EP else self.keep_tp
        f = _with(f, f.compute_ns, self._exposed(f.exposed_ns, keep))
        w = _with(w, w.compute_ns, self._exposed(w.exposed_ns, self.keep_dp))
        i = _with(i, i.compute_ns, self._exposed(i.exposed_ns, keep))
        cells = [layer.name, RUN_NAME]
        cells += [whole(_us(p.compute_ns)) for p in (f, w, i)]
        cells += [whole(_us(p.exposed_ns)) for p in (f, w, i)]
        cells += [self._cells(p) for p in (f, w, i)]
        return LayerResult(layer.name, f, w, i, bubble, ",".join(cells))

    def report(
        self, layers: list[LayerRead], file_name: str, tail: LayerRead | None = None, times: int = 0
    ) -> Report:
        """The report over `layers`, then `times` copies of `tail`."""
        rep = Report(file_name)
        seen: dict[int, int] = {}
        order = rep.order
        append = order.append

        def result_of(index: int, layer: LayerRead) -> int | None:
            k = seen.get(id(layer))
            if k is None:
                try:
                    result = self.layer(layer)
                except OutOfRange:
                    rep.stop, rep.stopped_at = "out_of_range", index
                    return None
                k = seen[id(layer)] = len(rep.layers)
                rep.layers.append(result)
                rep.first_index.append(index)
                _note_broken(rep, index, result)
            return k

        for index, layer in enumerate(layers):
            k = result_of(index, layer)
            if k is None:
                return rep
            append(k)
        if tail is not None and times:
            k = result_of(len(order), tail)
            if k is None:
                return rep
            rep.tail, rep.tail_count = k, times
        terms = [_terms(r) for r in rep.layers]
        sums = _sums_numpy(terms, order) if len(order) >= NUMPY_ROWS else _sums(terms, order)
        if rep.tail is not None:
            sums = _sums_repeated(sums, terms[rep.tail], rep.tail_count)
        bubble, dp_comm, dp_ep_comm, tp_comm, ep_comm, total_compute, total_exposed = sums
        if not rep.row_count:
            return rep
        r_pp = self.opts.pp_overlap
        ppx = float(self.pp_comm) * 1.0 / GIB
        ppx = div(ppx, r_pp) * 1e9
        # SimAI's Expose_PP_time is a Tick that holds microseconds
        pp_tick = tick(div(wrap_int32(wrap_int32(2 * self.vpp) * self.ga) * ppx, FREQ))
        pp_tick = scale_tick(pp_tick, f32(1 - r_pp))
        bubble *= div(float(wrap_int32(self.pp - 1)), float(wrap_int32(self.ga * self.vpp)))
        pp_us = float(pp_tick)
        total_time = total_compute + total_exposed + bubble + pp_us
        values = (
            dp_comm,
            dp_ep_comm,
            tp_comm,
            ep_comm,
            pp_us,
            bubble,
            total_compute,
            total_exposed,
        )
        rep.totals = dict(zip(TOTAL_KEYS, values))
        rep.totals["total_time_us"] = total_time
        parts = [file_name]
        parts += [f"{whole(v)} ({_pct(v, total_time)})" for v in values]
        parts.append(whole(total_time))
        rep.summary = ", ".join(parts)
        return rep


#: from this many rows on, the sums run in numpy (`cumsum` adds in order, as SimAI does)
NUMPY_ROWS = 20000
#: a layer's terms in SimAI's sums, in its order: bubble base, DP, DP_EP, TP, EP, then
#: compute (fwd, wg, ig) and exposed comm (fwd, wg, ig); a term that does not apply is 0.0
Terms = tuple[float, ...]


def _terms(r: LayerResult) -> Terms:
    f, w, i = r.fwd, r.wg, r.ig
    bubble = float(r.bubble_ns) / FREQ if r.name != "embedding_layer" else 0.0
    wg = float(w.exposed_ns) / FREQ
    dp_ep = w.group is GroupType.DP_EP
    pair = float((f.exposed_ns + i.exposed_ns) % U64) / FREQ
    ep = f.group is GroupType.EP
    return (
        bubble,
        0.0 if dp_ep else wg,
        wg if dp_ep else 0.0,
        0.0 if ep else pair,
        pair if ep else 0.0,
        float(f.compute_ns) / FREQ,
        float(w.compute_ns) / FREQ,
        float(i.compute_ns) / FREQ,
        float(f.exposed_ns) / FREQ,
        wg,
        float(i.exposed_ns) / FREQ,
    )


def _sums(terms: list[Terms], order: list[int]) -> tuple[float, ...]:
    """SimAI's running sums, added one layer at a time in file order (adding 0.0 for a term
    that does not apply changes no sum)."""
    bubble = dp = dp_ep = tp = ep = compute = exposed = 0.0
    for k in order:
        t = terms[k]
        bubble += t[0]
        dp += t[1]
        dp_ep += t[2]
        tp += t[3]
        ep += t[4]
        compute += t[5]
        compute += t[6]
        compute += t[7]
        exposed += t[8]
        exposed += t[9]
        exposed += t[10]
    return bubble, dp, dp_ep, tp, ep, compute, exposed


#: past this many identical trailing layers the sums are multiplied out, not added up (as
#: `wkparse.simai.analytical.total_compute` does for `total comp`)
EXACT_REPEATS = 1_000_000


def _sums_repeated(sums: tuple[float, ...], t: Terms, times: int) -> tuple[float, ...]:
    """`sums` after `times` more layers of terms `t`: added one by one up to EXACT_REPEATS,
    multiplied out past it (SimAI adds them one by one; a count line of a billion layers
    would take minutes)."""
    bubble, dp, dp_ep, tp, ep, compute, exposed = sums
    if times > EXACT_REPEATS:
        return (
            bubble + times * t[0],
            dp + times * t[1],
            dp_ep + times * t[2],
            tp + times * t[3],
            ep + times * t[4],
            compute + times * (t[5] + t[6] + t[7]),
            exposed + times * (t[8] + t[9] + t[10]),
        )
    for _ in range(times):
        bubble += t[0]
        dp += t[1]
        dp_ep += t[2]
        tp += t[3]
        ep += t[4]
        compute += t[5]
        compute += t[6]
        compute += t[7]
        exposed += t[8]
        exposed += t[9]
        exposed += t[10]
    return bubble, dp, dp_ep, tp, ep, compute, exposed


def _sums_numpy(terms: list[Terms], order: list[int]) -> tuple[float, ...]:
    """`_sums` for many rows: `numpy.cumsum` adds strictly in order, so its last element is
    the same double as the loop's sum."""
    import numpy as np

    table = np.array(terms, dtype=np.float64)
    rows = np.array(order, dtype=np.intp)

    def run(columns: list[int]) -> float:
        values = table[:, columns][rows].ravel()
        return float(np.cumsum(values)[-1])

    singles = [run([c]) for c in range(5)]
    return (*singles, run([5, 6, 7]), run([8, 9, 10]))


def _note_broken(rep: Report, index: int, r: LayerResult) -> None:
    for name in ("fwd", "wg", "ig"):
        t = r.phase(name).total
        if rep.first_infinite is None and t.retcode == 1 and t.ns >= TWO_63:
            rep.first_infinite = (index, name)
        if rep.first_wrapped is None and t.busbw is not None and t.busbw < 0 and t.ns > TWO_63:
            rep.first_wrapped = (index, name)


def _pct(value: float, total: float) -> str:
    return fixed(div(value, total) * 100, 2) + "%"


def _with(p: PhaseResult, compute: int, exposed: int) -> PhaseResult:
    return PhaseResult(compute, exposed, p.total, p.algbw, p.busbw, p.com, p.group, p.ranks, p.size)


__all__ = ["DEFAULT_NAN", "LayerResult", "PhaseResult", "Report", "Reporter"]
