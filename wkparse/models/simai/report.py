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

The layers come as columns (`rows.LayerValues`), and what SimAI computes per layer is split
by what it depends on: the collectives (their times, exposed shares, CSV cells and terms in
the sums) once per *kind* of layer, its name and three collectives with their sizes, of which
a file has a few dozen; only the compute times, and what they add to the bubble base, per
layer. A CSV row is then one `%` of its kind's text and its three compute cells, and each of
SimAI's running sums one `sums.running_sum` over the rows. `LayerResult`s, one per distinct
layer, are made only when asked for (`Report.layers`). A file whose rows rarely repeat has a
kind per row: from `ARRAYS_FROM` kinds they are timed over numpy arrays (`kind_arrays`, the
same steps as `_kind`), or a kind per value where the reading did not group them.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, islice, repeat
from operator import add, mod, mul, truediv
from typing import Any, TypeVar, cast

from wkparse.ast import PHASES
from wkparse.columns import NUMPY_FROM
from wkparse.cpp import U64, c_div, scaled, scaled_floats, wrap_int32
from wkparse.models.simai.busbw_file import YamlBusbw
from wkparse.models.simai.comm import CommTime, Network, bandwidths
from wkparse.models.simai.ieee import (
    DEFAULT_NAN,
    TWO_63,
    WHOLE,
    div,
    f32,
    fixed,
    scale_tick,
    tick,
    whole,
)
from wkparse.models.simai.kind_arrays import (
    KindArrays,
    phase_bandwidths,
    time_phase,
    token_codes,
    uint64_at,
)
from wkparse.models.simai.options import SimaiOptions
from wkparse.models.simai.ratios import OutOfRange
from wkparse.models.simai.rows import LayerRead, LayerValues, items_at
from wkparse.models.simai.sums import running_sum, sequential_sum
from wkparse.models.simai.tables import ComType, GroupType, decode_comm
from wkparse.models.simai.versions import DEFAULT, SimaiVersion
from wkparse.models.simai.yaml_busbw import YamlNetwork

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
#: a CSV row: its kind's name cells, the three compute cells, then the kind's other cells
ROW = "%s" + ",".join([WHOLE] * 3) + "%s"
#: CSV rows joined per chunk
CHUNK_ROWS = 20000
#: the phases in the order SimAI reports (and adds up) them
REPORTED = ("fwd", "wg", "ig")
#: below this every integer is exact as a double
EXACT_DOUBLE = 2**53
#: from this many kinds of layer (grouped by the parser's columns), the kinds are timed over
#: arrays (`kind_arrays`), not one at a time
ARRAYS_FROM = 256
T = TypeVar("T")


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


@dataclass(frozen=True, slots=True)
class _Kind:
    """What layers of one name and the same three collectives share: each phase's comm (its
    `exposed_ns` after the overlap, no compute), the CSV text around their compute cells, and
    their terms in SimAI's sums."""

    name: str
    fwd: PhaseResult
    wg: PhaseResult
    ig: PhaseResult
    #: the forward and input-gradient comm before the overlap, which the bubble base adds
    around: int
    head: str
    #: the CSV cells after the compute ones: the exposed comm of fwd, wg and ig, then the
    #: total comm, algbw and busbw of each
    cells: tuple[str, ...]
    #: in microseconds: DP, DP_EP, TP, EP (each 0.0 where it does not apply), then the
    #: exposed comm of fwd, wg and ig
    terms: tuple[float, ...]

    def phase(self, name: str) -> PhaseResult:
        return self.fwd if name == "fwd" else self.ig if name == "ig" else self.wg

    @property
    def rest(self) -> str:
        """The CSV text after the compute cells."""
        return "," + ",".join(self.cells)


