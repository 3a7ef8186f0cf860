"""WK106 unknown-policy: line 1 names no policy SimAI knows; why and examples in
rules/WK106.toml.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic, Edit, Fix
from wkparse.i18n import _
from wkparse.models.simai.tables import POLICIES
from wkparse.syntax import shown


def suggest_policy(word: str) -> str | None:
    """The policy a mistyped word most likely meant (case first, then spelling), or None."""
    upper = word.upper().replace("-", "_")
    if upper in POLICIES:
        return upper
    close = difflib.get_close_matches(upper, POLICIES, n=1, cutoff=0.75)
    return close[0] if close else None


def _header_below(ctx: Context) -> int | None:
    """The line of the first later line that starts with a policy SimAI knows (a header
    after comment lines), or None."""
    rows = ctx.file.rows
    for line, name in zip(rows.lines, rows.names):
        if name in POLICIES:
            return line
    count = ctx.file.count
    if count is not None and count.text.split(maxsplit=1)[:1] and count.text.split()[0] in POLICIES:
        return count.span.line
    return None


@file_check("WK106")
def unknown_policy(ctx: Context) -> Iterator[Diagnostic]:
    header = ctx.workload.header
    if header is None or header.policy in POLICIES:
        return
    guess = suggest_policy(header.policy)
    hint = _("; did you mean `{guess}`?").format(guess=guess) if guess else ""
    below = _header_below(ctx)
    if below is not None:
        # SimAI reads line 1 only: a header further down (after comments) is never reached
        guess, hint = (
            None,
            _(
                "; the header stands on line {line}: SimAI reads line 1 as the header, so delete "
                "the lines before it"
            ).format(line=below),
        )
    fix = None
    if guess:
        fix = Fix(
            _("replace with {text}").format(text=guess),
            (Edit(header.policy_span, guess),),
            safe=False,
        )
    yield Diagnostic(
        "WK106",
        _("`{policy}` is not a policy SimAI knows: SimAI exits{hint}").format(
            policy=shown(header.policy), hint=hint
        ),
        header.policy_span,
        fix=fix,
    )
