"""Lint checks: small functions that read the AST and yield problems. Nothing here prints.

Every rule lives in its own module `wkparse/checks/<area>/<name>.py` with one function
`<name>`, both named after its catalog page (`rules/WK105.toml`, area `structure`, name
`count-mismatch`: `wkparse/checks/structure/count_mismatch.py`, function `count_mismatch`);
what several rules of an area share sits in a helper module of that area, named for what it
holds. tests/test_rule_layout.py holds every registered rule to this.

Two kinds, registered with a decorator naming the code they report:
- `@file_check(codes)`: `fn(ctx) -> Iterable[Diagnostic]`, once per file. The parser's codes
  (WK100-WK104, WK110-WK121) are file checks too: the parser finds them as it reads, and each
  rule's function hands on what it found (`Context.parsed`).
- `@row_check(codes, reads=fields)`: `fn(ctx, fields) -> Iterable[RowProblem]`, once per
  distinct combination of the fields it `reads` (names from wkparse.ast.ROW_FIELDS), found
  from the columns in C (`wkparse.columns`); the engine reports each problem on every row
  line whose value has that combination. A check that reads only the comm types runs a
  handful of times even on a million rows that all differ; one that reads numbers that vary
  runs once per value. This is what keeps lint of a million-row file near the cost of
  reading it. `when=fn(ctx) -> bool`, asked once per file, skips the check (and its
  grouping) where it cannot find anything: a check of numbers that vary per row would
  otherwise run once per row.
Importing `wkparse.checks.all` registers every check module; lint imports only the modules
of the rules it runs (`load`), each found from its page as above (`rule_module`), so that a
run pays for no rule it leaves off (the WK8xx rules and their ns-3 model, under the default
target) and an area's package registers nothing by itself.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Sequence
from functools import cached_property

from wkparse import syntax
from wkparse.ast import ROW_FIELDS, Row, RowFields, Workload
from wkparse.body import Body
from wkparse.columns import Columns, columns_of
from wkparse.diagnostics import Diagnostic, Edit, Fix
from wkparse.i18n import _
from wkparse.models.simai.reach import foreign_width, reach, read_view, width
from wkparse.models.simai.versions import DEFAULT, SimaiVersion
from wkparse.record import record


@record
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
        self,
        workload: Workload,
        path: str | None = None,
        aicb_command: str | None = None,
        parsed: Sequence[Diagnostic] = (),
        simai: SimaiVersion | None = None,
        target: str = "simai",
    ) -> None:
        #: the file as written, every line after line 2 a row
        self.file = workload
        #: the rows SimAI reads (`wkparse.models.simai.reach`): the body every check counts
        self.workload = read_view(workload)
        self.path = path
        #: the AICB command line that made the file, when lint was told (the WK6xx checks)
        self.aicb_command = aicb_command
        self._parsed = parsed
        #: the SimAI the checks speak for (`--at`, `simai = "REV"`; default cef83f9)
        self.simai = simai or DEFAULT
        #: the backend the checks speak for (`--target`): a consequence is worded for it
        self.target = target

    @cached_property
    def _parsed_by_code(self) -> dict[str, list[Diagnostic]]:
        by_code: dict[str, list[Diagnostic]] = {}
        for d in self._parsed:
            by_code.setdefault(d.code, []).append(d)
        return by_code

    def parsed(self, code: str) -> list[Diagnostic]:
        """The parser's diagnostics of `code` for this file (the parser rules hand them on),
        but those on lines SimAI never reads: below the rows it reads, a cut-off last row
        (WK105 tells it), and extra tokens after the last field it reads."""
        found = self._parsed_by_code.get(code, [])
        if not found:
            return found
        if self.foreign_width is not None:
            return self._foreign(code, found)
        return [d for d in found if d.span.line <= self._last_read_line(code)]

    @cached_property
    def foreign_width(self) -> int | None:
        """The fields of every row when it is not SimAI's width (`reach.foreign_width`)."""
        return foreign_width(self.file)

    def _foreign(self, code: str, found: list[Diagnostic]) -> list[Diagnostic]:
        """One finding for a file whose every row has another width: the first row's, saying
        so; none of the row errors that follow from it."""
        if code not in (syntax.MISSING_FIELD, syntax.EXTRA_FIELD):
            return [d for d in found if d.span.line <= 2]
        first = found[0]
        message = _(
            "every row has {fields} fields where SimAI reads {width}: the file is written in "
            "another row format (another simulator's, such as a later ASTRA-sim text format), "
            "and SimAI misreads it from this row on"
        ).format(fields=self.foreign_width, width=width(self.file))
        return [first.with_(message=message)]

    def _last_read_line(self, code: str) -> int:
        rows, span = self.workload.rows, reach(self.file)
        if span.stops_at_line_1:
            return 1
        if not len(self.file.rows):
            return sys.maxsize  # no row: no line below the count goes unread
        if not len(rows):
            return 2  # no row read: nothing below line 2 is
        last = rows.lines[-1]
        if code == "WK111" and not span.phantom:
            # SimAI stops after the last layer's fields: what follows them is never read
            return last - 1
        return last

    @property
    def rows_short(self) -> bool:
        """Whether the rows stop before line 2's count (a cut-off file, or phantom layers):
        counted from what is left, no value is a fix."""
        found = reach(self.file)
        return found.phantom > 0 or found.cut is not None

    @cached_property
    def body(self) -> Body:
        return Body(self.workload)

    @cached_property
    def columns(self) -> Columns:
        return columns_of(self.workload.rows)


