"""`wkparse explain` against the real third-party files in ../shared/corpus.

For every AICB-generated file with a MANIFEST.tsv entry, the JSON facts must agree with the
generator arguments that made it: dp = world / (tp * pp), ga = gbs // (mbs * dp), layers per
stage = num_layers // pp, model layers = that x pp, sequence parallel and MoE as asked. Every
era in the corpus divides num_layers by pp (the oldest, aicb-2024-10, included: its gpt_7B
pp 4 groups hold 9 layers), so one rule holds for all; the one file without layer rows
(ga 0) has no layers to count and says so. Every other corpus file must explain without
error, in a dialect that fits it.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from tests.conftest import CORPUS, corpus_params, generator_arguments, manifest
from wkparse.explanation import Explanation, explain
from wkparse.parse import parse_file
from wkparse.render.explain import (
    json as explain_json,
)
from wkparse.render.explain import (
    markdown as explain_markdown,
)
from wkparse.render.explain import (
    text as explain_text,
)

#: months each generator era's commit falls in (README.md of the corpus)
ERA_MONTHS = {
    "aicb-2024-10": "2024-10",
    "aicb-2024-12a": "2024-12",
    "aicb-2025-01": "2025-01",
    "aicb-2025-09": "2025-09",
    "aicb-2025-12": "2025-12",
    "aicb-2025-12-edge": "2025-12",
}


def _manifest_params() -> list[object]:
    rows = [r for r in manifest() if r["generator"] in ERA_MONTHS]
    if not rows:
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared/corpus is absent"))]
    return [pytest.param(r, id=r["file"]) for r in rows]


def _explain(path: Path) -> Explanation:
    return explain(parse_file(path), str(path))


@pytest.mark.parametrize("row", _manifest_params())
def test_json_facts_agree_with_the_generator_arguments(row: dict[str, str]) -> None:
    path = CORPUS / "aicb-generated" / row["file"]
    doc = json.loads(json.dumps(explain_json.to_dict(_explain(path))))
    a = generator_arguments(row["arguments"])
    tp, pp = int(a["tensor_model_parallel_size"]), int(a["pipeline_model_parallel"])
    world, layers = int(a["world_size"]), int(a["num_layers"])
    gbs, mbs = int(a["global_batch"]), int(a["micro_batch"])
    dp = world // (tp * pp)
    ga = gbs // (mbs * dp)
    assert (doc["tp"], doc["pp"], doc["all_gpus"]) == (tp, pp, world)
    assert doc["dp"] == dp
    assert doc["ga"] == ga  # the header's value
    assert doc["groups"] == ga  # counted in the body
    assert doc["sequence_parallel"] is ("enable_sequence_parallel" in a)
    assert doc["moe"] is ("moe_enable" in a)
    if ga == 0:
        # AICB writes no layer rows at all when ga floors to 0: nothing to count
        assert doc["layers_per_stage"] is None and doc["model_layers"] is None
        assert doc["represents"].startswith("No micro-batch at all")
        return
    assert doc["layers_per_stage"] == layers // pp
    assert doc["model_layers"] == (layers // pp) * pp
    # with TP 1 and AIOB no row carries the activation, so the hidden size is not derivable
    hidden = None if tp == 1 and "aiob_enable" in a else int(a["hidden_size"])
    assert doc["generation"]["hidden"] == hidden
    if pp > 1:
        assert "one representative pipeline stage" in doc["represents"]
        assert f"{layers // pp} of the model's {(layers // pp) * pp}" in doc["represents"]
    else:
        assert "the whole model" in doc["represents"]


@pytest.mark.parametrize("row", _manifest_params())
def test_era_guess_covers_the_generator_commit(row: dict[str, str]) -> None:
    era = _explain(CORPUS / "aicb-generated" / row["file"]).generation.era
    assert era is not None
    month = ERA_MONTHS[row["generator"]]
    assert era.earliest is None or era.earliest[:7] <= month
    assert era.latest is None or month <= era.latest[:7]


def test_moe_shape_of_the_generated_mixtral_files(corpus: Path) -> None:
    for path in (corpus / "aicb-generated" / "aicb-2025-12").glob("*Mixtral*"):
        g = _explain(path).generation
        # --num_experts 8 --moe_router_topk 2 in MANIFEST.tsv
        assert (g.experts, g.topk) == (8, 2), path.name


def test_seed_file_of_the_corpus_answers_the_question(corpus: Path) -> None:
    (path,) = (corpus / "aicb-generated" / "seed").glob("*.txt")
    e = _explain(path)
    assert "9 of the model's 36 transformer layers" in e.represents
    assert "SimAI applies these same rows to all 4 stages" in e.represents
    assert e.generation.hidden == 4096


def test_inference_files(corpus: Path) -> None:
    folder = corpus / "aicb-generated" / "aicb-2025-12-inference"
    moe = _explain(next(folder.glob("Qwen3-Moe-235B*")))
    nxt = _explain(next(folder.glob("Qwen3-Next-80B*")))
    for e in (moe, nxt):
        assert e.dialect == "inference" and e.groups == 0 and e.model_layers is None
        assert "simulates these rows as one training iteration" in e.represents
        assert e.generation.era is not None and e.generation.era.earliest == "2025-10"
    assert (moe.layers_in_body, moe.generation.hidden, moe.generation.topk) == (94, 4096, 8)
    assert (nxt.layers_in_body, nxt.generation.hidden, nxt.generation.topk) == (48, 2048, 10)


@pytest.mark.parametrize(
    ("relative", "dialect"),
    [
        ("aicb-examples/micro_test/all_reduce.txt", "micro"),
        ("aicb-examples/micro_test/muti_all_reduce.txt", "micro"),
        ("astra-sim-1.0/microAllReduce.txt", "micro"),
        ("astra-sim-1.0/Resnet50_DataParallel.txt", "data"),
        ("astra-sim-1.0/MLP_ModelParallel.txt", "model"),
        ("astra-sim-1.0/MLP_HybridParallel_Data_Model.txt", "hybrid_data_model"),
        ("astra-sim-1.0/MLP_HybridParallel_Model_Data.txt", "hybrid_model_data"),
        ("astra-sim-1.0/DLRM_HybridParallel.txt", "dlrm"),
        ("astra-sim-1.0/sample_per_layer_parallel_HybridCustomized.txt", "customized"),
    ],
)
def test_non_transformer_dialects_use_no_transformer_vocabulary(
    corpus: Path, relative: str, dialect: str
) -> None:
    e = _explain(corpus / relative)
    assert e.dialect == dialect
    words = e.represents.lower().replace("embedding all-to-alls", "")
    for word in ("transformer layer", "pipeline", "micro-batch", "stage"):
        assert word not in words


def test_simai_example_with_7_row_moe_layers(corpus: Path) -> None:
    e = _explain(corpus / "simai-examples" / "workload_analytical.txt")
    assert (e.pp, e.layers_per_stage, e.model_layers, e.dp) == (12, 8, 96, 384)
    # hand-edited (`pp_comm 50331648` without its colon): no AICB run writes it, so explain
    # names no AICB era and no AIOB
    assert e.generation.era is None and not e.generation.aicb


def test_simai_micro_example_gets_no_aicb_provenance(corpus: Path) -> None:
    e = _explain(corpus / "simai-examples" / "microAllReduce.txt")
    g = e.generation
    assert g.era is None and not g.aicb and g.aicb_command is None
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(explain_text.render(e))
    assert "AIOB" not in out.getvalue() and "generator" not in out.getvalue()


def test_generated_file_names_its_command_and_revisions(corpus: Path) -> None:
    path = next((corpus / "aicb-generated" / "aicb-2024-10").glob("aiob-gpt_7B*.txt"))
    g = _explain(path).generation
    assert g.era is not None and g.era.label == "AICB b9d142e (2024-09-11) to d9b4f5c (2024-10-30)"
    assert g.aicb_command is not None and "AIOB_simAI_workload_generator" in g.aicb_command


def test_sample_of_fewer_layers_than_its_model_is_not_the_whole_model(corpus: Path) -> None:
    e = _explain(
        corpus
        / "aicb-examples"
        / "model_workload"
        / "L65B-M1-C05_Llama65B_megatron_tp8_pp1_mbs1_A100.txt"
    )
    assert "whole model" not in e.represents
    assert e.represents.startswith("One GPU's view of 12 transformer layers")


@pytest.mark.parametrize("path", corpus_params())
def test_every_corpus_file_explains_in_every_format(path: Path) -> None:
    e = _explain(path)
    assert e.represents
    json.dumps(explain_json.to_dict(e))
    assert explain_markdown.render(e).startswith("### ")
    for width in (80, 160):
        out = io.StringIO()
        Console(file=out, width=width, color_system=None).print(explain_text.render(e))
        assert all(len(line.rstrip()) <= width for line in out.getvalue().splitlines())
