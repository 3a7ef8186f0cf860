"""The rows of two files aligned by structure, and their differences summarised by kind.

A transformer body is a prologue, `ga` micro-batch groups and an epilogue (`wkparse.body`).
Rows are compared section by section: prologue with prologue, group with group, epilogue with
epilogue, so a dropped group is one removal and not a shift of every row after it. Groups are
aligned by their contents (runs of equal groups first, then group by group), and the rows of
two paired sections by their values and then by their names: a row whose name stands on both
sides but whose fields differ is *changed*, one only on one side is *added* or *removed*, and
one unchanged on both sides at another place is *moved* (two swapped rows).

Rows are compared by the values SimAI reads, never by how they are spelt, so spacing and
anything `wkparse fmt` normalises are no difference. Each distinct row value gets a small
integer code shared by both files; a section is a sequence of codes, and a group is compared
with its partner once per distinct pair of contents (AICB repeats one group `ga` times).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from itertools import groupby, pairwise

from wkparse.ast import ROW_FIELDS, RowFields, Workload
from wkparse.body import Body
from wkparse.difference.model import RowChange, RowsDiff

#: paired runs past which alignment falls back to pairing by position (SequenceMatcher's
#: cost grows with the product of the lengths when elements repeat, as rows and groups do)
MAX_ALIGNED = 250_000

#: a place rows live in: "prologue", "epilogue", "body", or a group's 1-based number
Place = str | int
#: ("changed" | "removed" | "added" | "moved", offset in a, offset in b)
Event = tuple[str, int | None, int | None]
NameOf = Callable[[int], str | None]


@dataclass(frozen=True)
class _Side:
    """One file's rows as codes, and where its sections stand."""

    codes: list[int]
    lines: Sequence[int]
    groups: tuple[tuple[int, int], ...]
    prologue_end: int
    epilogue_start: int

    def section(self, start: int, end: int) -> tuple[int, ...]:
        return tuple(self.codes[start:end])

    @property
    def head(self) -> tuple[int, ...]:
        """The rows before the first group: the prologue, or the body when there is none."""
        return self.section(0, self.prologue_end if self.groups else self.epilogue_start)

    @property
    def tail(self) -> tuple[int, ...]:
        return self.section(self.epilogue_start, len(self.codes))


class _Codes:
    """One small integer per distinct row value (as SimAI reads it) across both files."""

    def __init__(self) -> None:
        self.by_value: dict[tuple[int | str | None, ...], int] = {}
        self.fields: list[RowFields] = []

    def side(self, workload: Workload, body: Body) -> _Side:
        rows = workload.rows
        # One code per value of the row table (rows.refs index them), equal values alike.
        of_value: list[int] = []
        for f in rows.distinct_fields:
            value = f.ordered()
            code = self.by_value.get(value)
            if code is None:
                code = self.by_value[value] = len(self.fields)
                self.fields.append(f)
            of_value.append(code)
        codes = list(map(of_value.__getitem__, rows.refs))
        # group bounds from the starts alone: `Body.groups` would slice every group's names
        starts = body.group_starts
        groups = tuple(pairwise((*starts, body.epilogue_start))) if starts else ()
        return _Side(codes, rows.lines, groups, body.prologue_end, body.epilogue_start)

    def name(self, code: int) -> str | None:
        return self.fields[code].name


def row_changes(a: Workload, b: Workload, bodies: tuple[Body, Body] | None = None) -> RowsDiff:
    """The rows of `a` and `b` aligned and their changes tallied; `bodies` are the files'
    `Body`s when the caller has them (their group bounds are counted once)."""
    codes = _Codes()
    body_a, body_b = bodies if bodies is not None else (Body(a), Body(b))
    side_a, side_b = codes.side(a, body_a), codes.side(b, body_b)
    tally = _Tally(codes, side_a, side_b)
    outside = "prologue" if side_a.groups or side_b.groups else "body"
    tally.section(side_a.head, side_b.head, [outside], (0, 0))
    _groups(side_a, side_b, tally)
    tally.section(
        side_a.tail, side_b.tail, ["epilogue"], (side_a.epilogue_start, side_b.epilogue_start)
    )
    return RowsDiff(
        len(side_a.codes),
        len(side_b.codes),
        tally.changed,
        tally.added,
        tally.removed,
        tally.moved,
        tally.changes(),
    )


