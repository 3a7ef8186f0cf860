"""The Explanation `wkparse explain` shows for a parsed file, shared by the command and the
Python API (`wkparse.explanation`): lint's findings under the file's configuration with every
opt-in rule, and what AICB's command or the file's name says about it as the first note."""

from __future__ import annotations

from dataclasses import replace

from wkparse.body import Body
from wkparse.config import Config
from wkparse.explanation.facts import explain
from wkparse.explanation.model import Explanation
from wkparse.models.simai.reach import read_view
from wkparse.parse import ParseResult


def explained(
    result: ParseResult,
    path: str | None,
    config: Config,
    aicb_command: str | None = None,
    data: bytes | None = None,
    simai_options: str | None = None,
) -> Explanation:
    """Explain `result` (shown as `path`) under `config`, against `aicb_command` if given;
    with the file's bytes `data`, also what SimAI-Analytical will report (under
    `simai_options`, or wkparse's stated set)."""
    from wkparse.engine import lint
    from wkparse.models.aicb.reading import verdict

    config = replace(config, opt_in=True).with_aicb_command(aicb_command)
    body = Body(read_view(result.workload))  # lint and explain count the same groups
    findings = lint(result, path, config, body=body)
    e = explain(result, path, findings=findings, body=body, aicb_command=aicb_command, data=data)
    if data is not None:
        from wkparse.explanation.simai_report import simai_report
        from wkparse.models.simai.parsed_rows import reusable_rows

        rows = reusable_rows(result, config.limits)  # `result` is the parse of `data`
        simai = simai_report(data, path, simai_options, config.simai_version, rows)
        e = replace(e, simai=simai)
    if aicb_command is not None:
        first: str | None = verdict.against_command(findings, aicb_command)
    else:
        first = verdict.from_name(path)
    if first is None:
        return e
    return replace(e, notes=(first, *e.notes))
