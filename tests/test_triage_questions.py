# ruff: noqa: RUF001 - the threads' Chinese words, with their full-width punctuation
"""The questions a thread asks, read as questions (their kind, the concepts they name), and
the answer that opens with an answer to each: the catalog's meaning, the models' cause, or a
plain "no model answers this" with what would settle it."""

from __future__ import annotations

import time

import pytest

from tests.conftest import TRIAGE, require, triaged
from wkparse import triage
from wkparse.threads.asked import _NAMES
from wkparse.threads.questions import kind_of, named_concepts, read


def test_kinds_of_question() -> None:
    assert kind_of("Why does the run stop after grad_norm?") == "cause"
    assert kind_of("请问这是什么原因，应该怎么解决？") == "cause"
    assert kind_of("What is the unit of time in the results?") == "meaning"
    assert kind_of("文件第一行的 `train_iter:10` 是什么意思？") == "meaning"
    assert kind_of("How can I get the scale-out traffic?") == "howto"
    assert kind_of("Is this slow, linear scaling with GAS intended?") == "check"
    assert kind_of("最近的代码是不是不再支持 busbw 参数了？") == "version"


def test_questions_across_wrapped_lines_and_links() -> None:
    prose = [
        (8, "Could it cause unintended side effects inside the"),
        (9, "`grad_param_comm` node? See https://github.com/aliyun/SimCCL?tab=readme"),
    ]
    [q] = read("t", prose)
    assert q.line == 8 and q.text.endswith("`grad_param_comm` node?")
    assert q.concepts == ("grad-param-comm",)


def test_common_words_name_no_concept_unless_quoted() -> None:
    assert named_concepts("How should I configure the workload and the topology?") == ()
    assert "ga" in named_concepts("What does `ga` mean?")


def test_a_meaning_question_opens_with_the_catalog_page() -> None:
    text = "---\ntitle: unit\ncreated: 2025-09-01\nlanguage: en\n---\n\nWhat does `ga` mean?\n"
    result = triage(text)
    [asked] = result.asked
    assert asked.question.kind == "meaning" and asked.answered
    assert result.markdown.startswith("**Your questions**\n\n> What does `ga` mean?")
    assert any(e.startswith("concept page `ga`") for e in asked.evidence)
    public = result.public()["questions"]
    assert isinstance(public, list) and public[0]["concepts"] == ["ga"]


def test_a_question_no_model_answers_says_so_and_what_would_settle_it() -> None:
    text = (
        "---\ntitle: t\ncreated: 2025-09-01\nlanguage: en\n---\n\n"
        "Will the authors add a graphical user interface to SimAI?\n"
    )
    [asked] = triage(text).asked
    assert not asked.answered and asked.answer.startswith("wkparse has no model that answers")


def test_a_long_pasted_paragraph_is_read_in_linear_time() -> None:
    body = "x" * 200_000 + ". y?" + "1.5" * 50_000
    start = time.perf_counter()
    read("t", [(8, body)])
    assert time.perf_counter() - start < 1.0


def test_the_file_is_asked_for_only_where_the_answer_needs_it() -> None:
    from wkparse.threads.phrases import say

    meaning = "---\ntitle: t\ncreated: 2025-09-01\nlanguage: en\n---\n\nWhat does `ga` mean?\n"
    cause = meaning.replace(
        "What does `ga` mean?",
        "My run prints:\n\n```\nterminate called without an active exception\n```\n\n"
        "Why does it stop?",
    )
    code = meaning.replace("What does `ga` mean?", "Why does AICB double the recompute time?")
    assert say("missing-file", "en") not in triage(code).missing
    assert say("missing-file", "en") not in triage(meaning).missing
    assert say("missing-file", "en") in triage(cause).missing


def test_a_chinese_question_without_blanks_is_a_question() -> None:
    [q] = read("t", [(10, "从代码里能看到 4 倍。请问这两个倍数是怎么得来的？")])
    assert (q.line, q.text) == (10, "请问这两个倍数是怎么得来的？")


def test_a_title_names_its_topic_or_its_failure() -> None:
    [topic] = read("Questions about GA logic", [])
    # the page written to answer how SimAI runs ga's micro-batches, before the page it names
    assert (topic.kind, topic.concepts) == ("topic", ("behaviour-ga-schedule", "ga"))
    [failure] = read("TP=1,EP>1时仿真失败", [])
    assert failure.kind == "cause"


