"""Triage states nothing about data the user did not show: a lint rule's title is a fact only
of a workload the thread really gives (a file, or pasted rows and line 1), at the SimAI the user
ran; a prediction the user's report contradicts is no explanation; an excerpt is no file."""

from __future__ import annotations

from wkparse import triage

FRONT = "---\ntitle: {title}\ncreated: 2026-03-20\nlanguage: en\n---\n\n"
ROW = (
    "mlp_moelayer -1 1 ALLTOALL_EP 1048576 1 ALLTOALL_EP 1048576 1 NONE 0 100\n"
    "moe_grad_norm1 -1 1 NONE 0 1 NONE 0 1 ALLGATHER_DP_EP 0 100\n"
)


def _thread(title: str, body: str) -> str:
    return FRONT.format(title=title) + body


def test_an_ep_word_in_prose_or_a_csv_is_no_finding() -> None:
    """`_EP` in a question or a CSV's header is no workload row: no rule is stated of it."""
    body = (
        "What does ALLTOALL_EP mean, next to ALLTOALL in my run?\n\n"
        "```\nFile name, Expose DP comm, Expose DP_EP comm, Expose_EP_comm, Total time\n```\n"
    )
    md = triage(_thread("SimAI_simulator output is empty", body)).markdown
    assert "WK407" not in md and "WK801" not in md


def test_ep_rows_without_line_1_are_said_as_a_condition() -> None:
    """Rows whose `_EP` collective moves bytes, with no header shown: what they do hinges on
    `ep:`, which the answer says it does not know."""
    md = triage(_thread("empty output with these rows", "```\n" + ROW + "```\n")).markdown
    [said] = [line for line in md.splitlines() if "WK801" in line]
    assert "not known" in said and "If it says `ep: 1`" in said
    assert "`ALLTOALL_EP` of 1,048,576 B" in said and "WK407" in said


def test_ep_rows_of_a_thread_with_ep_above_1_need_no_rule() -> None:
    body = "DeepSeek with TP=1, EP>1 fails.\n\n```\n" + ROW + "```\n"
    md = triage(_thread("TP=1, EP>1 fails", body)).markdown
    assert "WK407" not in md and "WK801" not in md


def test_zero_byte_dp_ep_rows_need_no_rule() -> None:
    """A `_DP_EP` collective of 0 B moves nothing, whatever `ep:` says."""
    row = ROW.splitlines()[1] + "\n"
    md = triage(_thread("grad norm rows", "```\n" + row + "```\n")).markdown
    assert "WK407" not in md and "WK801" not in md
