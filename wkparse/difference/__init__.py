"""What really differs between two workload files, in three layers (pure: no printing).

`diff(a, b)` compares two parsed files as SimAI and explain read them, never as bytes:

- `header`: line 1, key by key, each value as SimAI reads it;
- `facts`: the explain facts (layout, shape, totals per iteration) that differ;
- `rows`: the rows aligned by structure (prologue, each micro-batch group, epilogue), their
  changes summarised by kind;
- `model`: the frozen dataclasses of the result.

Spacing, line ends, a byte order mark and anything `wkparse fmt` normalises are no difference.
"""

from __future__ import annotations

from wkparse.body import Body
from wkparse.difference.facts import fact_changes
from wkparse.difference.header import header_changes
from wkparse.difference.model import Difference, FactChange, HeaderChange, RowChange, RowsDiff
from wkparse.difference.rows import row_changes
from wkparse.explanation import explain
from wkparse.models.simai.reach import read_view
from wkparse.parse import ParseResult

__all__ = ["Difference", "FactChange", "HeaderChange", "RowChange", "RowsDiff", "diff"]


def diff(a: ParseResult, b: ParseResult, a_path: str = "a", b_path: str = "b") -> Difference:
    """Compare two cleanly parsed files (a file with syntax errors has no meaning to compare)."""
    # the rows SimAI reads, as explain counts them
    wa, wb = read_view(a.workload), read_view(b.workload)
    # explain and the row alignment count each body once between them
    ba, bb = Body(wa), Body(wb)
    return Difference(
        a_path,
        b_path,
        header_changes(wa.header, wb.header),
        fact_changes(  # none of them is AICB's provenance: its inference is left out
            explain(a, a_path, findings=(), body=ba, provenance=False),
            explain(b, b_path, findings=(), body=bb, provenance=False),
        ),
        row_changes(wa, wb, (ba, bb)),
    )
