"""What is wrong with a comm type, in one place for the four comm type rules (WK401-WK404).

SimAI picks a collective by the type's prefix (`ALLREDUCE...`) and a group by its exact
suffix; any other spelling silently costs nothing. `classify` names which of the four ways a
type goes wrong (one code each); each rule reports the types of its own code.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterator

from wkparse.ast import PHASES, RowFields
from wkparse.checks import RowProblem
from wkparse.checks.rows.fields import COLUMN, COMM_FIELD
from wkparse.i18n import _, current
from wkparse.models.simai.tables import COLLECTIVES, KNOWN_COMMS, PREFIXES, ComType, decode_comm
from wkparse.record import record

BASES = tuple(t.value for t in PREFIXES)
#: the three-way collective SimAI's reader names but never reaches: ALLREDUCE matches first
PREFIX_TRAP = "ALLREDUCEALLTOALL"


@record
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


def comm_problems(fields: RowFields, code: str) -> Iterator[RowProblem]:
    """The row's comm types that `classify` finds wrong in the way `code` names."""
    for phase in PHASES:
        comm = fields.phase(phase).comm
        if comm is None:
            continue
        problem = classify(comm, phase)
        if problem is not None and problem.code == code:
            yield RowProblem(
                problem.code,
                COMM_FIELD[phase],
                problem.message,
                problem.replacement,
                safe_fix=False,
            )
