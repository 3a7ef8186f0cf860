# ruff: noqa: RUF001 - Chinese questions, with their full-width punctuation
"""The behaviour pages that answer what SimAI and AICB can do (pipeline parallelism, several
jobs, model accuracy, iterations, DeepSpeed, the model spec table): each answers its kind of
question in other words, in English and Chinese, and stays quiet on neighbouring questions."""

from __future__ import annotations

import pytest

from wkparse import concepts, triage

ASKED: list[tuple[str, str]] = [
    ("behaviour-pp-schedule", "Does SimAI support pipeline parallelism?"),
    ("behaviour-pp-schedule", "Is PP simulated by the ns-3 backend at all?"),
    ("behaviour-pp-schedule", "Where is the 1F1B schedule handled in SimAI?"),
    ("behaviour-pp-schedule", "SimAI 支持流水线并行吗？"),
    ("behaviour-pp-schedule", "pp 阶段之间的等待时间是怎么算的？"),
    ("behaviour-pp-schedule", "How does SimAI model PP communication?"),
    ("behaviour-pp-schedule", "Why are there no send/recv rows between the pipeline stages?"),
    ("behaviour-aicb-physical-pp", "How is the wait between pipeline stages reflected?"),
    ("behaviour-pp-schedule", "Where are the isend/irecv of the PP stages?"),
    ("behaviour-one-job", "Can SimAI simulate several jobs sharing one cluster?"),
    ("behaviour-one-job", "能否在同一个集群上同时仿真多个训练任务？"),
    ("behaviour-one-job", "Is multi-tenant training supported?"),
    ("behaviour-one-job", "Can I run different models on different GPUs in the same simulation?"),
    ("behaviour-pp-schedule", "Why is there no PP traffic in the ns3 output?"),
    ("behaviour-pp-schedule", "为什么找不到 PP 的流量？"),
    ("behaviour-one-iteration", "Does the Total time cover all epochs?"),
    ("behaviour-one-iteration", "SimAI 的结果是一个 iteration 的时间吗？"),
    ("behaviour-one-job", "一个集群上能跑多个模型的仿真吗？"),
    ("behaviour-time-only", "SimAI 会模拟训练精度吗？"),
    ("behaviour-time-only", "Does the TP size change the model accuracy?"),
    ("behaviour-time-only", "并行策略会影响模型精度吗？"),
    ("behaviour-time-only", "Can SimAI predict the final loss or convergence?"),
    ("behaviour-one-iteration", "How do I get the whole training time for 3 epochs?"),
    ("behaviour-one-iteration", "How many iterations does one workload simulate?"),
    ("behaviour-one-iteration", "生成的 workload 对应多少次迭代？"),
    ("behaviour-one-iteration", "Is the result for one batch only or for the whole training run?"),
    ("behaviour-aicb-deepspeed", "Can AICB write a SimAI workload for DeepSpeed ZeRO-3?"),
    ("behaviour-aicb-deepspeed", "DeepSpeed 的计算时间怎么生成？"),
    ("behaviour-aicb-spec-table", "Why does the ffn_hidden_size differ from the paper?"),
    ("behaviour-aicb-spec-table", "Where do the hyper-parameters of GPT-13B come from?"),
    ("behaviour-aicb-spec-table", "Workload_spec 表里的数字是从哪来的？"),
]

#: neighbouring questions none of these pages answers
QUIET: list[str] = [
    "Why does the ns3 simulation hang with pp=2?",
    "ns3仿真pp>2卡死，这是什么原因？",
    "What does pp_comm mean in the header?",
    "How accurate is SimAI compared with a real cluster?",
    "通信时间的预测精度如何？",
    "Why does the communication time fluctuate over several runs?",
    "I measured 700 ms per iteration but SimAI says 6042 ms, why?",
    "What does the --frame option do?",
    "Is the bubble time right for vpp 2?",
    "What is the hidden size of the header?",
    "Does SimAI support NVLS on H800?",
    "Which GPU was Example.txt measured on?",
    "How do I run two topologies?",
    "What is the model's pp size?",
    "Do different models give the same Total time?",
    "Why is the pp_comm traffic zero?",
    "Why is the total time for one iteration 6 s while the real one is 0.7 s?",
    "为什么一次迭代的时间是 6042ms？",
    "Is there packet loss in ns3 with pp 2?",
    "How does the mock NCCL send and recv between nodes in ns-3?",
]


@pytest.mark.parametrize(("page", "question"), ASKED)
def test_the_page_answers_its_kind_of_question(page: str, question: str) -> None:
    assert page in [p.id for p in concepts.answering(question)]


@pytest.mark.parametrize("question", QUIET)
def test_no_capability_page_answers_a_neighbouring_question(question: str) -> None:
    pages = {page for page, _ in ASKED}
    assert not pages & {p.id for p in concepts.answering(question)}


def _thread(title: str, body: str, lang: str = "en") -> bytes:
    front = f"---\ntitle: {title}\ncreated: 2026-09-01\nlanguage: {lang}\n---\n\n"
    return (front + body + "\n").encode()


