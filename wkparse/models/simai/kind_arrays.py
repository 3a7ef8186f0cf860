"""SimAI-Analytical's collectives for many kinds of layer at once, over numpy arrays.

`report.Reporter._kind` times one kind of layer (its name and three collectives with their
sizes) at a time: about 20 us each, and a file whose rows never repeat has a kind per row.
Here the same work is done a column at a time. What depends only on the comm token (its
collective, group and ranks, the placement, the bus bandwidth and the ratio table's column)
is asked of the scalar model itself (`comm`, `placement`, `busbw`, `ratios`) once per token;
only what varies with the size is done over arrays, in the same IEEE operations in the same
order as the scalar model (`ieee.div`, `f32`, `tick` and `scale_tick`, written for arrays
below). A number the arrays cannot hold as the scalar model does (a size of 2**53 or more, a
time of 2**53 ns or more turned into a double) is converted one at a time in Python.

`KindArrays` is a sequence of the scalar model's kinds, each made when asked for (a few: the
costliest layers, a diff's changed layers), with the columns SimAI's sums and the CSV read.
`tests/test_kind_arrays.py` holds the two models to the same report, byte for byte.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast, overload

from wkparse.ast import MappedView
from wkparse.cpp import scaled
from wkparse.models.simai.comm import GIB, LATENCY_NS, SMALL
from wkparse.models.simai.ieee import DEFAULT_NAN, TWO_63, WHOLE, fixed, whole
from wkparse.models.simai.placement import place, ratio_column
from wkparse.models.simai.ratios import COLUMNS, DEFAULT_COLUMN, table
from wkparse.models.simai.rows import items_at
from wkparse.models.simai.tables import ComType, GroupType, decode_comm

if TYPE_CHECKING:
    from wkparse.models.simai.comm import Network

K = TypeVar("K")
FREQ = 1000.0
#: below this every integer is exact as a double
EXACT = 2**53
#: the reported phases, in the order SimAI times and prints them
PHASES = ("fwd", "wg", "ig")
#: the CSV cells after the compute ones: the exposed comm of fwd, wg and ig, then the total
#: comm, algbw and busbw of each phase (`%` of a finite value, or `whole` / `fixed`)
CELL_FORMATS = (WHOLE,) * 3 + (WHOLE, "%.2f", "%.2f") * 3


def _np() -> Any:
    import numpy

    return numpy


def doubles(ticks: Any) -> Any:
    """`float(n)` of each uint64 (exact below 2**53, else rounded by Python one at a time)."""
    np = _np()
    out = ticks.astype(np.float64)
    big = np.flatnonzero(ticks >= np.uint64(EXACT))
    if len(big):
        out[big] = [float(v) for v in ticks[big].tolist()]
    return out


def f32(x: Any) -> Any:
    """`ieee.f32` of each double: rounded to a C float, a NaN kept as it is."""
    np = _np()
    with np.errstate(over="ignore", invalid="ignore"):
        rounded = x.astype(np.float32).astype(np.float64)
    nan = np.isnan(x)
    if nan.any():
        rounded[nan] = x[nan]
    return rounded


def div(a: Any, b: Any) -> Any:
    """`ieee.div` of each pair: IEEE division, a zero divisor as x86 gives it."""
    np = _np()
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    zero = np.flatnonzero(b == 0.0)
    if not len(zero):
        return a / b
    with np.errstate(all="ignore"):
        out = a / b
    x, y = a[zero], b[zero]
    special = np.where(np.signbit(x) != np.signbit(y), -np.inf, np.inf)
    special = np.where(x == 0.0, DEFAULT_NAN, special)
    out[zero] = np.where(np.isnan(x), x, special)
    return out


def ticks(x: Any) -> Any:
    """`ieee.tick` of each double: stored in a uint64 as gcc's conversion on x86-64 does."""
    np = _np()
    with np.errstate(invalid="ignore"):
        if ((x >= 0.0) & (x < float(TWO_63))).all():  # (the usual case: one conversion)
            return x.astype(np.int64).view(np.uint64)
    out = np.full(len(x), TWO_63, dtype=np.uint64)  # NaN, and an overflow below 2**63
    with np.errstate(invalid="ignore"):
        low = np.flatnonzero((x < float(TWO_63)) & (x >= -float(TWO_63)))
        out[low] = x[low].astype(np.int64).view(np.uint64)
        high = np.flatnonzero(x >= float(TWO_63))
        rest = x[high] - float(TWO_63)
        kept = np.isfinite(rest) & (rest < float(TWO_63))
        values = np.zeros(len(high), dtype=np.uint64)
        values[kept] = rest[kept].astype(np.int64).view(np.uint64) ^ np.uint64(TWO_63)
    out[high] = values
    return out