class _KindList(list[_Kind]):
    """Kinds made one at a time, with the columns `KindArrays` holds for many (the report
    reads either the same way)."""

    @property
    def names(self) -> list[str]:
        return [k.name for k in self]

    @cached_property
    def heads(self) -> list[str]:
        return [k.head for k in self]

    @cached_property
    def rests(self) -> list[str]:
        return [k.rest for k in self]

    @property
    def cells(self) -> list[tuple[str, ...]]:
        return [k.cells for k in self]

    @property
    def around(self) -> list[int]:
        return [k.around for k in self]

    @property
    def around_doubles(self) -> tuple[int, None]:
        return max(self.around, default=0), None

    @property
    def counted(self) -> list[float]:
        return [0.0 if k.name == "embedding_layer" else 1.0 for k in self]

    @property
    def terms(self) -> list[tuple[float, ...]]:
        return [k.terms for k in self]

    def term_columns(self, columns: Sequence[int]) -> list[Any]:
        import numpy

        return [numpy.array([k.terms[c] for k in self], dtype=numpy.float64) for c in columns]

    @property
    def exposed_ns(self) -> list[tuple[int, int, int]]:
        return [(k.fwd.exposed_ns, k.wg.exposed_ns, k.ig.exposed_ns) for k in self]

    def head(self, count: int) -> _KindList:
        return self if count == len(self) else _KindList(self[:count])

    def first_broken(self) -> tuple[tuple[int, str] | None, tuple[int, str] | None]:
        """The first (kind, phase) whose collective is infinite and the first whose time
        wrapped (see `Report.first_infinite` and `first_wrapped`)."""
        infinite = wrapped = None
        for k, kind in enumerate(self):
            for name in REPORTED:
                t = kind.phase(name).total
                if infinite is None and t.retcode == 1 and t.ns >= TWO_63:
                    infinite = (k, name)
                if wrapped is None and t.busbw is not None and t.busbw < 0 and t.ns > TWO_63:
                    wrapped = (k, name)
        return infinite, wrapped


#: the kinds of a report: made one at a time, or as columns
Kinds = _KindList | KindArrays[_Kind]


@dataclass(frozen=True)
class _Rows:
    """The reported layers as columns: each reported row's value, and per value (the tail's,
    when there is one, last) its kind and its compute times (fwd, wg, ig) as SimAI scales
    them, in nanoseconds and in microseconds."""

    order: Sequence[int]
    #: whether `order` is 0, 1, 2, ...: every row a value of its own
    once_each: bool
    kind_of: Sequence[int]
    #: the kinds SimAI times (those after the first it cannot are never reported)
    kinds: Kinds
    ns: tuple[Sequence[float], ...]
    #: the largest of each `ns` column
    ns_most: tuple[float, ...]
    #: the microseconds as `_in_us` gives them (numpy arrays for a long report; `us` lists)
    us_columns: tuple[Any, ...]
    #: `kind_of` as a numpy array, when the reading grouped the kinds with numpy
    kind_array: Any = None

    @property
    def heads(self) -> list[str]:
        """Each kind's CSV text before its compute cells (made once: `texts` is asked per
        layer and per chunk, and a file of distinct rows has a kind per row)."""
        return self.kinds.heads

    @property
    def rests(self) -> list[str]:
        """Each kind's CSV text after its compute cells (made once, when first asked)."""
        return self.kinds.rests

    @cached_property
    def kind_indexes(self) -> Any:
        """`kind_of` as a numpy array of indexes (from the reading's grouping, when made)."""
        import numpy

        found = self.kind_array if self.kind_array is not None else self.kind_of
        return numpy.asarray(found, dtype=numpy.intp)

    @cached_property
    def us(self) -> tuple[Sequence[float], ...]:
        """The microseconds per value as Python floats (fwd, wg, ig)."""
        return tuple(c if isinstance(c, list) else c.tolist() for c in self.us_columns)

    def per_row(self, column: Sequence[T]) -> Iterable[T]:
        """Item `value` of a per-value column, for each reported row in order."""
        if self.once_each:
            return islice(column, len(self.order))
        return map(column.__getitem__, self.order)

    def texts(self, values: Sequence[int]) -> Iterator[str]:
        """The CSV rows of `values` (a range of them taken as slices of the columns)."""
        if isinstance(values, range) and values.step == 1:
            part = slice(values.start, values.stop)
            of: Sequence[int] = self.kind_of[part]
            us: list[Iterable[float]] = [c[part] for c in self.us]
        else:
            of = list(map(self.kind_of.__getitem__, values))
            us = [map(c.__getitem__, values) for c in self.us]
        heads = map(self.heads.__getitem__, of)
        rests = map(self.rests.__getitem__, of)
        return map(ROW.__mod__, zip(heads, *us, rests))

    def layer(self, value: int) -> LayerResult:
        kind = self.kinds[self.kind_of[value]]
        ns = [int(c[value]) for c in self.ns]
        f, w, i = (_with(kind.phase(p), c, kind.phase(p).exposed_ns) for p, c in zip(REPORTED, ns))
        # one value's microseconds from the columns (`us` would make them all Python floats)
        row = ROW % (kind.head, *(float(c[value]) for c in self.us_columns), kind.rest)
        bubble = next(_bubble_ns([kind.around], *([c] for c in ns)))
        return LayerResult(kind.name, f, w, i, bubble, row)


