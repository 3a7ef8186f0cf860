"""Quiet when the file is right: the current AICB generator's output and SimAI's own correct
example lint silent with the default rules (issue 13). The one exception is computed from the
generator's arguments (MANIFEST.tsv), not from wkparse: a layer count the pipeline degree does
not divide, where AICB silently drops layers (WK506 is then a real finding)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import CORPUS, manifest
from wkparse.engine import lint
from wkparse.parse import parse_file

CURRENT = "aicb-2025-12/"


def current_generator_files() -> list[tuple[str, str]]:
    rows = manifest()
    return [(r["file"], r["arguments"]) for r in rows if r["file"].startswith(CURRENT)]


def _argument(arguments: str, name: str) -> int:
    found = re.search(rf"--{name} (\d+)", arguments)
    assert found, name
    return int(found.group(1))


@pytest.mark.parametrize(("name", "arguments"), current_generator_files() or [("", "")])
def test_current_generator_output_lints_silent(name: str, arguments: str) -> None:
    if not name:
        pytest.skip("../shared/corpus is absent")
    path = CORPUS / "aicb-generated" / name
    codes = [d.code for d in lint(parse_file(path), path.name)]
    layers = _argument(arguments, "num_layers")
    pp = _argument(arguments, "pipeline_model_parallel")
    expected = ["WK506"] if layers % pp else []
    assert codes == expected


def test_simai_examples(corpus: object) -> None:
    examples = CORPUS / "simai-examples"
    assert not lint(parse_file(examples / "microAllReduce.txt"), "microAllReduce.txt")
    # SimAI's analytical example carries an undivided sequence-parallel pp_comm, as AICB
    # wrote it before 2025-01: twice the traffic its rows imply (WK303), nothing else.
    found = lint(parse_file(examples / "workload_analytical.txt"), "workload_analytical.txt")
    assert [d.code for d in found] == ["WK303"]
