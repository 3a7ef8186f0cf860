"""The explain facts of two files, compared: the layout, the body's shape and the totals.

Every value comes from `wkparse.explanation` (nothing is worked out again here), so a fact that
differs reads exactly as `wkparse explain` states it for each file.
"""

from __future__ import annotations

from collections.abc import Callable

from wkparse.difference.model import FactChange
from wkparse.explanation import GROUPS, Explanation
from wkparse.explanation.values import fraction

_Fact = int | float | bool | None


def _compute(phase: str) -> Callable[[Explanation], _Fact]:
    return lambda e: e.compute_ns.get(phase)


def _comm(group: str) -> Callable[[Explanation], _Fact]:
    return lambda e: e.comm_bytes.get(group)


#: (name, label, unit, how to read it from an Explanation), in the order they are shown
FACTS: tuple[tuple[str, str, str, Callable[[Explanation], _Fact]], ...] = (
    ("tp", "TP (tensor parallel)", "count", lambda e: e.tp),
    ("pp", "PP (pipeline stages)", "count", lambda e: e.pp),
    ("dp", "DP (data parallel)", "count", lambda e: e.dp),
    ("ep", "EP (expert parallel)", "count", lambda e: e.ep),
    ("ga", "ga (micro-batches per iteration)", "count", lambda e: e.ga),
    ("vpp", "vpp", "count", lambda e: e.vpp),
    ("all_gpus", "GPUs", "count", lambda e: e.all_gpus),
    ("declared_rows", "rows declared on line 2", "count", lambda e: e.declared_rows),
    ("groups", "micro-batch groups counted", "count", lambda e: e.groups),
    ("layers_per_stage", "layers per stage", "count", lambda e: e.layers_per_stage),
    ("model_layers", "model layers", "count", lambda e: e.model_layers),
    ("sequence_parallel", "sequence parallel", "flag", lambda e: e.sequence_parallel),
    ("moe", "mixture of experts", "flag", lambda e: e.moe),
    ("activation_bytes", "activation per micro-batch", "bytes", lambda e: e.activation_bytes),
    *(
        (f"compute_ns.{phase}", f"{label} compute per iteration", "ns", _compute(phase))
        for phase, label in (("fwd", "fwd"), ("ig", "ig"), ("wg", "wg"), ("total", "total"))
    ),
    *(
        (f"comm_bytes.{group}", f"{group} bytes per iteration", "bytes", _comm(group))
        for group in GROUPS[:5]
    ),
    ("bubble_fraction", "pipeline bubble", "fraction", lambda e: e.bubble_fraction),
)


def fact_changes(a: Explanation, b: Explanation) -> tuple[FactChange, ...]:
    out = []
    for name, label, unit, read in FACTS:
        value_a, value_b = read(a), read(b)
        if value_a != value_b or type(value_a) is not type(value_b):
            out.append(FactChange(name, label, value_a, value_b, _ratio(value_a, value_b), unit))
    return tuple(out)


def _ratio(a: _Fact, b: _Fact) -> float | None:
    if isinstance(a, bool) or isinstance(b, bool) or not a or not b:
        return None
    ratio = fraction(b, a) if isinstance(a, int) and isinstance(b, int) else b / a
    return round(ratio, 6) if ratio is not None else None
