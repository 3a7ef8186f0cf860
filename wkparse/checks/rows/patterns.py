"""How the row rules that report a pattern once (WK405, WK406) and WK407 find the rows: by the
distinct (comm type, size is zero) pairs of each phase column, found from the columns in C.

Zero-size collectives and sizes next to NONE are things real AICB output does thousands of
times per file, so they are reported once per pattern with a count, not once per line.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

from wkparse.ast import PHASES, Phase, Row, RowFields
from wkparse.checks import Context
from wkparse.checks.rows.fields import COMM_FIELD, SIZE_FIELD
from wkparse.i18n import ngettext
from wkparse.record import record

T = TypeVar("T")


@record(frozen=False)
class Pattern:
    """One kind of row problem with where it first occurs and how often."""

    phase: str
    first: Row
    rows: int
    names: list[str]


def values_where(
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


def phase_patterns(
    ctx: Context, pattern_of: Callable[[str, Phase], str | None]
) -> dict[str, Pattern]:
    """Each pattern the phase columns show, with its first row, row count and first names.

    `pattern_of(phase, column)` names the pattern a column belongs to, or None when it is
    fine (it reads what `values_where` allows). Values are numbered in first-row order, so
    a pattern's first value gives its first row.
    """
    found: dict[str, tuple[str, list[int]]] = {}
    for phase in PHASES:
        where = values_where(ctx, phase, functools.partial(pattern_of, phase))
        for pattern, indexes in where.items():
            found.setdefault(pattern, (phase, []))[1].extend(indexes)
    return {key: _pattern(ctx, phase, sorted(indexes)) for key, (phase, indexes) in found.items()}


def _pattern(ctx: Context, phase: str, indexes: list[int]) -> Pattern:
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
    return Pattern(phase, first, ctx.columns.rows_of(indexes), names)


def where(pattern: Pattern) -> str:
    """`on 12 rows (attention_column, ...)`: how many rows show a pattern, and which."""
    more = ", ..." if len(pattern.names) > 1 else ""
    return ngettext("on {n} row ({names})", "on {n} rows ({names})", pattern.rows).format(
        n=f"{pattern.rows:,}", names=pattern.names[0] + more
    )
