"""WK204 unknown-key: the header has a key SimAI does not read; why and examples in
rules/WK204.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context
from wkparse.checks.header.reading import header_check, replacement, unknown_fields
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tokens import Reading
from wkparse.syntax import shown as shown_token


@header_check("WK204")
def unknown_key(ctx: Context, r: Reading) -> Iterator[Diagnostic]:
    for f, guess in unknown_fields(r):
        written = f"`{f.key}:`" if f.colon else f"`{f.key}`"
        fix = None
        hint = ""
        if guess is not None and not r.written(guess):
            hint = _("; did you mean `{guess}`?").format(guess=f"{guess}:")
            fix = replacement(
                _("rename to {name}").format(name=f"`{guess}:`"), f.span, f"{guess}:", safe=False
            )
        elif guess is not None:
            hint = _(" (the header already has `{key}:`)").format(key=guess)
        yield Diagnostic(
            "WK204",
            _("SimAI ignores {key}, no key for {policy}{hint}").format(
                key=shown_token(written), policy=r.header.policy, hint=hint
            ),
            f.span,
            fix=fix,
        )
