# ruff: noqa: RUF001 - Chinese questions, with their full-width punctuation
"""The behaviour pages that answer why AICB writes what it writes and how SimAI runs it (the
AIOB path's missing input-gradient all-reduce, grad_param_compute, a replay item's msg_size, a
workload without a GPU, no timeline, TP 1 in ns-3, repeated ns-3 runs): each answers its kind of
question in other words, in English and Chinese, and stays quiet on neighbouring questions."""

from __future__ import annotations

import pytest

from wkparse import concepts, triage

ASKED: list[tuple[str, str]] = [
    ("behaviour-aiob-backward-comm", "Why is backward_comm NONE with --aiob_enable?"),
    ("behaviour-aiob-backward-comm", "Can the overlapped backward collective be simulated?"),
    ("behaviour-aiob-backward-comm", "反向的 ig 通信为什么没有写进负载文件？"),
    (
        "behaviour-aiob-backward-comm",
        "Is an ALLREDUCE there double counted with grad_gather?",
    ),
    ("behaviour-grad-param-compute", "What is grad_param_compute for?"),
    ("behaviour-grad-param-compute", "grad_param_compute 为什么还要再算一次梯度？"),
    ("behaviour-aicb-replay-compute", "Why does Comp_with_aiob write times into msg_size?"),
    ("behaviour-aicb-no-gpu", "Can I generate a workload without a GPU?"),
    ("behaviour-aicb-no-gpu", "没有实体卡能生成 workload 吗？"),
    ("behaviour-no-timeline", "Can SimAI output a timeline of the iteration?"),
    ("behaviour-no-timeline", "能估算 timeline 吗？"),
    ("behaviour-tp1-dimensions", "Why does the simulation fail with TP=1 and EP=8?"),
    ("behaviour-tp1-dimensions", "tp 为 1 时 EP 通信组创建失败"),
    ("behaviour-ns3-repeat", "Is the ns-3 simulation deterministic?"),
    ("behaviour-ns3-repeat", "Why do two runs of the same simulation give different times?"),
    ("behaviour-ns3-repeat", "每次仿真的结果都不一样，正常吗？"),
    ("behaviour-ns3-repeat", "Does the result depend on the number of threads or the seed?"),
    ("behaviour-ns3-repeat", "结果会受线程数或随机种子影响吗？"),
]

#: neighbouring questions none of these pages answers
QUIET: list[str] = [
    "What does backward mean in the EndToEnd.csv?",
    "What is the size of grad_param_comm?",
    "How do I set the msg size of nccl-tests?",
    "Which GPU was Example.txt measured on?",
    "Why does the ns3 simulation hang with pp=2?",
    "What does TP mean in the header?",
    "Does TP=16 fit one server?",
    "How many threads should I give -t?",
    "Does the bubble depend on the number of micro-batches?",
]

MINE = {page for page, _ in ASKED}


@pytest.mark.parametrize(("page", "question"), ASKED)
def test_a_page_answers_its_kind_of_question(page: str, question: str) -> None:
    assert page in [p.id for p in concepts.answering(question)]


@pytest.mark.parametrize("question", QUIET)
def test_a_neighbouring_question_gets_none_of_them(question: str) -> None:
    assert not MINE & {p.id for p in concepts.answering(question)}


def test_a_failure_title_gets_its_page_where_no_model_names_a_cause() -> None:
    thread = (
        "---\ntitle: TP=1,EP>1时仿真失败\ncreated: 2026-08-04\nlanguage: zh\n---\n\n仿真 DS-V3。\n"
    )
    answers = [a.answer for a in triage(thread).asked]
    assert any("`Sys::break_dimension(1)` 返回 -1" in a for a in answers)
