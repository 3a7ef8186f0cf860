"""WK209 zero-or-negative-size: tP, EP, PP, vpp or ga is zero or negative; why and examples in
rules/WK209.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import (
    SIZE_KEYS,
    header_check,
    last_int,
    short_effect,
)
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tables import TRANSFORMER_POLICIES
from wkparse.models.simai.tokens import Reading


@header_check("WK209", TRANSFORMER_POLICIES)
def zero_or_negative_size(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for key in SIZE_KEYS[:-1]:
        read = last_int(r, key)
        if read is None or read.value > 0:
            continue
        value = read.value
        yield Diagnostic(
            "WK209",
            _("{key} is {value}, not at least 1: SimAI {effect}").format(
                key=key, value=value, effect=short_effect(key, value, ctx.target == "simai-ns3")
            ),
            read.token.span,
        )
    read = last_int(r, "pp_comm")
    if read is not None and read.value < 0:
        value = read.value
        yield Diagnostic(
            "WK209",
            _("pp_comm is {value}: SimAI's 32-bit unsigned read makes it {bytes} bytes").format(
                value=value, bytes=f"{value % 2**32:,}"
            ),
            read.token.span,
        )