def scale_ticks(values: Any, factor: float) -> Any:
    """`ieee.scale_tick` of each uint64: the product taken in `float`, stored back."""
    as_floats = f32(doubles(values))
    if factor == 1.0:  # (no overlap: the product is the float itself)
        return ticks(as_floats)
    return ticks(f32(as_floats * factor))


def scaled_sizes(raw: Any) -> Any:
    """`cpp.scaled` of each size, as exact doubles (a float's value)."""
    np = _np()
    out = raw.astype(np.float64).astype(np.float32).astype(np.float64)
    big = np.flatnonzero(raw >= np.uint64(EXACT))
    if len(big):
        out[big] = [float(scaled(v)) for v in raw[big].tolist()]
    return out


def ratios(sizes: Any, name: str, nodes: int) -> tuple[Any, Any]:
    """`ratios.lookup` of each size in table `name` among `nodes` nodes, and where the size
    is past the table (SimAI's `Data size out of range`)."""
    np = _np()
    data = table(name)
    col = COLUMNS.get(nodes, DEFAULT_COLUMN)
    xs = np.array([row[0] for row in data])
    ys = np.array([row[col] for row in data])
    last = ys[-1]
    if not (np.diff(xs) > 0).all():  # (SimAI's tables rise: the search below needs it)
        raise ValueError(f"ratio table {name} is not sorted by size")
    at = np.searchsorted(xs, sizes, side="left")
    past = at >= len(xs)
    i = np.clip(at - 1, 0, len(xs) - 2)
    lo, hi = xs[i], xs[i + 1]
    with np.errstate(all="ignore"):
        v = ys[i] + (ys[i + 1] - ys[i]) * (sizes - lo) / (hi - lo)
        found = f32(v / last)
    found = np.where(sizes < xs[0], f32(np.array([ys[0] / last]))[0], found)
    found = np.where(sizes == 0, 1.0, found)
    return found, past & (sizes != 0)


def token_codes(column: Sequence[str], at: Any = None) -> tuple[list[str], Any]:
    """The comm tokens of `column` (at positions `at`, or throughout), as the tokens used
    and each item's index among them."""
    np = _np()
    if isinstance(column, MappedView):  # the parser's codes, each a token: a few small ints
        items = np.asarray(column.items)
        items = items if at is None else items[at]
        used = np.flatnonzero(np.bincount(items)) if len(items) else np.zeros(0, dtype=np.intp)
        index = np.zeros(int(used[-1]) + 1 if len(used) else 1, dtype=np.min_scalar_type(len(used)))
        index[used] = np.arange(len(used))
        return [column.of(c) for c in used.tolist()], index[items]
    number: dict[str, int] = {}
    picked = column if at is None else items_at(column, at.tolist())
    found = [number.setdefault(t, len(number)) for t in picked]
    return list(number), np.asarray(found, dtype=np.intp)


#: every item of a column
ALL = slice(None)


def _used(codes: Any) -> list[int]:
    """The distinct codes of an array of token codes (small ints), in order: counted, not
    `numpy.unique`, which imports numpy.ma (17 ms of explain's start-up)."""
    np = _np()
    return np.flatnonzero(np.bincount(codes)).tolist() if len(codes) else []


def uint64_at(column: Sequence[int | None], at: Any = None) -> Any:
    """The numbers of `column` (at positions `at`, or throughout) as uint64s, as SimAI
    reads each; None where the column is not an array of numbers."""
    np = _np()
    if isinstance(column, array):
        items = np.asarray(column)
        return (items if at is None else items[at]).astype(np.uint64, copy=False)
    picked = column if at is None else items_at(column, at.tolist())
    if any(v is None for v in picked):
        return None
    return np.array(picked, dtype=np.uint64)


