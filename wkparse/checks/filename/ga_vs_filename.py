"""WK502 ga-vs-filename: the header's ga differs from the one the AICB file name implies; why
and examples in rules/WK502.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import Header
from wkparse.checks import Context
from wkparse.checks.filename.named_run import differs, training_check
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _
from wkparse.models.aicb import AicbName


@training_check("WK502")
def ga_vs_filename(ctx: Context, header: Header, name: AicbName) -> Iterator[Diagnostic]:
    found = differs(header, "ga", name.ga)
    if found is None:
        return
    ga, span = found
    assert name.dp is not None and name.gbs is not None
    yield Diagnostic(
        "WK502",
        _(
            "ga is {ga} but the file name gives gbs{gbs} / (mbs{mbs} * DP {dp}) = {expected}: "
            "the header or the name was edited"
        ).format(ga=ga, gbs=name.gbs, mbs=name.mbs, dp=name.dp, expected=name.ga),
        span,
    )
