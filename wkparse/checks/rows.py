"""Row checks (WK4xx): comm types SimAI does not know, sizes that disagree with their type,
numbers SimAI cannot read, and the reserved field.

SimAI picks a collective by the type's prefix (`ALLREDUCE...`) and a group by its exact
suffix; any other spelling silently costs nothing. The checks that point at something to fix
on each line are row checks (run once per distinct row value, reported on every line carrying
it). Zero-size collectives and sizes next to NONE are things real AICB output does thousands
of times per file, so they are reported once per pattern with a count, not once per line.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from wkparse.ast import PHASES, ROW_FIELDS, Phase, Row, RowFields
from wkparse.checks import (
    Context,
    RowProblem,
    diagnostics_on_rows,
    file_check,
    row_check,
)
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import N_, _, current, ngettext
from wkparse.simai.tables import (
    COLLECTIVES,
    KNOWN_COMMS,
    PREFIXES,
    TRANSFORMER_POLICIES,
    ComType,
    decode_comm,
)

BASES = tuple(t.value for t in PREFIXES)
#: the three-way collective SimAI's reader names but never reaches: ALLREDUCE matches first
PREFIX_TRAP = "ALLREDUCEALLTOALL"
COMM_FIELD = {phase: ROW_FIELDS.index(f"{phase}_comm") for phase in PHASES}
SIZE_FIELD = {phase: ROW_FIELDS.index(f"{phase}_size") for phase in PHASES}
#: "in the ... column", translated where used
COLUMN = {
    "fwd": N_("in the forward column"),
    "ig": N_("in the input-gradient column"),
    "wg": N_("in the weight-gradient column"),
}
UINT64_MAX = 2**64 - 1
#: SimAI reads the reserved field into a signed 32-bit int
INT32 = (-(2**31), 2**31 - 1)
#: the unsigned number fields (reserved is signed, and narrower)
_NUMBER_FIELDS = tuple(
    i for i, name in enumerate(ROW_FIELDS) if name.endswith(("compute", "size", "time"))
)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class CommProblem:
    code: str
    message: str
    replacement: str | None = None


def _base(comm: str) -> str | None:
    """The collective SimAI's prefix test picks for `comm` (None: no collective)."""
    com = decode_comm(comm, "fwd")[0]
    return None if com is ComType.NONE else com.value


def classify(comm: str, phase: str) -> CommProblem | None:
    """What is wrong with a comm type in one column, or None when SimAI reads it as meant."""
    if comm in KNOWN_COMMS:
        return None
    return _classify(comm, phase, current())


@functools.lru_cache(maxsize=1024)
def _classify(comm: str, phase: str, language: str) -> CommProblem | None:
    """`classify` in `language` (the cache key: the message is worded in it).

    Cached: a file uses a handful of distinct types, and row checks call this per row value.
    """
    if comm.upper().startswith("NONE"):
        # any NONE spelling (`none`, `NONE_TP`) means no traffic, which is what NONE says
        return None
    column = _(COLUMN[phase])
    if comm.startswith(PREFIX_TRAP):
        return CommProblem(
            "WK403",
            _(
                "`{comm}` {column} runs as ALLREDUCE with no group (SimAI tests that prefix "
                "first): zero time"
            ).format(comm=comm, column=column),
        )
    if comm.upper().startswith("BROADCAST"):
        return CommProblem(
            "WK404",
            _(
                "`{comm}` {column}: SimAI has no broadcast, so it simulates no traffic for it"
            ).format(comm=comm, column=column),
        )
    base = _base(comm)
    if base is not None:
        suggestion = _suffix_suggestion(base, comm[len(base) :], phase)
        fix = _("; write `{text}`").format(text=suggestion) if suggestion else ""
        return CommProblem(
            "WK402",
            _(
                "`{comm}` {column}: SimAI runs it as {base} with no group, which costs zero "
                "time{fix}"
            ).format(comm=comm, column=column, base=base, fix=fix),
            suggestion,
        )
    guess = difflib.get_close_matches(comm.upper(), sorted(COLLECTIVES), n=1, cutoff=0.7)
    suggestion = guess[0] if guess else None
    hint = _("; did you mean `{guess}`?").format(guess=suggestion) if suggestion else ""
    return CommProblem(
        "WK401",
        _(
            "`{comm}` {column} is not a SimAI comm type: SimAI simulates no traffic for it{hint}"
        ).format(comm=comm, column=column, hint=hint),
        suggestion,
    )


