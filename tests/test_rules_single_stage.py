"""WK307/WK308: with pp: 1, a vpp or ga that contradicts the rows is a warning (harmless to
SimAI's time, but the header and the body disagree)."""

from __future__ import annotations

from tests.conftest import GENERATED, needs
from wkparse.diagnostics import Severity
from wkparse.engine import lint
from wkparse.parse import parse_text

GPT175B = (
    GENERATED
    / "aicb-2025-12"
    / (
        "None-gpt_175B-world_size128-tp8-pp1-ep1-gbs512-mbs1-seq4096-MOE-False-GEMM-False-"
        "flash_attn-True.txt"
    )
)
needs_corpus = needs(GPT175B)


def codes(text: str) -> dict[str, Severity | None]:
    return {d.code: d.severity for d in lint(parse_text(text)) if d.code.startswith("WK3")}


@needs_corpus
def test_the_real_single_stage_file_is_quiet() -> None:
    assert codes(GPT175B.read_text()) == {}


@needs_corpus
def test_ga_edited_on_a_single_stage_file_is_a_warning() -> None:
    text = GPT175B.read_text().replace(" ga: 32 ", " ga: 30 ", 1)
    found = [d for d in lint(parse_text(text)) if d.code == "WK308"]
    assert [d.severity for d in found] == [Severity.WARNING]
    assert "ga is 30 but the body holds 32 micro-batch groups" in found[0].message
    assert found[0].fix is not None and found[0].fix.edits[0].text == "32"


@needs_corpus
def test_vpp_edited_on_a_single_stage_file_is_a_warning() -> None:
    text = GPT175B.read_text().replace(" vpp: 96 ", " vpp: 48 ", 1)
    assert codes(text) == {"WK307": Severity.WARNING}


@needs_corpus
def test_with_pp_above_1_the_error_rules_report_it_instead() -> None:
    text = GPT175B.read_text().replace(" pp: 1 ", " pp: 2 ", 1).replace(" ga: 32 ", " ga: 30 ")
    found = codes(text)
    assert found.get("WK302") == Severity.ERROR and "WK308" not in found
