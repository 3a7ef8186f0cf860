"""Quiet when the file is right: the current AICB generator's output and SimAI's own correct
example lint silent with the default rules (issue 13). Where AICB's own arguments make it drop
layers (a layer count the pipeline degree does not divide, read from MANIFEST.tsv, not from
wkparse), the file is still what AICB writes: explain states it, and WK506 reports it when
selected."""

from __future__ import annotations

import re

import pytest

from tests.conftest import CORPUS, manifest
from wkparse.catalog import catalog
from wkparse.config import Config
from wkparse.engine import lint
from wkparse.explanation.facts import explain
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
    result = parse_file(path)
    oracle_backed = {code for code, page in catalog().items() if page.oracle}
    assert [d for d in lint(result, path.name) if d.code not in oracle_backed] == []
    layers = _argument(arguments, "num_layers")
    pp = _argument(arguments, "pipeline_model_parallel")
    selected = [d.code for d in lint(result, path.name, Config(select=("WK506",)))]
    assert selected == (["WK506"] if layers % pp else [])
    stated = [f.code for f in explain(result, path.name).findings]
    assert ("WK506" in stated) == bool(layers % pp)


def test_simai_examples(corpus: object) -> None:
    examples = CORPUS / "simai-examples"
    assert not lint(parse_file(examples / "microAllReduce.txt"), "microAllReduce.txt")
    # SimAI's analytical example carries an undivided sequence-parallel pp_comm, as AICB
    # wrote it before 2025-01: twice the traffic its rows imply (WK303), nothing else.
    found = lint(parse_file(examples / "workload_analytical.txt"), "workload_analytical.txt")
    assert [d.code for d in found] == ["WK303"]
