"""What triage does not state as the user's: SimAI's shipped example when the thread follows a
document that shows other contents at that path, a predicted crash nobody reported, the ns-3
output files' timing where the results were compared, the last lines of a run that finished."""

from __future__ import annotations

from wkparse import triage

_RUN = (
    "AS_SEND_LAT=2 ./bin/SimAI_simulator -t 8 -w ./example/microAllReduce.txt "
    "-n ./Rail_Opti_SingleToR_32g_8gps_400Gbps_H100 -c SimAI.conf\n"
)
_SHIPPED = "16,777,216 B (16 MiB) and 67,108,864 B (64 MiB)"


def _text(thread: str) -> str:
    t = triage(thread.encode(), date="2026-01-04")
    return " ".join([t.cause, *(a.answer for a in t.answers)])


def test_the_shipped_example_is_described_where_nothing_says_otherwise() -> None:
    thread = f"I ran\n\n    {_RUN}\nand it completed. How do I read what it simulated?\n"
    assert _SHIPPED in _text(thread)


def test_a_thread_following_the_tutorial_is_not_told_the_shipped_rows() -> None:
    """SimAI's Tutorial runs the same path with other rows (the page's docs_say)."""
    thread = f"I followed the tutorial and got its numbers:\n\n    {_RUN}\nWhy no change?\n"
    assert _SHIPPED not in _text(thread)


def test_a_thread_quoting_its_header_is_not_told_the_shipped_rows() -> None:
    thread = (
        f"My header says model_parallel_NPU_group: 8 and all_gpus: 64.\n\n    {_RUN}\n"
        "What does this run simulate?\n"
    )
    assert _SHIPPED not in _text(thread)


_MICRO = (
    "I wrote this file, meant to run only an all-reduce as nccl-tests does.\n\n```\n"
    "MICRO  model_parallel_NPU_group: 8 ep: 1 pp: 1 ga: 1 all_gpus: 16 checkpoints: 0 "
    "checkpoint_initiates: 0\n2\n"
    "embedding_layer -1 0 ALLREDUCE 8388608 1 NONE 0 0 NONE 0 100\n"
    "embedding_layer -1 0 ALLREDUCE 8388608 1 NONE 0 0 NONE 0 100\n```\n"
    "How do I simulate only a collective?\n"
)


def test_a_predicted_crash_is_no_cause_of_a_howto_question() -> None:
    t = triage(_MICRO.encode(), date="2026-03-18")
    assert "SIGFPE" not in t.cause
    assert not t.cause.startswith("Likely cause")


def test_a_predicted_crash_is_the_cause_of_the_crash_reported() -> None:
    thread = _MICRO.replace(
        "How do I simulate only a collective?", "It dies with Floating point exception."
    )
    t = triage(thread.encode(), date="2026-03-18")
    assert "SIGFPE" in t.cause


def test_the_micro_sentence_names_the_rows_collectives() -> None:
    t = triage(_MICRO.encode(), date="2026-03-18")
    text = " ".join(a.answer for a in t.answers)
    assert "each one ALLREDUCE of 8 MiB" in text
    assert "each one no collective" not in text


_END = "creates ncclFlowModel_EndToEnd.csv empty"


def test_results_compared_do_not_raise_the_empty_csv() -> None:
    thread = f"    {_RUN}\nOn 64 GPUs the results are the same as on 32. Why?\n"
    t = triage(thread.encode(), date="2026-01-04")
    assert _END not in " ".join(a.answer for a in t.answers)
    assert not any("last lines" in m for m in t.missing)


def test_an_empty_csv_still_raises_it() -> None:
    thread = f"    {_RUN}\nThe output EndToEnd csv is empty. Why?\n"
    t = triage(thread.encode(), date="2026-01-04")
    assert _END in " ".join(a.answer for a in t.answers)


def _versions(t: object) -> str:
    return next(a.answer for a in t.answers if a.question.startswith("Which SimAI"))  # type: ignore[attr-defined]


def test_the_version_line_names_the_models_only_where_a_model_answers() -> None:
    asked = triage(b"Does SimAI model the PP schedule?\n", date="2026-01-04")
    assert "The models below run" not in _versions(asked)
    run = triage(_MICRO.encode(), date="2026-03-18")
    assert "The models below run SimAI 26b4574b" in _versions(run)


_EMPTY = (
    "---\ntitle: ncclFlowModel_EndToEnd.csv is empty\ncreated: 2025-02-12\n---\n"
    "I ran the file AICB generated with SimAI_simulator and got an empty csv{deleted}. "
    "Has anyone seen this?\n"
)


def test_rows_deleted_past_a_known_stop_change_line_2() -> None:
    cut = triage(_EMPTY.format(deleted="; after I removed the optimizer rows it was written"))
    known = [a.answer for a in cut.answers if "7f06c19c" in a.answer]
    assert known and "count on line 2" in known[0]
    kept = triage(_EMPTY.format(deleted=""))
    assert not any("count on line 2" in a.answer for a in kept.answers)
    assert any("keep them" in a.answer for a in kept.answers)


def test_a_collective_across_all_gpus_is_answered_by_its_page() -> None:
    """behaviour-span-all-gpus: asked in other words than nccl-tests too; quiet elsewhere."""
    asked = triage(b"How can I make one all-reduce span all GPUs of the run in SimAI?\n")
    assert any("behaviour-span-all-gpus" in e for a in asked.asked for e in a.evidence)
    zh = triage("怎样让一个 allreduce 跨所有 GPU 运行\uff1f\n".encode())
    assert any("behaviour-span-all-gpus" in e for a in zh.asked for e in a.evidence)
    other = triage(b"How does SimAI_simulator pick its TP groups?\n")
    assert not any("behaviour-span-all-gpus" in e for a in other.asked for e in a.evidence)


def test_leading_rows_deleted_from_an_aicb_file_get_the_dp_rows_page() -> None:
    head = triage(
        _EMPTY.format(deleted="; after I deleted the first rows and the last rows it was written")
    )
    assert any("behaviour-ns3-dp-rows" in e for a in head.answers for e in a.evidence)
    tail = triage(_EMPTY.format(deleted="; after I removed the optimizer rows it was written"))
    assert not any("behaviour-ns3-dp-rows" in e for a in tail.answers for e in a.evidence)