@dataclass
class Report:
    """The report SimAI writes. `stop` is None when it wrote the summary, "out_of_range"
    when a collective's size was past the ratio tables (no summary), and `stopped_at` the
    layer where that happened."""

    file_name: str
    stop: str | None = None
    stopped_at: int | None = None
    totals: dict[str, float] = field(default_factory=dict)
    summary: str | None = None
    #: the summary's title line (b1c1eb66's has no Expose_PP_comm)
    keys: str = SUMMARY_KEYS
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
    _rows: _Rows | None = field(default=None, repr=False)

    @property
    def order(self) -> Sequence[int]:
        """Index into `layers` per reported layer (identical layers share one result)."""
        return () if self._rows is None else self._rows.order

    @cached_property
    def layers(self) -> list[LayerResult]:
        """One result per distinct layer, in the order of its first row."""
        rows = self._rows
        if rows is None:
            return []
        count = self.tail + 1 if self.tail is not None else _values_in(rows.order)
        return [rows.layer(v) for v in range(count)]

    def layer(self, value: int) -> LayerResult:
        """`layers[value]`, made alone where `layers` is not made yet (it makes one result per
        distinct layer: as many as rows on a file whose rows all differ)."""
        if "layers" in self.__dict__ or self._rows is None:
            return self.layers[value]
        return self._rows.layer(value)

    @cached_property
    def phase_costs(self) -> list[tuple[int, int, int]]:
        """Per entry of `layers`, each phase's compute plus exposed comm in nanoseconds (fwd,
        wg, ig: `compute_ns + exposed_ns` of its `LayerResult`), from the columns."""
        rows = self._rows
        if rows is None:
            return []
        exposed = rows.kinds.exposed_ns
        f, w, i = rows.ns
        count = len(self.first_index)

        def costs(v: int) -> tuple[int, int, int]:
            e = exposed[rows.kind_of[v]]
            return (int(f[v]) + e[0], int(w[v]) + e[1], int(i[v]) + e[2])

        return list(map(costs, range(count)))

    def costliest(self, count: int) -> list[int]:
        """The `count` entries of `layers` with the most compute plus exposed comm (the sum
        of their `phase_costs`, each made a double), most first; of equal costs the first."""
        firsts = self.first_index
        found = self._costliest_by_numpy(count) if len(firsts) >= NUMPY_FROM else None
        if found is not None:
            return found
        costs = self.phase_costs

        def key(value: int) -> tuple[float, int]:
            return (sum(float(c) for c in costs[value]), -firsts[value])

        return heapq.nlargest(count, range(len(firsts)), key=key)

    def _costliest_by_numpy(self, count: int) -> list[int] | None:
        """`costliest` over arrays, where every phase's cost is below 2**53 (exact as a
        double, as `float` of the integer is); None otherwise."""
        rows = self._rows
        exposed = getattr(rows.kinds, "exposed", None) if rows is not None else None
        if rows is None or exposed is None:
            return None
        import numpy

        most = max(int(c.max()) if len(c) else 0 for c in exposed)
        if max(rows.ns_most) + most >= EXACT_DOUBLE:
            return None
        firsts = self.first_index
        n = len(firsts)
        of = slice(None, n) if isinstance(rows.kind_of, range) else rows.kind_indexes[:n]
        total = numpy.zeros(n)
        for ns, kept in zip(rows.ns, exposed):  # fwd, wg, ig, added in that order
            phase = numpy.asarray(ns, dtype=numpy.float64)[:n]
            total = total + (phase + kept.astype(numpy.float64)[of])
        if n > count:  # the candidates: every cost at least the count-th largest
            least = numpy.partition(total, n - count)[n - count]
            picked = numpy.flatnonzero(total >= least)
        else:
            picked = numpy.arange(n)
        at = picked.tolist()  # the candidates' first rows, taken one by one (they are few)
        first = numpy.fromiter(map(firsts.__getitem__, at), dtype=numpy.int64, count=len(at))
        order = numpy.lexsort((first, -total[picked]))
        return cast(list[int], picked[order[:count]].tolist())

    def by_kind(
        self,
    ) -> tuple[Sequence[int], list[tuple[str, tuple[str, ...]]], tuple[Sequence[float], ...]]:
        """What the entries of `layers` share and what each has alone: each entry's kind,
        each kind's name and CSV cells after the compute ones (`_Kind.cells`), and each
        entry's compute in microseconds (fwd, wg, ig columns). A renderer writes a kind's text
        once and each entry's compute cells, as the CSV does."""
        rows = self._rows
        if rows is None:
            return [], [], ((), (), ())
        kinds = list(zip(rows.kinds.names, rows.kinds.cells))
        return rows.kind_of[: len(self.first_index)], kinds, rows.us

    def kinds_as_columns(
        self,
    ) -> tuple[Sequence[int], list[str], list[list[str]], tuple[Sequence[float], ...]] | None:
        """`by_kind` with the kinds' names and cells as columns (a column a cell), where the
        kinds were timed over arrays (None otherwise)."""
        rows = self._rows
        if rows is None or not isinstance(rows.kinds, KindArrays):
            return None
        cells = rows.kinds.cell_columns(slice(None))
        return rows.kind_of[: len(self.first_index)], rows.kinds.names, cells, rows.us

    @cached_property
    def first_index(self) -> Sequence[int]:
        """The first layer index of each entry of `layers`."""
        found: list[int] = []
        order = self.order
        if self._rows is not None and self._rows.once_each:
            # every layer a value of its own, the tail's after them: 0, 1, 2, ... (a range:
            # a list of a million ints costs its pages)
            return range(len(order) + (self.tail is not None))
        if len(order) >= NUMPY_FROM:
            # values are numbered by their first row: a value first seen is a new largest
            import numpy

            values = numpy.asarray(order)
            before = numpy.maximum.accumulate(values)
            found = [0] if len(values) else []
            found += (numpy.flatnonzero(values[1:] > before[:-1]) + 1).tolist()
        for i, value in enumerate(() if found else order):
            if value == len(found):
                found.append(i)
        if self.tail is not None:
            found.append(len(self.order))
        return found

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
        layers = self.layers
        for i, k in enumerate(self.order):
            yield i, layers[k]
        if self.tail is not None:
            layer = layers[self.tail]
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
            yield self.keys + "\n" + self.summary + "\n"
        rows = self._rows
        if rows is None or not self.row_count:
            return
        yield LAYER_HEADER.format(run=RUN_NAME) + "\n"
        order = rows.order
        starts = range(0, len(order), CHUNK_ROWS)
        used = len(order) if rows.once_each else _values_in(order)
        if used * 2 <= len(order):
            # values repeat: each one's row is made once
            texts = list(rows.texts(range(used)))
            for start in starts:
                chunk = order[start : start + CHUNK_ROWS]
                yield "\n".join(map(texts.__getitem__, chunk)) + "\n"
        else:
            for start in starts:
                if rows.once_each:
                    part: Sequence[int] = range(start, min(start + CHUNK_ROWS, len(order)))
                else:
                    part = order[start : start + CHUNK_ROWS]
                yield "\n".join(rows.texts(part)) + "\n"
        if self.tail is not None:
            line = next(rows.texts([self.tail])) + "\n"
            whole_blocks, rest = divmod(self.tail_count, CHUNK_ROWS)
            block = line * CHUNK_ROWS
            for _ in range(whole_blocks):
                yield block
            yield line * rest


