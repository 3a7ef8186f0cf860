"""WK216 float-value: a header value is written as a float with no fraction; why and examples in
rules/WK216.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import as_float, header_check, replacement, value_reads
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tokens import Reading
from wkparse.syntax import shown as shown_token


@header_check("WK216")
def float_value(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for o in value_reads(r):
        t, res = o.value_token, o.result
        if t is None or res is None or res.value is None or res.whole:
            continue
        if as_float(t.text) != res.value:
            continue
        yield Diagnostic(
            "WK216",
            _("`{key}` is written as a float, {text}: SimAI reads {value}, the same number").format(
                key=o.key, text=shown_token(t.text), value=res.value
            ),
            t.span,
            fix=replacement(_("write {text}").format(text=res.value), t.span, str(res.value)),
        )
