# ruff: noqa: RUF001 - a Chinese question, with its full-width question mark
"""A concept page's `asks`: the questions it answers, as triage finds them in a thread."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from wkparse import concepts
from wkparse.concepts import ConceptPage, load_page
from wkparse.threads import questions


@pytest.fixture(autouse=True)
def _fresh_answers() -> Iterator[None]:
    """`answering` keeps its answers: none made over a test's own pages outlives the test."""
    yield


def _page(ident: str, asks: list[list[str]]) -> ConceptPage:
    return load_page(
        {"id": ident, "kind": "behaviour", "title": ident, "definition": "d", "asks": asks}
    )


def test_a_page_answers_a_question_holding_every_pattern_of_one_ask(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    page = _page("run-repeat", [["determinis|reproduc", r"ns-?3|simulat"], ["每次.{0,8}不同"]])
    other = _page("run-other", [["determinis"]])
    monkeypatch.setattr(concepts, "_all", lambda: {"run-repeat": page, "run-other": other})

    def answers(question: str) -> bool:
        return page in concepts.answering(question)

    assert concepts.answering("Is the ns-3 run deterministic?") == (page, other)
    assert answers("Is the NS3 simulation result always deterministic?")
    assert answers("为什么每次运行结果不同？")
    assert not answers("Is the analytical model deterministic in its bubble?")
    assert not answers("What does ga mean?")


@pytest.mark.parametrize("asks", [["a"], [[]], [[""]], [["("]], "x"])
def test_a_malformed_ask_is_named(asks: object) -> None:
    with pytest.raises(ValueError, match="asks"):
        load_page({"id": "p", "kind": "behaviour", "title": "t", "definition": "d", "asks": asks})


def test_the_page_a_question_asks_comes_before_the_pages_it_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pages = {p.id: p for p in concepts.concepts()}
    pages["run-repeat"] = _page("run-repeat", [["determinis", "ns-?3"]])
    monkeypatch.setattr(concepts, "_all", lambda: pages)
    asked = questions.read("Results", [(3, "Is the ns-3 run with ga 4 deterministic?")])
    assert "run-repeat" in asked[0].concepts
    plain = questions.read("Results", [(3, "What does ga mean in the header?")])
    assert "run-repeat" not in plain[0].concepts
