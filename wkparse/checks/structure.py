"""Structure checks: the policy word (WK106), a UTF-8 BOM (WK107) and the count line against
the rows present (WK105).

The parser's own codes (WK100-WK104, WK110-WK120) cover what the grammar rejects; these
checks cover what parses fine but still stops or misleads SimAI's reader.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from wkparse.ast import CountLine, Span
from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic, Edit, Fix
from wkparse.i18n import _
from wkparse.simai.cpp import stoi
from wkparse.simai.tables import POLICIES
from wkparse.syntax import shown


def declared_rows(count: CountLine) -> int | None:
    """The row count SimAI reads from line 2: its `std::stoi` also takes the leading integer
    of `1291abc` or `1291.0` (WK104), so those are compared with the rows too. None when
    stoi throws or the count is negative (SimAI then makes no layers at all)."""
    if count.value is not None:
        return count.value
    value = stoi(count.text).value
    return value if value is not None and value >= 0 else None


@file_check("WK105")
def count_matches_rows(ctx: Context) -> Iterator[Diagnostic]:
    count = ctx.workload.count
    declared = declared_rows(count) if count is not None else None
    if count is None or declared is None:
        return
    present = len(ctx.workload.rows)
    if declared == present:
        return
    if declared > present:
        effect = _("SimAI adds {n} phantom layers").format(n=f"{declared - present:,}")
    else:
        effect = _("SimAI ignores the last {n} rows").format(n=f"{present - declared:,}")
    fix = Fix(_("set the count to {n}").format(n=present), (Edit(count.span, str(present)),))
    yield Diagnostic(
        "WK105",
        _("line 2 declares {declared} rows but the file has {present}: {effect}").format(
            declared=f"{declared:,}", present=f"{present:,}", effect=effect
        ),
        Span(count.span.line, count.span.column, count.span.end_line, count.span.end_column),
        fix=fix,
    )


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


@file_check("WK107")
def byte_order_mark(ctx: Context) -> Iterator[Diagnostic]:
    workload = ctx.workload
    if not workload.bom:
        return
    header = workload.header
    span = header.policy_span if header is not None else Span.on_line(1, 1, 1)
    policy = f"`{header.policy}`" if header is not None else _("the policy")
    yield Diagnostic(
        "WK107",
        _(
            "a UTF-8 byte order mark precedes {policy}: SimAI reads it as part of the policy "
            "and exits"
        ).format(policy=policy),
        span,
        # column 0 of line 1 addresses the mark itself (the parser's columns start after it)
        fix=Fix(_("remove the byte order mark"), (Edit(Span(1, 0, 1, 1), ""),)),
    )