#: shared threads whose question names a concept the catalog defines (a must-say fact of
#: their expected.md): the JSON's questions carry the page, answered from it
CONCEPT_FACTS: dict[str, tuple[str, ...]] = {
    "aliyun-SimAI-157": ("behaviour-ga-schedule",),  # facts 2-3: row order; ga only in PP terms
    "aliyun-SimAI-180": ("cal-busbw",),  # fact 1: cal_busbw's bandwidth by group placement
    "aliyun-SimAI-44": ("alltoall",),  # fact 2: ALLTOALL aborts ns-3 before 02532997
}


def test_the_catalog_backs_the_meaning_facts_of_the_shared_threads() -> None:
    from wkparse.concepts import find

    for case, ids in CONCEPT_FACTS.items():
        folder = require(TRIAGE / case)
        public = triage((folder / "issue.md").read_bytes()).public()
        questions = public["questions"]
        assert isinstance(questions, list)
        for ident in ids:
            page = find(ident)
            assert page is not None
            said = [q for q in questions if ident in q["concepts"]]
            assert said, (case, ident)
            assert any(page.title.en in q["answer"] for q in said), (case, ident)
            assert any(f"concept page `{ident}`" in " ".join(q["evidence"]) for q in said)


def test_a_title_reporting_a_failure_is_asked_before_the_bodys_side_question() -> None:
    """SimAI#91's shape: the title says the CSV is empty, the body only asks whether others
    saw it; the answer opens with what an empty ncclFlowModel_EndToEnd.csv means."""
    text = (
        "---\ntitle: 仿真输出的ncclFlowModel_EndToEnd.csv为空\ncreated: 2025-02-10\nlanguage: zh\n"
        "---\n\n用生成的 workload 直接仿真时结果是空的。大家有没有碰到过这种情况？\n"
    )
    result = triage(text)
    first = result.asked[0]
    assert (first.question.line, first.question.kind) == (0, "cause")
    assert "只有整个运行结束时才写入" in first.answer


def test_a_should_be_sentence_asks_and_a_title_adds_only_an_answer() -> None:
    text = (
        "---\ntitle: Incorrect example in readme\ncreated: 2024-11-05\nlanguage: en\n---\n\n"
        "It seems this should be `--ep 16`, not `--ep_num 16`.\n"
    )
    asked = triage(text).asked
    assert [a.question.line for a in asked] == [7]
    assert "expert_model_parallel_size" in asked[0].answer


def test_a_question_that_points_at_its_title_gets_the_titles_answer() -> None:
    """SimAI#84's shape: the title names dp_comm_size, the body asks where "these two
    factors" come from: the DP collectives' meaning answers it."""
    text = (
        "---\ntitle: 关于workload的dp_comm_size的问题\ncreated: 2025-01-21\nlanguage: zh\n---\n\n"
        "代码里 grad_gather 是 2 倍，grad_param_comm 是 4 倍。请问这两个倍数是怎么得来的？\n"
    )
    [asked] = triage(text).asked
    assert asked.answered and "4 B x 参数量" in asked.answer


def test_a_page_is_named_by_its_names_words_in_the_questions_own_order() -> None:
    # "ns-3 DP" is a name of the page on the ns-3 groups; the user writes its words apart
    asked = "Is that because the ns-3 simulator does not implement the PP and DP mechanisms?"
    assert "ns3-dp" in named_concepts(asked)
    text = f"---\ntitle: t\ncreated: 2025-01-06\nlanguage: en\n---\n\n{asked}\n"
    [q] = triage(text).public()["questions"]  # type: ignore[misc]
    assert q["answered"] and "GPUs / TP" in q["answer"]
    # two common words alone (no acronym, no hyphenated word) name no page
    assert named_concepts("Which overlap ratio should I use?") == ()


def test_an_abbreviation_the_thread_defines_names_the_page_of_its_phrase() -> None:
    body = (
        "We run a very large number of gradient accumulation steps (GAS).\n\n"
        "Is this slow, linear scaling with GAS intended?\n"
    )
    text = f"---\ntitle: t\ncreated: 2025-10-22\nlanguage: en\n---\n\n{body}"
    [q] = triage(text).public()["questions"]  # type: ignore[misc]
    # the page that answers the question (its asks) first, then the one its phrase names
    assert q["concepts"] == ["behaviour-ga-cost", "ga"] and q["answered"]
    assert "once per micro-batch" in q["answer"]
    # an abbreviation the thread does not define names nothing
    [q] = read("t", [(8, "Is this slow, linear scaling with GAS intended?")])
    assert "ga" not in q.concepts


