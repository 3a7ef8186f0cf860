"""Diagnostics: what every stage (parser, lint rules, CLI) reports, as plain data."""

from __future__ import annotations

import enum
from dataclasses import replace

from wkparse.ast import Span
from wkparse.record import record


class Severity(enum.IntEnum):
    """Ordered so that the exit code can follow the highest one seen."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        return cls[text.strip().upper()]


@record
class Edit:
    """Replace `span` (one line, end exclusive) with `text`; a fix is a set of edits."""

    span: Span
    text: str


@record
class Fix:
    description: str
    edits: tuple[Edit, ...]
    #: an unsafe fix changes what the file means (e.g. setting `ga` to the groups counted)
    safe: bool = True


@record
class Diagnostic:
    code: str
    message: str
    span: Span
    #: None until the engine applies the catalog's default and the user's configuration
    severity: Severity | None = None
    path: str | None = None
    fix: Fix | None = None

    def with_(self, **changes: object) -> Diagnostic:
        return replace(self, **changes)  # type: ignore[arg-type]

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path or "", self.span.line, self.span.column, self.code)
