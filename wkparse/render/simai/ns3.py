"""`wkparse simai --backend ns3`: what SimAI-Simulation (the ns-3 backend) does with a file, as
text or as one JSON object.

JSON keys (the contract): `backend` ("ns3"); `simai` (as the analytical output's);
`outcome` {`exit_code`, `kind`, `message`} (the analytical backend's shape; `kind`
"no-result" is an exit 0 with no pass finished);
`warnings`; `notes`; `header` (as the analytical output's); `lines`; `gpus`; `groups` {`tp`,
`dp`, `ep`, `dp_ep`, `nodes`, `missing_group_logs`}; `halt` {`index`, `source_line`, `name`,
`phase`, `how`} or null (the row the run ends at; `how`: "stop" a compute time past 2^31 ns,
"small" a collective under 4 KiB that never completes, "crash" SIGSEGV, "abort" SIGABRT);
`issued` {`count`, `last`} (node 0's `collective issued` lines up to the end; `last` {`index`,
`phase`} or null); `end_to_end_lines` (a finished run's EndToEnd.csv lines, else null);
`outputs` [{`name`, `empty`}] (a file not listed is not written); `wire_bytes` (bytes all
GPUs send before the run ends); `min_wall_s` (the least wall time that traffic takes, see
`wkparse.models.simai.ns3`); `first_undefined`.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from wkparse.ast import PHASE_WORDS
from wkparse.i18n import english_count
from wkparse.models.simai.ns3 import (
    BACKEND,
    BUDGET_S,
    END_TO_END,
    RATE_BYTES_PER_S,
    Ns3Run,
)
from wkparse.models.simai.ns3_endings import SILENT
from wkparse.render.simai.json import head, outcome
from wkparse.render.simai.text import header_line


def _halt(run: Ns3Run) -> dict[str, Any] | None:
    h = run.halt
    if h is None or run.reading.rows is None:
        return None
    table = run.reading.rows.layers
    return {
        "index": h.index,
        "source_line": table.line(h.index),
        "name": table[h.index].name,
        "phase": h.phase,
        "how": h.how,
    }


def document(run: Ns3Run) -> dict[str, Any]:
    o = run.outcome
    g = run.groups
    analytical = head(run.reading)
    return {
        "backend": "ns3",
        "simai": run.reading.version.as_json(),
        "outcome": outcome(o),
        "warnings": list(run.warnings),
        "notes": list(run.notes),
        "header": analytical["header"],
        "lines": run.reading.lines,
        "gpus": run.gpus,
        "groups": None
        if g is None
        else {
            "tp": g.tp,
            "dp": g.dp,
            "ep": g.ep,
            "dp_ep": g.dp_ep,
            "nodes": g.nodes,
            "missing_group_logs": g.missing_group_logs,
        },
        "halt": _halt(run),
        "issued": {
            "count": run.issued,
            "last": None
            if run.last_issued is None
            else {"index": run.last_issued[0], "phase": run.last_issued[1]},
        },
        "end_to_end_lines": run.end_to_end_lines,
        "outputs": [{"name": x.name, "empty": x.empty} for x in run.outputs()],
        "wire_bytes": run.wire_bytes,
        "min_wall_s": round(run.estimated_s, 1),
        "first_undefined": run.reading.first_undefined,
    }


def write(run: Ns3Run, out: TextIO) -> None:
    out.write(json.dumps(document(run)) + "\n")


def verdict(run: Ns3Run) -> str:
    o = run.outcome
    if run.groups is None:
        if o.exit_code == 0:
            return f"{BACKEND}: {o.message}"
        return f"{BACKEND} will stop while reading the file (exit {o.exit_code}): " + " ".join(
            s.strip() for s in o.message.splitlines()
        )
    h = run.halt
    undefined = " (layers with undefined values: measured, not promised)" if o.undefined else ""
    if h is None:
        slow = ", if you wait long enough" if run.too_long else ""
        return f"{BACKEND} will finish (exit 0){slow}{undefined}"
    where = _where(run)
    if h.how == "crash":
        return f"{BACKEND} will crash at {where} (SIGSEGV, exit 139){undefined}"
    if h.how == "abort":
        return f"{BACKEND} will abort at {where} (SIGABRT, exit 134){undefined}"
    if h.how == "small" and h.phase == "wg":
        return (
            f"{BACKEND} will never finish: the collective at {where} never completes "
            f"(exit 0, no `all passes finished`, {END_TO_END} empty){undefined}"
        )
    if h.how == "small":
        return (
            f"{BACKEND} will stop silently at {where}, the last collective it issues: "
            f"{SILENT}{undefined}"
        )
    return (
        f"{BACKEND} will stop silently at {where}: exit 0, no pass finished, "
        f"empty results{undefined}"
    )


def _where(run: Ns3Run) -> str:
    h = run.halt
    assert h is not None and run.reading.rows is not None
    table = run.reading.rows.layers
    line = table.line(h.index)
    at = f"line {line}, " if line else ""
    name = table[h.index].name or "(empty)"
    return f"{at}layer {h.index} ({name}), {PHASE_WORDS[h.phase]} pass"


def render(run: Ns3Run, path: str) -> str:
    out = [f"{path}: {verdict(run)}", f"SimAI: {run.reading.version.label}, {BACKEND}"]
    if run.reading.header.policy is not None:
        out.append(header_line(run.reading))
    g = run.groups
    if g is not None:
        out.append(
            f"topology: {english_count(g.gpus, 'GPU')}, {english_count(g.nodes, 'node')}; "
            f"groups as {BACKEND} builds them: "
            + (
                f"TP {g.tp}, DP {g.dp}, EP {g.ep}, DP_EP {g.dp_ep}"
                if g.expert_groups
                else f"TP {g.tp}, DP {g.dp} (no EP or DP_EP groups before 02532997)"
            )
        )
    if run.halt is not None:
        out.append(f"why: {run.outcome.message}")
    out += [f"warning: {w}" for w in run.warnings]
    out += [f"note: {n}" for n in run.notes]
    if g is not None:
        rate = RATE_BYTES_PER_S / 1e9
        out.append(
            f"traffic: {run.wire_bytes / 1e9:,.2f} GB on the wire, at least "
            f"{run.estimated_s:,.0f} s at the fastest recorded {rate:.2f} GB/s "
            f"(the recordings stopped runs at {BUDGET_S:.0f} s)"
        )
        written = run.outputs()
        empty = [x.name for x in written if x.empty]
        full = [x.name for x in written if not x.empty]
        out.append("empty outputs: " + (", ".join(empty) or "none"))
        out.append("written outputs: " + (", ".join(full) or "none"))
    return "\n".join(out) + "\n"