def _suffix_suggestion(base: str, suffix: str, phase: str) -> str | None:
    if suffix in ("_TP", "_MP", "_DP"):
        # a group name: the bare type when it is the column's own group, else no guess
        return base if (suffix == "_DP") == (phase == "wg") else None
    if suffix.startswith("_"):
        guess = difflib.get_close_matches(suffix.upper(), ["_EP", "_DP_EP"], n=1, cutoff=0.6)
        if guess:
            return base + guess[0]
    return None


@row_check("WK401", "WK402", "WK403", "WK404", reads=("fwd_comm", "ig_comm", "wg_comm"))
def comm_types(ctx: Context, fields: RowFields) -> Iterator[RowProblem]:
    for phase in PHASES:
        comm = fields.phase(phase).comm
        if comm is None:
            continue
        problem = classify(comm, phase)
        if problem is not None:
            yield RowProblem(
                problem.code,
                COMM_FIELD[phase],
                problem.message,
                problem.replacement,
                safe_fix=False,
            )


def _expert_parallel(ctx: Context) -> int | None:
    header = ctx.workload.header
    if header is None or header.policy not in TRANSFORMER_POLICIES:
        return None
    return header.integer("ep")


@file_check("WK407")
def expert_collectives_without_ep(ctx: Context) -> Iterator[Diagnostic]:
    if _expert_parallel(ctx) != 1:
        return

    def expert_only(p: Phase) -> bool | None:
        # _DP_EP with ep 1 is the whole DP group, which is what such a row means then
        if p.comm is None or not p.comm.endswith("_EP") or p.comm.endswith("_DP_EP"):
            return None
        return True if p.comm in COLLECTIVES and p.size else None

    values = ctx.workload.rows.values
    problems: dict[int, list[RowProblem]] = {}
    for phase in PHASES:
        for index in _values_where(ctx, phase, expert_only).get(True, ()):
            p = RowFields(values, index).phase(phase)
            problems.setdefault(index, []).append(
                RowProblem(
                    "WK407",
                    COMM_FIELD[phase],
                    _(
                        "`{comm}` of {size} bytes {column} with ep: 1: SimAI's one-rank expert "
                        "group moves nothing"
                    ).format(comm=p.comm, size=p.size, column=_(COLUMN[phase])),
                )
            )
    yield from diagnostics_on_rows(ctx, problems)


@row_check("WK408", reads=("reserved",))
def reserved_fits(ctx: Context, fields: RowFields) -> Iterator[RowProblem]:
    reserved = fields.reserved
    if reserved is not None and not INT32[0] <= reserved <= INT32[1]:
        yield RowProblem(
            "WK408",
            ROW_FIELDS.index("reserved"),
            _(
                "the reserved field is {value}, outside SimAI's 32-bit integer: every later "
                "field is misread"
            ).format(value=_number(reserved)),
            "-1",
        )


@file_check("WK408")
def numbers_fit(ctx: Context) -> Iterator[Diagnostic]:
    # A typed column holds at most 2^64-1: only one that widened to a list can hold more.
    values = ctx.workload.rows.values
    problems: dict[int, list[RowProblem]] = {}
    for index in _NUMBER_FIELDS:
        column = values.column(index)
        if not isinstance(column, list):
            continue
        for where, value in enumerate(column):
            if value > UINT64_MAX:
                problems.setdefault(where, []).append(
                    RowProblem(
                        "WK408",
                        index,
                        _(
                            "{field} is {value}, over 2^64-1: SimAI's read fails and every "
                            "later field is misread"
                        ).format(field=ROW_FIELDS[index], value=_number(value)),
                    )
                )
    yield from diagnostics_on_rows(ctx, problems)


def _number(value: int) -> str:
    """A number as a message quotes it: whole unless it is too long to read at a glance."""
    digits = str(value)
    if len(digits) <= 24:
        return digits
    return _("a {n}-digit number").format(n=f"{len(digits.lstrip('-')):,}")


@row_check("WK409", reads=("reserved",))
def reserved_is_minus_one(ctx: Context, fields: RowFields) -> Iterator[RowProblem]:
    reserved = fields.reserved
    if reserved is None or reserved == -1 or not INT32[0] <= reserved <= INT32[1]:
        return
    yield RowProblem(
        "WK409",
        ROW_FIELDS.index("reserved"),
        _(
            "the reserved field is {value}, not -1: SimAI ignores it, but it hints at a "
            "shifted or foreign row"
        ).format(value=reserved),
        "-1",
        safe_fix=True,
    )


