# ruff: noqa: RUF001 - Chinese questions, with their full-width punctuation
"""Knowledge the catalog gives triage answers: how SimAI_analytical times a collective
(`Layer::compute_time`, `cal_ratio`), why AICB's DP rows are 2 B and 4 B per parameter, and what a
heap-corruption abort means. Each answers its
kind of question in other words and stays quiet on a neighbouring one."""

from __future__ import annotations

import pytest

from wkparse import concepts, triage
from wkparse.threads import questions


def _thread(title: str, body: str, lang: str = "en", created: str = "2026-09-01") -> bytes:
    front = f"---\ntitle: {title}\ncreated: {created}\nlanguage: {lang}\n---\n\n"
    return (front + body + "\n").encode()


def _opening(data: bytes) -> str:
    public = triage(data).public()
    return " ".join(q["answer"] for q in public["questions"])  # type: ignore[union-attr]


def _everything(data: bytes) -> str:
    public = triage(data).public()
    parts = [a["answer"] for a in [*public["questions"], *public["answers"]]]  # type: ignore[misc]
    return " ".join(parts)


@pytest.mark.parametrize(
    "question",
    [
        "Why is the time multiplied by (nranks - 1) / nranks?",
        "How is comp_time calculated for an all-gather?",
        "Could you explain how Layer::compute_time works?",
        "compute_time() 里的 (nranks-1)/nranks 系数是什么意思？",
    ],
)
def test_the_compute_time_page_answers_how_a_collective_is_timed(question: str) -> None:
    assert "behaviour-compute-time" in [p.id for p in concepts.answering(question)]


@pytest.mark.parametrize(
    "question",
    [
        "What does forward_compute_time mean in a row?",
        "Why is the compute_time of my AIOB file zero?",
        "How many ranks are in the DP group?",
        "Why does the ns-3 run hang?",
    ],
)
def test_the_compute_time_page_stays_quiet_elsewhere(question: str) -> None:
    assert "behaviour-compute-time" not in [p.id for p in concepts.answering(question)]


def test_a_question_keeps_the_pages_it_names_beside_the_page_it_asks() -> None:
    text = "Could you explain cal_busbw() and cal_ratio(), and the (nranks - 1) / nranks factor?"
    asked = questions.read("Bandwidth", [(3, text)])
    assert asked[0].concepts == ("behaviour-compute-time", "cal-busbw", "cal-ratio")


def test_the_answer_gives_the_formula_the_ratio_tables_and_the_factor() -> None:
    body = "How is comp_time computed, and what do cal_ratio and (nranks - 1) / nranks do?"
    text = _opening(_thread("Communication time", body))
    assert "(nranks - 1) / nranks ns, twice that for an all-reduce" in text
    assert "nvlink_ratio.csv" in text
    assert "nccl-tests' bus-to-algorithm bandwidth factor" in text


def test_simai_s_compute_time_is_not_read_as_aiob_compute_times() -> None:
    body = "How does Layer::compute_time() turn a collective into time?"
    assert "AIOB file's sections" not in _everything(_thread("Communication time", body))
    aiob = "Where does compute_time in the AIOB file come from?"
    assert "AIOB file's sections" in _everything(_thread("AIOB", aiob))


def test_the_dp_rows_why_is_given_where_the_thread_asks_why() -> None:
    body = "Where do the factors 2 and 4 of grad_gather and grad_param_comm come from?"
    text = _opening(_thread("Factors of the DP rows", body))
    assert "gradients are exchanged in fp32 (4 B each) and the parameters in bf16" in text
    assert "Megatron's distributed optimizer" in text
    zh = "grad_gather 总是 total_params 的 2 倍，grad_param_comm 是 4 倍。\n\n"
    zh += "请问这两个倍数是怎么得来的？"
    assert "梯度以 fp32 交换" in _opening(_thread("dp_comm_size", zh, lang="zh"))


def test_the_dp_rows_why_stays_out_where_nobody_asks_it() -> None:
    body = "My log ends with grad_gather and grad_param_comm.\n\nWhat do these rows do?"
    text = _everything(_thread("rows", body))
    assert "`grad_gather` (ALLGATHER of 2 B x parameters)" in text
    assert "distributed optimizer" not in text


@pytest.mark.parametrize(
    "error",
    [
        "double free or corruption (!prev)",
        "free(): invalid pointer",
        "corrupted size vs. prev_size",
    ],
)
def test_a_run_that_ends_on_heap_corruption_gets_its_page(error: str) -> None:
    log = f"```\n{error}\nAborted (core dumped)\n```"
    body = f"SimAI_simulator -t 8 -w a.txt aborts:\n\n{log}\n\nHow to fix it?"
    text = _everything(_thread("crash", body))
    assert "glibc finding the heap corrupted" in text
    assert "a920cdc2" in text


