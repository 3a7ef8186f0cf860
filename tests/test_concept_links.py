"""Explain and the rule pages point at the concept pages (issue 39): every word they send the
reader to names a page, and the command they print finds it."""

from __future__ import annotations

import re
import shlex

from typer.testing import CliRunner

from tests.conftest import SAMPLES
from wkparse import concepts
from wkparse.catalog import catalog
from wkparse.cli import app
from wkparse.commands.rules import concepts_about, page_markdown
from wkparse.render.explain.markdown import TERMS

runner = CliRunner()
COMMAND = re.compile(r"`wkparse concept ([^`]+)`")


def _named(text: str) -> list[str]:
    return [shlex.split(m)[0] for m in COMMAND.findall(text)]


def test_explain_markdown_sends_each_layout_word_to_its_page() -> None:
    sample = SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"
    out = runner.invoke(app, ["explain", str(sample), "--format", "markdown"]).stdout
    named = _named(out)
    assert named == list(TERMS)
    for term in named:
        assert concepts.find(term) is not None, term


def test_a_rule_page_ends_with_the_concepts_about_it() -> None:
    text = page_markdown(catalog()["WK209"])
    named = _named(text.split("## What its words mean", 1)[1])
    assert {concepts.find(n).id for n in named} == set(concepts_about("WK209"))  # type: ignore[union-attr]
    assert "bubble" in named


def test_every_rule_a_concept_names_exists_and_its_page_lists_the_concept() -> None:
    for page in concepts.concepts():
        for code in (r for r in page.related if r.startswith("WK")):
            assert code in catalog()
            assert page.id in concepts_about(code)


def test_the_short_name_is_a_name_without_spaces_where_there_is_one() -> None:
    assert concepts.find("model_parallel_NPU_group:").short_name == "TP"  # type: ignore[union-attr]
    assert concepts.find("Input workload format mismatch").short_name == "format mismatch"  # type: ignore[union-attr]
