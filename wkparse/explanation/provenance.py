"""Which generator wrote the file, and when: the AICB era its header keys, pp_comm and MoE
row shapes date it to (each reason a dated change of AICB), or ASTRA-sim 1.0's style."""

from __future__ import annotations

from collections.abc import Sequence

from wkparse.explanation.context import Context
from wkparse.explanation.model import Era
from wkparse.explanation.routing import TRANSFORMER_DIALECTS
from wkparse.explanation.values import written_number
from wkparse.i18n import _
from wkparse.models.aicb.revisions import introduced

#: dates of the changes a file shows, from AICB's revision table (`aicb.revisions`)
VPP = introduced("vpp").date
PP_COMM = introduced("pp_comm").date
ZERO_AT_PP_1 = introduced("pp_comm_zero_at_pp_1").date
SP_DIVIDED = introduced("pp_comm_divided_under_sp").date
ZEROED = introduced("none_sizes_zeroed").date
MOE_FIVE = introduced("moe_five_rows").date


def era(ctx: Context, compute: str) -> Era | None:
    """The era of a transformer-style or MICRO file; `compute` is `Generation.compute`."""
    header = ctx.header
    if header is None or (ctx.policy not in TRANSFORMER_DIALECTS and ctx.policy != "MICRO"):
        return None
    keys = [f.key for f in header.fields]
    if ctx.policy == "MICRO":
        if ctx.names <= {"micro_test"}:
            return Era(_("AICB collective micro-benchmark (MICRO)"), None, None, ())
        return None
    reasons: list[str] = []
    if (
        ctx.dialect == "inference"
        and "mode" in keys
        and "all_gpus" in keys
        and keys.index("all_gpus") < keys.index("mode")
    ):
        return Era(
            _("AICB inference generator, 2025-10 or later"),
            "2025-10",
            None,
            (_("inference key order: all_gpus before mode: 1 and vpp"),),
        )
    has = set(keys)
    if not has & {"ep", "pp", "ga", "all_gpus", "vpp"}:
        if ctx.names and ctx.names <= {"micro_test"}:
            return Era(
                _("AICB v1.0 micro-benchmark (transformer header)"),
                None,
                None,
                (_("micro_test rows under a header with only model_parallel_NPU_group"),),
            )
        who = "AICB v1.0" if ctx.aicb_rows or _aicb_like(ctx.names) else "ASTRA-sim 1.0"
        return Era(
            _("{who}-style header").format(who=who),
            None,
            None,
            (_("the header carries only model_parallel_NPU_group"),),
        )
    earliest: str | None = None
    latest: str | None = None
    pp_comm = header.read("pp_comm")
    if "vpp" not in has:
        latest = VPP
        reasons.append(_("no vpp, which AICB added on {date}").format(date=VPP))
    elif pp_comm is None:
        earliest, latest = VPP, PP_COMM
        reasons.append(
            _("vpp, added {vpp}, but no pp_comm, added {pp_comm}").format(vpp=VPP, pp_comm=PP_COMM)
        )
    else:
        earliest = PP_COMM
        text = pp_comm.value.text if pp_comm.value is not None else ""
        value = written_number(text)
        if isinstance(value, float) and not text.isdigit():
            earliest = SP_DIVIDED
            reasons.append(
                _("pp_comm written as a float, {text}, as from {date}").format(
                    text=text, date=SP_DIVIDED
                )
            )
        elif ctx.pp == 1 and value == 0:
            earliest = ZERO_AT_PP_1
            reasons.append(_("pp_comm: 0 with PP 1, written from {date}").format(date=ZERO_AT_PP_1))
        elif ctx.pp == 1 and value:
            latest = ZERO_AT_PP_1
            reasons.append(
                _("pp_comm non-zero with PP 1, written only from {earliest} to {latest}").format(
                    earliest=PP_COMM, latest=ZERO_AT_PP_1
                )
            )
        else:
            reasons.append(_("pp_comm present, added {date}").format(date=PP_COMM))
    act = ctx.body.activation_bytes
    if (
        ctx.body.sequence_parallel
        and ctx.pp
        and ctx.pp > 1
        and ctx.tp
        and ctx.tp > 1
        and pp_comm is not None
        and pp_comm.value is not None
        and pp_comm.value.text == str(act)
    ):
        latest = _min_date(latest, SP_DIVIDED)
        reasons.append(
            _("pp_comm is the whole activation under SP; divided by TP from {date}").format(
                date=SP_DIVIDED
            )
        )
    if compute == "measured" and _none_with_size(ctx):
        latest = _min_date(latest, ZEROED)
        reasons.append(
            _(
                "NONE columns with non-zero sizes in a measured AIOB file; zeroed from {date}"
            ).format(date=ZEROED)
        )
    per_layer = moe_rows_per_layer(
        ctx.body.reference.names if ctx.body.reference is not None else ()
    )
    if per_layer == 7:
        latest = _min_date(latest, MOE_FIVE)
        reasons.append(_("7 mlp_moelayer rows per MoE layer; 5 from {date}").format(date=MOE_FIVE))
    elif per_layer == 5:
        earliest = _max_date(earliest, MOE_FIVE)
        reasons.append(_("5 mlp_moelayer rows per MoE layer, as from {date}").format(date=MOE_FIVE))
    if earliest and latest:
        label = _("AICB {earliest} to {latest}").format(earliest=earliest, latest=latest)
    elif earliest:
        label = _("AICB {earliest} or later").format(earliest=earliest)
    elif latest:
        label = _("AICB before {latest}").format(latest=latest)
    else:  # pragma: no cover  (every branch above bounds one side)
        label = "AICB"
    return Era(label, earliest, latest, tuple(reasons))


def _none_with_size(ctx: Context) -> bool:
    """Whether a NONE column carries bytes: read from the totals' per-key size sums."""
    texts = ctx.values.texts
    return any(
        texts[comm] == "NONE" and size
        for (_, _, *comms), _, sums in ctx.combinations
        for comm, (_, size) in zip(comms, sums)
    )


def _aicb_like(names: set[str | None]) -> bool:
    return any(n is not None and (n.startswith("grad_norm") or "_layer" in n) for n in names)


def _min_date(a: str | None, b: str) -> str:
    return b if a is None or b < a else a


def _max_date(a: str | None, b: str) -> str:
    return b if a is None or b > a else a


def moe_rows_per_layer(names: Sequence[str | None]) -> int | None:
    """mlp_moelayer rows in the first MoE layer of a group, None when there is none."""
    count = 0
    for name in names:
        if name == "mlp_moelayer":
            count += 1
        elif count:
            break
    return count or None