def _values_in(order: Sequence[int]) -> int:
    """How many values the rows of `order` use (values are numbered by their first row)."""
    return max(order) + 1 if len(order) else 0


def _us(ns: int) -> float:
    return float(ns) / FREQ


def _bw(x: float) -> str:
    return fixed(x, 2)


def _bubble_ns(
    around: Iterable[int], fwd: Iterable[int], wg: Iterable[int], ig: Iterable[int]
) -> Iterator[int]:
    """Each layer's part of the bubble base: its forward and input-gradient comm (`around`)
    and its three compute times, added in a 64-bit `Tick`."""
    return map(mod, map(add, map(add, map(add, around, fwd), wg), ig), repeat(U64))


class _Index(dict[tuple[object, ...], int]):
    """Numbers each new key in order of first sight (a lookup in C for a known one)."""

    def __missing__(self, key: tuple[object, ...]) -> int:
        number = self[key] = len(self)
        return number


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
        version: SimaiVersion = DEFAULT,
    ) -> None:
        self.opts = opts
        self.tp, self.ep, self.pp, self.vpp, self.ga = tp, ep, pp, vpp, ga
        self.pp_comm = pp_comm
        self.dp = dp
        self.version = version
        self.raise_small = policy_raise and version.has("small_forward")
        self.net: Network | YamlNetwork
        if version.has("cal_busbw"):
            self.net = Network(opts, tp, ep)
        else:
            bw = opts.busbw if opts.busbw is not None else YamlBusbw()
            self.net = YamlNetwork(bw, tp, opts.gpus or 0, opts.g_p_s)
        self.keep_dp = f32(1 - opts.dp_overlap)
        self.keep_tp = f32(1 - opts.tp_overlap)
        self.keep_ep = f32(1 - opts.ep_overlap)
        self._comms: dict[tuple[str, str, int], PhaseResult] = {}
        self._texts: dict[tuple[int, int, ComType], tuple[str, str, str]] = {}
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

    def _cells(self, p: PhaseResult) -> tuple[str, str, str]:
        """A phase's total comm, algbw and busbw cells (its collective's `CommTime` is shared
        by every phase with the same collective and size)."""
        key = (id(p.total), p.size, p.com)
        found = self._texts.get(key)
        if found is None:
            found = (whole(_us(p.total.ns)), _bw(p.algbw), _bw(p.busbw))
            self._texts[key] = found
        return found

    def _exposed(self, ns: int, keep: float) -> int:
        key = (ns, keep)
        found = self._kept.get(key)
        if found is None:
            found = self._kept[key] = scale_tick(ns, keep)
        return found

    def _kind(self, key: tuple[object, ...]) -> _Kind:
        """Raises OutOfRange where SimAI's report stops."""
        name, fwd_comm, fwd_size, ig_comm, ig_size, wg_comm, wg_size = key
        f = self._comm("fwd", cast(str, fwd_comm), cast(int, fwd_size))
        w = self._comm("wg", cast(str, wg_comm), cast(int, wg_size))
        i = self._comm("ig", cast(str, ig_comm), cast(int, ig_size))
        around = f.exposed_ns + i.exposed_ns
        keep = self.keep_ep if f.group is GroupType.EP else self.keep_tp
        f = _with(f, 0, self._exposed(f.exposed_ns, keep))
        w = _with(w, 0, self._exposed(w.exposed_ns, self.keep_dp))
        i = _with(i, 0, self._exposed(i.exposed_ns, keep))
        cells = [whole(_us(p.exposed_ns)) for p in (f, w, i)]
        for p in (f, w, i):
            cells += self._cells(p)
        wg = _us(w.exposed_ns)
        dp_ep = w.group is GroupType.DP_EP
        pair = float((f.exposed_ns + i.exposed_ns) % U64) / FREQ
        ep = f.group is GroupType.EP
        terms = (
            0.0 if dp_ep else wg,
            wg if dp_ep else 0.0,
            0.0 if ep else pair,
            pair if ep else 0.0,
            _us(f.exposed_ns),
            wg,
            _us(i.exposed_ns),
        )
        head = f"{name},{RUN_NAME},"
        return _Kind(cast(str, name), f, w, i, around, head, tuple(cells), terms)

    def _kind_arrays(self, values: LayerValues, firsts: list[int] | None) -> KindArrays[_Kind]:
        """The kinds whose first values are `firsts` (None: a kind per value), timed over
        arrays; item k is made by `_kind`, as the report of a few kinds makes them all."""
        import numpy

        assert isinstance(self.net, Network)
        at = None if firsts is None else numpy.asarray(firsts, dtype=numpy.intp)
        names = token_codes(values.names, at)
        tokens: dict[str, list[str]] = {}
        codes: dict[str, Any] = {}
        raw: dict[str, Any] = {}
        for p, comm, size in zip(PHASES, values.comms, values.sizes):
            tokens[p], codes[p] = token_codes(comm, at)
            raw[p] = uint64_at(size, at)
        phases = {
            p: time_phase(self.net, p, self.ranks, self.raise_small, tokens[p], codes[p], raw[p])
            for p in REPORTED
        }

        def key(k: int) -> tuple[object, ...]:
            phases = ((tokens[p][codes[p][k]], int(raw[p][k])) for p in PHASES)
            return (names[0][names[1][k]], *(x for pair in phases for x in pair))

        keep = (self.keep_dp, self.keep_tp, self.keep_ep)

        def bandwidths(p: str, part: slice) -> tuple[Any, Any]:
            total = phases[p].total[part]
            args = (self.ranks, self.raise_small, tokens[p], codes[p][part], raw[p][part], total)
            return phase_bandwidths(p, *args)

        def make(k: int) -> _Kind:
            return self._kind(key(k))

        return KindArrays(names, phases, keep, make, RUN_NAME, bandwidths)

    def _total_keys(self) -> tuple[str, ...]:
        if self.version.has("pp_term"):
            return TOTAL_KEYS
        return tuple(k for k in TOTAL_KEYS if k != "expose_pp_comm_us")

    def _pp_busbw(self) -> float:
        bw = self.opts.busbw
        return bw.pp if bw is not None else -1.0

    def report(
        self, values: LayerValues, file_name: str, tail: LayerRead | None = None, times: int = 0
    ) -> Report:
        """The report over the layers of `values`, then `times` copies of `tail`."""
        rep = Report(file_name)
        index = _Index()
        (fc, ic, wc), (fm, im, wm), (fs, is_, ws) = values.computes, values.comms, values.sizes
        key_columns = (values.names, fm, fs, im, is_, wm, ws)
        kind_array = None
        kind_of: Sequence[int]
        arrays = None
        over_arrays = isinstance(self.net, Network) and not (tail is not None and times)
        if values.kinds is None and values.kinds_per_value and over_arrays:
            # a kind per value, in order (SimAI's report is the same as with them grouped)
            arrays = self._kind_arrays(values, None)
            kind_of = range(len(values))
            kind_array = arrays.identity
        elif values.kinds is None:
            kind_of = list(map(index.__getitem__, zip(*key_columns)))
        else:  # grouped by the parser's columns: a key per kind, not per value
            kind_array, firsts = values.kinds
            if over_arrays and len(firsts) >= ARRAYS_FROM:
                arrays = self._kind_arrays(values, firsts)
            else:
                keys = zip(*(items_at(c, firsts) for c in key_columns))
                numbered = list(map(index.__getitem__, keys))
                assert numbered == list(range(len(firsts))), "kinds are numbered by first value"
            kind_of = kind_array.tolist()
        most_f, most_i, most_w = values.most_computes
        ns = [
            scaled_floats(cast(Sequence[int], c), most)
            for c, most in ((fc, most_f), (wc, most_w), (ic, most_i))
        ]
        # scaling keeps the order of values below 2**53; past it no bound is needed
        ns_most = [
            float(scaled(most)) if most < EXACT_DOUBLE else math.inf
            for most in (most_f, most_w, most_i)
        ]
        if tail is not None and times:
            assert isinstance(kind_of, list)
            f, i, w = tail.fwd, tail.ig, tail.wg
            kind_of.append(index[(tail.name, f.comm, f.size, i.comm, i.size, w.comm, w.size)])
            kind_array = None
            for k, (column, p) in enumerate(zip(ns, (f, w, i))):
                column.append(scaled(cast(int, p.compute)))
                ns_most[k] = max(ns_most[k], column[-1])
        timed: Kinds
        if arrays is None:
            kinds: list[_Kind | None] = []
            for key in index:
                try:
                    kinds.append(self._kind(key))
                except OutOfRange:
                    kinds.append(None)
            # the kinds SimAI times before it stops (kinds are numbered by their first value)
            count = kinds.index(None) if None in kinds else len(kinds)
            timed = _KindList(cast(list[_Kind], kinds[:count]))
        else:
            kinds = cast(list[_Kind | None], arrays)
            timed = arrays.head(arrays.timed)
        order = values.refs

        def first_row(kind: int) -> int:
            value = kind_of.index(kind)
            return values.refs.index(value) if value < len(values) else len(values.refs)

        if len(timed) < len(kinds):
            rep.stop, rep.stopped_at = "out_of_range", first_row(len(timed))
            order = order[: rep.stopped_at]
        elif tail is not None and times:
            rep.tail, rep.tail_count = len(values), times
        _note_broken(rep, timed, first_row)
        us = tuple(map(_in_us, ns))
        rep._rows = _Rows(
            order, values.once_each, kind_of, timed, tuple(ns), tuple(ns_most), us, kind_array
        )
        if rep.stop is not None or not rep.row_count:
            return rep
        sums = _sums(rep._rows, rep.tail, rep.tail_count)
        bubble, dp_comm, dp_ep_comm, tp_comm, ep_comm, total_compute, total_exposed = sums
        r_pp = self.opts.pp_overlap
        stages = float(wrap_int32(self.pp - 1))
        per_stage = float(wrap_int32(self.ga * self.vpp))
        pp_us = 0.0
        if self.version.has("pp_term"):
            # the PP bandwidth: -pp_o itself from 26b4574b, the busbw file's PP before
            pp_bw = r_pp if self.version.has("pp_ratio") else self._pp_busbw()
            ppx = float(self.pp_comm) * 1.0 / GIB
            ppx = div(ppx, pp_bw) * 1e9
            # SimAI's Expose_PP_time is a Tick that holds microseconds
            pp_tick = tick(div(wrap_int32(wrap_int32(2 * self.vpp) * self.ga) * ppx, FREQ))
            pp_us = float(scale_tick(pp_tick, f32(1 - r_pp)))
            bubble *= div(stages, per_stage)
        else:
            # b1c1eb66: no PP term; -pp_o scales the bubble
            bubble *= div(stages * f32(1 - r_pp), per_stage)
        total_time = total_compute + total_exposed + bubble + pp_us
        shown: tuple[float, ...] = (
            dp_comm,
            dp_ep_comm,
            tp_comm,
            ep_comm,
            pp_us,
            bubble,
            total_compute,
            total_exposed,
        )
        if not self.version.has("pp_term"):
            shown = shown[:4] + shown[5:]
            rep.keys = SUMMARY_KEYS.replace("Expose_PP_comm, ", "")
        rep.totals = dict(zip(self._total_keys(), shown))
        rep.totals["total_time_us"] = total_time
        parts = [file_name]
        parts += [f"{whole(v)} ({_pct(v, total_time)})" for v in shown]
        parts.append(whole(total_time))
        rep.summary = ", ".join(parts)
        return rep


