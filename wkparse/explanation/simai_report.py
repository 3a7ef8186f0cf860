"""Explain's "What SimAI-Analytical will report": the run `wkparse simai` predicts, under a
stated option set (`-g` = all_gpus, `-g_p_s 8 -n_p_s 8`, SimAI's default bandwidths) or the
user's own (`--simai-options`), in the few numbers a reader wants: how the run ends, Total
time, where the time goes, and why a total is NaN/Inf or absurd."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from wkparse.explanation.model import SimaiReport
from wkparse.parse import STDIN_NAME

if TYPE_CHECKING:
    from wkparse.ast import RowTable
    from wkparse.models.simai.options import Refusal, SimaiOptions
    from wkparse.models.simai.run import SimaiRun
    from wkparse.models.simai.versions import SimaiVersion


def simai_run(
    data: bytes,
    path: str | None,
    options: str | None = None,
    version: SimaiVersion | None = None,
    rows: RowTable | None = None,
) -> tuple[SimaiRun, SimaiOptions | Refusal]:
    """The backend model's run of `data` (named `path`) under `options` (SimAI's own words,
    or None for the stated set), and the options it ran with. `wkparse diff` reuses it, so
    both commands predict under the same stated set. `rows`: the parser's rows of `data`
    (default limits) when the caller has parsed it, so that the model need not again."""
    from wkparse.models.simai import simulate
    from wkparse.models.simai.options import options_for, split_command

    words = split_command(options or "")
    name = Path(path if path and path not in ("-", STDIN_NAME) else "workload.txt")
    from wkparse.models.simai.versions import DEFAULT

    at = version or DEFAULT
    opts = options_for(name, data, None, words, at)
    return simulate(data, None, opts, at, rows), opts


def simai_report(
    data: bytes,
    path: str | None,
    options: str | None = None,
    version: SimaiVersion | None = None,
    rows: RowTable | None = None,
) -> SimaiReport:
    """The backend model's run of `data` (named `path`) under `options` (SimAI's own words,
    or None for the stated set); `rows` as for `simai_run`."""
    from wkparse.models.simai.options import Refusal, split_command
    from wkparse.models.simai.reasons import ending, why

    words = split_command(options or "")
    run, opts = simai_run(data, path, options, version, rows)
    o = ending(run)
    line = None
    if o.layer is not None and run.rows is not None:
        line = run.rows.layers.line(o.layer)
    shown = "" if isinstance(opts, Refusal) else " ".join(_without_names(opts.given))
    report = run.report
    totals: dict[str, float] = {}
    reason = None
    if report is not None:
        totals = dict(report.totals)
        reason = why(run, report)
    return SimaiReport(
        options=shown,
        stated=not words,
        kind=o.kind,
        exit_code=o.exit_code,
        message=o.message,
        layer=o.layer,
        line=line,
        totals=totals,
        summary=None if report is None else report.summary,
        reason=reason,
        warnings=run.option_warnings,
        simai=run.version.label,
    )


def _without_names(words: tuple[str, ...]) -> list[str]:
    """SimAI's options without -w and -r (the file and result names say nothing of the run)."""
    out: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word in ("-w", "--workload", "-r", "--result"):
            skip = True
        else:
            out.append(word)
    return out