def reached(result_workload: Workload, diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """The parser's `diagnostics` that lint hands on for `result_workload`: those on lines
    SimAI reads (`Context.parsed`); what lint and explain must report of the parser's."""
    ctx = Context(result_workload, parsed=diagnostics)
    return [d for code in dict.fromkeys(d.code for d in diagnostics) for d in ctx.parsed(code)]


def diagnostics_on_rows(
    ctx: Context, problems_by_value: dict[int, list[RowProblem]]
) -> list[Diagnostic]:
    """Each value's problems reported on every row line that carries the value."""
    out: list[Diagnostic] = []
    if not problems_by_value or ctx.foreign_width is not None:
        return out  # rows of another format: every field is misread, WK110/WK111 say it once
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


@record
class Registered:
    codes: frozenset[str]
    function: FileCheck | RowCheck
    per_row: bool
    #: the row fields a row check reads (it must read no other)
    reads: tuple[str, ...] = ROW_FIELDS
    #: whether a row check can find anything in this file (None: always asked)
    when: Callable[[Context], bool] | None = None


REGISTRY: list[Registered] = []


def file_check(*codes: str) -> Callable[[FileCheck], FileCheck]:
    def register(fn: FileCheck) -> FileCheck:
        REGISTRY.append(Registered(frozenset(codes), fn, per_row=False))
        return fn

    return register


def row_check(
    *codes: str, reads: Iterable[str] = ROW_FIELDS, when: Callable[[Context], bool] | None = None
) -> Callable[[RowCheck], RowCheck]:
    fields = tuple(reads)
    unknown = set(fields) - set(ROW_FIELDS)
    if unknown:
        raise ValueError(f"row_check reads unknown fields: {sorted(unknown)}")

    def register(fn: RowCheck) -> RowCheck:
        REGISTRY.append(Registered(frozenset(codes), fn, per_row=True, reads=fields, when=when))
        return fn

    return register


def rule_module(area: str, name: str) -> str:
    """The module of the rule named `name` (its page's, with dashes) in `area`."""
    return f"wkparse.checks.{area}.{name.replace('-', '_')}"


def load(codes: Iterable[str]) -> None:
    """Import (so register) the rule modules that report `codes`, named by their pages; every
    check module when a page names one that does not exist (tests/test_rule_layout.py keeps
    pages and modules one to one, so that is only a safety net)."""
    from wkparse.catalog import summaries

    pages = summaries()
    for code in codes:
        page = pages.get(code)
        if page is None:
            continue
        module = rule_module(page.area, page.name)
        if module in sys.modules:
            continue
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as missing:
            if missing.name != module:
                raise
            import wkparse.checks.all  # noqa: F401

            return
