"""File-name rules (WK501-WK506): the header and the rows against AICB's file name.

The real files are linted under their own names, and under edited names (a path string only:
the file is read from the corpus, never copied) to show each rule reacting to one difference.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from tests.conftest import CORPUS, GENERATED, SEED, require
from wkparse.config import Config
from wkparse.diagnostics import Diagnostic, Severity
from wkparse.engine import lint
from wkparse.models.aicb import parse_filename
from wkparse.parse import parse_text

EDGE = GENERATED / "aicb-2025-12-edge"
TAIL = "-MOE-False-GEMM-False-flash_attn-True.txt"
SEED_NAME = "None-gpt_7B-world_size128-tp4-pp4-ep1-gbs512-mbs1-seq4096" + TAIL


@functools.cache
def _text(path: Path) -> str:
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    return path.read_text()


def _lint(text: str, name: str | Path) -> list[Diagnostic]:
    """The file-name rules, the opt-in WK506 included."""
    found = lint(parse_text(text), str(name), Config(opt_in=True))
    return [d for d in found if d.code.startswith("WK5")]


def _column(text: str, key: str) -> int:
    """1-based column of `key`'s value on line 1."""
    first = text.split("\n", 1)[0]
    return first.index(f" {key} ") + len(key) + 3


def _only(found: list[Diagnostic], code: str) -> Diagnostic:
    hits = [d for d in found if d.code == code]
    assert len(hits) == 1, [(d.code, d.message) for d in found]
    return hits[0]


def test_name_arithmetic_matches_the_generator() -> None:
    name = parse_filename(
        EDGE / ("aiob-None-gpt_7B-world_size128-tp4-pp4-ep1-gbs500-mbs1-seq4096" + TAIL)
    )
    assert name is not None
    assert (name.dp, name.batch_per_step, name.ga, name.layers_per_stage) == (8, 8, 62, 9)
    inference = parse_filename("Qwen3-Moe-235B-world_size16-tp2-pp2-ep8-bs1-seq4096-prefill.txt")
    assert inference is not None and inference.ga is None and inference.layers_per_stage is None


def test_seed_under_its_own_name_is_clean() -> None:
    assert _lint(_text(SEED), SEED) == []


def test_global_batch_not_divisible_edge_case() -> None:
    path = EDGE / ("aiob-None-gpt_7B-world_size128-tp4-pp4-ep1-gbs500-mbs1-seq4096" + TAIL)
    text = _text(path)
    found = _lint(text, path)
    d = _only(found, "WK503")
    assert (d.span.line, d.span.column) == (1, _column(text, "ga:"))
    assert d.severity == Severity.WARNING
    assert "496 samples per iteration, not 500" in d.message and "496 samples" in d.message
    assert "mbs1 * DP 8 = 8" in d.message
    assert {x.code for x in found} == {"WK503"}  # ga 62 is what the name gives: no WK502


def test_layers_dropped_on_pp5_edge_case() -> None:
    path = EDGE / ("aiob-None-gpt_7B-world_size160-tp4-pp5-ep1-gbs64-mbs1-seq4096" + TAIL)
    text = _text(path)
    d = _only(_lint(text, path), "WK506")
    assert (d.span.line, d.span.column) == (1, _column(text, "vpp:"))
    assert "the file models 35 layers" in d.message and "36 layers" in d.message
    assert "35 layers" in d.message


def test_layers_dropped_in_current_generator_output_is_a_warning() -> None:
    path = (
        GENERATED
        / "aicb-2025-12"
        / ("aiob-None-gpt_7B-world_size512-tp4-pp8-ep1-gbs64-mbs1-seq2048" + TAIL)
    )
    d = _only(_lint(_text(path), path), "WK506")
    assert d.severity == Severity.WARNING and "the file models 32 layers" in d.message


def test_ga_zero_edge_case_is_left_to_wk306() -> None:
    path = EDGE / ("aiob-None-gpt_13B-world_size48-tp8-pp3-ep1-gbs1-mbs1-seq4096" + TAIL)
    assert {d.code for d in _lint(_text(path), path)} == {"WK506"}


