"""What the lint command hands its output formatters, and the interface they share.

As in flake8, a formatter is driven by `start()`, one `handle()` per linted file and `stop()`
with the run's totals; it only formats (the command has already read, linted and counted).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import ClassVar, Protocol

from wkparse.diagnostics import Diagnostic, Severity
from wkparse.record import record


@record
class FileReport:
    #: the path as messages name it (`-` for standard input)
    path: str
    diagnostics: Sequence[Diagnostic]
    #: line number -> source text, for the lines the diagnostics point at (text output only)
    lines: Mapping[int, str] = field(default_factory=dict)
    #: problems `--fix` removed from this file
    fixed: int = 0


@record
class PathProblem:
    path: str
    message: str


@record
class Summary:
    files: int = 0
    #: severity -> number of diagnostics left
    counts: Mapping[Severity, int] = field(default_factory=dict)
    fixed: int = 0
    skipped: int = 0
    #: paths that could not be read or configured (they make the exit code 2)
    problems: Sequence[PathProblem] = ()
    #: whether each skipped file was named already (`--verbose`)
    skipped_listed: bool = True


class Formatter(Protocol):
    #: whether `FileReport.lines` must be filled (reading the source again costs time)
    needs_source: ClassVar[bool]

    def start(self) -> None: ...

    def handle(self, report: FileReport) -> None: ...

    def stop(self, summary: Summary) -> None: ...
