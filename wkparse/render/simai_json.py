"""`wkparse simai --format json`: one SimAI run as one JSON object.

Top-level keys (the contract): `outcome` {`exit_code`, `kind`, `message`}, `warnings`,
`header` {`policy`, `tp`, `ep`, `pp`, `vpp`, `ga`, `all_gpus`, `pp_comm`, `checkpoints`,
`checkpoint_initiates`} as SimAI holds them (null: never set, SimAI computes with 0), `lines`,
`dp`, `layers` (each: `index`, `name`, `source_line`, `defined`, `fwd`/`ig`/`wg` {`compute_ns`,
`compute_us`, `type`, `group`, `group_size`, `size`, `scheduled`}, `update_ns`),
`first_undefined` and `totals` {`compute_us`}. A value SimAI holds as garbage is null.
Layers are written one at a time: a million-layer file is never one string in memory.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from wkparse.simai.analytical import PhasePlan
from wkparse.simai.outcome import Outcome
from wkparse.simai.rows import LayerRead
from wkparse.simai.run import SimaiRun

HEADER_KEYS = ("tp", "ep", "pp", "vpp", "ga", "all_gpus")


def phase(p: PhasePlan) -> dict[str, Any]:
    return {
        "compute_ns": p.compute_ns,
        "compute_us": p.compute_us,
        "type": p.type.value,
        "group": p.group.value,
        "group_size": p.group_size,
        "size": p.size,
        "scheduled": p.scheduled,
    }


def outcome(o: Outcome) -> dict[str, Any]:
    """How a run ends, in the one shape both backends' JSON use."""
    return {"exit_code": o.exit_code, "kind": o.kind, "message": o.message}


def head(run: SimaiRun) -> dict[str, Any]:
    """Everything but the layers."""
    h = run.header
    header: dict[str, Any] = {"policy": h.policy}
    header |= {k: h.value(k) for k in HEADER_KEYS}
    header["pp_comm"] = h.value("pp_comm") if h.stop is not None else h.held("pp_comm")
    header["checkpoints"] = list(h.checkpoints)
    header["checkpoint_initiates"] = list(h.checkpoint_initiates)
    return {
        "outcome": outcome(run.outcome),
        "warnings": list(run.warnings),
        "header": header,
        "lines": run.lines,
        "dp": run.dp,
        "layers": [],
        "first_undefined": run.first_undefined,
        "totals": {"compute_us": run.total_compute_us},
    }


def _layer_body(run: SimaiRun, layer: LayerRead) -> str:
    """The part of a layer's JSON that identical layers share, without its braces."""
    plan = run.plan(layer)
    body = {
        "name": layer.name,
        "defined": layer.defined,
        "fwd": phase(plan.fwd),
        "ig": phase(plan.ig),
        "wg": phase(plan.wg),
        "update_ns": layer.update_time,
    }
    return json.dumps(body)[1:-1]


def write(run: SimaiRun, out: TextIO) -> None:
    doc = json.dumps(head(run))
    before, after = doc.split('"layers": []', 1)
    out.write(before + '"layers": [')
    bodies: dict[int, str] = {}
    if run.rows is not None:
        table = run.rows.layers
        lines = table.lines
        chunk: list[str] = []
        for i, layer in enumerate(table):
            body = bodies.get(id(layer))
            if body is None:
                body = bodies[id(layer)] = _layer_body(run, layer)
            line = lines[i] if i < len(lines) and lines[i] else "null"
            chunk.append(f'{{"index": {i}, "source_line": {line}, {body}}}')
            if len(chunk) == 10_000:
                out.write(("" if i < 10_000 else ", ") + ", ".join(chunk))
                chunk = []
        if chunk:
            out.write(("" if len(table) <= len(chunk) else ", ") + ", ".join(chunk))
    out.write("]" + after + "\n")
