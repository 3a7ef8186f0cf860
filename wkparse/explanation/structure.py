"""The file's structure: prologue, micro-batch groups (their shapes, one expanded group and
how the others differ from it) and epilogue, every row shown annotated with the group each
collective runs in (`row_notes`), or the first rows of a body without groups.

Groups are compared by their rows' value indexes (AICB repeats one group `ga` times), so a
file of identical groups costs one comparison per group, not one per row.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass

from wkparse.ast import PHASES, RowFields
from wkparse.body import count_layers
from wkparse.explanation.context import Context
from wkparse.explanation.model import GroupDifference, PhaseNote, RowNote, Shape, Structure
from wkparse.explanation.patterns import compress
from wkparse.explanation.units import human_ns
from wkparse.i18n import _
from wkparse.models.simai.tables import GroupType, decode_comm

#: rows shown for a body without micro-batch groups (the JSON and the text stay bounded)
BODY_ROWS_SHOWN = 60
#: distinct group values compared slice by slice before keying every group by its row ids
_MAX_REPS = 32


def structure(ctx: Context) -> Structure:
    body, rows = ctx.body, ctx.w.rows
    groups = body.groups
    pro_end, epi_start = body.prologue_end, body.epilogue_start
    if not groups:
        aicb = ctx.dialect in ("transformer", "inference") and ctx.aicb_rows
        end = epi_start if aicb else len(rows)
        shown = min(end, BODY_ROWS_SHOWN)
        return Structure(
            prologue=(),
            epilogue=row_notes(ctx, epi_start, len(rows)) if aicb else (),
            group_count=0,
            shapes=(),
            reference_group=None,
            reference=(),
            identical_groups=0,
            differences=(),
            differing_groups=0,
            groups_first_line=None,
            groups_last_line=None,
            body_pattern=compress(body.names[:end]) if end else None,
            body=row_notes(ctx, 0, shown),
            body_hidden=end - shown,
        )
    first_of: dict[tuple[str | None, ...], int] = {}
    for i, g in enumerate(groups):
        first_of.setdefault(g.names, i)
    shapes = tuple(
        Shape(
            count,
            len(names),
            count_layers(names),
            compress(names),
            first_of[names] + 1,
            rows.lines[groups[first_of[names]].start],
            rows.lines[groups[first_of[names]].end - 1],
        )
        for names, count in body.shapes.most_common()
    )
    # The expanded group is the commonest exact row sequence among the commonest shape.
    common = body.shapes.most_common(1)[0][0]
    same_names = [r for r in _value_groups(ctx) if body.groups[r.first].names == common]
    ref_rep = max(same_names, key=lambda r: (r.count, -r.first))
    ref = groups[ref_rep.first]
    differences: list[GroupDifference] = []
    for rep in sorted(same_names, key=lambda r: r.first):
        if rep is ref_rep or len(differences) >= 3:
            continue
        g = groups[rep.first]
        values = ctx.values
        changed = [
            (rows.lines[g.start + offset], a.name, _diff(a, b))
            for offset, (i, j) in enumerate(zip(rep.refs, ref_rep.refs))
            if i != j
            for a, b in [(RowFields(values, i), RowFields(values, j))]
            if a != b
        ]
        differences.append(
            GroupDifference(
                rep.first + 1, rows.lines[g.start], rows.lines[g.end - 1], tuple(changed[:3])
            )
        )
    identical = ref_rep.count
    ref_index = ref_rep.first
    differing = sum(r.count for r in same_names) - identical
    return Structure(
        prologue=row_notes(ctx, 0, pro_end),
        epilogue=row_notes(ctx, epi_start, len(rows)),
        group_count=len(groups),
        shapes=shapes,
        reference_group=ref_index + 1,
        reference=row_notes(ctx, ref.start, ref.end),
        identical_groups=identical,
        differences=tuple(differences),
        differing_groups=differing,
        groups_first_line=rows.lines[groups[0].start],
        groups_last_line=rows.lines[groups[-1].end - 1],
        body_pattern=None,
        body=(),
        body_hidden=0,
    )


# ---- rows ---------------------------------------------------------------------------------


def row_note(ctx: Context, line: int, f: RowFields) -> RowNote:
    """One row with each phase's collective routed to its group (SimAI's rules) and the
    bytes each rank of that group holds."""
    policy = ctx.policy_of(f.policy)
    phases = []
    for name in PHASES:
        ph = f.phase(name)
        group = ctx.route(policy, name, ph.comm)
        size = ctx.sizes.get(group) if group else None
        share = ph.size // size if ph.size is not None and size else None
        why = None
        known = ph.comm is not None and decode_comm(ph.comm, name)[1] is not GroupType.NONE
        if group is None and known and policy is not None:
            # lint has nothing to say here: the policy itself runs the type in no group (a
            # file with no policy at all is told so once, by WK101/WK102, not on every phase)
            why = _("no group under policy {policy}").format(policy=policy)
        phases.append(PhaseNote(name, ph.compute, ph.comm, group, size, ph.size, share, why))
    return RowNote(line, f.name, tuple(phases), f.update_time, f.policy if f.policy else None)


def row_notes(ctx: Context, start: int, end: int) -> tuple[RowNote, ...]:
    rows = ctx.w.rows
    return tuple(
        row_note(ctx, line, f) for line, f in zip(rows.lines[start:end], rows.fields[start:end])
    )


# ---- groups compared by value ---------------------------------------------------------------


@dataclass(slots=True)
class _Rep:
    """Micro-batch groups with equal rows: the first one's index and its rows' values."""

    first: int
    refs: Sequence[int]
    count: int = 1


def _value_groups(ctx: Context) -> list[_Rep]:
    """The groups, collapsed into runs of equal values: one representative slice each.

    Slices of value indexes are compared as arrays, in C, so a file of `ga` identical
    groups costs one comparison per group, not one per row.
    """
    refs = ctx.w.rows.refs
    reps: list[_Rep] = []
    for i, g in enumerate(ctx.body.groups):
        rows = refs[g.start : g.end]
        for rep in reps:
            if rep.refs == rows:
                rep.count += 1
                break
        else:
            if len(reps) >= _MAX_REPS:
                return _value_groups_by_key(ctx)
            reps.append(_Rep(i, rows))
    return reps


def _value_groups_by_key(ctx: Context) -> list[_Rep]:
    """The same for files whose groups mostly differ: every group keyed by a hash of its
    value indexes, each representative a view of the rows' indexes (nothing is copied
    per group: a million distinct rows make ~14k groups that all differ)."""
    refs = ctx.w.rows.refs
    view: Sequence[int] = memoryview(refs) if isinstance(refs, array) else refs
    if len(ctx.w.rows.values) == len(refs):  # each row its own value: each group its own
        return [_Rep(i, view[g.start : g.end]) for i, g in enumerate(ctx.body.groups)]
    by_hash: dict[int, list[_Rep]] = {}
    reps: list[_Rep] = []
    for i, g in enumerate(ctx.body.groups):
        rows = view[g.start : g.end]
        key = hash(rows.tobytes() if isinstance(rows, memoryview) else tuple(rows))
        same = by_hash.setdefault(key, [])
        for rep in same:
            if rep.refs == rows:
                rep.count += 1
                break
        else:
            same.append(_Rep(i, rows))
            reps.append(same[-1])
    return reps


def _diff(a: RowFields, b: RowFields) -> str:
    va, vb = a.values(), b.values()
    parts = []
    for key, value in va.items():
        if value != vb[key]:
            if key.endswith("compute") or key == "update_time":
                here, there = human_ns(_num(value)), human_ns(_num(vb[key]))
            else:
                here, there = str(value), str(vb[key])
            parts.append(
                _("{key} {value} instead of {expected}").format(key=key, value=here, expected=there)
            )
    return "; ".join(parts)


def _num(value: int | str | None) -> int | None:
    return value if isinstance(value, int) else None
