"""Where SimAI's options and a workload file do not fit, and what SimAI then does.

SimAI takes the world size from `-g`, not from the header's `all_gpus`, floors DP, and
integer-divides the NICs and GPUs of a server among the ranks of a group; it never says so.
Each warning here names the mismatch and SimAI's answer to it.
"""

from __future__ import annotations

from wkparse.i18n import _
from wkparse.models.simai.options import SimaiOptions
from wkparse.models.simai.parallel import data_parallel


def times_undefined(opts: SimaiOptions) -> bool:
    """No -n_p_s: SimAI leaves its NICs per server uninitialised, so the times it reports
    (and the total they add up to) are no number to quote."""
    return not opts.stated and opts.nics_per_server is None


def option_warnings(
    opts: SimaiOptions, tp: int, pp: int, ep: int, all_gpus: int | None, gpus: int
) -> list[str]:
    """One short line per mismatch between the options and the file's header (none for
    wkparse's stated set, which fills -g from all_gpus and chooses 8 GPUs per server)."""
    out: list[str] = []
    if opts.stated:
        return out
    tp_pp = tp * pp
    if opts.gpus is None:
        out.append(
            _(
                "no -g: SimAI reads the first of no GPU counts (undefined, from SimAI's "
                "source, not run); wkparse used all_gpus {gpus}"
            ).format(gpus=gpus)
        )
    elif all_gpus is not None and gpus != all_gpus:
        out.append(
            _(
                "-g {gpus} differs from all_gpus {all_gpus}: SimAI takes the world size from "
                "-g (DP and the DP collectives' groups follow it)"
            ).format(gpus=gpus, all_gpus=all_gpus)
        )
    if tp_pp > 0:
        dp = data_parallel(gpus, tp, pp) or 0
        if dp == 0:
            out.append(
                _(
                    "-g {gpus} is below TP x PP = {tp_pp}: DP is 0 and SimAI costs every DP "
                    "collective 0"
                ).format(gpus=gpus, tp_pp=tp_pp)
            )
        elif gpus % tp_pp:
            out.append(
                _(
                    "-g {gpus} is not a multiple of TP x PP = {tp_pp}: SimAI floors DP to {dp}"
                ).format(gpus=gpus, tp_pp=tp_pp, dp=dp)
            )
        if ep > 1 and dp > 0 and dp % ep:
            out.append(
                _("DP {dp} is not a multiple of EP {ep}: SimAI floors DP/EP to {floor}").format(
                    dp=dp, ep=ep, floor=dp // ep
                )
            )
    gps, nps = opts.g_p_s, opts.n_p_s
    if times_undefined(opts):
        out.append(
            _(
                "no -n_p_s: SimAI leaves its NICs per server uninitialised, and every collective "
                "of 1 MiB or more takes its bus bandwidth from that count (below 1: busbw -1), so "
                "their times are undefined (from SimAI's source, not run)"
            )
        )
    elif tp > 0 and nps < tp <= gps:
        out.append(
            _(
                "-n_p_s {nps} is below TP {tp}: a DP collective gets {nps} // {tp} = 0 NICs, "
                "busbw -1, a wrapped time, and SimAI drops its DP comm from the total"
            ).format(nps=nps, tp=tp)
        )
    if gps > gpus > 0:
        out.append(
            _(
                "-g_p_s {gps} exceeds -g {gpus}: SimAI counts 0 NVSwitches; groups are still "
                "placed as if a server held -g_p_s GPUs"
            ).format(gps=gps, gpus=gpus)
        )
    if tp > gps > 0 and tp % gps:
        out.append(
            _("TP {tp} is not a multiple of -g_p_s {gps}: SimAI floors TP's servers to {n}").format(
                tp=tp, gps=gps, n=tp // gps
            )
        )
    return out