@pytest.mark.parametrize("case", ["aliyun-SimAI-110", "aliyun-SimAI-142", "aliyun-SimAI-199"])
def test_a_question_gets_the_answer_that_names_what_it_asks_about(case: str) -> None:
    # the question names an acronym or identifier (DP, TP, forward_compute_time) that its first
    # answer never says, while an answer below names it: that one answers the question
    result = triaged(case)
    asked = [a for a in result.asked if _NAMES.findall(a.question.text)]
    assert asked
    for a in asked:
        names = set(_NAMES.findall(a.question.text))
        below = [x for x in result.answers if all(n in x.answer for n in names)]
        if below:
            assert any(n in a.answer for n in names), (a.question.text, a.answer[:80])


def test_the_words_users_write_for_a_thread_count_name_its_page() -> None:
    asked = "Does this depend on things like the number of threads or the machine?"
    assert "threads" in named_concepts(asked)
    # the bare word stays too common to name it
    assert "threads" not in named_concepts("Which threads run the simulation?")


def test_overlap_of_compute_and_communication_names_the_exposed_comm_page() -> None:
    for asked in (
        "Can the workload express the overlap between computation and communication?",
        "How is compute-communication overlap modelled?",
        "负载文件能表达计算与通信重叠吗？",
    ):
        assert "column-exposed-comm" in named_concepts(asked), asked


def test_what_would_settle_it_is_a_whole_sentence() -> None:
    for language, question, end in (
        ("en", "Will the authors add a web interface to SimAI?", "."),
        ("zh", "作者会给 SimAI 增加网页界面吗？", "。"),
    ):
        text = f"---\ntitle: t\ncreated: 2025-09-01\nlanguage: {language}\n---\n\n{question}\n"
        [asked] = triage(text).asked
        assert not asked.answered and asked.answer.endswith(end), asked.answer


def test_questions_one_answer_answers_are_quoted_together_not_pointed_back() -> None:
    """Two follow-ups the first answer's page answers: both quoted under that one answer,
    none lost, and no "the answer above answers this too" repeated for each."""
    text = (
        "---\ntitle: total training time\ncreated: 2025-01-13\nlanguage: en\n---\n\n"
        "How long does the whole training take when I simulate it?\n\n"
        "How many iterations does the workload hold?\n"
    )
    t = triage(text)
    quoted = [q.text for a in t.asked for q in (a.question, *a.also)]
    assert len(quoted) == 2 and len(t.asked) == 1
    assert "answers this too" not in t.markdown
    assert all(f"> {q}" in t.markdown for q in quoted)
    first = t.public()["questions"][0]  # type: ignore[index]
    assert first["also"]  # bots see the questions it also answers


def test_a_pointer_to_a_page_no_answer_gave_stays_a_pointer() -> None:
    from wkparse.threads.asked import _collapsed
    from wkparse.threads.phrases import say
    from wkparse.threads.questions import Question
    from wkparse.threads.result import Asked

    q1, q2 = Question(3, "What is ga?", "meaning"), Question(5, "How so?", "howto")
    pointer = Asked(q2, say("asked-above", "en", id="ga"), ["page ga"])
    kept = _collapsed([Asked(q1, "ga is ...", ["page other"]), pointer], "en")
    assert kept[1] is pointer and not kept[0].also


def test_a_paragraphs_follow_up_does_not_push_the_users_last_question_out() -> None:
    """Four numbered questions, the first with a follow-up: all five are read; a fifth
    paragraph that asks is past the limit."""
    prose = [
        (3, "1. Which GPU was Example.txt measured on? How was it obtained?"),
        (4, "2. What does train_iter:10 mean?"),
        (5, "3. Can -m be any size, say 15B?"),
        (6, "4. How many iterations does the workload describe?"),
    ]
    asked = read("aiob", prose)
    assert [q.line for q in asked] == [3, 3, 4, 5, 6]
    more = read("aiob", [*prose, (7, "5. Why is the file so long?")])
    assert [q.line for q in more] == [3, 3, 4, 5, 6]


def _aicb_thread(body: str) -> bytes:
    front = "---\ntitle: Wrong option in the example\ncreated: 2024-11-05\nlanguage: en\n---\n\n"
    return (front + "Running scripts/megatron_workload_with_aiob.sh of AICB.\n\n" + body).encode()


def test_the_spelling_offered_for_an_unknown_option_is_followed_to_the_generator() -> None:
    t = triage(_aicb_thread("Shouldn't it be `--ep 8` instead of `--ep_num 8`?\n"))
    said = " ".join(a.answer for a in t.asked)
    assert "`--ep_num` is no option" in said
    assert "`--ep 8` is an option of" in said
    assert "generator as `--expert_model_parallel_size=8`" in said


def test_a_known_option_alone_is_not_followed_to_the_generator() -> None:
    t = triage(_aicb_thread("I pass `--ep 8`. Why is the file so small?\n"))
    assert "hands it to the generator" not in t.markdown
