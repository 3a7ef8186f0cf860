"""WK208 value-overflow: a header value is larger than 2,147,483,647; why and examples in
rules/WK208.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import header_check, value_reads
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tokens import Reading
from wkparse.syntax import shown as shown_token


@header_check("WK208")
def value_overflow(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for o in value_reads(r):
        if o.result is not None and o.result.error == "out_of_range" and o.value_token:
            yield Diagnostic(
                "WK208",
                _(
                    "`{key}` is {value}, over 2,147,483,647: SimAI's stoi throws and it crashes"
                ).format(key=o.key, value=shown_token(o.value_token.text)),
                o.value_token.span,
            )
