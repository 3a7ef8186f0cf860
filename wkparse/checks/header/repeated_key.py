"""WK206 repeated-key: a key is given twice with the same value; why and examples in
rules/WK206.toml.
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
)
from wkparse.diagnostics import Diagnostic, Fix
from wkparse.i18n import _
from wkparse.models.simai.tokens import Reading


@header_check("WK206")
def repeated_key(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for key, occurrences, same in repeats(r):
        if not same:
            continue
        for o in occurrences[1:]:
            index = field_index(o)
            yield Diagnostic(
                "WK206",
                _(
                    "`{key}` is repeated with the same value: a later edit to one of them will "
                    "silently not count"
                ).format(key=key),
                field_span(r.header.fields[index]),
                fix=Fix(
                    _("delete the repeated `{key}`").format(key=key), (delete_field(r, index),)
                ),
            )