def resized(raw: Any) -> Any:
    """Whether SimAI's float scale changes each size (`cpp.scaled(v) != v`)."""
    np = _np()
    low = raw < np.uint64(EXACT)
    out = raw[low].astype(np.float64).astype(np.float32).astype(np.uint64) != raw[low]
    found = np.ones(len(raw), dtype=bool)
    found[low] = out
    high = np.flatnonzero(~low)
    found[high] = [scaled(v) != v for v in raw[high].tolist()]
    return found


@dataclass(frozen=True)
class PhaseArrays:
    """One phase of every kind, as SimAI times it (the kind's compute aside)."""

    #: the collective's time (`CommTime.ns`)
    total: Any
    #: where the bandwidth model gives a negative bandwidth (`CommTime.busbw` < 0), and
    #: its retcode
    negative: Any
    retcode: Any
    #: the group of each kind's collective (`GroupType`, by `GROUPS` index)
    group: Any
    #: where the size is past the ratio tables
    out_of_range: Any

    @classmethod
    def empty(cls, n: int) -> PhaseArrays:
        np = _np()
        b = np.bool_
        return cls(*(np.zeros(n, dtype=t) for t in (np.uint64, b, np.int8, np.int8, b)))


GROUPS = tuple(GroupType)
COMS = tuple(ComType)
#: kinds timed at a time (the arrays of a part, not of the whole file, are made at once)
PART = 1 << 16


def time_phase(
    net: Network,
    phase: str,
    ranks_of: Callable[[str, GroupType], int],
    raise_small: bool,
    tokens: Sequence[str],
    codes: Any,
    raw: Any,
) -> PhaseArrays:
    """Phase `phase` of each kind: its comm token `tokens[codes[k]]` and its size as read,
    `raw[k]` (uint64), timed as `Reporter._comm` and `Network.time` time one."""
    out = PhaseArrays.empty(len(raw))
    for start in range(0, len(raw), PART):
        part = slice(start, start + PART)
        _time_part(net, phase, ranks_of, raise_small, tokens, codes[part], raw[part], out, part)
    return out


def _time_part(
    net: Network,
    phase: str,
    ranks_of: Callable[[str, GroupType], int],
    raise_small: bool,
    tokens: Sequence[str],
    codes: Any,
    raw: Any,
    out: PhaseArrays,
    part: slice,
) -> None:
    np = _np()
    size = scaled_sizes(raw)
    if phase == "fwd" and raise_small:
        size[(size > 0) & (size < 4096)] = 4096.0
    total = out.total[part]
    for code in _used(codes):
        at = np.flatnonzero(codes == code)
        com, grp = decode_comm(tokens[code], phase)
        r = ranks_of(phase, grp)
        out.group[part][at] = GROUPS.index(grp)
        if com is ComType.NONE:
            continue
        s = size[at]
        small = (s > SMALL[0]) & (s < SMALL[1])
        total[at[small]] = LATENCY_NS.get(r, 0)
        big, s = at[~small], s[~small]
        if not len(big):
            continue
        where = place(grp, net.tp, r, net.ep, net.gps, net.nps)
        if where is None:
            continue
        bw = _busbw(net, where, com)
        column = ratio_column(com, grp, net.tp, r, net.gps, bw.nvlink)
        ratio = np.ones(len(big))
        if column is not None:
            ratio, past = ratios(s, column[0], column[1])
            out.out_of_range[part][big] = past
        with np.errstate(all="ignore"):  # (inf x 0 is NaN, as in C)
            x = s * 1.0 / GIB
            x = div(x, f32(ratio * bw.busbw))
            x = x * 1e9
            if com is ComType.ALLREDUCE:
                x = x * 2
            x = x * (r - 1)
            x = div(x, r / 1.0)
        total[big] = ticks(x)
        out.negative[part][big] = bw.busbw < 0
        out.retcode[part][big] = bw.retcode


