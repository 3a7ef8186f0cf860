"""The ns-3 run of a linted file, shared by the WK8xx checks: `wkparse.models.simai.ns3` walked over
the rows as written (SimAI's reading departures are other rules' findings)."""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from wkparse.ast import PHASE_FIELDS, Phase, Row, RowFields, Span, ValueTable
from wkparse.checks import Context
from wkparse.cpp import U64
from wkparse.models.simai.ns3 import (
    LayerKey,
    Ns3Groups,
    Step,
    Steps,
    Walk,
    make_groups,
    phase_key,
    walk,
)
from wkparse.models.simai.rows import PhaseRead
from wkparse.models.simai.tokens import reading

_RUNS: weakref.WeakKeyDictionary[Context, Ns3Lint | None] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class Ns3Lint:
    groups: Ns3Groups
    walk: Walk
    steps: Steps
    #: each row's LayerKey
    keys: list[LayerKey]

    def step(self, index: int, phase: str) -> Step:
        return self.steps.of(self.keys[index]).phase(phase)


def _read(phase: Phase) -> PhaseRead:
    """A phase as SimAI's `>>` holds it: a negative number wraps to 64 bits."""

    def u64(v: int | None) -> int | None:
        return None if v is None else v % U64

    return PhaseRead(u64(phase.compute), phase.comm or "", u64(phase.size))


def ns3_run(ctx: Context) -> Ns3Lint | None:
    """The predicted run, or None when the file gives no transformer run to predict (the
    reader stops, no all_gpus, no rows)."""
    if ctx in _RUNS:
        return _RUNS[ctx]
    found = _predict(ctx)
    _RUNS[ctx] = found
    return found


def _predict(ctx: Context) -> Ns3Lint | None:
    w = ctx.workload
    if w.header is None or not len(w.rows):
        return None
    model = reading(w.header).model
    gpus = model.value("all_gpus")
    if model.stop is not None or not model.transformer or not gpus or gpus < 1:
        return None
    groups = make_groups(model.held("tp"), model.held("ep"), gpus, version=ctx.simai)
    steps = Steps(model.policy or "", groups, ctx.simai)
    keys = _value_keys(w.rows.values, steps)
    refs = list(w.rows.refs)
    by_row = [keys[r] for r in refs]
    return Ns3Lint(groups, walk(by_row, steps.of), steps, by_row)


def _value_keys(values: ValueTable, steps: Steps) -> list[LayerKey]:
    """Each value's `LayerKey`, read from the columns (a partial value from its fields)."""
    texts = values.texts
    cols = [values.column(k) for p in ("fwd", "ig", "wg") for k in PHASE_FIELDS[p]]
    keys: list[LayerKey] = []
    for fc, fm, fs, ic, im, is_, wc, wm, ws in zip(*cols):
        keys.append(
            (
                phase_key(texts[fm] or "", fs, fc),
                phase_key(texts[im] or "", is_, ic),
                phase_key(texts[wm] or "", ws, wc),
            )
        )
    for index in values.partial:
        f = RowFields(values, index)
        keys[index] = steps.key(_read(f.fwd), _read(f.ig), _read(f.wg))
    return keys


def span_at(ctx: Context, index: int, phase: str, part: int) -> Span:
    """The span of one phase field (0 compute, 1 comm, 2 size) of row `index`."""
    rows = ctx.workload.rows
    row = Row(rows.lines[index], RowFields(rows.values, rows.refs[index]))
    return row.span(PHASE_FIELDS[phase][part])
