"""`wkparse lint --format github`: GitHub Actions workflow commands, one per diagnostic.

`::error file=F,line=L,col=C,endLine=E,endColumn=EC,title=WK105::message` makes GitHub show
the message on that line of the pull request. Values are escaped as the runner expects:
`%`, CR and LF everywhere, and also `:` and `,` inside the properties.
"""

from __future__ import annotations

from typing import ClassVar, TextIO

from wkparse.diagnostics import Diagnostic, Severity
from wkparse.render.lint.base import FileReport, Summary

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(d: Diagnostic, path: str) -> str:
    span = d.span
    props = [f"file={escape_property(path)}", f"line={span.line}"]
    # GitHub only honours columns on a one-line annotation.
    if span.end_line == span.line:
        props.append(f"col={span.column}")
    props.append(f"endLine={span.end_line}")
    if span.end_line == span.line:
        props.append(f"endColumn={span.end_column}")
    props.append(f"title={escape_property(d.code)}")
    command = COMMANDS.get(d.severity or Severity.ERROR, "error")
    return f"::{command} {','.join(props)}::{escape_data(d.message)}\n"


class GithubFormatter:
    needs_source: ClassVar[bool] = False

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def start(self) -> None:
        pass

    def handle(self, report: FileReport) -> None:
        self.out.write("".join(annotation(d, report.path) for d in report.diagnostics))

    def stop(self, summary: Summary) -> None:
        # A path that could not be read fails the run: say so where the run's log shows it.
        for problem in summary.problems:
            props = f"file={escape_property(problem.path)},title=unreadable"
            self.out.write(f"::error {props}::{escape_data(problem.message)}\n")