def phase_bandwidths(
    phase: str,
    ranks_of: Callable[[str, GroupType], int],
    raise_small: bool,
    tokens: Sequence[str],
    codes: Any,
    raw: Any,
    total: Any,
) -> tuple[Any, Any]:
    """algbw and busbw of phase `phase` of some kinds (their tokens' codes, sizes as read and
    times, as `time_phase` took and gave them): asked only for the CSV and JSON cells."""
    np = _np()
    size = scaled_sizes(raw)
    if phase == "fwd" and raise_small:
        size[(size > 0) & (size < 4096)] = 4096.0
    ranks = np.zeros(len(raw), dtype=np.float64)
    com_of = np.zeros(len(raw), dtype=np.int8)
    for code in _used(codes):
        at = np.flatnonzero(codes == code)
        com, grp = decode_comm(tokens[code], phase)
        ranks[at], com_of[at] = float(ranks_of(phase, grp)), COMS.index(com)
    return bandwidths(com_of, ranks, size, total)


def _busbw(net: Network, where: Any, com: ComType) -> Any:
    from wkparse.models.simai.busbw import cal_busbw
    from wkparse.models.simai.comm import COLLECTIVE_NAMES

    o = net.opts
    return cal_busbw(
        o.gpu_type_value,
        o.nvlink,
        o.nic,
        where.nics,
        where.nodes,
        COLLECTIVE_NAMES[com],
        where.gpus,
        o.nic_type,
    )


def bandwidths(com_of: Any, ranks: Any, size: Any, total: Any) -> tuple[Any, Any]:
    """`comm.bandwidths` of each phase: (algbw, busbw), both `float`s."""
    np = _np()
    coms = tuple(ComType)
    with np.errstate(all="ignore"):  # (inf x 0 is NaN, as in C)
        algbw = f32(div(size, doubles(total) / 1000.0) * 1000000 * 1.0 / GIB)
        allreduce = com_of == coms.index(ComType.ALLREDUCE)
        doubled = np.where(allreduce, f32(algbw * 2), algbw)
        busbw = f32(div(f32(doubled * (ranks - 1)), ranks / 1.0))
    busbw = np.where(com_of == coms.index(ComType.NONE), 0.0, busbw)
    return algbw, busbw


def texts(column: Any, form: str) -> list[str]:
    """Each value of `column` as SimAI prints it: `form` (`%.0f` or `%.2f`) of a finite
    value, `whole` or `fixed` of one that is not (each of NaN, -NaN, inf and -inf worded
    once)."""
    np = _np()
    finite = np.isfinite(column)
    if finite.all():
        return list(map(form.__mod__, column.tolist()))
    out = np.empty(len(column), dtype=object)
    if finite.any():
        out[finite] = list(map(form.__mod__, column[finite].tolist()))
    negative = np.signbit(column)
    nan = np.isnan(column)
    for mask in (nan & negative, nan & ~negative, np.isposinf(column), np.isneginf(column)):
        if mask.any():
            out[mask] = _odd(float(column[mask][0]), form)
    return cast(list[str], out.tolist())


def _odd(value: float, form: str) -> str:
    return whole(value) if form == WHOLE else fixed(value, 2)