def _note_broken(rep: Report, kinds: Kinds, first_row: Callable[[int], int]) -> None:
    """The first infinite and the first wrapped collective (kinds in order of first row)."""
    infinite, wrapped = kinds.first_broken()
    if infinite is not None:
        rep.first_infinite = (first_row(infinite[0]), infinite[1])
    if wrapped is not None:
        rep.first_wrapped = (first_row(wrapped[0]), wrapped[1])


def _in_us(column: Sequence[float]) -> Any:
    """Each time of `column` (ns) divided by FREQ: a list, or for a long column a numpy array
    of numpy's quotients, which round as Python's do (IEEE division of the same doubles)."""
    if len(column) < NUMPY_FROM:
        return list(map(truediv, column, repeat(FREQ)))
    import numpy

    return numpy.asarray(column, dtype=numpy.float64) / FREQ


def _bubble_terms(rows: _Rows) -> Sequence[float]:
    """Each value's term in the bubble base, in microseconds (0.0 for an `embedding_layer`,
    which SimAI leaves out: its term times 0.0; every term is finite): a list, or a numpy
    array where numpy takes them.

    Where the four parts of every term add up to less than 2**53 they are added as doubles:
    each partial sum is then exact, the same as `_bubble_ns`'s, and below 2**64."""
    kinds = rows.kinds
    f, w, i = rows.ns
    ns: Iterable[float]
    most, around_doubles = kinds.around_doubles
    exact_doubles = most + sum(rows.ns_most) < EXACT_DOUBLE
    whole = len(f) == len(w) == len(i) == len(rows.kind_of)
    if exact_doubles and whole and len(rows.kind_of) >= NUMPY_FROM:
        # the same additions, division and product, value by value, in numpy's doubles
        import numpy

        def column(c: Sequence[float]) -> Any:
            return numpy.asarray(c, dtype=numpy.float64)

        # in place, one column of doubles at a time (a C float widens to a double exactly)
        identity = isinstance(rows.kind_of, range)  # a kind per value: no gather
        of = slice(None) if identity else rows.kind_indexes
        if around_doubles is None:
            around_doubles = column([float(x) for x in kinds.around])
        terms: Any = around_doubles.copy() if identity else around_doubles[of]
        for c in (f, w, i):
            numpy.add(terms, numpy.asarray(c), out=terms)
        terms /= FREQ
        terms *= column(kinds.counted)[of]
        return cast(Sequence[float], terms)
    around = kinds.around
    counted = kinds.counted
    counted = counted.tolist() if hasattr(counted, "tolist") else counted
    if exact_doubles:
        a = map([float(x) for x in around].__getitem__, rows.kind_of)
        ns = map(add, map(add, map(add, a, f), w), i)
    else:
        exact = _bubble_ns(map(around.__getitem__, rows.kind_of), *(map(int, c) for c in (f, w, i)))
        ns = map(float, exact)
    factors = map(counted.__getitem__, rows.kind_of)
    return list(map(mul, map(truediv, ns, repeat(FREQ)), factors))


