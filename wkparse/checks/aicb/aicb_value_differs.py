"""WK603 aicb-value-differs: a row value differs from what AICB writes for the command; why and
examples in rules/WK603.toml.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wkparse.ast import ROW_FIELDS
from wkparse.checks import Context, file_check
from wkparse.checks.aicb.expected import VALUE, comparison, expected, show, where
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _, ngettext


@file_check(VALUE)
def aicb_value_differs(ctx: Context) -> Iterator[Diagnostic]:
    made = expected(ctx)
    if made is None:
        return
    groups = len(made.workload.groups)
    for key, seen in comparison(ctx.file, made).values.items():
        section, name, index, here, there = key
        at = where(section, seen, groups)
        if index >= 0:
            message = _(
                "{field} of {name} differs {where}: {here} here, AICB writes {there}"
            ).format(
                field=ROW_FIELDS[index].replace("_", " "),
                name=name,
                where=at,
                here=show(here),
                there=show(there),
            )
        else:
            message = _("{name} differs {where} in {fields}").format(
                name=name, where=at, fields=_fields(here, there)
            )
        yield Diagnostic(VALUE, message, seen.span)


def _fields(here: Any, there: Any) -> str:
    """`fwd compute (1 here, AICB writes 2) and 3 more fields`: a row's several departures."""
    differ = [k for k in range(1, len(there)) if here[k] != there[k]]
    first = differ[0]
    more = len(differ) - 1
    return ngettext(
        "{field} ({here} here, AICB writes {there}) and {n} more field",
        "{field} ({here} here, AICB writes {there}) and {n} more fields",
        more,
    ).format(
        field=ROW_FIELDS[first].replace("_", " "),
        here=show(here[first]),
        there=show(there[first]),
        n=more,
    )
