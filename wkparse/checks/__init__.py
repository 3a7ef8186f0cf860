"""Lint checks: small functions that read the AST and yield problems. Nothing here prints.

Two kinds, registered with a decorator naming the codes they can report:
- `@file_check(codes)`: `fn(ctx) -> Iterable[Diagnostic]`, once per file.
- `@row_check(codes)`: `fn(ctx, fields) -> Iterable[RowProblem]`, once per *distinct* row
  value; the engine reports each problem on every row line that carries that value. This is
  what keeps lint of a million-row file near the cost of reading it.
Importing `wkparse.checks.all` registers every check module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property

from wkparse.ast import RowFields, Workload
from wkparse.body import Body
from wkparse.diagnostics import Diagnostic


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


FileCheck = Callable[[Context], Iterable[Diagnostic]]
RowCheck = Callable[[Context, RowFields], Iterable[RowProblem]]


@dataclass(frozen=True, slots=True)
class Registered:
    codes: frozenset[str]
    function: FileCheck | RowCheck
    per_row: bool


REGISTRY: list[Registered] = []


def file_check(*codes: str) -> Callable[[FileCheck], FileCheck]:
    def register(fn: FileCheck) -> FileCheck:
        REGISTRY.append(Registered(frozenset(codes), fn, per_row=False))
        return fn

    return register


def row_check(*codes: str) -> Callable[[RowCheck], RowCheck]:
    def register(fn: RowCheck) -> RowCheck:
        REGISTRY.append(Registered(frozenset(codes), fn, per_row=True))
        return fn

    return register
