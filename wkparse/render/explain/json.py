"""`wkparse explain --format json`: an `Explanation` as one JSON object.

The top-level keys are the contract (`policy`, `tp`, `pp`, `dp`, `ep`, `dp_ep`, `ga`, `vpp`,
`all_gpus`, `pp_comm`, `declared_rows`, `rows`, `groups`, `layers_per_stage`, `model_layers`,
`sequence_parallel`, `moe`, `activation_bytes`, `placeholder_compute`, `bubble_fraction`,
`comm_bytes`, `compute_ns`, `represents`, `findings`); header values are as written (null when
absent), counted values come from the body. Nested objects add the detail the text shows.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from wkparse.explanation import Explanation, Finding, RowNote


def to_dict(e: Explanation) -> dict[str, Any]:
    g = e.generation
    s = e.structure
    return {
        "simai_report": _simai(e),
        "path": e.path,
        "dialect": e.dialect,
        "policy": e.policy,
        "tp": e.tp,
        "pp": e.pp,
        "dp": e.dp,
        "ep": e.ep,
        "dp_ep": e.dp_ep,
        "ga": e.ga,
        "vpp": e.vpp,
        "all_gpus": e.all_gpus,
        "pp_comm": e.pp_comm,
        "declared_rows": e.declared_rows,
        "rows": e.rows,
        "groups": e.groups,
        "layers_per_stage": e.layers_per_stage,
        "layers_in_body": e.layers_in_body,
        "model_layers": e.model_layers,
        "prologue_rows": e.prologue_rows,
        "epilogue_rows": e.epilogue_rows,
        "sequence_parallel": e.sequence_parallel,
        "moe": e.moe,
        "activation_bytes": e.activation_bytes,
        "activation_source": e.activation_source,
        "placeholder_compute": e.placeholder_compute,
        "bubble_fraction": e.bubble_fraction,
        "bubble_compute_ns": e.bubble_compute_ns,
        "comm_bytes": e.comm_bytes,
        "compute_ns": e.compute_ns,
        "represents": e.represents,
        "answers": [{"question": q, "answer": a} for q, a in e.answers],
        "notes": list(e.notes),
        "missing_traffic": {
            "basis": e.missing_traffic_basis,
            "collectives": [
                {
                    "block": m.block,
                    "phase": m.phase,
                    "group": m.group,
                    "collective": m.collective,
                    "what": m.what,
                    "source": m.source,
                    "blocks": m.blocks,
                    "of": m.of,
                    "zero_bytes": m.zero,
                    "bytes_each": m.size,
                    "missing_bytes_per_group": m.per_group_bytes,
                    "missing_bytes_per_iteration": m.per_iteration_bytes,
                    "written_instead": m.instead,
                    "issue": m.issue,
                    "line": m.line,
                }
                for m in e.missing_traffic
            ],
        },
        "header": {
            "fields": e.header_text,
            "leading": list(e.leading),
            "pp_comm_text": e.pp_comm_text,
            "pp_comm_simai": e.pp_comm_simai,
            "dp_remainder": e.dp_remainder,
            "bom": e.bom,
        },
        "collectives": [
            {
                "group": c.group,
                "collective": c.collective,
                "calls": c.calls,
                "bytes": c.bytes,
                "per_rank_bytes": c.share_bytes,
            }
            for c in e.collectives
        ],
        "kinds": [
            {"kind": k.kind, "rows": k.rows, "bytes": k.bytes, "compute_ns": k.compute_ns}
            for k in e.kinds
        ],
        "structure": {
            "prologue": _rows(s.prologue),
            "groups": {
                "count": s.group_count,
                "first_line": s.groups_first_line,
                "last_line": s.groups_last_line,
                "shapes": [
                    {
                        "count": sh.count,
                        "rows": sh.rows,
                        "layers": sh.layers,
                        "pattern": sh.pattern,
                        "first_group": sh.first_group,
                        "first_line": sh.first_line,
                        "last_line": sh.last_line,
                    }
                    for sh in s.shapes
                ],
                "expanded": s.reference_group,
                "expanded_rows": _rows(s.reference),
                "identical_to_expanded": s.identical_groups,
                "differing_in_values": s.differing_groups,
                "differences": [
                    {
                        "group": d.group,
                        "first_line": d.first_line,
                        "last_line": d.last_line,
                        "rows": [{"line": ln, "name": n, "change": c} for ln, n, c in d.rows],
                    }
                    for d in s.differences
                ],
            },
            "epilogue": _rows(s.epilogue),
            "body_pattern": s.body_pattern,
            "body": _rows(s.body),
            "body_rows_not_shown": s.body_hidden,
        },
        "generation": {
            "file_name": None
            if g.name is None
            else {
                "model": g.name.model,
                "world": g.name.world,
                "tp": g.name.tp,
                "pp": g.name.pp,
                "ep": g.name.ep,
                "gbs": g.name.gbs,
                "mbs": g.name.mbs,
                "seq": g.name.seq,
                "aiob": g.name.aiob,
                "sequence_parallel": g.name.sequence_parallel,
                "inference_phase": g.name.inference_phase,
            },
            "hidden": g.hidden,
            "hidden_how": g.hidden_how,
            "preset_layers": g.preset_layers,
            "preset_hidden": g.preset_hidden,
            "sequence_parallel": g.sequence_parallel,
            "moe": g.moe,
            "experts": g.experts,
            "topk": g.topk,
            "moe_how": g.moe_how,
            "compute": g.compute,
            "expected_ga": g.expected_ga,
            "era": None
            if g.era is None
            else {
                "label": g.era.label,
                "earliest": g.era.earliest,
                "latest": g.era.latest,
                "reasons": list(g.era.reasons),
            },
            "notes": list(g.notes),
            "aicb_command": g.aicb_command,
        },
        "findings": [_finding(f) for f in e.findings],
    }


def _rows(rows: tuple[RowNote, ...]) -> list[dict[str, Any]]:
    return [
        {
            "line": r.line,
            "name": r.name,
            **({"policy": r.policy} if r.policy else {}),
            "update_ns": r.update_ns,
            "phases": {
                ph.phase: {
                    "compute_ns": ph.compute_ns,
                    "comm": ph.comm,
                    "group": ph.group,
                    "group_size": ph.group_size,
                    "size": ph.size,
                    "per_rank": ph.share,
                    **({"note": ph.note} if ph.note else {}),
                }
                for ph in r.phases
            },
        }
        for r in rows
    ]


def _finding(f: Finding) -> dict[str, Any]:
    return {
        "code": f.code,
        "severity": f.severity,
        "message": f.message,
        "line": f.line,
        "column": f.column,
        "count": f.count,
        "lines": list(f.lines),
        "section": f.section,
        "opt_in": f.opt_in,
    }


def write(e: Explanation, stream: TextIO) -> None:
    json.dump(to_dict(e), stream, indent=2, ensure_ascii=False)
    stream.write("\n")


def _simai(e: Explanation) -> dict[str, Any] | None:
    """What SimAI-Analytical will report: totals in us, null where SimAI prints NaN or Inf."""
    import math

    r = e.simai
    if r is None:
        return None
    return {
        "simai": r.simai,
        "options": r.options,
        "stated": r.stated,
        "outcome": {
            "kind": r.kind,
            "exit_code": r.exit_code,
            "message": r.message,
            "layer": r.layer,
            "line": r.line,
        },
        "totals": {k: (v if math.isfinite(v) else None) for k, v in r.totals.items()} or None,
        "summary": r.summary,
        "reason": r.reason,
        "warnings": list(r.warnings),
    }