@pytest.mark.parametrize(
    ("key", "renamed"),
    [
        ("model_parallel_NPU_group:", SEED_NAME.replace("-tp4-", "-tp8-")),
        ("pp:", SEED_NAME.replace("-pp4-", "-pp2-")),
        ("ep:", SEED_NAME.replace("-ep1-", "-ep2-")),
        ("all_gpus:", SEED_NAME.replace("world_size128", "world_size256")),
    ],
)
def test_header_against_name(key: str, renamed: str) -> None:
    text = _text(SEED)
    d = _only(_lint(text, renamed), "WK501")
    assert (d.span.line, d.span.column) == (1, _column(text, key))
    assert d.fix is not None and not d.fix.safe


def test_inference_name_is_checked_for_parallelism_only() -> None:
    path = (
        GENERATED
        / "aicb-2025-12-inference"
        / "Qwen3-Moe-235B-world_size16-tp2-pp2-ep8-bs1-seq4096-prefill.txt"
    )
    text = _text(path)
    assert _lint(text, path) == []
    d = _only(_lint(text, path.name.replace("-tp2-", "-tp4-")), "WK501")
    assert "model_parallel_NPU_group is 2 but the file name says tp4" in d.message


def test_ga_against_name() -> None:
    d = _only(_lint(_text(SEED), SEED_NAME.replace("gbs512", "gbs256")), "WK502")
    assert "ga is 64 but the file name gives gbs256 / (mbs1 * DP 8) = 32" in d.message


def test_activation_against_preset_hidden_size() -> None:
    text = _text(SEED)
    d = _only(_lint(text, SEED_NAME.replace("seq4096", "seq2048")), "WK504")
    assert d.span.line == 10  # the first embedding_layer row, whose forward size it is
    assert d.span.column == text.split("\n")[9].index("33554432") + 1
    assert "has 4096" in d.message


def test_activation_that_fits_no_hidden_size() -> None:
    name = SEED_NAME.replace("gbs512-mbs1", "gbs1536-mbs3")
    d = _only(_lint(_text(SEED), name), "WK504")
    assert "not 2 * mbs3 * seq4096 * hidden" in d.message


def test_pp_comm_against_preset_when_no_row_carries_the_activation() -> None:
    path = (
        GENERATED
        / "aicb-2025-12"
        / ("aiob-None-gpt_7B-world_size16-tp1-pp1-ep1-gbs64-mbs1-seq2048" + TAIL)
    )
    text = _text(path).replace(" pp: 1 ", " pp: 2 ", 1).replace("pp_comm: 0", "pp_comm: 123", 1)
    name = path.name.replace("-pp1-", "-pp2-")
    d = _only(_lint(text, name), "WK504")
    assert (d.span.line, d.span.column) == (1, _column(text, "pp_comm:"))
    assert d.fix is not None and [e.text for e in d.fix.edits] == ["16777216"]


def test_vpp_against_preset() -> None:
    d = _only(_lint(_text(SEED), SEED_NAME.replace("gpt_7B", "gpt_13B")), "WK505")
    assert "vpp is 9 but AICB's gpt_13B on pp4 has 10 layers" in d.message
    assert "the file models 36 layers, not 40" in d.message


@pytest.mark.parametrize(
    "path",
    sorted((CORPUS / "aicb-examples").rglob("*.txt"))
    + sorted((CORPUS / "simai-examples").glob("*.txt"))
    or [CORPUS / "aicb-examples"],
    ids=lambda p: p.name[:40],
)
def test_names_outside_the_scheme_are_not_checked(path: Path) -> None:
    require(path)
    assert parse_filename(path) is None
    assert _lint(_text(path), path) == []


@pytest.mark.parametrize(
    "path",
    [*sorted((GENERATED / "aicb-2025-12").glob("*.txt")), SEED],
    ids=lambda p: p.name[:50],
)
def test_current_generator_output_gets_no_name_error(path: Path) -> None:
    if not path.is_file():
        pytest.skip("../shared/corpus is absent")
    assert parse_filename(path) is not None
    found = _lint(_text(path), path)
    assert not [d for d in found if d.severity == Severity.ERROR]
    # only the preset's dropped layers (gpt_7B on pp 8) are worth a warning here
    assert {d.code for d in found} <= {"WK506"}
