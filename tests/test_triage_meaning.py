# ruff: noqa: RUF001 - Chinese threads are written with their own full-width punctuation
"""What a thread asks things to mean, answered from the models only when its words raise
the topic: units, busbw, collective sizes and groups, a topology's first line, `-busbw`,
AICB's presets; and the answer's guards (a cut command, a doubted result, the end of a log,
a refused option run again without it)."""

from __future__ import annotations

import pytest

from wkparse import triage
from wkparse.threads import sources, symptoms

HEAD = "---\ntitle: {title}\ncreated: 2026-01-12\nlanguage: {lang}\n---\n\n"


def _thread(title: str, body: str, lang: str = "en") -> str:
    return HEAD.format(title=title, lang=lang) + body


def _concepts(text: str) -> list[str]:
    t = triage(text)
    return [
        a.answer
        for a in t.answers
        if a.question
        in (
            "What do the terms you ask about mean?",
            "你问到的这些内容是什么意思？",
            "How does SimAI_simulator lay the groups on your topology?",
        )
    ]


def test_a_thread_that_asks_nothing_gets_no_concepts() -> None:
    assert _concepts(_thread("hello", "My workload file is attached.\n")) == []


def test_units_and_busbw_are_answered_when_asked() -> None:
    said = _concepts(_thread("What is the unit of the results?", "Is busbw measured?\n"))
    assert any("microseconds (us)" in s for s in said)
    assert any("busbw = algbw x (n-1)/n" in s for s in said)


def test_the_busbw_option_is_not_the_busbw_column() -> None:
    said = _concepts(_thread("最近的代码不支持 busbw 参数了么", "help 说明不清楚。\n", "zh"))
    assert any("`-busbw`" in s and "每台服务器的网卡数" in s for s in said)
    # the thread's date (2026-01-12) has SimAI 26b4574b in force: its parser is the one named
    assert any("SimAI 26b4574b 的选项解析器" in s for s in said)
    assert not any("algbw = 大小" in s for s in said)


def test_collective_size_and_groups_come_from_the_decoder() -> None:
    said = _concepts(
        _thread("ALLGATHER size", "Should the ALLGATHER size be divided by the ranks?\n")
    )
    assert any("the gathered result" in s for s in said)
    assert any("`ALLGATHER` in the weight-gradient columns: DP" in s for s in said)


def test_a_pasted_topology_line_is_read_field_by_field() -> None:
    body = "My topology file starts with\n\n```\n1280 8 128 128 2528 A100\n```\n\nbusbw?\n"
    said = _concepts(_thread("busbw above the NIC rate", body))
    assert any("1280 - 128 - 128 = 1024 GPUs in 128 servers" in s for s in said)


def test_tp_groups_on_the_topology() -> None:
    body = (
        "TP=24 across servers.\n\n"
        "./bin/SimAI_simulator -t 1 -w ./example/a.txt -n ./Rail_Opti_SingleToR_24g_8gps_"
        "400Gbps_H100 -c SimAI.conf\n"
    )
    said = _concepts(_thread("tp 24", body))
    assert any("spanning 3 servers of 8 GPUs" in s for s in said)


def test_aicb_presets() -> None:
    body = "--tensor_model_parallel_size does not take effect in megatron_workload_with_aiob.sh\n"
    said = _concepts(_thread("tp ignored", body))
    assert any("`-m 7`: gpt_7B, tp 4" in s and "falls back to gpt_13B" in s for s in said)


def test_a_cut_workload_name_hides_the_options() -> None:
    src = sources.Source("a-world_size1-tp1.txt", b"", "aicb", None)
    assert sources.cut_off(src, "dir/a-world_size1-tp")
    assert sources.cut_off(src, "dir/a-world_size1-tp1")
    assert not sources.cut_off(src, "dir/a-world_size1-tp1.txt")


def test_a_doubted_result_is_a_finished_run() -> None:
    said = symptoms.reported([(3, "结果和预期差了一个数量级")], [])
    assert said == [("finish", "数量级")]


def test_a_refused_option_is_dropped_and_run_again() -> None:
    body = (
        "sh ./scripts/inference_workload_with_aiob.sh -m qwen3-235B \\\n"
        "-c ./scripts/inference_configs/qwen3_moe_default.json \\\n"
        "-s 32768 -b 4 -w 12288 -e 32  -t 8 -l 16 -p prefill\n"
        "./bin/SimAI_analytical -w aicb/results/workload/Qwen3-Moe-235B-world_size12288-tp8-"
        "pp16-ep32-bs4-seq32768-prefill.txt -g 12288 -g_p_s 8 -r prefill- -busbw x.yaml\n"
    )
    answers = [a.answer for a in triage(_thread("-busbw refused", body)).answers]
    again = [a for a in answers if a.startswith("Without `-busbw x.yaml` the same command")]
    assert again and "-n_p_s" in again[0]


def test_a_log_without_its_end_asks_for_it() -> None:
    body = (
        "SimAI_simulator stops printing:\n\n```\n"
        "info: all-reduce forward pass collective issued for layer: l0, involved dimensions:  1,\n"
        "```\n"
    )
    t = triage(_thread("stops", body))
    assert any("all passes finished" in m for m in t.missing)


def test_a_question_opens_with_its_answer_and_a_failure_with_its_cause() -> None:
    """A thread that reports no failure opens with the first sentence of the answer to what
    its title asks (not 'cannot name the cause'); one that reports a crash does not."""
    asked = triage(_thread("What is the time unit of the results?", "Is busbw measured?\n"))
    assert asked.cause.startswith("In short: SimAI writes the times of its results")
    assert asked.cause.endswith("The evidence below says what each part rests on.")
    zh = triage(_thread("结果的时间单位是什么？", "busbw 是测出来的吗？\n", "zh"))
    assert zh.cause.startswith("简要回答：") and "微秒" in zh.cause
    crashed = triage(_thread("It crashed", "What is the time unit?\n\nSegmentation fault\n"))
    assert crashed.cause.startswith("wkparse cannot name the cause")


def test_a_size_question_gets_how_ns3_moves_it_once() -> None:
    """Whether a collective's size is per rank is answered with SimAI-Analytical's timing and
    with how SimAI_simulator cuts it into flows (each GPU sends (n-1)/n); a thread that gets
    the catalog page on those flows whole is not told it twice."""
    from wkparse.threads.phrases import say

    head = "---\ntitle: t\ncreated: 2025-06-09\nlanguage: en\n---\n\n"
    size = triage(
        head + "Should the ALLGATHER size in the workload be divided by the number of ranks?\n"
    )
    packets = triage(
        head + "The log of an allreduce shows flow size = packet size, always 16MB. "
        "Should the allreduce size be divided per rank? Is the flow size the packet size?\n"
    )
    flows = say("m-size-flows", "en")
    assert flows in size.markdown
    assert flows not in packets.markdown and "behaviour-ns3-packets" in packets.markdown


@pytest.mark.parametrize(
    "said",
    [
        "换了更大的拓扑以后，结果没有任何变化。",
        "仿真时间一点变化都没有",
        "The results did not change when I doubled the GPUs.",
        "Times are unchanged on the larger topology.",
    ],
)
def test_a_result_that_did_not_move_is_a_finished_run(said: str) -> None:
    """In any words: the user got a result, so the run finished."""
    assert [o for o, _ in symptoms.reported([(3, said)], [])] == ["finish"]


def test_a_change_the_user_made_is_no_result_that_did_not_move() -> None:
    assert not symptoms.reported([(3, "我改变了拓扑，请问通信组怎么划分？")], [])
