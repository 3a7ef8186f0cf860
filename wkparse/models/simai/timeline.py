"""Whether SimAI-Analytical's event loop gets through a file's compute times.

SimAI waits out each compute time (forward for layers 0..N-1, then input-gradient and
weight-gradient for layers N-1..0) through `Sys::generate_time(int)`: the 64-bit time is cut
to a 32-bit `int`. A time of 2**31 ns or more (2147483647 already, once the float scale has
rounded it up to 2147483648) changes there:
- cut to a negative number, the event lands before the current tick, and the loop, which
  advances one nanosecond at a time, runs toward 2**64: the run never ends (a hang);
- cut to a different positive number (5000000000 becomes 705032704), the event fires but
  its callback was filed under the uncut time: nothing is left to run, and SimAI exits 0 at
  once with an empty EndToEnd.csv and no report.
The first such time in that order decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wkparse.ast import PHASES
from wkparse.cpp import scaled, wrap_int32
from wkparse.models.simai.rows import LayerRead, LayerTable

INT_LIMIT = 2**31


@dataclass(frozen=True, slots=True)
class Cut:
    """The first compute time SimAI's int cuts: where, what, and what follows."""

    index: int
    phase: str
    ns: int
    as_int: int

    @property
    def hangs(self) -> bool:
        return self.as_int < 0


def cut_int(value: int) -> tuple[int, int] | None:
    """(ns, the int SimAI makes of it) for a compute time as written whose value SimAI's
    `int` changes; None for one it keeps."""
    ns = scaled(value)
    if ns < INT_LIMIT:
        return None
    as_int = wrap_int32(ns)
    return None if as_int == ns else (ns, as_int)


#: below this no compute time is cut: float rounding moves a value by far less than this
_NEVER_CUT = 2**30


def _cuts(column: Sequence[int | None], most: int) -> dict[int, tuple[int, int]]:
    """value index -> (ns, the int SimAI makes of it), for the values of a column of compute
    times (the largest `most`) that SimAI's `int` changes."""
    if most < _NEVER_CUT:
        return {}
    found = {}
    for k, value in enumerate(column):
        got = None if value is None or value < _NEVER_CUT else cut_int(value)
        if got is not None:
            found[k] = got
    return found


def _cut(layer: LayerRead, phase: str) -> tuple[int, int] | None:
    value = layer.phase(phase).compute
    return None if value is None else cut_int(value)


def first_cut(layers: LayerTable) -> Cut | None:
    """The first compute time in SimAI's order that its `int` changes, or None."""
    values = layers.values
    cuts = dict(zip(PHASES, map(_cuts, values.computes, values.most_computes)))
    tail = layers.tail if layers.tail_count else None
    if not any(cuts.values()) and (tail is None or not any(_cut(tail, p) for p in PHASES)):
        return None
    refs = values.refs
    if cuts["fwd"]:
        # values are numbered by their first row: the least one is cut first
        first = min(cuts["fwd"])
        return Cut(refs.index(first), "fwd", *cuts["fwd"][first])
    if tail is not None:
        got = _cut(tail, "fwd")
        if got:
            return Cut(len(refs), "fwd", *got)
        for phase in ("ig", "wg"):
            got = _cut(tail, phase)
            if got:
                return Cut(len(layers) - 1, phase, *got)
    for i in range(len(refs) - 1, -1, -1):
        for phase in ("ig", "wg"):
            got = cuts[phase].get(refs[i])
            if got:
                return Cut(i, phase, *got)
    return None