def test_a_segmentation_fault_does_not_get_the_heap_page() -> None:
    body = "SimAI_simulator -w a.txt stops:\n\n```\nSegmentation fault (core dumped)\n```\n\nWhy?"
    assert "glibc finding the heap corrupted" not in _everything(_thread("crash", body))


_HEADER = ",".join(
    [
        *("layer_name", "Analytical_test", "fwd compute", "wg compute", "ig compute"),
        *("fwd exposed comm", "wg exposed comm", "ig exposed comm"),
        *("fwd total comm", "algbw", "busbw", "wg total comm", "algbw", "busbw"),
        *("ig total comm", "algbw", "busbw"),
    ]
)
_RESULT = f"""```
{_HEADER}
grad_norm,Analytical_test,0,0,0,18014,53083,0,18014,560.00,280.00,53083,380.08,380.00,0,-nan,0.00
layernorm,Analytical_test,0,0,0,0,0,33626,0,-nan,0.00,0,-nan,0.00,33626,300.00,300.00
```"""


def _stall_thread(result: str, said: str, created: str = "2025-05-01") -> bytes:
    body = f"SimAI_simulator {said}. SimAI_analytical on the same file gives:\n\n{result}\n\nWhy?"
    return _thread(f"The simulation {said}", body, created=created)


def test_a_silent_ns3_run_gets_the_size_of_the_collectives_its_result_shows() -> None:
    text = _opening(_stall_thread(_RESULT, "stops printing and hangs"))
    assert "a collective of several GB keeps it busy for a long wall time" in text
    assert (
        "`grad_norm`'s forward collective, about 10.83 GB (algbw 560.00 GB/s x 18,014 us)" in text
    )
    assert "about 21.66 GB" in text  # the largest, named beside the first


def test_a_result_of_small_collectives_or_a_run_that_did_not_stall_gets_none() -> None:
    small = _RESULT.replace("18014", "18").replace("53083", "53").replace("33626", "33")
    assert "several GB" not in _everything(_stall_thread(small, "stops printing and hangs"))
    assert "several GB" not in _everything(_stall_thread(_RESULT, "finished fine"))


def test_the_example_busbw_values_are_named_only_for_a_simai_that_reads_the_file() -> None:
    old = _everything(_stall_thread(_RESULT, "hangs", created="2025-05-01"))
    assert "are those of SimAI's `example/busbw.yaml` (280: TP allgather" in old
    new = _everything(_stall_thread(_RESULT, "hangs", created="2026-09-01"))
    assert "example/busbw.yaml" not in new
    other = _RESULT.replace("280.00", "281.00")
    assert "example/busbw.yaml" not in _everything(_stall_thread(other, "hangs"))


def test_an_ns3_user_looking_in_results_is_told_where_simai_simulator_writes() -> None:
    said = "I ran SimAI_simulator but the results/ directory and the detailed csv are empty. Why?"
    assert "not in `results/`" in _everything(_thread("ns-3 output", said))
    elsewhere = "I ran SimAI_simulator and the EndToEnd csv is empty. Why?"
    assert "not in `results/`" not in _everything(_thread("ns-3 output", elsewhere))
    analytical = "I ran SimAI_analytical but the results/ directory is empty. Why?"
    assert "not in `results/`" not in _everything(_thread("analytical output", analytical))


@pytest.mark.parametrize(
    "question",
    [
        "Why does the total parameter count change when I only change TP?",
        "只改 tp 时总参数量为什么会变？",
    ],
)
def test_why_the_parameter_count_follows_tp_is_the_dp_size_page(question: str) -> None:
    assert "behaviour-dp-size" in {p.id for p in concepts.answering(question)}


@pytest.mark.parametrize(
    "question",
    ["How many parameters does a 13B model have?", "总参数量是多少？", "Why does TP change?"],
)
def test_the_dp_size_page_stays_quiet_where_tp_is_not_asked_to_change_the_count(
    question: str,
) -> None:
    assert "behaviour-dp-size" not in {p.id for p in concepts.answering(question)}


def test_a_question_whether_m_takes_any_size_gets_the_presets_and_the_ways_to_another() -> None:
    body = (
        "I run scripts/megatron_workload_with_aiob.sh.\n\n"
        "Can I set -m to any model size, say a 30B model?"
    )
    t = triage(_thread("model size", body, created="2024-11-05"))
    text = " ".join(a.answer for a in t.asked)
    assert "add a case for it to the script's preset block" in text
    assert "AIOB_simAI_workload_generator" in text
    aicb = t.versions["aicb"]
    assert isinstance(aicb, dict)  # the model's presets, at the AICB the thread ran
    assert f"At AICB {aicb['short']}" in text and "falls back to gpt_13B" in text


def test_the_model_size_page_stays_out_where_m_is_only_named() -> None:
    body = "I ran scripts/megatron_workload_with_aiob.sh -m 7.\n\nWhat does -m mean?"
    text = _everything(_thread("-m", body))
    assert "add a case for it to the script's preset block" not in text
