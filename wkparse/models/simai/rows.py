"""Line 2 and the rows as SimAI reads them.

Line 2 is `std::getline` then `std::stoi`: `63abc` reads 63, an empty line throws. Then SimAI
makes exactly that many layers, reading each one's fields with `ifstream >>` as one stream of
whitespace-separated fields: line ends mean nothing, so a missing or extra field shifts every
later one, and an integer field stops at its first non-digit (`100.5` reads 100 and leaves
`.5` for the next field).

The first extraction that fails (a word where a number belongs, or the end of the file) leaves
the stream failed for good. What the remaining layers hold is undefined in C++; what SimAI
really does, measured on real files, is what a compiler makes of it: the strings are new each
row, so names and comm types are empty (no collective); the numbers are the same stack slots
each row, so every number keeps the previous row's value (the failing field itself gets 0).
A field no row ever wrote holds garbage: this model says `None`.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import repeat
from typing import Any, TypeVar

from wkparse.ast import PHASES, MappedView
from wkparse.columns import most_of
from wkparse.cpp import C_SPACE, IStream

T = TypeVar("T")

#: the numeric fields of a row, which keep their value across rows once the stream fails
NUMBERS = (
    "reserved",
    "fwd_compute",
    "fwd_size",
    "ig_compute",
    "ig_size",
    "wg_compute",
    "wg_size",
    "update_time",
)


@dataclass(frozen=True, slots=True)
class PhaseRead:
    """One phase's three fields as SimAI holds them."""

    #: nanoseconds as read (None: never written, garbage)
    compute: int | None
    #: the comm-type word; "" once the stream has failed
    comm: str
    #: bytes as read, a negative value already wrapped to 64 bits (None: garbage)
    size: int | None


@dataclass(frozen=True, slots=True)
class LayerRead:
    """One layer SimAI created. Rows read from identical text share one instance."""

    name: str
    reserved: int | None
    fwd: PhaseRead
    ig: PhaseRead
    wg: PhaseRead
    update_time: int | None
    #: the 13th field, read only for HYBRID_CUSTOMIZED
    policy: str | None
    #: every field came from the file (the stream had not failed by the end of the row)
    defined: bool

    def phase(self, name: str) -> PhaseRead:
        return self.fwd if name == "fwd" else self.ig if name == "ig" else self.wg


def text_column(codes: Sequence[int], texts: Sequence[str]) -> MappedView[str]:
    """A text column as strings, each looked up in the table's texts when asked for: SimAI's
    report asks for one per kind of layer, and a million distinct rows have a few kinds."""
    return MappedView(codes, texts.__getitem__)


def items_at(column: Sequence[T], positions: Sequence[int]) -> list[T]:
    """`column[p]` for each position (a mapped column's in C)."""
    if isinstance(column, MappedView):
        return column.at(positions)
    return list(map(column.__getitem__, positions))


class Same(MappedView[T]):
    """`value`, `length` times, without a list of them (8 bytes a row on a million rows):
    every parsed row has no 13th field and was read whole."""

    __slots__ = ("value",)

    def __init__(self, value: T, length: int) -> None:
        super().__init__(range(length), lambda _: value)
        self.value = value

    def __iter__(self) -> Iterator[T]:
        return repeat(self.value, len(self))


