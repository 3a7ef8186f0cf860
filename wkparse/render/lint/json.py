"""`wkparse lint --format json`: one JSON array of every diagnostic of the run.

Each element carries `path`, `line`, `column`, `end_line`, `end_column` (1-based, end
exclusive), `code`, `name` (the rule's catalog name), `severity`, `message`, `fix` (null
when the rule offers none) and `url` (the rule's page; see `help-base-url`). Standard input
is named `-` (or `--stdin-filename`), as in every command. The array is written as files
come in, so memory stays flat.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar, TextIO

from wkparse.ast import Span
from wkparse.catalog import page_uri
from wkparse.diagnostics import Diagnostic, Fix
from wkparse.render.lint.base import FileReport, Summary


def span_fields(span: Span) -> dict[str, int]:
    return {
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
    }


def fix_json(fix: Fix) -> dict[str, Any]:
    return {
        "description": fix.description,
        "safe": fix.safe,
        "edits": [{**span_fields(e.span), "text": e.text} for e in fix.edits],
    }


def diagnostic_json(
    d: Diagnostic, path: str, name: str | None, url: str | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {"path": path, **span_fields(d.span), "code": d.code}
    out["name"] = name
    out["severity"] = None if d.severity is None else str(d.severity)
    out["message"] = d.message
    out["fix"] = None if d.fix is None else fix_json(d.fix)
    if url is not None:
        out["url"] = url
    return out


class JsonFormatter:
    needs_source: ClassVar[bool] = False

    def __init__(self, out: TextIO, names: Mapping[str, str], help_base: str | None = None) -> None:
        self.out = out
        self.names = names
        #: the rule page of each code met, linked from its diagnostics (`url`)
        self.urls = {code: page_uri(code, help_base) for code in names}
        self._separator = "\n  "

    def start(self) -> None:
        self.out.write("[")

    def handle(self, report: FileReport) -> None:
        write, names = self.out.write, self.names
        for d in report.diagnostics:
            write(self._separator)
            url = self.urls.get(d.code)
            write(json.dumps(diagnostic_json(d, report.path, names.get(d.code), url)))
            self._separator = ",\n  "

    def stop(self, summary: Summary) -> None:
        self.out.write("\n]\n" if self._separator != "\n  " else "]\n")
