"""WK214 key-without-colon: a key is written without its colon, or without a blank after it; why
and examples in rules/WK214.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import glued_key, header_check, known_keys, replacement, shown
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.header import keys_read
from wkparse.models.simai.tokens import Reading
from wkparse.syntax import shown as shown_token


@header_check("WK214")
def key_without_colon(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    known = known_keys(r.header.policy)
    read = set(keys_read(r.header.policy))
    for i, t in enumerate(r.tokens):
        if not t.key or t.field is None or i in r.consumed:
            continue
        f = r.header.fields[t.field]
        glued = glued_key(f, known)
        if glued is not None:
            key, value = glued
            if key not in read:
                continue
            yield Diagnostic(
                "WK214",
                _(
                    "`{field}` has no blank after its colon: SimAI ignores it, as if {key} "
                    "were missing"
                ).format(field=shown_token(f.key), key=key),
                f.span,
                fix=replacement(
                    _("write {text}").format(text=f"`{key}: {value}`"), f.span, f"{key}: {value}"
                ),
            )
        elif not f.colon and f.key in read and f.key != "pp_comm":
            value = " ".join(v.text for v in f.values) or "N"
            other = r.last(f.key)
            yield Diagnostic(
                "WK214",
                _(
                    "`{field}` has no colon: SimAI ignores it, as if {key} were missing{read}"
                ).format(
                    field=f"{f.key} {shown_token(value)}",
                    key=f.key,
                    read=_(" (it reads {value} from column {column})").format(
                        value=shown(other), column=other.key_token.span.column
                    )
                    if other
                    else "",
                ),
                f.span,
                fix=replacement(
                    _("add the colon: `{key}:`").format(key=f.key),
                    f.span,
                    f"{f.key}:",
                    other is None,
                ),
            )
