"""WK405 zero-size-collective: a collective of 0 bytes; why and examples in rules/WK405.toml."""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import Phase
from wkparse.checks import Context, file_check
from wkparse.checks.rows.fields import COLUMN, SIZE_FIELD
from wkparse.checks.rows.patterns import phase_patterns, where
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tables import COLLECTIVES


@file_check("WK405")
def zero_size_collective(ctx: Context) -> Iterator[Diagnostic]:
    def zero_collective(phase: str, p: Phase) -> str | None:
        return f"{phase} {p.comm}" if p.comm in COLLECTIVES and p.size == 0 else None

    for key, pattern in phase_patterns(ctx, zero_collective).items():
        comm = key.split(" ", 1)[1]
        yield Diagnostic(
            "WK405",
            _("{comm} of 0 bytes {column} {where}: SimAI simulates no traffic for it").format(
                comm=comm, column=_(COLUMN[pattern.phase]), where=where(pattern)
            ),
            pattern.first.span(SIZE_FIELD[pattern.phase]),
        )
