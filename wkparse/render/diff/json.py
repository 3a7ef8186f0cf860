"""`wkparse diff --format json`: the whole difference, unbounded, for tools.

    {"equal": bool, "a": path, "b": path,
     "header": [{"key", "a", "b", "note"}],
     "facts": [{"name", "label", "a", "b", "ratio", "unit"}],
     "rows": {"a", "b", "changed", "added", "removed", "moved",
              "changes": [{"kind", "summary", "where", "rows", "line_a", "line_b", ...}]},
     "simai_total_time": null | {"options": {"a", "b"},
              "a": {"total_time_us", "kind", "why"}, "b": {...},
              "change_us", "change_percent",
              "layers": [{"index", "name_a", "line_a", "name_b", "line_b", "a_us", "b_us",
                          "change_us"}]}}

Header values are as written (null where the side lacks the key); fact values are numbers
(null where explain has none; `unit` is count, bytes, ns, fraction or flag); each row change
carries its sentence as `summary` and the line of its first place in each file (null where
that file lacks it). `simai_total_time` is SimAI-Analytical's predicted Total time of each
side under explain's stated option set (`total_time_us` null, and `why` saying so, where a run
hangs, has no result or its total is NaN/Inf), and the layers whose compute plus exposed comm
changed most, biggest first; it is null when the files are equal.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from wkparse.difference.model import Difference, RowChange, SimaiChange
from wkparse.difference.words import row_pieces, sentence


def document(d: Difference) -> dict[str, Any]:
    r = d.rows
    return {
        "equal": d.equal,
        "a": d.a_path,
        "b": d.b_path,
        "header": [{"key": h.key, "a": h.a, "b": h.b, "note": h.note} for h in d.header],
        "facts": [
            {"name": f.name, "label": f.label, "a": f.a, "b": f.b, "ratio": f.ratio, "unit": f.unit}
            for f in d.facts
        ],
        "rows": {
            "a": r.a,
            "b": r.b,
            "changed": r.changed,
            "added": r.added,
            "removed": r.removed,
            "moved": r.moved,
            "changes": [_change(c) for c in r.changes],
        },
        "simai_total_time": None if d.simai is None else _simai(d.simai),
    }


def _simai(s: SimaiChange) -> dict[str, Any]:
    return {
        "options": {"a": s.options_a, "b": s.options_b},
        "a": {"total_time_us": s.a.total_us, "kind": s.a.kind, "why": s.a.why},
        "b": {"total_time_us": s.b.total_us, "kind": s.b.kind, "why": s.b.why},
        "change_us": s.delta_us,
        "change_percent": s.percent,
        "layers": [
            {
                "index": c.index,
                "name_a": c.name_a,
                "line_a": c.line_a,
                "name_b": c.name_b,
                "line_b": c.line_b,
                "a_us": c.a_us,
                "b_us": c.b_us,
                "change_us": c.delta_us,
            }
            for c in s.layers
        ],
    }


def _change(c: RowChange) -> dict[str, Any]:
    out: dict[str, Any] = {
        "kind": c.kind,
        "summary": sentence(row_pieces(c)),
        "where": c.where,
        "rows": c.rows,
        "line_a": c.line_a,
        "line_b": c.line_b,
    }
    if c.name is not None:
        out["name"] = c.name
    if c.kind == "field":
        out.update(field=c.field, a=c.a, b=c.b)
    if c.kind == "row_moved":
        out.update(position_a=c.position_a, position_b=c.position_b)
    return out


def write(d: Difference, out: TextIO) -> None:
    json.dump(document(d), out, indent=2, ensure_ascii=False)
    out.write("\n")
