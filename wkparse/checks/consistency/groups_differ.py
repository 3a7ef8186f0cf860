"""WK304 groups-differ: one micro-batch group's rows differ from the others'; why and
examples in rules/WK304.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.body import Group
from wkparse.checks import Context, file_check
from wkparse.checks.consistency.declared import name_span, row_name
from wkparse.checks.training import training_header
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _, _plural


@file_check("WK304")
def groups_differ(ctx: Context) -> Iterator[Diagnostic]:
    header = training_header(ctx)
    body = ctx.body
    reference = body.reference
    if header is None or reference is None or len(body.shapes) < 2:
        return
    merged = {m.index for m in body.orphan_lists}
    odd = [
        (n, g)
        for n, g in enumerate(body.groups, 1)
        if g.names != reference.names and not any(g.start < i < g.end for i in merged)
    ]
    if not odd:
        return
    number, group = odd[0]
    index, what = _first_difference(group, reference)
    others = _(" ({n} more differ)").format(n=len(odd) - 1) if len(odd) > 1 else ""
    yield Diagnostic(
        "WK304",
        _("micro-batch group {number} of {groups} differs from the others{others}: {what}").format(
            number=number, groups=len(body.groups), others=others, what=what
        ),
        name_span(ctx, index),
    )


def _first_difference(group: Group, reference: Group) -> tuple[int, str]:
    """The row index where `group` first departs from `reference`, and how, in words."""
    for i, (a, b) in enumerate(zip(group.names, reference.names)):
        if a != b:
            return group.start + i, _("row {n} is `{name}`, not `{expected}`").format(
                n=i + 1, name=row_name(a), expected=row_name(b)
            )
    if group.size < reference.size:
        missing = reference.names[group.size]
        return (
            group.end - 1,
            _("{rows}, not {expected} (no `{name}`)").format(
                rows=_plural(group.size, "{n} row", "{n} rows"),
                expected=reference.size,
                name=row_name(missing),
            ),
        )
    return (
        group.start + reference.size,
        _("{rows}, not {expected} (extra `{name}`)").format(
            rows=_plural(group.size, "{n} row", "{n} rows"),
            expected=reference.size,
            name=row_name(group.names[reference.size]),
        ),
    )
