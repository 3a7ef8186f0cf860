"""`wkparse simai --format json`: one SimAI run as one JSON object.

Top-level keys (the contract): `simai` (the SimAI described: `commit`, `short`, `date`,
`release`), `outcome` {`exit_code`, `kind`, `message`}, `warnings`,
`header` {`policy`, `tp`, `ep`, `pp`, `vpp`, `ga`, `all_gpus`, `pp_comm`, `checkpoints`,
`checkpoint_initiates`} as SimAI holds them (null: never set, SimAI computes with 0), `lines`,
`dp`, `unread_rows` (rows after the last layer line 2 lets SimAI read), `layers` (each:
`index`, `name`, `source_line`, `defined`, `fwd`/`ig`/`wg` {`compute_ns`, `compute_us`,
`type`, `group`, `group_size`, `size`, `scheduled`}, `update_ns`),
`first_undefined` and `totals` {`compute_us`}. A value SimAI holds as garbage is null.
Then the run's options: `options` (the SimAI command line used, `stated` when it is
wkparse's own set) and `option_warnings`; and `result`, the EndToEnd.csv SimAI writes (null
when it writes none): `layers` (each `index`, `name`, `fwd`/`wg`/`ig` {`compute_us`,
`exposed_comm_us`, `total_comm_us`, `algbw`, `busbw`}, as SimAI prints them; a value it
prints as NaN or Inf is null) and `totals` {`expose_dp_comm_us`, `expose_dp_ep_comm_us`,
`expose_tp_comm_us`, `expose_ep_comm_us`, `expose_pp_comm_us`, `bubble_time_us`,
`total_comp_us`, `total_exposed_comm_us`, `total_time_us`} (null without a summary; a value
SimAI prints as `NaN or Inf` is null). `outcome` also names the `layer` (and its source
`line`) that makes SimAI hang, stop or give no result.
Layers are written one at a time: a million-layer file is never one string in memory.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from wkparse.models.simai.analytical import PhasePlan
from wkparse.models.simai.ieee import fixed, whole
from wkparse.models.simai.options import command_line
from wkparse.models.simai.outcome import Outcome
from wkparse.models.simai.report import TOTAL_KEYS, LayerResult, PhaseResult, Report
from wkparse.models.simai.rows import LayerRead
from wkparse.models.simai.run import SimaiRun

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
    o = run.outcome
    line = None
    if o.layer is not None and run.rows is not None:
        line = run.rows.layers.line(o.layer)
    return {
        "simai": run.version.as_json(),
        "outcome": outcome(o)
        | {"layer": o.layer, "line": line}
        | ({"reason": run.refusal.reason} if run.refusal is not None else {}),
        "warnings": list(run.warnings),
        "header": header,
        "lines": run.lines,
        "dp": run.dp,
        "unread_rows": run.unread_rows,
        "layers": [],
        "first_undefined": run.first_undefined,
        "totals": {"compute_us": run.total_compute_us},
        "options": None if run.options is None else command_line(run.options),
        "option_warnings": list(run.option_warnings),
        "result": None,
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


def _number(text: str) -> int | float | None:
    """A value as SimAI prints it, as a JSON number (None for NaN or Inf)."""
    if text in ("NaN or Inf", "-nan", "nan", "inf", "-inf"):
        return None
    return float(text) if "." in text else int(text)


def _phase_result(p: PhaseResult) -> dict[str, Any]:
    return {
        "compute_us": _number(whole(p.compute_ns / 1000.0)),
        "exposed_comm_us": _number(whole(p.exposed_ns / 1000.0)),
        "total_comm_us": _number(whole(p.total.ns / 1000.0)),
        "algbw": _number(fixed(p.algbw, 2)),
        "busbw": _number(fixed(p.busbw, 2)),
    }


def _result_body(layer: LayerResult) -> str:
    body = {"name": layer.name} | {n: _phase_result(layer.phase(n)) for n in ("fwd", "wg", "ig")}
    return json.dumps(body)[1:-1]


def _write_result(report: Report, out: TextIO) -> None:
    out.write('{"layers": [')
    bodies: dict[int, str] = {}
    chunk: list[str] = []
    first = True
    for i, layer in report.rows():
        body = bodies.get(id(layer))
        if body is None:
            body = bodies[id(layer)] = _result_body(layer)
        chunk.append(f'{{"index": {i}, {body}}}')
        if len(chunk) == 10_000:
            out.write(("" if first else ", ") + ", ".join(chunk))
            first, chunk = False, []
    if chunk:
        out.write(("" if first else ", ") + ", ".join(chunk))
    totals: dict[str, Any] | None = None
    if report.summary is not None:
        keys = (*TOTAL_KEYS, "total_time_us")
        # a key SimAI's summary lacks (b1c1eb66: Expose_PP_comm) is null
        totals = {k: _number(whole(report.totals[k])) if k in report.totals else None for k in keys}
    out.write("], " + json.dumps({"totals": totals})[1:])


def write(run: SimaiRun, out: TextIO) -> None:
    doc = json.dumps(head(run))
    if run.report is not None:
        lead, tail = doc.rsplit('"result": null', 1)
        doc = lead + '"result": \0' + tail
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
    if run.report is None:
        out.write("]" + after + "\n")
        return
    middle, end = after.rsplit('"result": \0', 1)
    out.write("]" + middle + '"result": ')
    _write_result(run.report, out)
    out.write(end + "\n")
