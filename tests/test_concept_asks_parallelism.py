# ruff: noqa: RUF001 - Chinese questions, with their full-width question marks
"""The pages that answer "does SimAI simulate DP (and PP)?" and "where is the code of TP, PP
and DP?" by their asks, in English and Chinese; neighbouring questions stay with other pages."""

from __future__ import annotations

import pytest

from wkparse.threads import questions


def _pages(question: str) -> tuple[str, ...]:
    return questions.read("t", [(3, question)])[0].concepts


@pytest.mark.parametrize(
    "question",
    [
        "Does the ns-3 backend simulate the DP traffic at all?",
        "Is that because SimAI does not implement the PP and DP mechanisms?",
        "SimAI 仿真里有 DP 的流量吗？",
    ],
)
def test_a_question_whether_dp_is_simulated_gets_the_dp_page(question: str) -> None:
    assert "behaviour-dp-traffic" in _pages(question)


def test_a_question_on_pp_and_dp_gets_both_pages() -> None:
    pages = _pages("Is it because the simulator does not implement PP and DP?")
    assert set(pages) == {"behaviour-dp-traffic", "behaviour-pp-schedule"}


@pytest.mark.parametrize(
    "question",
    [
        "Where is the code that implements TP, PP and DP?",
        "Which source file builds the DP groups?",
        "TP、PP、DP 的代码实现在哪里？",
    ],
)
def test_a_question_where_the_code_is_gets_the_code_page(question: str) -> None:
    pages = _pages(question)
    assert pages[0] == "behaviour-parallelism-code"
    assert "behaviour-dp-traffic" not in pages


@pytest.mark.parametrize(
    "question",
    [
        "How is DP computed from the world size?",
        "What does dp_num mean?",
        "读完代码后我有个疑问：pp 组里的 rank 怎样等待？",
        "Which value of TP should I use?",
    ],
)
def test_neighbouring_questions_stay_quiet(question: str) -> None:
    pages = _pages(question)
    assert "behaviour-dp-traffic" not in pages
    assert "behaviour-parallelism-code" not in pages