def _sums(rows: _Rows, tail: int | None, times: int) -> tuple[float, ...]:
    """SimAI's running sums: bubble base, DP, DP_EP, TP, EP, compute, exposed comm."""
    if len(rows.order) >= NUMPY_FROM:
        return _sums_by_numpy(rows, tail, times)
    every_term = rows.kinds.terms
    of_rows = list(rows.per_row(rows.kind_of))
    last = [] if tail is None else [tail]

    def by_kind(*columns: int) -> float:
        # each kind's terms but those of 0.0, which change no sum (no term is negative)
        terms = [tuple(t for t in (k[c] for c in columns) if t) for k in every_term]
        if not any(terms):
            return 0.0
        at_tail = [x for t in last for x in terms[rows.kind_of[t]]]
        return running_sum(chain.from_iterable(map(terms.__getitem__, of_rows)), at_tail, times)

    bubble = _bubble_terms(rows)
    compute = chain.from_iterable(zip(*map(rows.per_row, rows.us)))
    return (
        running_sum(rows.per_row(bubble), [bubble[t] for t in last], times),
        *(by_kind(c) for c in range(4)),
        running_sum(compute, [c[t] for t in last for c in rows.us], times),
        by_kind(4, 5, 6),
    )


def _sums_by_numpy(rows: _Rows, tail: int | None, times: int) -> tuple[float, ...]:
    """`_sums` of a long report: each sum's terms taken row by row from numpy's columns, a
    chunk of rows at a time, and added in the same order (`sequential_sum`). A term of 0.0,
    which `_sums` leaves out, is added here: it changes no sum (no term is negative)."""
    import numpy

    count = len(rows.order)
    order = None if rows.once_each else numpy.asarray(rows.order)  # (an array's: no copy)
    kind_of = rows.kind_indexes
    identity = isinstance(rows.kind_of, range)  # a kind per value
    buffer = numpy.empty(0)  # (each chunk is added up before the next is made)
    last = [] if tail is None else [tail]

    def chunks(columns: Sequence[Any], of_kinds: bool = False) -> Iterator[Any]:
        for start in range(0, count, CHUNK_ROWS):
            part = slice(start, min(start + CHUNK_ROWS, count))
            values = part if order is None else order[part]
            if of_kinds and not identity:
                values = kind_of[values]
            if len(columns) == 1:
                yield columns[0][values]
            else:  # each row's terms together, in the order of `columns`, in one buffer
                picked = [c[values] for c in columns]
                if len(buffer) != len(picked[0]) * len(columns):
                    buffer.resize(len(picked[0]) * len(columns), refcheck=False)
                numpy.stack(picked, axis=1, out=buffer.reshape(-1, len(columns)))
                yield buffer

    kinds = rows.kinds
    in_order = identity and order is None and tail is None and isinstance(kinds, KindArrays)

    def by_kind(*columns: int) -> float:
        if in_order:  # row i is kind i: each chunk's terms made from its kinds alone
            assert isinstance(kinds, KindArrays)
            parts = (slice(s, min(s + CHUNK_ROWS, count)) for s in range(0, count, CHUNK_ROWS))
            return sequential_sum(kinds.term_rows(columns, part) for part in parts)
        # each kind's column of terms, taken row by row a chunk at a time (no table of
        # kinds x columns: on a million kinds its pages cost more than the sums)
        terms = kinds.term_columns(columns)
        if not any(c.any() for c in terms):  # (NaN counts, as in `_sums`)
            return 0.0
        at_tail = [x for t in last for c in terms if (x := float(c[rows.kind_of[t]]))]
        return running_sum((), at_tail, times, sequential_sum(chunks(terms, of_kinds=True)))

    bubble = numpy.asarray(_bubble_terms(rows), dtype=numpy.float64)
    us = [numpy.asarray(c, dtype=numpy.float64) for c in rows.us_columns]
    return (
        running_sum((), [float(bubble[t]) for t in last], times, sequential_sum(chunks([bubble]))),
        *(by_kind(c) for c in range(4)),
        running_sum((), [float(c[t]) for t in last for c in us], times, sequential_sum(chunks(us))),
        by_kind(4, 5, 6),
    )


def _pct(value: float, total: float) -> str:
    return fixed(div(value, total) * 100, 2) + "%"


def _with(p: PhaseResult, compute: int, exposed: int) -> PhaseResult:
    return PhaseResult(compute, exposed, p.total, p.algbw, p.busbw, p.com, p.group, p.ranks, p.size)


__all__ = ["DEFAULT_NAN", "LayerResult", "PhaseResult", "Report", "Reporter"]