def test_triage_answers_the_question_with_the_page_and_its_source() -> None:
    result = triage(_thread("Several jobs", "Can SimAI simulate two jobs on the same cluster?"))
    answers = [q for q in result.public()["questions"] if q["answered"]]  # type: ignore[union-attr]
    assert answers, "the question is answered"
    assert "exactly one workload file" in answers[0]["answer"]
    assert any("behaviour-one-job" in e for e in answers[0]["evidence"])
    assert "AstraSimNetwork.cc" in " ".join(answers[0]["evidence"])


def test_a_chinese_thread_gets_the_chinese_page() -> None:
    result = triage(_thread("关于 pp", "SimAI 目前支持 pp 吗？", lang="zh"))
    text = " ".join(q["answer"] for q in result.public()["questions"])  # type: ignore[union-attr]
    assert "SimAI 不模拟流水线调度" in text


def test_a_thread_that_asks_something_else_gets_none_of_them() -> None:
    result = triage(_thread("Header", "What does `pp_comm` mean in the first line?"))
    text = str(result.public())
    pages = {page for page, _ in ASKED}
    assert not [p for p in pages if p in text]


def _header_thread(pp: int, created: str = "2026-09-01") -> bytes:
    header = (
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4 ep: 1 "
        f"pp: {pp} vpp: 8 ga: 8 all_gpus: 128 checkpoints: 0 checkpoint_initiates: 0 "
        "pp_comm: 16777216"
    )
    body = f"My file starts with:\n\n```\n{header}\n```\n\nDoes SimAI simulate the pipeline?"
    front = f"---\ntitle: PP\ncreated: {created}\nlanguage: en\n---\n\n"
    return (front + body + "\n").encode()


def _opening(result: object) -> str:
    return " ".join(q["answer"] for q in result.public()["questions"])  # type: ignore[attr-defined]


def test_the_bubble_factor_of_the_users_header_follows_the_page() -> None:
    text = _opening(triage(_header_thread(4)))
    assert "simulates no pipeline schedule" in text
    assert "In your file (PP 4, ga 8, vpp 8) that factor is (4 - 1) / (8 x 8) = 4.69%" in text


@pytest.mark.parametrize(
    ("pp", "created"),
    [(1, "2026-09-01"), (4, "2024-11-25")],
    ids=["pp-1-has-no-bubble", "simai-1.0-scales-it-by-pp_o-too"],
)
def test_no_factor_where_there_is_no_bubble_or_the_users_simai_divides_otherwise(
    pp: int, created: str
) -> None:
    text = _opening(triage(_header_thread(pp, created)))
    assert "simulates no pipeline schedule" in text
    assert "In your file" not in text


def test_the_body_question_takes_the_answer_a_title_without_question_mark_got() -> None:
    body = "How does the workload reflect the blocking wait between pipeline stages?"
    asked = triage(_thread("Waiting between pipeline stages", body)).public()["questions"]
    assert [q["text"] for q in asked] == [body]  # type: ignore[index]
    assert "simulates no pipeline schedule" in asked[0]["answer"]  # type: ignore[index]


def test_a_title_that_asks_keeps_its_answer_and_the_body_is_pointed_at_it() -> None:
    body = "Do the parameters I change affect the model accuracy?"
    asked = triage(_thread("Does SimAI consider model accuracy?", body)).public()["questions"]
    assert len(asked) == 1  # type: ignore[arg-type]
    assert "SimAI models time only" in asked[0]["answer"]  # type: ignore[index]
    assert [q["text"] for q in asked[0]["also"]] == [body]  # type: ignore[index]


def test_a_question_pointing_back_at_what_an_answer_gave_is_sent_to_it() -> None:
    body = (
        "As far as I know, SimAI gives the time of one batch, not of the whole training run.\n\n"
        "How do you see this problem?"
    )
    thread = _thread("How do I get the whole training time?", body)
    asked = triage(thread).public()["questions"]
    first = asked[0]  # type: ignore[index]
    assert "exactly one training iteration" in first["answer"]
    # quoted under the answer that gave the page it points back at
    assert [q["text"] for q in first["also"]] == ["How do you see this problem?"]


def test_a_question_pointing_back_at_what_no_answer_gave_is_not_answered_from_it() -> None:
    body = (
        "As far as I know, SimAI gives the time of one batch, not of the whole training run.\n\n"
        "How do you see this problem?"
    )
    asked = triage(_thread("A remark", body)).public()["questions"]
    last = asked[-1]  # type: ignore[index]
    assert last["text"] == "How do you see this problem?" and not last["answered"]


def test_a_pasted_header_alone_is_not_run_as_a_file_of_no_rows() -> None:
    result = triage(_header_thread(4))
    assert result.public()["predictions"] == []
    assert "Likely cause" not in result.markdown and "index < SIZE" not in result.markdown
    assert "Header: TP 4, PP 4" in result.markdown  # what the header says is still read
