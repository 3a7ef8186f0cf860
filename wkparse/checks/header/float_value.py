"""WK216 float-value: a header value is written as a float with no fraction; why and examples in
rules/WK216.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import as_float, header_check, replacement, value_reads
from wkparse.diagnostics import Diagnostic
from wkparse.simai.tokens import Reading


@header_check("WK216")
def float_value(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for o in value_reads(r):
        t, res = o.value_token, o.result
        if t is None or res is None or res.value is None or res.whole:
            continue
        if as_float(t.text) != res.value:
            continue
        era = (
            " (AICB writes it so since 2025-01 with sequence parallel)"
            if o.key == "pp_comm"
            else ""
        )
        yield Diagnostic(
            "WK216",
            f"`{o.key}` is written as a float, {t.text}{era}: SimAI's stoi stops at the dot and "
            f"reads {res.value}, the same number; the integer form is what SimAI's reader, "
            f"and any strict one, expects: write {res.value}",
            t.span,
            fix=replacement(f"write {res.value}", t.span, str(res.value)),
        )
