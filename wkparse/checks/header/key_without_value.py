"""WK207 key-without-value: a key SimAI reads has no value, or a value that is not a number; why
and examples in rules/WK207.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import header_check, value_reads
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tokens import Reading
from wkparse.syntax import shown as shown_token


@header_check("WK207")
def key_without_value(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for o in value_reads(r):
        if o.result is None:
            yield Diagnostic(
                "WK207",
                _(
                    "`{key}` ends the line with no value: SimAI reads past the line and crashes"
                ).format(key=o.key_token.text),
                o.key_token.span,
            )
        elif o.result.error == "invalid_argument":
            assert o.value_token is not None
            yield Diagnostic(
                "WK207",
                _("`{key}` is followed by `{value}`, not an integer: SimAI crashes").format(
                    key=o.key_token.text, value=shown_token(o.value_token.text)
                ),
                o.key_token.span,
            )
