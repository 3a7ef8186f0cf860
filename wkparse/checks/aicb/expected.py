"""What the AICB rules (WK6xx) share: the file AICB writes for a command, made once per run,
and the walk that compares a file's rows with it, done once per file for the value and the row
rules.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import field
from typing import TYPE_CHECKING, Any

from wkparse.ast import Header, RowTable, Span, Workload
from wkparse.checks import Context
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import N_, _
from wkparse.models.simai.tokens import header_value, reading
from wkparse.parse import parse_bytes
from wkparse.record import record

if TYPE_CHECKING:  # the AICB model is imported only when a file has an AICB command
    from wkparse.models.aicb import AicbError, Generated
    from wkparse.models.aicb.dump import Row as AicbRow
    from wkparse.models.aicb.dump import Workload as AicbWorkload

UNUSABLE = "WK601"
HEADER = "WK602"
VALUE = "WK603"
ROWS = "WK604"
NAME = "WK605"

START = Span.on_line(1, 1, 1)


@functools.lru_cache(maxsize=16)
def generated(command: str) -> Generated | AicbError:
    """What AICB writes for a command, once per run however many files share it."""
    from wkparse.models.aicb import AicbError, generate

    try:
        return generate(command)
    except AicbError as exc:
        return exc


def expected(ctx: Context) -> Generated | None:
    """The file AICB writes for this file's command; None without a usable command."""
    if ctx.aicb_command is None:
        return None
    from wkparse.models.aicb import Generated

    made = generated(ctx.aicb_command)
    return made if isinstance(made, Generated) else None


def expected_header(text: str) -> Header:
    header = parse_bytes(f"{text}\n0\n".encode()).workload.header
    assert header is not None
    return header


def _same(read: int | None, wanted: int | None, here: str, there: str) -> bool:
    """Whether SimAI reads the same number from both headers (`8388608.0` written where AICB
    writes `8388608` is no departure); the text where it reads none."""
    if read is None and wanted is None:
        return here == there
    return read == wanted


def header_departures(have: Header, want: Header) -> Iterator[Diagnostic]:
    if have.policy != want.policy:
        yield Diagnostic(
            HEADER,
            _("policy {here} here, AICB writes {there}").format(
                here=have.policy, there=want.policy
            ),
            have.policy_span,
        )
    missing = []
    for wanted in want.fields:
        text = wanted.value.text if wanted.value else ""
        found, read = have.read(wanted.key), header_value(have, wanted.key)
        if found is None or (found.value is None and read is None):
            missing.append(f"{wanted.key}: {text}")
            continue
        # no value of its own: SimAI reads the next token (`tp: 4abc` parses as two fields)
        here = found.value.text if found.value is not None else str(read)
        if not _same(read, header_value(want, wanted.key), here, text):
            message = _("header {key}: {here} here, AICB writes {there}").format(
                key=wanted.key, here=here, there=text
            )
            span = found.value.span if found.value is not None else found.span
            yield Diagnostic(HEADER, message, span)
    if missing:
        message = _("the header lacks what AICB writes as {fields}").format(
            fields=", ".join(missing)
        )
        yield Diagnostic(HEADER, message, have.span)
    keys = {f.key for f in want.fields}
    values = reading(have).value_fields
    for i, extra in enumerate(have.fields):
        if extra.key not in keys and i not in values:
            message = _("header key {key} is not one AICB writes here").format(key=repr(extra.key))
            yield Diagnostic(HEADER, message, extra.span)


#: the sections of a file outside its micro-batch groups, as messages name them
SECTIONS = {"prologue": N_("the prologue"), "epilogue": N_("the epilogue")}


@record
class _Place:
    """Where an expected row stands: prologue, group N, or epilogue."""

    section: str
    group: int

    def describe(self, groups: int) -> str:
        if self.section == "group":
            return _("group {n} of {groups}").format(n=self.group, groups=groups)
        return _(SECTIONS[self.section])


def _expected_rows(w: AicbWorkload) -> Iterator[tuple[_Place, AicbRow]]:
    for row in w.prologue:
        yield _Place("prologue", 0), row
    for g, group in enumerate(w.groups, 1):
        place = _Place("group", g)
        for row in group:
            yield place, row
    for row in w.epilogue:
        yield _Place("epilogue", 0), row


def _values(row: AicbRow) -> tuple[int | float | str | None, ...]:
    """An expected row in the order RowFields.ordered() gives a file's row."""
    return (
        row.name, -1, row.fwd_time, row.fwd_comm, row.fwd_size, row.ig_time, row.ig_comm,
        row.ig_size, row.wg_time, row.wg_comm, row.wg_size, 100, None,
    )  # fmt: skip


@record(frozen=False)
class _Repeated:
    """A departure's first place, and how many rows and groups repeat it."""

    span: Span
    place: _Place
    rows: int = 1
    groups: set[int] = field(default_factory=set)


