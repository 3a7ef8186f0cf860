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


@file_check("WK106")
def unknown_policy(ctx: Context) -> Iterator[Diagnostic]:
    header = ctx.workload.header
    if header is None or header.policy in POLICIES:
        return
    guess = suggest_policy(header.policy)
    hint = _("; did you mean `{guess}`?").format(guess=guess) if guess else ""
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
