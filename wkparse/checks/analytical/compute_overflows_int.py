"""WK701 compute-overflows-int: a compute time of 2^31 ns or more, which SimAI-Analytical's
`int` cuts (a hang, or an empty result); why and examples in rules/WK701.toml."""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.ast import ROW_FIELDS, RowFields
from wkparse.checks import Context, RowProblem, row_check
from wkparse.checks.analytical.common import PHASE_WORDS, facts
from wkparse.i18n import _
from wkparse.simai.timeline import cut_int


@row_check("WK701", reads=("fwd_compute", "ig_compute", "wg_compute"))
def compute_overflows_int(ctx: Context, fields: RowFields) -> Iterator[RowProblem]:
    if facts(ctx) is None:
        return
    for phase in ("fwd", "ig", "wg"):
        value = fields.phase(phase).compute
        if value is None:
            continue
        cut = cut_int(value)
        if cut is None:
            continue
        ns, as_int = cut
        if as_int < 0:
            what = _("SimAI never finishes (its clock runs toward 2^64)")
        else:
            what = _("SimAI exits 0 at once with an empty EndToEnd.csv")
        yield RowProblem(
            "WK701",
            ROW_FIELDS.index(f"{phase}_compute"),
            _("the {phase} compute {ns} ns is {cut} as SimAI's int: {what}").format(
                phase=_(PHASE_WORDS[phase]), ns=ns, cut=as_int, what=what
            ),
        )