@dataclass(frozen=True)
class LayerValues:
    """The read layers as columns: each layer's value (layers read from identical text share
    one, and values are numbered in the order of their first layer) and each value's fields,
    item k of every column for value k. The timeline and the report read these, never an
    object per layer: a file whose rows all differ has a million values."""

    refs: Sequence[int]
    names: Sequence[str]
    reserved: Sequence[int | None]
    #: each phase's column, in PHASES order (fwd, ig, wg)
    computes: tuple[Sequence[int | None], ...]
    comms: tuple[Sequence[str], ...]
    sizes: tuple[Sequence[int | None], ...]
    update_times: Sequence[int | None]
    policies: Sequence[str | None]
    defined: Sequence[bool]
    #: each value's kind for SimAI's report (its name and its three collectives with their
    #: sizes; kinds numbered by their first value) as a numpy array, and each kind's first
    #: value, when the parser's columns grouped them (None: the report groups them itself)
    kinds: tuple[Any, list[int]] | None = None
    #: whether the report may take each value for a kind of its own (ungrouped `kinds`: a
    #: file whose rows rarely share a kind, where grouping costs more than it saves)
    kinds_per_value: bool = False

    def __len__(self) -> int:
        return len(self.names)

    @property
    def once_each(self) -> bool:
        """Whether every layer has a value of its own (then `refs` is 0, 1, 2, ...)."""
        return len(self.refs) == len(self.names)

    @cached_property
    def most_computes(self) -> tuple[int, ...]:
        """The largest compute time of each phase (0 for none), found once for the timeline
        and the report."""
        return tuple(most_of(_numbers(c)) for c in self.computes)

    @classmethod
    def of(cls, layers: Sequence[LayerRead]) -> LayerValues:
        """The columns of `layers`, one value per distinct instance."""
        index: dict[int, int] = {}
        distinct: list[LayerRead] = []
        refs = array("q")
        for layer in layers:
            k = index.get(id(layer))
            if k is None:
                k = index[id(layer)] = len(distinct)
                distinct.append(layer)
            refs.append(k)
        phases = [[x.phase(p) for x in distinct] for p in PHASES]
        return cls(
            refs,
            [x.name for x in distinct],
            [x.reserved for x in distinct],
            tuple([p.compute for p in column] for column in phases),
            tuple([p.comm for p in column] for column in phases),
            tuple([p.size for p in column] for column in phases),
            [x.update_time for x in distinct],
            [x.policy for x in distinct],
            [x.defined for x in distinct],
        )

    def layer(self, k: int) -> LayerRead:
        """Value `k` as a `LayerRead` (a new instance)."""
        fwd, ig, wg = (
            PhaseRead(c[k], m[k], s[k]) for c, m, s in zip(self.computes, self.comms, self.sizes)
        )
        return LayerRead(
            self.names[k],
            self.reserved[k],
            fwd,
            ig,
            wg,
            self.update_times[k],
            self.policies[k],
            self.defined[k],
        )

    def layers(self) -> list[LayerRead]:
        """One `LayerRead` per read layer (those of one value the same instance)."""
        (fc, ic, wc), (fm, im, wm), (fs, is_, ws) = self.computes, self.comms, self.sizes
        values = list(
            map(
                LayerRead,
                self.names,
                self.reserved,
                map(PhaseRead, fc, fm, fs),
                map(PhaseRead, ic, im, is_),
                map(PhaseRead, wc, wm, ws),
                self.update_times,
                self.policies,
                self.defined,
            )
        )
        return list(map(values.__getitem__, self.refs))


def _numbers(column: Sequence[int | None]) -> Sequence[int]:
    """A column without its Nones (an array holds none)."""
    return column if isinstance(column, array) else [v for v in column if v is not None]


class LayerTable:
    """The layers in order: those read (or partly read) from the file, then `tail_count` copies
    of `tail`, the identical empty layers made after the stream failed (a count line of a
    billion costs one entry).

    The read layers are held as objects (`layers`) or as columns (`values`); each form is made
    from the other when first asked for."""

    __slots__ = ("_layers", "_made", "_values", "lines", "tail", "tail_count")

    def __init__(
        self, layers: list[LayerRead] | None = None, values: LayerValues | None = None
    ) -> None:
        self._layers = layers if layers is not None or values is not None else []
        self._values = values
        #: value index -> its `LayerRead`, for layers asked for one at a time from `values`
        #: (kept: a value asked for again is the same instance, as `SimaiRun.plan` expects)
        self._made: dict[int, LayerRead] = {}
        #: the line of each read layer's first field (0 when it has none)
        self.lines: Sequence[int] = array("q")
        self.tail: LayerRead | None = None
        self.tail_count = 0

    @property
    def layers(self) -> list[LayerRead]:
        if self._layers is None:
            assert self._values is not None
            self._layers = self._values.layers()
        return self._layers

    @property
    def values(self) -> LayerValues:
        if self._values is None:
            self._values = LayerValues.of(self.layers)
        return self._values

    @property
    def read(self) -> int:
        """How many layers were read (or partly read) from the file."""
        return len(self._layers) if self._layers is not None else len(self.values.refs)

    def __len__(self) -> int:
        return self.read + self.tail_count

    def __getitem__(self, index: int) -> LayerRead:
        if index < 0:
            index += len(self)
        if index < self.read:
            if self._layers is not None:
                return self._layers[index]
            # One layer: a million-row file's `layers` is not made for it.
            assert self._values is not None
            value = self._values.refs[index]
            found = self._made.get(value)
            if found is None:
                found = self._made[value] = self._values.layer(value)
            return found
        if self.tail is None or not 0 <= index - self.read < self.tail_count:
            raise IndexError(index)
        return self.tail

    def __iter__(self) -> Iterator[LayerRead]:
        yield from self.layers
        if self.tail is not None:
            for _ in range(self.tail_count):
                yield self.tail

    def line(self, index: int) -> int | None:
        """The source line of a layer's first field; None for a layer read from nothing."""
        if index < len(self.lines) and self.lines[index]:
            return self.lines[index]
        return None