@dataclass
class _Pattern:
    """One kind of row problem with where it first occurs and how often."""

    phase: str
    first: Row
    rows: int
    names: list[str]


def _values_where(
    ctx: Context, phase: str, outcome: Callable[[Phase], T | None]
) -> dict[T, list[int]]:
    """The values whose `phase` column gives each outcome other than None.

    `outcome(column)` reads only the comm type and whether the size is zero, so it is asked
    once per distinct pair, found from the columns in C; the values the columns do not hold
    whole are asked one by one (their missing size is None, not 0).
    """
    values = ctx.workload.rows.values
    size = SIZE_FIELD[phase]
    grouping = ctx.columns.group((COMM_FIELD[phase], size), nonzero=(size,), whole=True)
    outcomes: dict[int, T] = {}
    for group, index in enumerate(grouping.first):
        found = outcome(RowFields(values, index).phase(phase))
        if found is not None:
            outcomes[group] = found
    where: dict[T, list[int]] = {}
    for index, group in grouping.members(outcomes):
        where.setdefault(outcomes[group], []).append(index)
    for index in values.partial:
        found = outcome(RowFields(values, index).phase(phase))
        if found is not None:
            where.setdefault(found, []).append(index)
    return where


def _phase_patterns(
    ctx: Context, pattern_of: Callable[[str, Phase], str | None]
) -> dict[str, _Pattern]:
    """Each pattern the phase columns show, with its first row, row count and first names.

    `pattern_of(phase, column)` names the pattern a column belongs to, or None when it is
    fine (it reads what `_values_where` allows). Values are numbered in first-row order, so
    a pattern's first value gives its first row.
    """
    found: dict[str, tuple[str, list[int]]] = {}
    for phase in PHASES:
        where = _values_where(ctx, phase, functools.partial(pattern_of, phase))
        for pattern, indexes in where.items():
            found.setdefault(pattern, (phase, []))[1].extend(indexes)
    return {key: _pattern(ctx, phase, sorted(indexes)) for key, (phase, indexes) in found.items()}


def _pattern(ctx: Context, phase: str, indexes: list[int]) -> _Pattern:
    rows = ctx.workload.rows
    texts, name_codes = rows.values.texts, rows.values.column("name")
    names: list[str] = []
    seen: set[int] = set()
    for index in indexes:
        code = name_codes[index]
        if code not in seen:
            seen.add(code)
            name = texts[code] or "?"
            if name not in names:
                names.append(name)
                if len(names) == 4:
                    break
    first = rows[rows.refs.index(indexes[0])]
    return _Pattern(phase, first, ctx.columns.rows_of(indexes), names)


def _where(pattern: _Pattern) -> str:
    more = ", ..." if len(pattern.names) > 1 else ""
    return ngettext("on {n} row ({names})", "on {n} rows ({names})", pattern.rows).format(
        n=f"{pattern.rows:,}", names=pattern.names[0] + more
    )


@file_check("WK405")
def zero_size_collectives(ctx: Context) -> Iterator[Diagnostic]:
    def zero_collective(phase: str, p: Phase) -> str | None:
        return f"{phase} {p.comm}" if p.comm in COLLECTIVES and p.size == 0 else None

    for key, pattern in _phase_patterns(ctx, zero_collective).items():
        comm = key.split(" ", 1)[1]
        yield Diagnostic(
            "WK405",
            _("{comm} of 0 bytes {column} {where}: SimAI simulates no traffic for it").format(
                comm=comm, column=_(COLUMN[pattern.phase]), where=_where(pattern)
            ),
            pattern.first.span(SIZE_FIELD[pattern.phase]),
        )


@file_check("WK406")
def none_with_size(ctx: Context) -> Iterator[Diagnostic]:
    def none_sized(phase: str, p: Phase) -> str | None:
        return phase if p.comm is not None and p.comm.startswith("NONE") and p.size else None

    for phase, pattern in _phase_patterns(ctx, none_sized).items():
        size = pattern.first.fields.phase(phase).size
        yield Diagnostic(
            "WK406",
            _("NONE with a size ({size} bytes) {column} {where}: SimAI ignores the size").format(
                size=size, column=_(COLUMN[phase]), where=_where(pattern)
            ),
            pattern.first.span(SIZE_FIELD[phase]),
        )
