"""WK208 value-overflow: a header value is larger than 2,147,483,647; why and examples in
rules/WK208.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import header_check, value_reads
from wkparse.diagnostics import Diagnostic
from wkparse.simai.tokens import Reading


@header_check("WK208")
def value_overflow(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for o in value_reads(r):
        if o.result is not None and o.result.error == "out_of_range" and o.value_token:
            stored = " (and SimAI stores pp_comm in 32 bits)" if o.key == "pp_comm" else ""
            yield Diagnostic(
                "WK208",
                f"`{o.key}` is {o.value_token.text}, over 2,147,483,647: SimAI reads it with "
                f"stoi, which throws std::out_of_range, and it crashes{stored}; it must fit a "
                f"32-bit signed integer",
                o.value_token.span,
            )
