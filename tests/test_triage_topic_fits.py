# ruff: noqa: RUF001 - Chinese threads are written with their own full-width punctuation
"""A topic paragraph raised by a word of the thread (meaning.ASKS) opens the answer to a
question only where the question asks what it answers (meaning.ANSWERS); else it is evidence.
A page the question merely names defines a word, which answers no cause."""

from __future__ import annotations

from wkparse import triage
from wkparse.threads.meaning import answers

HEAD = "---\ntitle: {title}\ncreated: 2026-01-12\nlanguage: {lang}\n---\n\n"


def _opening(title: str, body: str, lang: str = "en") -> list[str]:
    t = triage(HEAD.format(title=title, lang=lang) + body)
    return [a.answer for a in t.asked]


def test_each_topic_answers_only_what_it_answers() -> None:
    assert answers("ns3-out", "Why is ncclFlowModel_EndToEnd.csv empty?")
    assert answers("ns3-out", "ns3仿真卡死，这是什么原因？")
    assert not answers("ns3-out", "Is the NS3 simulation result always deterministic?")
    assert answers("dp", "How is the size of grad_param_comm computed?")
    assert answers("dp", "请问这两个倍数是怎么得来的？")
    assert not answers("dp", "Could it cause double counting with the grad_param_comm node?")
    assert answers("aiob", "How does AICB read the AIOB file, and in what unit?")
    assert not answers("aiob", "开启 AIOB 时 backward_comm 为 NONE，这两种情况哪一种才是对的？")
    assert not answers("aiob", "Incorrect filling of computation time into msg_size in AIOB")
    assert answers("no-such-topic", "anything")  # a model's answer is no topic's


def test_an_incidental_word_does_not_put_its_paragraph_in_the_answer_slot() -> None:
    body = "I ran SimAI_simulator twice on the same workload.\n"
    said = _opening("Is the ns-3 result always the same for one workload?", body)
    assert not any("ncclFlowModel_EndToEnd.csv" in s for s in said)
    said = _opening("Why is ncclFlowModel_EndToEnd.csv empty?", body)
    assert any("ncclFlowModel_EndToEnd.csv" in s for s in said)


def test_the_aiob_paragraph_answers_how_aiob_is_read_not_which_path_is_right() -> None:
    body = "开启 AIOB 时 backward_comm 为 NONE，不开时为 ALLREDUCE。这两种情况哪一种才是对的？\n"
    said = _opening("AIOB 开关下生成的负载不一致", body, "zh")
    assert not any("time_gpu_avg" in s for s in said)
    said = _opening("AIOB", "How does AICB read the AIOB file's times?\n")
    assert any("time_gpu_avg" in s for s in said)


def test_the_dp_paragraph_answers_its_sizes_not_a_double_count() -> None:
    body = "Could an ALLREDUCE there cause double counting with the `grad_param_comm` node?\n"
    t = triage(HEAD.format(title="Backward communication", lang="en") + body)
    stock = "REDUCESCATTER of 4 B x parameters"
    assert not any(stock in a.answer for a in t.asked)
    assert any(stock in a.answer for a in t.answers)  # still evidence


def test_a_page_merely_named_does_not_answer_a_failure() -> None:
    said = _opening("Simulation with ga 4 fails", "It stops after the first layer.\n")
    assert not any(s.startswith("**ga:") for s in said)
    said = _opening("What does `ga` mean?", "In the header.\n")
    assert any(s.startswith("**ga:") for s in said)
