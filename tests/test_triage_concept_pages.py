# ruff: noqa: RUF001 - Chinese questions, with their full-width punctuation
"""The catalog's pages on how SimAI_simulator makes and records traffic, what a MICRO file runs,
AICB's MoE rows and AIOB's compute file answer the questions they say they answer (`asks`), in
other wordings and in Chinese, and stay quiet on questions that only come near them."""

from __future__ import annotations

import pytest

from tests.test_triage_known import ALLTOALL_LOG
from wkparse import concepts, triage

HEAD = "---\ntitle: {title}\ncreated: 2025-03-01\nlanguage: {lang}\n---\n\n"

ASKED = [
    ("Is the flow size the same as the packet size in the ns-3 log?", "behaviour-ns3-packets"),
    ("Why is every packet 16MB in SimAI_simulator?", "behaviour-ns3-packets"),
    ("ns-3 里的数据包大小是从哪里来的？", "behaviour-ns3-packets"),
    ("How does the mock NCCL layer hand its flows to ns-3?", "behaviour-ns3-flow-model"),
    ("How is an allreduce converted into point-to-point flows?", "behaviour-ns3-flow-model"),
    ("mocknccl 和 ns-3 之间是怎么对接的？", "behaviour-ns3-flow-model"),
    ("Where can I get the traffic of each flow after a run?", "behaviour-ns3-traffic-records"),
    ("请问怎么拿到仿真中的点到点流量？", "behaviour-ns3-traffic-records"),
    ("How do I build a GPU-to-GPU traffic matrix from the run?", "fct-output-file"),
    ("What does each column of the fct file mean?", "fct-output-file"),
    ("How do I simulate only an allreduce, like nccl-tests?", "behaviour-micro-policy"),
    ("Does MICRO run every row of my file?", "behaviour-micro-policy"),
    ("能不能只仿真单个 allreduce 集合通信？", "behaviour-micro-policy"),
    ("Why does the MoE layer add TP all-gathers around the ALLTOALL_EP?", "behaviour-moe-tp-rows"),
    ("Why is the size // tp for the expert all-to-all?", "behaviour-moe-tp-rows"),
    ("Which GPU was the AIOB Example.txt measured on?", "behaviour-aiob-file"),
    ("Example.txt 是用什么卡跑出来的？", "behaviour-aiob-file"),
    ("SimAI 的 ns-3 里 MTU 是多少？", "behaviour-ns3-packets"),
    ("Is there an intermediate traffic file between SimCCL and ns-3?", "behaviour-ns3-flow-model"),
    ("怎么导出每条流的信息？", "behaviour-ns3-traffic-records"),
    ("How do I output the per-flow completion time?", "behaviour-ns3-traffic-records"),
    ("Where can I see each flow's FCT?", "fct-output-file"),
    ("fct文件每一列是什么意思？", "fct-output-file"),
    ("MICRO 模式下为什么没有通信？", "behaviour-micro-policy"),
    ("How do I simulate a single allreduce?", "behaviour-micro-policy"),
    ("MoE 层里TP开启后为什么多了 ALLTOALL？", "behaviour-moe-tp-rows"),
    ("aiob 的计算时间是在什么显卡上测的？", "behaviour-aiob-file"),
]

NOT_ASKED = [
    "What does ga mean in the header?",
    "Is this a recommended way to capture the backward gradient synchronisation traffic?",
    "Does it only record traffic inside the ring?",
    "SimAI full simulation how to gen scale_out traffic flows?",
    "How is the micro batch size set?",
    "What is the unit of the EndToEnd.csv times?",
    "为什么仿真结果没有 DP 通信？",
    "How many GPUs does the MoE model need?",
    "When I run the workload, one all-reduce takes 10 ms, why?",
    "What is the micro batch?",
    "How do I run SimAI with 16 GPUs?",
    "How do I get the workflow running?",
]

PAGES = {ident for _, ident in ASKED}


@pytest.mark.parametrize(("question", "ident"), ASKED)
def test_a_page_answers_its_question_in_other_words(question: str, ident: str) -> None:
    assert ident in [p.id for p in concepts.answering(question)]


@pytest.mark.parametrize("question", NOT_ASKED)
def test_a_question_that_does_not_ask_gets_none_of_them(question: str) -> None:
    assert not PAGES & {p.id for p in concepts.answering(question)}


def test_the_page_answers_before_a_model_the_words_raise_and_is_said_once() -> None:
    body = (
        "I ran an allreduce of 16777216 B and the log shows flow size = packet size.\n\n"
        "Is the flow size the packet size? So does this packet size come from SimAI?\n"
    )
    t = triage(HEAD.format(title="packet size", lang="en") + body)
    first = t.asked[0]
    assert "`PACKET_PAYLOAD_SIZE`" in first.answer
    assert "behaviour-ns3-packets" in first.evidence[0]
    assert [q.text for q in first.also] == ["So does this packet size come from SimAI?"]
    assert t.markdown.count("`PACKET_PAYLOAD_SIZE` bytes") == 1


def test_a_chinese_thread_gets_the_chinese_page() -> None:
    body = "请问 mocknccl 和 ns-3 之间是怎么对接的？\n"
    t = triage(HEAD.format(title="mocknccl", lang="zh") + body)
    assert t.asked[0].answer.startswith("**SimAI_simulator 如何把集合通信变成点到点的流**")
    assert "FLOW_FILE" in t.asked[0].answer


def test_a_thread_that_asks_none_of_them_gets_none() -> None:
    t = triage(HEAD.format(title="ga", lang="en") + "What does ga mean in the header?\n")
    said = " ".join(a.answer for a in t.asked)
    assert not any(f"concept page `{i}`" in e for a in t.asked for e in a.evidence for i in PAGES)
    assert "PACKET_PAYLOAD_SIZE" not in said


def test_a_title_that_names_its_topic_gets_the_page_it_asks_but_a_failure_its_cause() -> None:
    """A failure the title reports is the models' to explain first: the page its words ask
    answers it only where nothing else does."""
    topic = triage(HEAD.format(title="generate a traffic matrix from SimAI_simulator", lang="en"))
    assert "behaviour-ns3-traffic-records" in topic.asked[0].evidence[0]
    title = "crash when building the traffic matrix"
    alone = triage(HEAD.format(title=title, lang="en"))
    assert "behaviour-ns3-traffic-records" in alone.asked[0].evidence[0]
    log = ALLTOALL_LOG.replace("What else should I change?", "")
    older = HEAD.replace("2025-03-01", "2024-12-19")  # a SimAI before the ALLTOALL change
    failure = triage(older.format(title=title, lang="en") + log)
    assert failure.asked[0].answer == failure.cause and "02532997" in failure.cause
    assert not any("behaviour-ns3-traffic-records" in e for a in failure.asked for e in a.evidence)


def test_a_bare_follow_up_is_pointed_at_the_page_just_given_and_nothing_else_is() -> None:
    body = "Which GPU was the AIOB Example.txt measured on? How was it obtained?\n"
    t = triage(HEAD.format(title="aiob", lang="en") + body)
    assert "behaviour-aiob-file" in t.asked[0].evidence[0]
    # quoted under the page's answer, which answers it too
    assert [q.text for q in t.asked[0].also] == ["How was it obtained?"] and len(t.asked) == 1
    other = "Which GPU was the AIOB Example.txt measured on? How is the topology written?\n"
    t = triage(HEAD.format(title="aiob", lang="en") + other)
    assert not t.asked[0].also and len(t.asked) == 2
