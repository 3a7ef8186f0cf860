"""Pasted MoE rows whose `ALLTOALL_EP` moves bytes, with no header shown: on a thread about
SimAI_simulator the answer says the rows are read and simulated, that the header's `ep:`
decides, and the fix (ep above 1), and a fix asked of them opens with it."""

from __future__ import annotations

from wkparse import triage

ROWS = (
    "    attention_column -1 910558 ALLGATHER 335544320 910558 REDUCESCATTER 0 910558 NONE 0 100\n"
    "    mlp_moelayer -1 1 ALLTOALL_EP 100663296 1 ALLTOALL_EP 100663296 1 NONE 0 100\n"
    "    mlp_moelayer -1 1 ALLTOALL_EP 100663296 1 ALLTOALL_EP 100663296 1 NONE 0 100\n"
)


def _thread(backend_words: str) -> str:
    return (
        f"---\ntitle: {backend_words} output file is empty\nlanguage: en\n---\n\n"
        f"With these modules in the workload the {backend_words} output is empty. How do I "
        "fix it?\n\n" + ROWS
    )


def test_an_ns3_thread_hears_the_rows_run_and_the_fix() -> None:
    result = triage(_thread("SimAI_simulator ncclFlowModel"))
    [said] = [a.answer for a in result.answers if "line 1 of the file" in a.answer]
    assert "read and simulated by SimAI_simulator" in said
    assert "regenerate the file with an expert-parallel size above 1" in said
    assert "SimAI_analytical" not in said
    assert said in result.asked[0].answer


def test_an_analytical_thread_keeps_both_backends() -> None:
    result = triage(_thread("SimAI_analytical"))
    [said] = [a.answer for a in result.answers if "line 1 of the file" in a.answer]
    assert "SimAI_analytical moves none of its bytes" in said
    assert "read and simulated by SimAI_simulator" not in said


def test_quiet_when_the_thread_gives_ep_above_one() -> None:
    result = triage(_thread("SimAI_simulator ncclFlowModel").replace("How do", "ep=2. How do"))
    assert not any("line 1 of the file" in a.answer for a in result.answers)