def _groups(a: _Side, b: _Side, tally: _Tally) -> None:
    """Align the micro-batch groups: runs of equal groups, then group by group."""
    interned: dict[tuple[int, ...], int] = {}
    keys_a = [interned.setdefault(a.section(s, e), len(interned)) for s, e in a.groups]
    keys_b = [interned.setdefault(b.section(s, e), len(interned)) for s, e in b.groups]
    if keys_a == keys_b:
        return
    contents = {key: value for value, key in interned.items()}
    # pairs of differing groups: (content a, content b) -> the a-side group numbers, and the
    # first pair's group indexes on each side
    pairs: dict[tuple[int, int], list[int]] = {}
    first: dict[tuple[int, int], tuple[int, int]] = {}
    removed: list[int] = []
    added: list[int] = []

    def pair_by_position(first_a: int, count_a: int, first_b: int, count_b: int) -> None:
        for i in range(min(count_a, count_b)):
            ka, kb = keys_a[first_a + i], keys_b[first_b + i]
            if ka != kb:
                pairs.setdefault((ka, kb), []).append(first_a + i + 1)
                first.setdefault((ka, kb), (first_a + i, first_b + i))
        removed.extend(range(first_a + count_b + 1, first_a + count_a + 1))
        added.extend(range(first_b + count_a + 1, first_b + count_b + 1))

    # Equal groups at both ends pair off first, so that one changed group among equal ones
    # is paired with its counterpart rather than counted as one removed and one added.
    start, end_a, end_b = _common_ends(keys_a, keys_b)
    runs_a = [(k, len(list(g))) for k, g in groupby(keys_a[start:end_a])]
    runs_b = [(k, len(list(g))) for k, g in groupby(keys_b[start:end_b])]
    if len(runs_a) * len(runs_b) > MAX_ALIGNED:
        pair_by_position(start, end_a - start, start, end_b - start)
    else:
        starts_a = _starts(runs_a, start)
        starts_b = _starts(runs_b, start)
        matcher = SequenceMatcher(None, [k for k, _ in runs_a], [k for k, _ in runs_b], False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                for i, j in zip(range(i1, i2), range(j1, j2)):
                    pair_by_position(starts_a[i], runs_a[i][1], starts_b[j], runs_b[j][1])
            else:
                pair_by_position(
                    starts_a[i1],
                    starts_a[i2] - starts_a[i1],
                    starts_b[j1],
                    starts_b[j2] - starts_b[j1],
                )
    for (ka, kb), numbers in pairs.items():
        group_a, group_b = first[ka, kb]
        starts = (a.groups[group_a][0], b.groups[group_b][0])
        tally.section(contents[ka], contents[kb], numbers, starts)
    if removed:
        tally.whole_groups("group_removed", removed)
    if added:
        tally.whole_groups("group_added", added)


def _common_ends(a: Sequence[int], b: Sequence[int]) -> tuple[int, int, int]:
    """Where the common prefix ends, and where the common suffix starts in a and in b."""
    start = 0
    limit = min(len(a), len(b))
    while start < limit and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a -= 1
        end_b -= 1
    return start, end_a, end_b


def _starts(runs: list[tuple[int, int]], first: int) -> list[int]:
    """Index of each run's first group, and the end of the last run."""
    out = [first]
    for _, count in runs:
        out.append(out[-1] + count)
    return out


class _Tally:
    """Row counts and changes by kind, gathered over every pair of sections."""

    def __init__(self, codes: _Codes, a: _Side, b: _Side) -> None:
        self.codes = codes
        self.a, self.b = a, b
        self.groups_a = len(a.groups)
        self.changed = self.added = self.removed = self.moved = 0
        #: (code a, code b) -> the field changes between those two row values, worked out once
        self._field_changes: dict[tuple[int, int], list[tuple[tuple[object, ...], RowChange]]] = {}
        #: change identity -> (the RowChange without its place, the lists of places it
        #: stands in, keyed by id: one list serves every change of a pair of sections, rows)
        self._found: dict[
            tuple[object, ...], tuple[RowChange, dict[int, Sequence[Place]], int]
        ] = {}

    def section(
        self,
        a: Sequence[int],
        b: Sequence[int],
        places: Sequence[Place],
        starts: tuple[int, int],
    ) -> None:
        """Compare one pair of sections that stand in each of `places`; `starts` are the row
        indexes where the first place's sections begin in a and in b."""
        if a == b:
            return
        n = len(places)
        name = self.codes.name
        for event, i, j in _events(a, b, name):
            at = self._lines(
                None if i is None else starts[0] + i, None if j is None else starts[1] + j
            )
            if event == "changed":
                assert i is not None and j is not None
                self.changed += n
                self._fields(a[i], b[j], places, at)
            elif event == "removed":
                assert i is not None
                self.removed += n
                change = RowChange("row_removed", "", 0, name(a[i]))
                self._add(("row_removed", name(a[i])), change, places, n, at)
            elif event == "added":
                assert j is not None
                self.added += n
                change = RowChange("row_added", "", 0, name(b[j]))
                self._add(("row_added", name(b[j])), change, places, n, at)
            else:
                assert i is not None and j is not None
                self.moved += n
                change = RowChange("row_moved", "", 0, name(a[i]), position_a=i, position_b=j)
                self._add(("row_moved", name(a[i]), i, j), change, places, n, at)

    def whole_groups(self, kind: str, numbers: list[int]) -> None:
        """Groups (1-based numbers: a's when removed, b's when added) only one side has."""
        side = self.a if kind == "group_removed" else self.b
        bounds = [side.groups[n - 1] for n in numbers]
        rows = sum(end - start for start, end in bounds)
        if kind == "group_removed":
            self.removed += rows
            at = self._lines(bounds[0][0], None)
        else:
            self.added += rows
            at = self._lines(None, bounds[0][0])
        self._add((kind,), RowChange(kind, "", 0), list(numbers), rows, at)

    def _lines(self, row_a: int | None, row_b: int | None) -> tuple[int | None, int | None]:
        return (
            None if row_a is None else self.a.lines[row_a],
            None if row_b is None else self.b.lines[row_b],
        )

    def _fields(
        self,
        code_a: int,
        code_b: int,
        places: Sequence[Place],
        at: tuple[int | None, int | None],
    ) -> None:
        pair = (code_a, code_b)
        found = self._field_changes.get(pair)
        if found is None:
            found = self._field_changes[pair] = self._field_changes_of(code_a, code_b)
        for key, change in found:
            self._add(key, change, places, len(places), at)

    def _field_changes_of(
        self, code_a: int, code_b: int
    ) -> list[tuple[tuple[object, ...], RowChange]]:
        """The fields two row values differ in, each as its change's identity and change."""
        fa, fb = self.codes.fields[code_a].ordered(), self.codes.fields[code_b].ordered()
        name = self.codes.name(code_a)
        return [
            (("field", name, field, va, vb), RowChange("field", "", 0, name, field, va, vb))
            for field, va, vb in zip(ROW_FIELDS, fa, fb)
            if va != vb
        ]

    def _add(
        self,
        key: tuple[object, ...],
        change: RowChange,
        places: Sequence[Place],
        rows: int,
        at: tuple[int | None, int | None],
    ) -> None:
        found = self._found.get(key)
        if found is None:
            first = replace(change, line_a=at[0], line_b=at[1])
            self._found[key] = (first, {id(places): places}, rows)
        else:
            found[1][id(places)] = places
            self._found[key] = (found[0], found[1], found[2] + rows)

    def changes(self) -> tuple[RowChange, ...]:
        return tuple(
            replace(
                change,
                where=where(
                    [p for places in lists.values() for p in places],
                    self.groups_a,
                    change.kind == "group_added",
                ),
                rows=rows,
            )
            for change, lists, rows in self._found.values()
        )


def _events(a: Sequence[int], b: Sequence[int], name_of: NameOf) -> list[Event]:
    """How section b differs from section a, as events at offsets into each."""
    start, end_a, end_b = _common_ends(a, b)
    events: list[Event] = []
    ma, mb = a[start:end_a], b[start:end_b]
    if len(ma) * len(mb) > MAX_ALIGNED:
        _by_position(ma, mb, start, start, name_of, events)
    else:
        for op, i1, i2, j1, j2 in SequenceMatcher(None, ma, mb, False).get_opcodes():
            if op != "equal":
                _by_name(ma[i1:i2], mb[j1:j2], start + i1, start + j1, name_of, events)
    return _moves(a, b, events)


def _by_name(
    a: Sequence[int],
    b: Sequence[int],
    offset_a: int,
    offset_b: int,
    name: NameOf,
    events: list[Event],
) -> None:
    """Rows of an unmatched stretch paired by name: changed where names agree."""
    names_a = [name(c) for c in a]
    names_b = [name(c) for c in b]
    for op, i1, i2, j1, j2 in SequenceMatcher(None, names_a, names_b, False).get_opcodes():
        if op == "equal":
            events.extend(
                ("changed", offset_a + i, offset_b + j)
                for i, j in zip(range(i1, i2), range(j1, j2))
            )
        else:
            events.extend(("removed", offset_a + i, None) for i in range(i1, i2))
            events.extend(("added", None, offset_b + j) for j in range(j1, j2))


def _by_position(
    a: Sequence[int],
    b: Sequence[int],
    offset_a: int,
    offset_b: int,
    name: NameOf,
    events: list[Event],
) -> None:
    """Rows paired by position, for stretches too long to align."""
    for i, (ca, cb) in enumerate(zip(a, b)):
        if ca == cb:
            continue
        if name(ca) == name(cb):
            events.append(("changed", offset_a + i, offset_b + i))
        else:
            events.append(("removed", offset_a + i, None))
            events.append(("added", None, offset_b + i))
    events.extend(("removed", offset_a + i, None) for i in range(len(b), len(a)))
    events.extend(("added", None, offset_b + j) for j in range(len(a), len(b)))


def _moves(a: Sequence[int], b: Sequence[int], events: list[Event]) -> list[Event]:
    """A removed row equal to an added one is the same row moved: pair them off."""
    added: dict[int, list[int]] = {}
    for event, _, j in events:
        if event == "added":
            assert j is not None
            added.setdefault(b[j], []).append(j)
    if not added:
        return events
    moved: dict[int, int] = {}
    for event, i, _ in events:
        if event == "removed":
            assert i is not None
            spare = added.get(a[i])
            if spare:
                moved[i] = spare.pop(0)
    if not moved:
        return events
    taken = set(moved.values())
    out: list[Event] = []
    for event, i, j in events:
        if event == "removed" and i in moved:
            out.append(("moved", i, moved[i]))
        elif not (event == "added" and j in taken):
            out.append((event, i, j))
    return out


def where(places: list[Place], groups: int, b_numbers: bool = False) -> str:
    """Places in words: "the prologue", "all 64 groups", "groups 3-5 and 9".

    `groups` is the number of groups in a; `b_numbers` says the numbers are b's (added groups).
    """
    named = [p for p in dict.fromkeys(places) if isinstance(p, str)]
    numbers = sorted({p for p in places if isinstance(p, int)})
    parts = [f"the {p}" for p in named if p != "epilogue"]
    if numbers:
        if not b_numbers and len(numbers) == groups and groups > 1:
            parts.append(f"all {groups:,} groups")
        else:
            word = "group" if len(numbers) == 1 else "groups"
            parts.append(f"{word} {_ranges(numbers)}")
    if "epilogue" in named:
        parts.append("the epilogue")
    return " and ".join(parts) if len(parts) <= 2 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _ranges(numbers: list[int], shown: int = 6) -> str:
    runs: list[str] = []
    start = previous = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == previous + 1:
            previous = n
            continue
        runs.append(str(start) if start == previous else f"{start}-{previous}")
        if n is not None:
            start = previous = n
    if len(runs) > shown:
        return ", ".join(runs[:shown]) + f" and {len(runs) - shown} more"
    return ", ".join(runs[:-1]) + " and " + runs[-1] if len(runs) > 1 else runs[0]
