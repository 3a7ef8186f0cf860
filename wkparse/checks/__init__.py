"""Lint checks: small functions that read the AST and yield problems. Nothing here prints.

Two kinds, registered with a decorator naming the codes they can report:
- `@file_check(codes)`: `fn(ctx) -> Iterable[Diagnostic]`, once per file.
- `@row_check(codes, reads=fields)`: `fn(ctx, fields) -> Iterable[RowProblem]`, once per
  distinct combination of the fields it `reads` (names from wkparse.ast.ROW_FIELDS), found
  from the columns in C (`wkparse.columns`); the engine reports each problem on every row
  line whose value has that combination. A check that reads only the comm types runs a
  handful of times even on a million rows that all differ; one that reads numbers that vary
  runs once per value. This is what keeps lint of a million-row file near the cost of
  reading it.
Importing `wkparse.checks.all` registers every check module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property

from wkparse.ast import ROW_FIELDS, Row, RowFields, Workload
from wkparse.body import Body
from wkparse.columns import Columns
from wkparse.diagnostics import Diagnostic, Edit, Fix
from wkparse.i18n import _


@dataclass(frozen=True, slots=True)
class RowProblem:
    code: str
    #: index into wkparse.ast.ROW_FIELDS of the field the problem points at
    field: int
    message: str
    #: replacement text for that field when the fix is mechanical
    replacement: str | None = None
    safe_fix: bool = True


class Context:
    """What a check may read: the file's AST, its name and the facts derived from it."""

    def __init__(
        self, workload: Workload, path: str | None = None, aicb_command: str | None = None
    ) -> None:
        self.workload = workload
        self.path = path
        #: the AICB command line that made the file, when lint was told (the WK6xx checks)
        self.aicb_command = aicb_command

    @cached_property
    def body(self) -> Body:
        return Body(self.workload)

    @cached_property
    def columns(self) -> Columns:
        rows = self.workload.rows
        return Columns(rows.values, rows.refs)


def diagnostics_on_rows(
    ctx: Context, problems_by_value: dict[int, list[RowProblem]]
) -> list[Diagnostic]:
    """Each value's problems reported on every row line that carries the value."""
    out: list[Diagnostic] = []
    if not problems_by_value:
        return out
    rows = ctx.workload.rows
    values = rows.values
    get = problems_by_value.get
    for line, ref in zip(rows.lines, rows.refs):
        problems = get(ref)
        if problems is None:
            continue
        row = Row(line, RowFields(values, ref))
        for p in problems:
            span = row.span(p.field)
            fix = None
            if p.replacement is not None:
                edit = Edit(span, p.replacement)
                fix = Fix(
                    _("replace with {text}").format(text=p.replacement), (edit,), safe=p.safe_fix
                )
            out.append(Diagnostic(p.code, p.message, span, fix=fix))
    return out


FileCheck = Callable[[Context], Iterable[Diagnostic]]
RowCheck = Callable[[Context, RowFields], Iterable[RowProblem]]


@dataclass(frozen=True, slots=True)
class Registered:
    codes: frozenset[str]
    function: FileCheck | RowCheck
    per_row: bool
    #: the row fields a row check reads (it must read no other)
    reads: tuple[str, ...] = ROW_FIELDS


REGISTRY: list[Registered] = []


def file_check(*codes: str) -> Callable[[FileCheck], FileCheck]:
    def register(fn: FileCheck) -> FileCheck:
        REGISTRY.append(Registered(frozenset(codes), fn, per_row=False))
        return fn

    return register


def row_check(*codes: str, reads: Iterable[str] = ROW_FIELDS) -> Callable[[RowCheck], RowCheck]:
    fields = tuple(reads)
    unknown = set(fields) - set(ROW_FIELDS)
    if unknown:
        raise ValueError(f"row_check reads unknown fields: {sorted(unknown)}")

    def register(fn: RowCheck) -> RowCheck:
        REGISTRY.append(Registered(frozenset(codes), fn, per_row=True, reads=fields))
        return fn

    return register
