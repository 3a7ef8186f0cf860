"""What a workload file means, as facts derived from its AST (pure: no printing).

`explain(result, path)` returns an `Explanation` (see `facts`): the header values, what the
body holds counted from its rows, the parallel layout, annotated rows, totals per iteration,
how the file was generated, one summary sentence and the lint findings. The modules:

- `model`: the frozen dataclasses of the facts;
- `facts`: assembles them from a ParseResult (and says how a section is added);
- `context`: what every section reads: header values as SimAI reads them, group sizes;
- `totals`, `structure`, `generation`, `provenance`, `findings`: one pure section each;
- `sentences`: the summary, the answered questions and the notes, from the facts;
- `routing`: SimAI's group rules, the file's dialect and the kinds of layer;
- `patterns`: run-length pictures of row-name sequences;
- `units`: bytes, times and percentages as printed;
- `values`: numbers as SimAI reads them, and overflow-safe arithmetic.

This module re-exports what the renderers, the command and the tests use.
"""

from __future__ import annotations

from wkparse.explanation.facts import BODY_ROWS_SHOWN, explain
from wkparse.explanation.model import (
    CollectiveTotal,
    Era,
    Explanation,
    Finding,
    Generation,
    GroupDifference,
    KindTotal,
    PhaseNote,
    RowNote,
    Shape,
    Structure,
)
from wkparse.explanation.patterns import compress
from wkparse.explanation.routing import (
    COLLECTIVES,
    GROUP_LABELS,
    GROUPS,
    PHASE_LABELS,
    TRANSFORMER_DIALECTS,
    dialect_of,
    layer_kind,
    route,
)
from wkparse.explanation.sentences import answers, notes, path_label, represents
from wkparse.explanation.units import as_written, human_bytes, human_ns, percent

__all__ = [
    "BODY_ROWS_SHOWN",
    "COLLECTIVES",
    "GROUPS",
    "GROUP_LABELS",
    "PHASE_LABELS",
    "TRANSFORMER_DIALECTS",
    "CollectiveTotal",
    "Era",
    "Explanation",
    "Finding",
    "Generation",
    "GroupDifference",
    "KindTotal",
    "PhaseNote",
    "RowNote",
    "Shape",
    "Structure",
    "answers",
    "as_written",
    "compress",
    "dialect_of",
    "explain",
    "human_bytes",
    "human_ns",
    "layer_kind",
    "notes",
    "path_label",
    "percent",
    "represents",
    "route",
]