@record(frozen=False)
class _RowComparison:
    """Departures keyed by what departs, so a repeat is counted, not reported again.

    `values`: (section, row name, field index, value here, value AICB writes);
    `order`: (section, row name here, row name AICB writes) for rows in another order;
    `structure`: rows missing or extra, after which the rows are out of step.
    """

    values: dict[tuple[str, str, int, object, object], _Repeated] = field(default_factory=dict)
    order: dict[tuple[str, object, object], _Repeated] = field(default_factory=dict)
    structure: list[Diagnostic] = field(default_factory=list)


def _count(
    found: dict[Any, _Repeated], key: Any, rows: RowTable, i: int, field: int, place: _Place
) -> None:
    seen = found.get(key)
    if seen is None:
        found[key] = _Repeated(rows[i].span(field), place, 1, {place.group})
    else:
        seen.rows += 1
        seen.groups.add(place.group)


def show(value: object) -> str:
    return _("nothing") if value is None else str(value)


_Pair = tuple[tuple[int | str | None, ...], tuple[int | float | str | None, ...]] | None


def _compare_rows(workload: Workload, made: AicbWorkload) -> _RowComparison:
    """Walk the file's rows beside AICB's; each (file value, AICB row) pair is compared once.

    A file of `ga` identical groups holds few distinct values and AICB's groups share their
    rows, so a million-row file costs a dictionary lookup a row.
    """
    out = _RowComparison()
    rows = workload.rows
    refs, lines, values = rows.refs, rows.lines, rows.values
    same_length = len(rows) == made.row_count
    verdicts: dict[tuple[int, int], _Pair] = {}
    compared = 0
    for i, (ref, (place, want_row)) in enumerate(zip(refs, _expected_rows(made))):
        compared = i + 1
        key = (ref, id(want_row))
        if key in verdicts:
            pair = verdicts[key]
        else:
            got, want = values.values_of(ref), _values(want_row)
            pair = verdicts[key] = None if got == want else (got, want)
        if pair is None:
            continue
        got, want = pair
        if got[0] != want[0]:
            if not same_length:
                where = place.describe(len(made.groups))
                message = _(
                    "row {here} here, AICB writes {there} ({where}); the rows are out of step "
                    "from here on"
                ).format(here=show(got[0]), there=want[0], where=where)
                out.structure.append(Diagnostic(ROWS, message, rows[i].span(0)))
                return out
            _count(out.order, (place.section, got[0], want[0]), rows, i, 0, place)
            continue
        differ = [k for k in range(1, len(want)) if got[k] != want[k]]
        index = differ[0]
        # one field: keyed by its values; several: one finding for the whole row (index -1)
        key5: tuple[str, str, int, object, object] = (
            (place.section, str(want[0]), index, got[index], want[index])
            if len(differ) == 1
            else (place.section, str(want[0]), -1, got, want)
        )
        _count(out.values, key5, rows, i, index, place)
    if compared < made.row_count:
        count_line = workload.count.span.line if workload.count else 1
        last_line = lines[compared - 1] if compared else count_line
        message = _("the file ends after {n} rows; AICB writes {rows}").format(
            n=compared, rows=made.row_count
        )
        out.structure.append(Diagnostic(ROWS, message, Span.on_line(last_line, 1, 1)))
    elif len(rows) > made.row_count:
        extra = rows[made.row_count]
        message = _("{n} more rows than the {rows} AICB writes, from {name}").format(
            n=len(rows) - made.row_count, rows=made.row_count, name=show(extra.name)
        )
        out.structure.append(Diagnostic(ROWS, message, extra.span(0)))
    return out


#: the last comparison, shared by the value and the row checks of one file
_LAST: list[tuple[Workload, Generated, _RowComparison]] = []


def comparison(workload: Workload, made: Generated) -> _RowComparison:
    """The file's rows beside AICB's, compared once for the value and the row rules."""
    if _LAST and _LAST[0][0] is workload and _LAST[0][1] is made:
        return _LAST[0][2]
    result = _compare_rows(workload, made.workload)
    _LAST[:] = [(workload, made, result)]
    return result


def where(section: str, seen: _Repeated, groups: int) -> str:
    """`in group 2 of 64`, `in 64 groups (576 rows, first at line 11)`, or the section."""
    rows = seen.rows
    if section != "group" or len(seen.groups) == 1:
        place = _(SECTIONS[section]) if section != "group" else seen.place.describe(groups)
        if rows > 1:
            return _("in {place} ({rows} rows)").format(place=place, rows=rows)
        return _("in {place}").format(place=place)
    n = len(seen.groups)
    share = f"{n}" if n == groups else _("{n} of {groups}").format(n=n, groups=groups)
    if rows > 1:
        return _("in {share} groups ({rows} rows, first at line {line})").format(
            share=share, rows=rows, line=seen.span.line
        )
    return _("in {share} groups (first at line {line})").format(share=share, line=seen.span.line)
