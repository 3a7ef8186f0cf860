"""Lint configuration: which codes run, at what severity, for which files.

Selection follows flake8 and ruff: `select` and `ignore` take codes or code prefixes
(`WK2` is every header rule), and the longest matching prefix decides.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field

from wkparse.diagnostics import Severity


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] = ("WK",)
    ignore: tuple[str, ...] = ()
    #: glob pattern -> codes or prefixes ignored in matching files
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: code or prefix -> severity that replaces the catalog's default
    severity: dict[str, Severity] = field(default_factory=dict)
    max_bytes: int = 2 * 1024**3
    max_line_bytes: int = 65536

    def enabled(self, code: str, path: str | None = None) -> bool:
        ignore = list(self.ignore)
        if path is not None:
            normalized = path.replace("\\", "/")
            for pattern, codes in self.per_file_ignores.items():
                if fnmatch.fnmatch(normalized, pattern) or fnmatch.fnmatch(
                    normalized.rsplit("/", 1)[-1], pattern
                ):
                    ignore.extend(codes)
        selected = max((len(p) for p in self.select if code.startswith(p)), default=-1)
        ignored = max((len(p) for p in ignore if code.startswith(p)), default=-1)
        return selected > ignored

    def severity_of(self, code: str, default: Severity) -> Severity:
        best = max((p for p in self.severity if code.startswith(p)), key=len, default=None)
        return self.severity[best] if best is not None else default