@dataclass(frozen=True)
class RowsReading:
    layers: LayerTable
    #: the first layer not wholly read from the file, None when all were
    first_undefined: int | None
    #: (line, column) where the stream failed, None when it did not
    failed_at: tuple[int, int] | None
    #: the non-blank lines after the last layer read, when the reading counted them (the
    #: parser's rows past the count); None: `run.unread_rows` counts them in the bytes
    unread: int | None = None


def _text(word: bytes | None) -> str:
    return "" if word is None else word.decode("utf-8", "replace")


class _RowReader:
    """Reads one row after another, keeping the number slots between rows as SimAI's stack
    does."""

    def __init__(self, stream: IStream, customized: bool) -> None:
        self.stream = stream
        self.customized = customized
        self.slots: dict[str, int | None] = dict.fromkeys(NUMBERS)

    def number(self, slot: str, signed: bool = False) -> int | None:
        s = self.stream
        value = s.int32() if signed else s.uint64()
        if value is not None:
            self.slots[slot] = value
        return self.slots[slot]

    def phase(self, name: str) -> PhaseRead:
        compute = self.number(f"{name}_compute")
        comm = _text(self.stream.word())
        return PhaseRead(compute, comm, self.number(f"{name}_size"))

    def row(self) -> LayerRead:
        name = _text(self.stream.word())
        reserved = self.number("reserved", signed=True)
        fwd, ig, wg = self.phase("fwd"), self.phase("ig"), self.phase("wg")
        update = self.number("update_time")
        policy = _text(self.stream.word()) if self.customized else None
        return LayerRead(name, reserved, fwd, ig, wg, update, policy, not self.stream.failed)

    def remember(self, layer: LayerRead) -> None:
        """Set the number slots as reading `layer` would have (a cached row)."""
        slots = self.slots
        slots["reserved"] = layer.reserved
        for name in ("fwd", "ig", "wg"):
            p = layer.phase(name)
            slots[f"{name}_compute"], slots[f"{name}_size"] = p.compute, p.size
        slots["update_time"] = layer.update_time


def read_rows(data: bytes, start: int, count: int, customized: bool) -> RowsReading:
    """SimAI's `count` layers, read from `data[start:]`.

    A row read whole from the rest of one line depends on nothing else, so it is kept by that
    text and shared: AICB repeats a few hundred distinct lines up to a million times.
    """
    stream = IStream(data, start)
    reader = _RowReader(stream, customized)
    table = LayerTable()
    layers, lines = table.layers, array("q")
    table.lines = lines
    cache: dict[bytes, LayerRead] = {}
    line, scanned = data.count(b"\n", 0, start) + 1, start
    first_undefined: int | None = None
    #: the last row taken from the cache: its numbers are put in the slots only when a row is
    #: read field by field next (the slots matter only then)
    pending: LayerRead | None = None
    n = len(data)
    for i in range(count):
        pos = stream.pos
        if not stream.failed and pos + 1 < n and data[pos] == 10 and data[pos + 1] not in C_SPACE:
            # the common case: the previous row ended its line and this one starts the next
            begin = stream.pos = pos + 1
            line += 1
        elif stream.failed or not stream.skip_space():
            # every later row reads nothing: one shared layer, however many
            if pending is not None:
                reader.remember(pending)
            first_undefined = i if first_undefined is None else first_undefined
            table.tail = reader.row()
            table.tail_count = count - i
            break
        else:
            begin = stream.pos
            line += data.count(b"\n", scanned, begin)
        scanned = begin
        end = data.find(b"\n", begin)
        end = n if end < 0 else end
        text = data[begin:end]
        layer = cache.get(text)
        if layer is not None:
            pending = layer
            stream.pos = end
        else:
            if pending is not None:
                reader.remember(pending)
                pending = None
            layer = reader.row()
            if layer.defined and stream.pos <= end and not data[stream.pos : end].strip():
                cache[text] = layer
            if not layer.defined and first_undefined is None:
                first_undefined = i
        layers.append(layer)
        lines.append(line)
    return RowsReading(table, first_undefined, _failed_at(data, stream))


def phantom(data: bytes, last: LayerRead, customized: bool) -> tuple[LayerRead, tuple[int, int]]:
    """The layer SimAI makes when the data ends right after `last`, a layer read whole (the
    strings empty, the numbers as `last` left them), and where its stream failed."""
    stream = IStream(data, len(data))
    reader = _RowReader(stream, customized)
    reader.remember(last)
    layer = reader.row()
    failed_at = _failed_at(data, stream)
    assert failed_at is not None
    return layer, failed_at


def _failed_at(data: bytes, stream: IStream) -> tuple[int, int] | None:
    """(line, column) where the stream failed, None when it did not."""
    if not stream.failed:
        return None
    at = min(stream.failed_at, len(data))
    row_line = data.count(b"\n", 0, at) + 1
    return (row_line, at - (data.rfind(b"\n", 0, at) + 1) + 1)
