"""WK704 policy-without-tp-pp: a policy SimAI decodes but sets no TP or PP for, so
SimAI-Analytical divides by 0 computing DP (SIGFPE); why and examples in rules/WK704.toml.

The same fact `wkparse simai` predicts (`wkparse.models.simai.run`): the rule asks the model's own
header reading, so lint, explain and simai cannot disagree about it.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.simai.tables import POLICIES, TRANSFORMER_POLICIES


@file_check("WK704")
def policy_without_tp_pp(ctx: Context) -> Iterator[Diagnostic]:
    header = ctx.workload.header
    if header is None or header.policy not in POLICIES or header.policy in TRANSFORMER_POLICIES:
        return
    yield Diagnostic(
        "WK704",
        _(
            "SimAI-Analytical dies of SIGFPE (exit 136) on a {policy} file: it sets neither TP "
            "nor PP and divides -g by TP x PP"
        ).format(policy=header.policy),
        header.policy_span,
    )
