"""`wkparse simai` text: SimAI's options and the EndToEnd.csv it writes, in words: the
total, where the time goes, the layers that cost most, and why a total is NaN/Inf or
infinite."""

from __future__ import annotations

import math

from wkparse.ast import PHASE_WORDS
from wkparse.i18n import english_count
from wkparse.models.simai.busbw import nic_of, nvlink_of
from wkparse.models.simai.ieee import fixed, whole
from wkparse.models.simai.options import (
    SimaiOptions,
    command_line,
    environment_note,
    gpu_type_name,
)
from wkparse.models.simai.reasons import why
from wkparse.models.simai.report import LayerResult, Report
from wkparse.models.simai.run import SimaiRun

#: how many of the costliest layers are listed
TOP = 5


def bandwidth_line(opts: SimaiOptions) -> str:
    if opts.busbw is not None:
        # before 26b4574b: the -busbw file's figures, per group and collective
        shown = [f"{sec} {col} {v:g}" for (sec, col), v in sorted(opts.busbw.values.items())]
        pp = f", PP {opts.busbw.pp:g}" if opts.busbw.pp > 0 else ""
        return (
            f"bandwidths (GB/s, -busbw {opts.busbw_file}): {', '.join(shown)}{pp}; "
            f"{opts.g_p_s} GPUs per server"
        )
    if opts.nvlink > 0:
        nv = f"NVLink {opts.nvlink:g} GB/s (-nv)"
    else:
        kind = gpu_type_name(opts.gpu_type_value)
        unset = ", -g_type unset: read as 0" if opts.gpu_type is None else ""
        value = nvlink_of(opts.gpu_type_value)
        nv = f"NVLink {value:g} GB/s ({kind}{unset})" if value > 0 else f"NVLink -1 ({kind})"
    nic = f"{opts.nic:g} GB/s (-nic)" if opts.nic > 0 else f"{nic_of(opts.nic_type):g} GB/s"
    if opts.nic <= 0:
        nic += f" ({opts.nic_type})"
    nics = english_count(opts.n_p_s, "NIC") if opts.nics_per_server is not None else "NICs unset"
    per_server = f"{english_count(opts.g_p_s, 'GPU')} and {nics}"
    return f"bandwidths: {nv}; NIC {nic}; {per_server} per server"


def _share(value: float, total: float) -> str:
    if not math.isfinite(total) or total == 0:
        return whole(value)
    return f"{whole(value)} ({fixed(value / total * 100, 2)}%)"


def costliest(report: Report) -> list[tuple[int, LayerResult]]:
    """The layers with the most compute plus exposed comm (first occurrence of equals); only
    those get a `LayerResult`."""
    return [(report.first_index[v], report.layer(v)) for v in report.costliest(TOP)]


def result_lines(run: SimaiRun) -> list[str]:
    opts = run.options
    if opts is None or run.outcome.kind == "refused":
        return []
    out = [f"SimAI's options: {command_line(opts)}"]
    ignored = environment_note(opts)
    if ignored is not None:
        out.append(f"note: {ignored}")
    out.append(bandwidth_line(opts))
    out += [f"warning: {w}" for w in run.option_warnings]
    report = run.report
    if report is None:
        return out
    if report.summary is None:
        out.append(f"EndToEnd.csv: {report.row_count} layer rows, no summary")
        return out
    t = report.totals
    total = t["total_time_us"]
    out.append(f"EndToEnd.csv: Total time {whole(total)} us")
    groups = (
        ("DP", "expose_dp_comm_us"),
        ("DP_EP", "expose_dp_ep_comm_us"),
        ("TP", "expose_tp_comm_us"),
        ("EP", "expose_ep_comm_us"),
    )
    comm = ", ".join(f"{name} {whole(t[key])}" for name, key in groups if t[key])
    out.append(
        "  where the time goes: compute "
        + _share(t["total_comp_us"], total)
        + ", exposed comm "
        + _share(t["total_exposed_comm_us"], total)
        + (f" ({comm})" if comm else "")
        # b1c1eb66's summary has no PP comm
        + (
            ""
            if "expose_pp_comm_us" not in t
            else ", PP comm " + _share(t["expose_pp_comm_us"], total)
        )
        + ", bubble "
        + _share(t["bubble_time_us"], total)
    )
    top = costliest(report)
    if top:
        out.append("  layers that cost most (compute + exposed comm, us; first of identical rows):")
        for i, layer in top:
            phases = "  ".join(
                f"{n} {whole(layer.phase(n).compute_ns / 1000.0)}"
                f"+{whole(layer.phase(n).exposed_ns / 1000.0)}"
                for n in PHASE_WORDS
            )
            out.append(f"    {i:>7}  {layer.name:<24} {phases}")
    reason = why(run, report)
    if reason is not None:
        out.append(f"  why: {reason}")
    return out
