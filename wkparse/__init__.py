"""wkparse: parse, lint, explain and format SimAI workload files.

The Python API (`wkparse.api`): `lint`, `explain`, `simai`, `aicb` and `diff` take a file's
path, text or bytes and return what the command's JSON renders (`triage` takes an issue's
text); `parse_file`, `parse_text` and `parse_bytes` give the syntax tree. Importing
`wkparse` loads only the parser's entry points: each API function imports what it needs when
called.
"""

from __future__ import annotations

from wkparse.api import (
    Source,
    WorkloadSyntaxError,
    aicb,
    diff,
    explain,
    lint,
    simai,
    triage,
)
from wkparse.parse import Limits, ParseResult, parse_bytes, parse_file, parse_text

__version__ = "0.1.0"
__all__ = [
    "Limits",
    "ParseResult",
    "Source",
    "WorkloadSyntaxError",
    "__version__",
    "aicb",
    "diff",
    "explain",
    "lint",
    "parse_bytes",
    "parse_file",
    "parse_text",
    "simai",
    "triage",
]
