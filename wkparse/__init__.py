"""wkparse: parse, lint, explain and format SimAI workload files.

The Python API (`wkparse.api`): `lint`, `explain`, `simai`, `aicb` and `diff` take a file's
path, text or bytes and return what the command's JSON renders (`triage` takes an issue's
text); `parse_file`, `parse_text`
and `parse_bytes` give the syntax tree. Importing `wkparse` loads only the parser's entry
points: each API function imports what it needs when called.
"""

from __future__ import annotations

import sys
import types
from typing import Any

#: the API functions named like subpackages (`wkparse.explain` is also `wkparse/explain/`)
_FUNCTIONS = frozenset({"aicb", "diff", "explain", "simai", "triage"})


class _Package(types.ModuleType):
    """`wkparse` itself. Importing a subpackage sets it as an attribute of its parent, which
    would replace the API function of the same name (`wkparse.explain` the function by the
    package `wkparse.explain` once anything imported that package): the functions stay.
    The subpackages are still imported by name (`from wkparse.explain import ...`)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _FUNCTIONS and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


# First, before any subpackage is imported below.
sys.modules[__name__].__class__ = _Package

from wkparse.api import (  # noqa: E402
    Source,
    WorkloadSyntaxError,
    aicb,
    diff,
    explain,
    lint,
    simai,
    triage,
)
from wkparse.parse import Limits, ParseResult, parse_bytes, parse_file, parse_text  # noqa: E402

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
