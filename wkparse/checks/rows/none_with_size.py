"""WK406 none-with-size: a NONE comm type with a size; why and examples in rules/WK406.toml."""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import Phase
from wkparse.checks import Context, file_check
from wkparse.checks.rows.fields import COLUMN, SIZE_FIELD
from wkparse.checks.rows.patterns import phase_patterns, where
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _


@file_check("WK406")
def none_with_size(ctx: Context) -> Iterator[Diagnostic]:
    def none_sized(phase: str, p: Phase) -> str | None:
        return phase if p.comm is not None and p.comm.startswith("NONE") and p.size else None

    for phase, pattern in phase_patterns(ctx, none_sized).items():
        size = pattern.first.fields.phase(phase).size
        yield Diagnostic(
            "WK406",
            _("NONE with a size ({size} bytes) {column} {where}: SimAI ignores the size").format(
                size=size, column=_(COLUMN[phase]), where=where(pattern)
            ),
            pattern.first.span(SIZE_FIELD[phase]),
        )
