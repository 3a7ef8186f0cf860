"""The file as SimAI reads it: a model of SimAI's reader and of what its analytical backend
takes from each layer, checked against runs of the real SimAI (aliyun/SimAI cef83f9).

- `wkparse.cpp` (below the parser, which reads line 2 with the same `stoi`): the C++
  library behaviour it rests on (`std::stoi`, `>>`, float scaling);
- `tables`: SimAI's policies, collective types and groups (the one copy in wkparse);
- `header`: line 1 (`read_header`); `tokens`: that reading placed on the parsed header, and
  `header_value`, the one reading of a header key that lint, explain, diff and JSON share;
- `parallel`: the data-parallel size SimAI-Analytical computes; `rows`: line 2 and the rows;
- `analytical`: group sizes, the small-message rule, what is simulated;
- `run`: one whole run (`simulate`), `outcome`: how it ends. `run` (and the analytical model
  under it) is imported when first asked for: parsing and linting read only the C++ rules,
  the tables and line 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wkparse.cpp import Stoi, stoi
from wkparse.models.simai.header import HeaderReading, first_line, read_header
from wkparse.models.simai.tokens import header_value

if TYPE_CHECKING:
    from wkparse.models.simai.run import SimaiRun, simulate

__all__ = [
    "HeaderReading",
    "SimaiRun",
    "Stoi",
    "first_line",
    "header_value",
    "read_header",
    "simulate",
    "stoi",
]


def __getattr__(name: str) -> Any:
    if name in ("SimaiRun", "simulate"):
        from wkparse.models.simai import run

        return getattr(run, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