class KindArrays(Sequence[K], Generic[K]):
    """Every kind's collectives as columns; item `k` is kind `k` as the scalar model makes
    it (`make(k)`, made when asked for and kept)."""

    def __init__(
        self,
        names: tuple[list[str], Any],
        phases: dict[str, PhaseArrays],
        keep: tuple[float, float, float],
        make: Callable[[int], K],
        run_name: str,
        bandwidths: Callable[[str, slice], tuple[Any, Any]],
    ) -> None:
        np = _np()
        #: each kind's name: the names used, and each kind's index among them
        self.name_texts, self.name_codes = names
        self.phases = phases
        self._make = make
        self._made: dict[int, K] = {}
        self.run_name = run_name
        #: algbw and busbw of a phase of some kinds (made for the CSV cells only)
        self.bandwidths = bandwidths
        f, w, i = (phases[p] for p in PHASES)
        keep_dp, keep_tp, keep_ep = keep
        ep = f.group == GROUPS.index(GroupType.EP)
        self.forward_ep = ep
        self.dp_ep = w.group == GROUPS.index(GroupType.DP_EP)
        self.exposed = (
            _by_parts(lambda part: _exposed(f.total[part], ep[part], keep_ep, keep_tp), len(ep)),
            _by_parts(lambda part: scale_ticks(w.total[part], keep_dp), len(ep)),
            _by_parts(lambda part: _exposed(i.total[part], ep[part], keep_ep, keep_tp), len(ep)),
        )
        #: the kinds SimAI can time (those from the first it cannot are never reported)
        past = f.out_of_range | w.out_of_range | i.out_of_range
        self.timed = int(np.argmax(past)) if past.any() else len(self.name_codes)

    def __len__(self) -> int:
        return len(self.name_codes)

    @overload
    def __getitem__(self, index: int) -> K: ...
    @overload
    def __getitem__(self, index: slice) -> list[K]: ...
    def __getitem__(self, index: int | slice) -> K | list[K]:
        if isinstance(index, slice):
            return [self[k] for k in range(len(self))[index]]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        found = self._made.get(index)
        if found is None:
            found = self._made[index] = self._make(index)
        return found

    def __iter__(self) -> Iterator[K]:
        return map(self.__getitem__, range(len(self)))

    @property
    def identity(self) -> Any:
        """0, 1, 2, ...: each kind's index, as a kind per value numbers them."""
        return _np().arange(len(self))

    @cached_property
    def names(self) -> list[str]:
        return list(map(self.name_texts.__getitem__, self.name_codes.tolist()))

    @cached_property
    def around(self) -> list[int]:
        """Each kind's forward and input-gradient comm before the overlap (ns; the bubble
        base adds it)."""
        f, i = self.phases["fwd"].total, self.phases["ig"].total
        return [a + b for a, b in zip(f.tolist(), i.tolist())]

    @cached_property
    def around_doubles(self) -> tuple[int, Any]:
        """The largest of `around`, and `around` as doubles where it is below 2**53 (else
        None): the bubble base adds it so."""
        np = _np()
        f, i = self.phases["fwd"].total, self.phases["ig"].total
        if not len(f):
            return 0, np.zeros(0)
        if int(f.max()) + int(i.max()) >= EXACT:
            return max(self.around), None
        both = f + i
        return int(both.max()), both.astype(np.float64)

    @cached_property
    def counted(self) -> Any:
        """1.0 for each kind the bubble base adds, 0.0 for an `embedding_layer`."""
        np = _np()
        per_name = np.array([0.0 if n == "embedding_layer" else 1.0 for n in self.name_texts])
        return per_name[self.name_codes]

    def term_columns(self, columns: Sequence[int], part: slice = ALL) -> list[Any]:
        """Each kind's terms `columns` in SimAI's sums (us; of DP, DP_EP, TP, EP, then the
        exposed comm of fwd, wg and ig: `_Kind.terms`), an array of kinds per column; of
        the kinds `part` only, if given."""
        return [self._term(c, part) for c in columns]

    def term_rows(self, columns: Sequence[int], part: slice) -> Any:
        """The terms `columns` of the kinds `part`, kind after kind (each kind's in the order
        of `columns`), in one array."""
        found = self.term_columns(columns, part)
        return found[0] if len(found) == 1 else _np().stack(found, axis=1).ravel()

    def _term(self, c: int, part: slice = ALL) -> Any:
        np = _np()
        fe, we, ie = (e[part] for e in self.exposed)
        if c >= 4:
            return self._us((fe, we, ie)[c - 4])
        if c < 2:  # DP, DP_EP: the weight-gradient comm, by its group
            wg, where = self._us(we), self.dp_ep[part]
            if not where.any():
                return wg if c == 0 else np.zeros(len(wg))
            return np.where(where, 0.0, wg) if c == 0 else np.where(where, wg, 0.0)
        with np.errstate(over="ignore"):
            pair = self._us(fe + ie)  # TP, EP (uint64: wraps as SimAI's Tick sum does)
        where = self.forward_ep[part]
        if not where.any():
            return pair if c == 2 else np.zeros(len(pair))
        return np.where(where, 0.0, pair) if c == 2 else np.where(where, pair, 0.0)

    @staticmethod
    def _us(ns: Any) -> Any:
        us = doubles(ns)  # a new array: divided in place, no second one
        us /= FREQ
        return us

    @property
    def terms(self) -> list[tuple[float, ...]]:
        """Each kind's terms (`_Kind.terms`), as tuples."""
        return list(zip(*(c.tolist() for c in self.term_columns(range(7)))))

    @cached_property
    def exposed_ns(self) -> list[tuple[int, int, int]]:
        """Each kind's exposed comm of fwd, wg and ig in ns."""
        return list(zip(*(c.tolist() for c in self.exposed)))

    @cached_property
    def heads(self) -> list[str]:
        """Each kind's CSV text before its compute cells."""
        made = [f"{n},{self.run_name}," for n in self.name_texts]
        return list(map(made.__getitem__, self.name_codes.tolist()))

    @property
    def cells(self) -> list[tuple[str, ...]]:
        """Each kind's CSV cells after the compute ones (`_Kind.cells`)."""
        return self._cells(slice(None))

    def _cells(self, part: slice) -> list[tuple[str, ...]]:
        return list(zip(*self.cell_columns(part)))

    def cell_columns(self, part: slice) -> list[list[str]]:
        """The kinds' CSV cells after the compute ones, a column a cell (`_Kind.cells`)."""
        np = _np()
        columns = [c[part] for c in self.exposed]
        for p in PHASES:
            a = self.phases[p]
            columns += [a.total[part], *self.bandwidths(p, part)]
        made = []
        for c, form in zip(columns, CELL_FORMATS):
            us = c.dtype.kind == "u"
            made.append(texts(doubles(c) / FREQ if us else c.astype(np.float64), form))
        return made

    @cached_property
    def rests(self) -> list[str]:
        """Each kind's CSV text after its compute cells (made a part at a time: the cells of
        a million kinds are twelve million strings)."""
        form = ",%s" * len(CELL_FORMATS)
        out: list[str] = []
        for start in range(0, len(self), PART):
            out += map(form.__mod__, self._cells(slice(start, start + PART)))
        return out

    def first_broken(self) -> tuple[tuple[int, str] | None, tuple[int, str] | None]:
        """The first (kind, phase) whose collective is infinite (2**63 ns or more, retcode
        1) and the first whose bandwidth is negative with a time past 2**63 ns (wrapped)."""
        np = _np()
        infinite: list[tuple[int, int, str]] = []
        wrapped: list[tuple[int, int, str]] = []
        for order, p in enumerate(PHASES):
            a = self.phases[p]
            for found, mask in (
                (infinite, (a.total >= np.uint64(TWO_63)) & (a.retcode == 1)),
                (wrapped, (a.total > np.uint64(TWO_63)) & a.negative),
            ):
                hits = np.flatnonzero(mask)
                if len(hits):
                    found.append((int(hits[0]), order, p))
        first = [min(found) if found else None for found in (infinite, wrapped)]
        return (
            None if first[0] is None else (first[0][0], first[0][2]),
            None if first[1] is None else (first[1][0], first[1][2]),
        )

    def head(self, count: int) -> KindArrays[K]:
        """The first `count` kinds."""
        if count == len(self):
            return self
        cut: KindArrays[K] = KindArrays.__new__(KindArrays)
        cut.name_texts, cut.name_codes = self.name_texts, self.name_codes[:count]
        cut.phases = {p: _cut(a, count) for p, a in self.phases.items()}
        cut._make, cut.run_name, cut.bandwidths = self._make, self.run_name, self.bandwidths
        cut._made = {k: v for k, v in self._made.items() if k < count}
        cut.forward_ep, cut.dp_ep = self.forward_ep[:count], self.dp_ep[:count]
        cut.exposed = tuple(c[:count] for c in self.exposed)
        cut.timed = min(self.timed, count)
        return cut


def _by_parts(make: Callable[[slice], Any], n: int) -> Any:
    """`make` of every part of `n` kinds, into one uint64 array (each part's temporaries are
    small: arrays of a million made and freed cost more in page faults than in arithmetic)."""
    np = _np()
    out = np.empty(n, dtype=np.uint64)
    for start in range(0, n, PART):
        part = slice(start, start + PART)
        out[part] = make(part)
    return out


def _exposed(total: Any, ep: Any, keep_ep: float, keep_tp: float) -> Any:
    """A forward or input-gradient collective's exposed share: kept by `-ep_o` where the
    forward collective is in EP, else by `-tp_o`."""
    np = _np()
    if not ep.any():
        return scale_ticks(total, keep_tp)
    return np.where(ep, scale_ticks(total, keep_ep), scale_ticks(total, keep_tp))


def _cut(a: PhaseArrays, count: int) -> PhaseArrays:
    return PhaseArrays(*(getattr(a, f)[:count] for f in a.__dataclass_fields__))
