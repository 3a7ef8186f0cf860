"""WK213 pp-comm-without-pipeline: pp_comm is not 0 although there is only one pipeline stage; why
and examples in rules/WK213.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import MISMATCH, header_check, last_int, replacement
from wkparse.diagnostics import Diagnostic
from wkparse.simai.tables import TRANSFORMER_POLICIES
from wkparse.simai.tokens import Reading


@header_check("WK213", TRANSFORMER_POLICIES)
def pp_comm_without_pipeline(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    pp, read = r.value("pp"), last_int(r, "pp_comm")
    if pp != 1 or read is None or read.value == 0:
        return
    span = read.token.span
    yield Diagnostic(
        "WK213",
        f"pp is 1 but pp_comm is {read.token.text}: with one stage nothing crosses "
        f"stages, SimAI's format check expects 0 and prints {MISMATCH}; AICB wrote this "
        f"between 2024-12-02 and 2024-12-04; set pp_comm: 0",
        span,
        fix=replacement("set pp_comm to 0", span, "0", safe=False),
    )
