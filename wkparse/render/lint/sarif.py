"""`wkparse lint --format sarif`: SARIF 2.1.0, the format GitHub code scanning reads.

The driver lists every catalog rule (id, name, descriptions, help, default level); each
result points at its rule by id and index, with a region in wkparse's own coordinates:
1-based columns with an exclusive end are SARIF's convention too, and columns count code
points (`columnKind: unicodeCodePoints`). Fixes become SARIF fixes. Each rule links its
page (`helpUri`, under `help-base-url` when configured) and each result carries a
`partialFingerprints` entry so code scanning keeps distinct findings apart. Results are streamed;
the driver is written after them, once every code seen is known.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any, ClassVar, TextIO
from urllib.parse import quote

from wkparse.ast import Span
from wkparse.catalog import RulePage, page_uri
from wkparse.diagnostics import Diagnostic, Fix, Severity
from wkparse.i18n import _
from wkparse.render.lint.base import FileReport, Summary

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def uri(path: str) -> str:
    """A URI reference for a path: relative paths stay relative (code scanning wants that)."""
    if os.path.isabs(path):
        return PurePath(path).as_uri()
    # fsencode gives back the bytes of a name that is not valid UTF-8 (surrogate escapes).
    return quote(os.fsencode(path.replace("\\", "/")))


#: a UTF-8 byte order mark, as a byte region (it has no column: the text starts after it)
BOM_REGION = {"byteOffset": 0, "byteLength": 3}


def region(span: Span) -> dict[str, int]:
    return {
        "startLine": span.line,
        "startColumn": span.column,
        "endLine": span.end_line,
        "endColumn": span.end_column,
    }


def edit_region(span: Span) -> dict[str, int]:
    """Where a fix edit applies; column 0 of line 1 is the byte order mark (see wkparse.fix)."""
    if span.column == 0:
        return BOM_REGION
    return region(span)


def fingerprint(d: Diagnostic, path: str) -> str:
    """Tells findings apart for code scanning: two findings of one rule on one line differ by
    column or message, and one finding keeps its print from run to run."""
    key = f"{d.code}\0{path}\0{d.span.line}:{d.span.column}\0{d.message}"
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def rule_json(page: RulePage, base: str | None = None) -> dict[str, Any]:
    help_text = f"{page.why}\n\nFix: {page.fix}"
    return {
        "id": page.code,
        "name": page.name,
        "helpUri": page_uri(page.code, base),
        "shortDescription": {"text": page.summary},
        "fullDescription": {"text": page.what},
        "help": {"text": help_text, "markdown": f"{page.why}\n\n**Fix:** {page.fix}"},
        "defaultConfiguration": {"level": LEVELS[page.severity]},
        "properties": {"tags": [page.area], "fixable": page.fixable},
    }


def fix_json(fix: Fix, location: dict[str, str]) -> dict[str, Any]:
    return {
        "description": {"text": fix.description},
        "artifactChanges": [
            {
                "artifactLocation": location,
                "replacements": [
                    {"deletedRegion": edit_region(e.span), "insertedContent": {"text": e.text}}
                    for e in fix.edits
                ],
            }
        ],
    }


class SarifFormatter:
    needs_source: ClassVar[bool] = False

    def __init__(
        self,
        out: TextIO,
        pages: Mapping[str, RulePage],
        version: str,
        help_base: str | None = None,
    ) -> None:
        self.out = out
        self.version = version
        self.rules: list[dict[str, Any]] = [rule_json(p, help_base) for p in pages.values()]
        self.index = {r["id"]: i for i, r in enumerate(self.rules)}
        self._separator = ""

    def start(self) -> None:
        head = {"$schema": SCHEMA, "version": "2.1.0"}
        self.out.write(json.dumps(head)[:-1])
        self.out.write(', "runs": [{"columnKind": "unicodeCodePoints", "results": [')

    def handle(self, report: FileReport) -> None:
        location = {"uri": uri(report.path)}
        for d in report.diagnostics:
            self.out.write(self._separator)
            result = self._result(d, location)
            result["partialFingerprints"] = {"wkparse/v1": fingerprint(d, report.path)}
            self.out.write(json.dumps(result))
            self._separator = ", "

    def _result(self, d: Diagnostic, location: dict[str, str]) -> dict[str, Any]:
        if d.code not in self.index:
            # A code without a catalog page still needs a rule entry to point at.
            self.index[d.code] = len(self.rules)
            self.rules.append({"id": d.code})
        result: dict[str, Any] = {
            "ruleId": d.code,
            "ruleIndex": self.index[d.code],
            "level": LEVELS[d.severity or Severity.ERROR],
            "message": {"text": d.message},
            "locations": [
                {"physicalLocation": {"artifactLocation": location, "region": region(d.span)}}
            ],
        }
        # SARIF's fixes replace regions; the whole-file conversions (WK119, WK120) have none.
        if d.fix is not None and d.fix.edits:
            result["fixes"] = [fix_json(d.fix, location)]
        return result

    def stop(self, summary: Summary) -> None:
        # The titles in the run's language, as its messages (the pages' texts are English).
        rules = [
            {**r, "shortDescription": {"text": _(r["shortDescription"]["text"])}}
            if "shortDescription" in r
            else r
            for r in self.rules
        ]
        driver = {
            "name": "wkparse",
            "version": self.version,
            "semanticVersion": self.version,
            "rules": rules,
        }
        invocation = {
            "executionSuccessful": not summary.problems,
            "toolExecutionNotifications": [
                {
                    "level": "error",
                    "message": {"text": f"{p.path}: {p.message}"},
                    "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri(p.path)}}}],
                }
                for p in summary.problems
            ],
        }
        self.out.write(f'], "tool": {{"driver": {json.dumps(driver)}}}, ')
        self.out.write(f'"invocations": [{json.dumps(invocation)}]}}]}}\n')
