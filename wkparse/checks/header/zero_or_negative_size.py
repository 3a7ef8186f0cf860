"""WK209 zero-or-negative-size: tP, EP, PP, vpp or ga is zero or negative; why and examples in
rules/WK209.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import (
    MISMATCH,
    ROLES,
    SIZE_KEYS,
    header_check,
    last_int,
    layout_effect,
)
from wkparse.diagnostics import Diagnostic
from wkparse.simai.tables import TRANSFORMER_POLICIES
from wkparse.simai.tokens import Reading


@header_check("WK209", TRANSFORMER_POLICIES)
def zero_or_negative_size(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for key in SIZE_KEYS[:-1]:
        read = last_int(r, key)
        if read is None or read.value > 0:
            continue
        value = read.value
        effect = layout_effect(key, value)
        if key == "ga" and value == 0:
            effect += " (AICB floors ga to 0 when the global batch is below mbs x DP)"
        elif key == "vpp" and value == 0:
            effect += " (AICB floors vpp to 0 when PP exceeds the layer count)"
        warned = f"SimAI prints {MISMATCH} and " if value == 0 else "SimAI "
        yield Diagnostic(
            "WK209",
            f"{key} ({ROLES[key]}) is {value}: {warned}{effect}; it must be at least 1",
            read.token.span,
        )
    read = last_int(r, "pp_comm")
    if read is not None and read.value < 0:
        value = read.value
        yield Diagnostic(
            "WK209",
            f"pp_comm is {value}: SimAI stores it as a 32-bit unsigned integer, so it becomes "
            f"{value % 2**32:,} bytes; it must be 0 or the bytes sent between stages",
            read.token.span,
        )
