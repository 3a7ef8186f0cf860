"""The lint engine: run every enabled check over one parsed file, in one pass over its rows.

It attaches severities (catalog default, then configuration) and the path; it never prints.
"""

from __future__ import annotations

from wkparse import checks
from wkparse.ast import Row
from wkparse.catalog import catalog
from wkparse.checks import Context, FileCheck, RowCheck
from wkparse.config import Config
from wkparse.diagnostics import Diagnostic, Edit, Fix, Severity
from wkparse.parse import ParseResult


def lint(
    result: ParseResult, path: str | None = None, config: Config | None = None
) -> list[Diagnostic]:
    import wkparse.checks.all  # noqa: F401  (registers the checks)

    config = config or Config()
    ctx = Context(result.workload, path, config.aicb_command_for(path))
    found: list[Diagnostic] = list(result.diagnostics)
    # Without per-file ignores the answer is the same for every path, and asking with None
    # lets the config's memo serve every file of a run instead of starting over for each.
    where = path if config.per_file_ignores else None
    active = [r for r in checks.REGISTRY if any(config.enabled(c, where) for c in r.codes)]
    for registered in active:
        if not registered.per_row:
            fn: FileCheck = registered.function  # type: ignore[assignment]
            found.extend(fn(ctx))
    row_checks: list[RowCheck] = [r.function for r in active if r.per_row]  # type: ignore[misc]
    if row_checks:
        found.extend(_run_row_checks(ctx, row_checks))
    pages = catalog()
    out = []
    for d in found:
        if not config.enabled(d.code, path):
            continue
        page = pages.get(d.code)
        default = page.severity if page else Severity.ERROR
        out.append(d.with_(severity=config.severity_of(d.code, default), path=path))
    out.sort(key=Diagnostic.sort_key)
    return out


def _run_row_checks(ctx: Context, row_checks: list[RowCheck]) -> list[Diagnostic]:
    rows = ctx.workload.rows
    problems_by_value = {}
    for fields in ctx.body.distinct_fields:
        problems = [p for check in row_checks for p in check(ctx, fields)]
        if problems:
            problems_by_value[id(fields)] = problems
    out: list[Diagnostic] = []
    if not problems_by_value:
        return out
    for line, fields in zip(rows.lines, rows.fields):
        for p in problems_by_value.get(id(fields), ()):
            span = Row(line, fields).span(p.field)
            fix = None
            if p.replacement is not None:
                fix = Fix(
                    f"replace with {p.replacement}", (Edit(span, p.replacement),), safe=p.safe_fix
                )
            out.append(Diagnostic(p.code, p.message, span, fix=fix))
    return out


def worst(diagnostics: list[Diagnostic]) -> Severity | None:
    return max((d.severity for d in diagnostics if d.severity is not None), default=None)


def known_codes() -> frozenset[str]:
    """Every code a run can report: the checks', the parser's and the catalog's."""
    import wkparse.checks.all  # noqa: F401  (registers the checks)
    from wkparse import syntax

    parser_codes = {
        v for k, v in vars(syntax).items() if k.isupper() and isinstance(v, str) and v[:2] == "WK"
    }
    registered = set().union(*(r.codes for r in checks.REGISTRY))
    return frozenset(registered | parser_codes | set(catalog()))
