"""WK217 value-misread: simAI reads only part of a header value; why and examples in
rules/WK217.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import as_float, header_check, replacement, value_reads
from wkparse.cpp import INT_MAX
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tokens import Reading
from wkparse.syntax import shown as shown_token


@header_check("WK217")
def value_misread(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for o in value_reads(r):
        t, res = o.value_token, o.result
        if t is None or res is None or res.value is None or res.whole:
            continue
        number = as_float(t.text)
        if number == res.value:
            continue
        fix = None
        if number is not None and number.is_integer() and abs(number) <= INT_MAX:
            exact = int(number)
            fix = replacement(_("write {text}").format(text=exact), t.span, str(exact), safe=False)
        yield Diagnostic(
            "WK217",
            _("`{key}` is {value}, but SimAI reads only {read}").format(
                key=o.key, value=shown_token(t.text), read=res.value
            ),
            t.span,
            fix=fix,
        )
