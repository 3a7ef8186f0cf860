"""The file as SimAI reads it: a model of SimAI's reader and of what its analytical backend
takes from each layer, checked against runs of the real SimAI (aliyun/SimAI cef83f9).

- `cpp`: the C++ library behaviour it rests on (`std::stoi`, `>>`, float scaling);
- `tables`: SimAI's policies, collective types and groups (the one copy in wkparse);
- `header`: line 1 (`read_header`), `rows`: line 2 and the rows;
- `analytical`: group sizes, the small-message rule, what is simulated;
- `run`: one whole run (`simulate`), `outcome`: how it ends. `run` (and the analytical model
  under it) is imported when first asked for: parsing and linting read only the C++ rules,
  the tables and line 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wkparse.simai.cpp import Stoi, stoi
from wkparse.simai.header import HeaderReading, first_line, read_header

if TYPE_CHECKING:
    from wkparse.simai.run import SimaiRun, simulate

__all__ = [
    "HeaderReading",
    "SimaiRun",
    "Stoi",
    "first_line",
    "read_header",
    "simulate",
    "stoi",
]


def __getattr__(name: str) -> Any:
    if name in ("SimaiRun", "simulate"):
        from wkparse.simai import run

        return getattr(run, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
