# ruff: noqa: RUF001 - Chinese text is written with its own full-width punctuation
"""A concept's numbers in one file: what `wkparse concept NAME FILE` adds to the page.

Each number comes from the models run on the file as SimAI reads it (`simulate` with the
options given, or wkparse's stated set): the bubble and its terms, DP, the ns-3 groups, each
distinct collective's algbw and busbw, a header key's value, the totals of EndToEnd.csv, the
parameters behind AICB's gradient rows. A page the models say nothing about in a file gets
no numbers (the command says so).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from wkparse.concepts import Text
from wkparse.models.simai.ieee import whole
from wkparse.models.simai.options import options_for
from wkparse.models.simai.report import TOTAL_KEYS, Report
from wkparse.models.simai.run import SimaiRun, simulate
from wkparse.models.simai.versions import DEFAULT, SimaiVersion
from wkparse.record import record

#: the most distinct collectives listed for busbw and algbw
MOST_COLLECTIVES = 20


@record
class Number:
    """One number of the file, labelled in both languages."""

    label: Text
    value: Text


Numbers = Callable[[SimaiRun], Iterator[Number]]


def _n(en: str, zh: str, value: object) -> Number:
    return Number(Text(en, zh), Text(str(value), str(value)))


def _us(value: float | None) -> str:
    """A total as EndToEnd.csv prints it (`NaN or Inf` where it is not finite), in us."""
    return "n/a" if value is None else f"{whole(value)} us"


def _total(report: Report | None, key: str) -> float | None:
    return None if report is None else report.totals.get(key)


def _sizes(run: SimaiRun) -> Iterator[Number]:
    h = run.header
    yield _n("TP (model_parallel_NPU_group)", "TP（model_parallel_NPU_group）", h.held("tp"))
    yield _n("PP", "PP", h.held("pp"))
    yield _n("vpp", "vpp", h.held("vpp"))
    yield _n("ga", "ga", h.held("ga"))


def _bubble(run: SimaiRun) -> Iterator[Number]:
    yield from _sizes(run)
    yield _n("bubble time", "气泡时间", _us(_total(run.report, "bubble_time_us")))


def _pp_comm(run: SimaiRun) -> Iterator[Number]:
    yield from _sizes(run)
    yield _n("pp_comm (bytes)", "pp_comm（字节）", run.header.held("pp_comm"))
    if run.options is not None:
        yield _n("-pp_o", "-pp_o", f"{run.options.pp_overlap:g}")
    yield _n("Expose_PP_comm", "Expose_PP_comm", _us(_total(run.report, "expose_pp_comm_us")))


def _dp(run: SimaiRun) -> Iterator[Number]:
    yield _n("-g", "-g", run.gpus)
    yield _n("TP", "TP", run.header.held("tp"))
    yield _n("PP", "PP", run.header.held("pp"))
    if run.dp is None:  # the run ends before SimAI computes it
        yield Number(
            Text("DP = -g / (TP x PP)", "DP = -g / (TP x PP)"),
            Text(
                "not reached (the run ends before SimAI computes it)",
                "未算到（SimAI 在算出它之前就结束了）",
            ),
        )
    else:
        yield _n("DP = -g / (TP x PP)", "DP = -g / (TP x PP)", run.dp)


def _ns3_groups(run: SimaiRun) -> Iterator[Number]:
    from wkparse.models.simai.ns3 import make_groups

    gpus = run.gpus or 0
    groups = make_groups(run.header.held("tp"), run.header.held("ep"), gpus)
    yield _n(
        "GPUs (-g here; the topology's in a real run)",
        "GPU 数（此处为 -g；实际运行时取拓扑的）",
        gpus,
    )
    yield _n("TP group", "TP 组", groups.tp)
    yield _n("DP = GPUs / TP", "DP = GPU 数 / TP", groups.dp)
    yield _n("EP group", "EP 组", groups.ep)
    yield _n("DP_EP = DP / EP", "DP_EP = DP / EP", groups.dp_ep)


def _collectives(run: SimaiRun) -> Iterator[Number]:
    """Each distinct (phase, collective, group, ranks, size) once, first row first."""
    if run.report is None:
        return
    seen: set[tuple[object, ...]] = set()
    for index, layer in run.report.distinct():
        for phase in ("fwd", "wg", "ig"):
            p = layer.phase(phase)
            key = (phase, p.com, p.group, p.ranks, p.size)
            if p.com.value == "NONE" or key in seen:
                continue
            seen.add(key)
            if len(seen) > MOST_COLLECTIVES:
                return
            # the row by its line, as lint and explain name it (`index` is SimAI's layer
            # number, from 0); a layer SimAI makes from nothing has no line
            line = run.rows.layers.line(index) if run.rows is not None else None
            where, where_zh = (
                (f"layer {index}", f"第 {index} 层")
                if line is None
                else (f"line {line}", f"第 {line} 行")
            )
            what = f"{where} {layer.name} {phase}: {p.com.value} in {p.group.value}"
            what += f" of {p.ranks}, {p.size} B"
            what_zh = f"{where_zh} {layer.name} {phase}：{p.com.value}，{p.group.value} 组"
            what_zh += f" {p.ranks} 个 rank，{p.size} B"
            yield _n(what, what_zh, f"algbw {p.algbw:.2f} GB/s, busbw {p.busbw:.2f} GB/s")


def _header_key(name: str) -> Numbers:
    def numbers(run: SimaiRun) -> Iterator[Number]:
        value = run.header.value(name)
        label = Text(f"{name} as SimAI reads it", f"SimAI 读出的 {name}")
        if value is None:
            yield Number(label, Text("not set (SimAI holds 0)", "未设置（SimAI 视为 0）"))
        else:
            yield _n(label.en, label.zh, value)

    return numbers


def _summary(run: SimaiRun) -> Iterator[Number]:
    report = run.report
    if report is None:
        return
    for key in (*TOTAL_KEYS, "total_time_us"):
        label = key.removesuffix("_us").replace("_", " ")
        yield _n(label, label, _us(report.totals.get(key)))


def _grad(row: str, per_parameter: int) -> Numbers:
    def numbers(run: SimaiRun) -> Iterator[Number]:
        if run.rows is None:
            return
        for layer in run.rows.layers:
            if layer.name == row and layer.wg.size is not None:
                size = layer.wg.size
                yield _n(f"{row} weight-gradient size", f"{row} 权重梯度大小", f"{size} B")
                yield _n(
                    f"parameters other than MoE = size / {per_parameter}",
                    f"非 MoE 参数数量 = 大小 / {per_parameter}",
                    size // per_parameter,
                )
                return

    return numbers


#: the pages with numbers in a file, by id
BY_PAGE: dict[str, Numbers] = {
    "bubble": _bubble,
    "expose-pp-comm": _pp_comm,
    "pp_o": _pp_comm,
    "dp": _dp,
    "gpus": _dp,
    "ns3-dp": _ns3_groups,
    "busbw": _collectives,
    "algbw": _collectives,
    "column-total-comm": _collectives,
    "end-to-end-csv": _summary,
    "total-time": _summary,
    "total-comp": _summary,
    "total-exposed-comm": _summary,
    "grad-gather": _grad("grad_gather", 2),
    "grad-param-comm": _grad("grad_param_comm", 4),
    "model_parallel_npu_group": _header_key("tp"),
    "ep": _header_key("ep"),
    "pp": _header_key("pp"),
    "vpp": _header_key("vpp"),
    "ga": _header_key("ga"),
    "all_gpus": _header_key("all_gpus"),
    "pp-comm": _header_key("pp_comm"),
}


def has_numbers(page_id: str) -> bool:
    return page_id in BY_PAGE


def file_run(data: bytes, name: str, words: list[str], version: SimaiVersion = DEFAULT) -> SimaiRun:
    """What SimAI_analytical does with the file under `words` (none: wkparse's stated set)."""
    return simulate(data, None, options_for(Path(name), data, None, words, version), version)


def numbers(page_id: str, run: SimaiRun) -> list[Number]:
    """The page's numbers in the file `run` read (empty when the models say none)."""
    found = BY_PAGE.get(page_id)
    if found is None:
        return []
    if run.outcome.kind == "ok":
        return list(found(run))
    o = run.outcome
    ending = Number(
        Text("how SimAI's run ends", "SimAI 运行的结局"),
        # SimAI's own words stay as it prints them
        Text(f"exit {o.exit_code}: {o.message}", f"退出码 {o.exit_code}：{o.message}"),
    )
    if run.count is None:
        # it ends on line 1: no value of the file was read, a number would be SimAI's zeros
        return [ending]
    return [ending, *found(run)]
