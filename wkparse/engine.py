"""The lint engine: run every enabled check over one parsed file; row checks over columns.

It attaches severities (catalog default, then configuration) and the path; it never prints.
"""

from __future__ import annotations

from wkparse import checks
from wkparse.ast import ROW_FIELDS, RowFields
from wkparse.body import Body
from wkparse.catalog import summaries
from wkparse.checks import Context, FileCheck, RowCheck, RowProblem
from wkparse.config import Config
from wkparse.diagnostics import Diagnostic, Severity
from wkparse.parse import ParseResult
from wkparse.syntax import PARSER_CODES


def lint(
    result: ParseResult,
    path: str | None = None,
    config: Config | None = None,
    *,
    body: Body | None = None,
) -> list[Diagnostic]:
    """Every enabled check's findings on `result`; `body`: the file's `Body`, when the caller
    has one (explain counts the same groups)."""
    config = config or Config()
    # The parser's findings reach the output through their rules (wkparse.checks.structure),
    # so a parser code is selected, ignored and counted like every other.
    ctx = Context(
        result.workload,
        path,
        config.aicb_command_for(path),
        result.diagnostics,
        config.simai_version,
        config.target,
    )
    if body is not None:
        ctx.body = body
    found: list[Diagnostic] = []
    # Without per-file ignores the answer is the same for every path, and asking with None
    # lets the config's memo serve every file of a run instead of starting over for each.
    where = path if config.per_file_ignores else None
    # A parser code's rule hands on what the parser found: none found, nothing to load.
    parsed = {d.code for d in result.diagnostics}
    checks.load(
        code
        for code in summaries()
        if config.enabled(code, where) and (code in parsed or code not in PARSER_CODES)
    )
    active = [r for r in checks.REGISTRY if any(config.enabled(c, where) for c in r.codes)]
    for registered in active:
        if not registered.per_row:
            fn: FileCheck = registered.function  # type: ignore[assignment]
            found.extend(fn(ctx))
    row_checks = [r for r in active if r.per_row]
    if row_checks:
        found.extend(_run_row_checks(ctx, row_checks))
    pages = summaries()
    out = []
    for d in found:
        if not config.enabled(d.code, path):
            continue
        page = pages.get(d.code)
        # a check may state its own default for one kind of finding (WK105 on notes)
        default = d.severity or (page.severity if page else Severity.ERROR)
        out.append(d.with_(severity=config.severity_of(d.code, default), path=path))
    out.sort(key=Diagnostic.sort_key)
    return out


def _run_row_checks(ctx: Context, row_checks: list[checks.Registered]) -> list[Diagnostic]:
    values = ctx.workload.rows.values
    problems_by_value: dict[int, list[RowProblem]] = {}
    for registered in row_checks:
        if registered.when is not None and not registered.when(ctx):
            continue  # it can find nothing here: no grouping, no call per group
        fn: RowCheck = registered.function  # type: ignore[assignment]
        grouping = ctx.columns.group(
            [ROW_FIELDS.index(name) for name in registered.reads], whole=True
        )
        bad: dict[int, list[RowProblem]] = {}
        for group, index in enumerate(grouping.first):
            problems = list(fn(ctx, RowFields(values, index)))
            if problems:
                bad[group] = problems
        for index, group in grouping.members(bad):
            problems_by_value.setdefault(index, []).extend(bad[group])
        # Values the columns cannot hold whole are checked one by one.
        for index in values.partial:
            problems = list(fn(ctx, RowFields(values, index)))
            if problems:
                problems_by_value.setdefault(index, []).extend(problems)
    return checks.diagnostics_on_rows(ctx, problems_by_value)


def worst(diagnostics: list[Diagnostic]) -> Severity | None:
    return max((d.severity for d in diagnostics if d.severity is not None), default=None)


def known_codes() -> frozenset[str]:
    """Every code a run can report: the catalog's (every registered rule, the parser's among
    them, has a page: tests/test_rule_layout.py) and those of the rules registered so far."""
    registered = set().union(*(r.codes for r in checks.REGISTRY))
    return frozenset(registered | set(summaries()))
