"""`wkparse lint --statistics`: how often each code was found, instead of each finding.

Text: one line per code, most frequent first (`count  code  [*] name`, `[*]` when a fix is
offered), as ruff prints it; with `--format json`, a list of {code, name, count, fixable}.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, TextIO

from wkparse.render.lint.base import FileReport, Summary

if TYPE_CHECKING:
    from wkparse.catalog import RulePage


class StatisticsFormatter:
    needs_source: ClassVar[bool] = False

    def __init__(self, out: TextIO, pages: Mapping[str, RulePage], *, as_json: bool) -> None:
        self.out = out
        self.pages = pages
        self.as_json = as_json
        self.counts: Counter[str] = Counter()
        self.fixable: set[str] = set()

    def start(self) -> None:
        pass

    def handle(self, report: FileReport) -> None:
        for d in report.diagnostics:
            self.counts[d.code] += 1
            if d.fix is not None:
                self.fixable.add(d.code)

    def stop(self, summary: Summary) -> None:
        rows = sorted(self.counts.items(), key=lambda item: (-item[1], item[0]))
        if self.as_json:
            listed = [
                {"code": c, "name": self._name(c), "count": n, "fixable": c in self.fixable}
                for c, n in rows
            ]
            self.out.write(json.dumps(listed, indent=2) + "\n")
            return
        width = max((len(f"{n:,}") for _, n in rows), default=1)
        for code, n in rows:
            mark = "[*] " if code in self.fixable else ""
            self.out.write(f"{n:>{width},}\t{code}\t{mark}{self._name(code)}\n")

    def _name(self, code: str) -> str:
        page = self.pages.get(code)
        return page.name if page else code
