"""WK205 conflicting-duplicate-key: a key is given twice with different values; why and examples in
rules/WK205.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import (
    delete_field,
    field_index,
    field_span,
    header_check,
    repeats,
    shown,
)
from wkparse.diagnostics import Diagnostic, Fix
from wkparse.i18n import _
from wkparse.models.simai.tokens import Reading


@header_check("WK205")
def conflicting_duplicate_key(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for key, occurrences, same in repeats(r):
        if same:
            continue
        last = occurrences[-1]
        earlier = [field_index(o) for o in occurrences[:-1]]
        yield Diagnostic(
            "WK205",
            _(
                "`{key}` is given {n} times with different values: SimAI takes the last, {value}"
            ).format(key=key, n=len(occurrences), value=shown(last)),
            field_span(r.header.fields[earlier[0]]),
            fix=Fix(
                _("keep only the last `{key}` (what SimAI reads)").format(key=key),
                tuple(delete_field(r, i) for i in earlier),
                safe=False,
            ),
        )
