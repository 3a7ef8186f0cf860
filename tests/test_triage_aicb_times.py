# ruff: noqa: RUF001 - Chinese questions, with their full-width question marks
"""Questions about AICB's compute times that catalog pages answer (why only the attention is
recomputed, where the gradient compute time goes), and a thread's questions that share one
answer: each stays listed."""

from __future__ import annotations

import pytest

from wkparse import concepts, triage
from wkparse.threads import asked
from wkparse.threads.questions import Question
from wkparse.threads.result import Asked


def _asked(ident: str, question: str) -> bool:
    return any(p.id == ident for p in concepts.answering(question))


@pytest.mark.parametrize(
    "question",
    [
        "Why does AICB recompute only the attention and not the MLP?",
        "为什么 recompute_activations 只对 attention 层做重计算？",
    ],
)
def test_selective_recompute_answers_why_only_attention(question: str) -> None:
    assert _asked("behaviour-selective-recompute", question)


@pytest.mark.parametrize(
    "question",
    [
        "Does recompute_activations change the file size?",
        "Why is the attention time so large?",
        "What does --recompute_activations do?",
    ],
)
def test_selective_recompute_stays_quiet_otherwise(question: str) -> None:
    assert not _asked("behaviour-selective-recompute", question)


@pytest.mark.parametrize(
    "question",
    [
        "Where does the gradient compute time go in the workload file?",
        "反向的梯度计算时间写在哪一列？",
    ],
)
def test_backward_time_answers_where_the_gradient_time_goes(question: str) -> None:
    assert _asked("behaviour-aicb-backward-time", question)


@pytest.mark.parametrize(
    "question",
    [
        "Is forward_compute_time *= 2 meant for the backward compute time?",
        "Which row carries the gradient all-reduce?",
    ],
)
def test_backward_time_stays_quiet_otherwise(question: str) -> None:
    assert not _asked("behaviour-aicb-backward-time", question)


def test_every_question_stays_listed_when_two_share_an_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A question whose answer an earlier one already gave points at it, never drops out."""
    result = triage("Two questions.\n")
    same = ["The same answer.", ["evidence"]]

    def answer(t: object, q: Question, *rest: object) -> Asked:
        return Asked(q, str(same[0]), list(same[1]))

    monkeypatch.setattr(asked, "_answer", answer)
    qs = [Question(3, "Why is it so?", "cause"), Question(4, "And why is that?", "cause")]
    out = asked.answer_all(result, qs)
    assert [a.question.line for a in out] == [3, 4]
    assert out[0].answer == "The same answer."
    assert out[1].answer == "wkparse has no answer to this beyond the one to the question above."
    assert out[1].evidence == ["evidence"] and not out[1].answered
    # different answers are each kept as they are
    monkeypatch.setattr(asked, "_answer", lambda t, q, *r: Asked(q, q.text, []))
    assert [a.answer for a in asked.answer_all(result, qs)] == [q.text for q in qs]
