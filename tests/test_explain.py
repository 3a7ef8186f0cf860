"""Tests for `wkparse explain`: the facts (wkparse.explanation), the three renderings, the CLI.

Small files are written inline so that each test states the one thing it varies; the seed's
case is read from samples/ (our own synthesized copy of the file the user asked about).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from wkparse.ast import Span
from wkparse.cli import app
from wkparse.diagnostics import Diagnostic, Severity
from wkparse.explanation import (
    Explanation,
    compress,
    explain,
    human_bytes,
    human_ns,
    layer_kind,
    route,
)
from wkparse.parse import parse_file, parse_text
from wkparse.render.explain import (
    json as explain_json,
)
from wkparse.render.explain import (
    markdown as explain_markdown,
)
from wkparse.render.explain import (
    text as explain_text,
)
from wkparse.render.explain.cells import bar, grid_lines

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
SEED = SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"
PP1 = SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt"
MIXTRAL = SAMPLES / "mixtral-world32-tp2-pp2-ep8-sp-moe.txt"

HEADER = (
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: {tp} ep: 1 pp: {pp} vpp: {vpp} "
    "ga: {ga} all_gpus: {world} checkpoints: 0 checkpoint_initiates: 0 pp_comm: {pp_comm}"
)
PROLOGUE = [
    "grad_gather -1 1 NONE 0 1 NONE 0 1 ALLGATHER 1000 100",
    "grad_param_comm -1 1 NONE 0 1 NONE 0 1 REDUCESCATTER 2000 100",
]
EMB = "embedding_layer -1 799000 ALLREDUCE 33554432 1 NONE 0 2478000 NONE 0 100"
ATT = "attention_layer -1 1820000 ALLREDUCE 33554432 1820000 NONE 0 1820000 NONE 0 100"
MLP = "mlp_layer -1 2478000 ALLREDUCE 33554432 2478000 NONE 0 2478000 NONE 0 100"
EPILOGUE = [
    "cross_entropy1 -1 0 ALLREDUCE 16384 0 NONE 0 0 NONE 0 100",
    "optimizer1 -1 0 ALLREDUCE 4 0 NONE 0 0 NONE 0 100",
]


def text_of(header: str, rows: list[str], count: int | None = None) -> str:
    n = len(rows) if count is None else count
    return "\n".join([header, str(n), *rows]) + "\n"


def training(
    *,
    tp: int = 4,
    pp: int = 4,
    vpp: int | str = 2,
    ga: int | str = 3,
    groups: int = 3,
    layers: int = 2,
    world: int = 32,
    pp_comm: str = "33554432",
) -> str:
    header = HEADER.format(tp=tp, pp=pp, vpp=vpp, ga=ga, world=world, pp_comm=pp_comm)
    group = [EMB] + [ATT, MLP] * layers
    return text_of(header, PROLOGUE + group * groups + EPILOGUE)


def ex(text: str, path: str | None = None) -> Explanation:
    return explain(parse_text(text), path)


@pytest.fixture(scope="module")
def seed() -> Explanation:
    return explain(parse_file(SEED), str(SEED))


# ---- the seed's case: the question users ask ------------------------------------------------


def test_seed_represents_one_representative_stage_of_nine_of_36_layers(seed: Explanation) -> None:
    r = seed.represents
    assert "one representative pipeline stage" in r
    assert "9 of the model's 36 transformer layers" in r
    assert "64 micro-batches" in r
    assert "14 once-per-iteration rows" in r


def test_seed_represents_says_the_other_stages_are_identical_in_simai(seed: Explanation) -> None:
    r = seed.represents
    assert "SimAI applies these same rows to all 4 stages" in r
    assert "the other 3 stages as identical" in r
    assert "pp_comm (33,554,432 B)" in r
    assert "(PP-1)/(GA*vpp) = 3/(64*9) = 0.52%" in r


def test_seed_represents_says_where_real_first_and_last_stages_differ(seed: Explanation) -> None:
    r = seed.represents
    assert "only the first stage holds the embedding and only the last the loss" in r
    assert "the file does not show that difference" in r


def test_seed_answers_both_questions(seed: Explanation) -> None:
    (q1, a1), (q2, a2) = seed.answers
    assert "9 of 36" in q1 and a1.startswith("Yes.") and "36 layers / pp 4" in a1
    assert "vpp: 9" in a1 and "not a trace of every rank" in a1
    assert q2 == "Are the other stages the same?"
    assert a2.startswith("In SimAI, yes") and "all 4 stages" in a2
    assert "first also holds the input embedding" in a2 and "loss" in a2
    assert "the file does not show that" in a2


def test_seed_markdown_carries_the_answers(seed: Explanation) -> None:
    md = explain_markdown.render(seed)
    assert "one representative pipeline stage: 9 of the model's 36 transformer layers" in md
    assert "> **Are the other stages the same?**" in md
    assert "SimAI applies these same rows to all 4 stages" in md
    assert "only the first stage holds the embedding and only the last the loss" in md
    assert "the file does not show that difference" in md
    # the bubble formula's asterisks are escaped, not read as emphasis
    assert "(PP-1)/(GA\\*vpp) = 3/(64\\*9)" in md


def test_seed_counts_come_from_the_body_and_header_values_as_written(seed: Explanation) -> None:
    assert (seed.tp, seed.pp, seed.dp, seed.ep, seed.dp_ep) == (4, 4, 8, 1, 8)
    assert (seed.ga, seed.vpp, seed.all_gpus, seed.pp_comm) == (64, 9, 128, 33554432)
    assert (seed.groups, seed.layers_per_stage, seed.model_layers) == (64, 9, 36)
    assert (seed.prologue_rows, seed.epilogue_rows, seed.rows) == (7, 7, 1230)
    assert seed.bubble_fraction == pytest.approx(3 / (64 * 9))


def test_seed_expands_the_commonest_group_and_names_the_one_that_differs(
    seed: Explanation,
) -> None:
    s = seed.structure
    assert s.shapes[0].pattern == "embedding_layer, 9 x (attention_layer, mlp_layer)"
    assert (s.shapes[0].count, s.shapes[0].rows, s.shapes[0].layers) == (64, 19, 9)
    # group 1's embedding row carries a different weight-gradient time than the other 63
    assert s.reference_group == 2 and s.identical_groups == 63 and s.differing_groups == 1
    (diff,) = s.differences
    assert diff.group == 1 and diff.rows[0][:2] == (10, "embedding_layer")
    assert "wg_compute 17.4 ms instead of 2.48 ms" in diff.rows[0][2]
    assert [r.line for r in s.reference] == list(range(29, 48))


def test_seed_rows_are_annotated_with_group_and_share(seed: Explanation) -> None:
    emb = seed.structure.reference[0]
    fwd = emb.phases[0]
    assert (emb.name, fwd.phase, fwd.comm, fwd.group, fwd.group_size) == (
        "embedding_layer",
        "fwd",
        "ALLREDUCE",
        "TP",
        4,
    )
    assert (fwd.size, fwd.share, fwd.compute_ns) == (33554432, 8388608, 799000)
    gather = seed.structure.prologue[0].phases[2]
    assert (gather.group, gather.group_size, gather.share) == ("DP", 8, 1151860736 // 8)


def test_seed_totals_per_iteration(seed: Explanation) -> None:
    # 64 groups x 19 TP all-reduces of 32 MiB, the layernorm and embedding_grads all-reduces
    # and 7 epilogue all-reduces
    tp = 64 * 19 * 33554432 + 1151860736 + 33554432 + 3 * 16384 + 4 * 4
    assert seed.comm_bytes["TP"] == tp
    assert seed.comm_bytes["DP"] == 1151860736 + 2303721472
    # SimAI counts pp_comm 2 x vpp x ga times
    assert seed.comm_bytes["PP"] == 2 * 9 * 64 * 33554432
    assert seed.compute_ns["total"] == sum(seed.compute_ns[p] for p in ("fwd", "ig", "wg"))
    kinds = {k.kind: k for k in seed.kinds}
    assert kinds["attention"].rows == 64 * 9 and kinds["attention"].bytes == 64 * 9 * 33554432


def test_seed_generation_facts(seed: Explanation) -> None:
    g = seed.generation
    assert g.compute == "measured" and not g.sequence_parallel and not g.moe
    assert g.era is not None and g.era.earliest == "2024-12-02"


# ---- header against body --------------------------------------------------------------------


def test_pp1_file_is_the_whole_model() -> None:
    e = explain(parse_file(PP1), str(PP1))
    assert e.represents.startswith("One GPU's view of the whole model: all 40 transformer layers")
    assert "no stage-to-stage traffic and no bubble" in e.represents
    assert e.bubble_fraction == 0.0 and e.comm_bytes["PP"] == 0 and e.answers == ()


def test_ga_disagreeing_with_the_groups_is_said_with_what_simai_uses() -> None:
    e = ex(training(ga=5, groups=3))
    assert (e.ga, e.groups) == (5, 3)
    # lint's finding says it, once; explain shows it instead of a note of its own
    assert [f.message for f in e.findings if f.code == "WK302"] != []
    assert "ga is 5 but the body holds 3" in next(
        f.message for f in e.findings if f.code == "WK302"
    )
    assert not any("ga 5" in n for n in e.notes)
    assert "(the header says ga 5)" in e.represents


def test_vpp_disagreeing_with_the_layers_is_said() -> None:
    e = ex(training(vpp=9, layers=2))
    assert (e.vpp, e.layers_per_stage, e.model_layers) == (9, 2, 8)
    assert "WK301" in {f.code for f in e.findings}
    assert not any("vpp 9" in n for n in e.notes)


def test_missing_vpp_is_null_and_its_effect_is_said() -> None:
    text = training().replace(" vpp: 2", "")
    e = ex(text)
    assert e.vpp is None and e.bubble_fraction is None
    (missing,) = [f for f in e.findings if f.code == "WK201"]
    assert "vpp" in missing.message and not any("vpp" in n for n in e.notes)
    assert "divides by zero here" in e.represents


def test_float_pp_comm_is_kept_as_written_and_read_as_stoi() -> None:
    e = ex(training(pp_comm="8388608.0"))
    assert e.pp_comm == 8388608.0 and isinstance(e.pp_comm, float)
    assert e.pp_comm_simai == 8388608
    assert any(f.code == "WK216" and "8388608" in f.message for f in e.findings)
    doc = explain_json.to_dict(e)
    assert doc["pp_comm"] == 8388608.0 and doc["header"]["pp_comm_simai"] == 8388608


def test_declared_rows_mismatch_is_noted_and_the_lint_finding_sits_in_structure() -> None:
    text = training()
    lines = text.splitlines()
    lines[1] = "99"
    e = ex("\n".join(lines) + "\n")
    assert e.declared_rows == 99 and e.rows == 2 + 3 * 5 + 2
    (wk105,) = [f for f in e.findings if f.code == "WK105"]
    assert wk105.section == "count" and wk105.line == 2
    out = _text(e, 80)
    structure = out[out.index("Structure") : out.index("Totals per iteration")]
    assert "WK105" in structure


def test_all_gpus_not_divisible_is_floored_and_said() -> None:
    e = ex(training(world=36))
    assert (e.dp, e.dp_remainder) == (2, 4)
    assert "WK210" in {f.code for f in e.findings}


def test_layers_floored_by_pp_are_named_from_the_preset() -> None:
    name = (
        "aiob-None-gpt_7B-world_size160-tp4-pp5-ep1-gbs24-mbs1-seq4096-MOE-False-GEMM-False-"
        "flash_attn-True.txt"
    )
    e = ex(training(pp=5, vpp=7, layers=7, world=160), name)
    assert e.model_layers == 35 and e.generation.preset_layers == 36
    assert "AICB floors 36/5 to 7 per stage, so 1 layer is not simulated" in e.represents


def test_unsplit_stage_of_the_oldest_generator_is_said() -> None:
    name = (
        "aiob-gpt_7B-world_size32-tp4-pp2-ep1-gbs12-mbs1-seq4096-MOE-False-GEMM-False-"
        "flash_attn-True.txt"
    )
    e = ex(training(pp=2, vpp=36, layers=36, world=32), name)
    assert "holds all 36 of gpt_7B's layers" in e.represents
    assert e.answers[0][1].startswith("No: each group holds all 36 layers")


def test_ga_zero_file_has_no_layer_rows() -> None:
    text = text_of(
        HEADER.format(tp=8, pp=3, vpp=13, ga=0, world=48, pp_comm=41943040),
        PROLOGUE + EPILOGUE,
    )
    e = ex(text)
    assert e.groups == 0 and e.layers_per_stage is None and e.model_layers is None
    assert e.represents.startswith("No micro-batch at all: the header declares ga 0")


def test_hidden_size_from_the_file_name() -> None:
    name = (
        "None-gpt_7B-world_size32-tp4-pp4-ep1-gbs6-mbs1-seq4096-MOE-False-GEMM-False-"
        "flash_attn-True.txt"
    )
    g = ex(training(), name).generation
    assert g.hidden == 4096 and g.name is not None and g.name.model == "gpt_7B"
    assert g.hidden_how == "activation 33,554,432 B = 2 x mbs 1 x seq 4096 x hidden"
    assert g.expected_ga == 6 // (1 * 2)


def test_moe_experts_and_topk_are_derived_from_the_rows() -> None:
    e = explain(parse_file(MIXTRAL), str(MIXTRAL))
    assert e.moe and e.sequence_parallel
    assert (e.generation.experts, e.generation.topk) == (8, 2)
    assert e.comm_bytes["EP"] > 0


# ---- SimAI's group rules --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("policy", "phase", "comm", "group"),
    [
        ("HYBRID_TRANSFORMER_FWD_IN_BCKWD", "fwd", "ALLREDUCE", "TP"),
        ("HYBRID_TRANSFORMER_FWD_IN_BCKWD", "ig", "REDUCESCATTER", "TP"),
        ("HYBRID_TRANSFORMER_FWD_IN_BCKWD", "wg", "ALLREDUCE", "DP"),
        ("HYBRID_TRANSFORMER_FWD_IN_BCKWD", "fwd", "ALLTOALL_EP", "EP"),
        ("HYBRID_TRANSFORMER_FWD_IN_BCKWD", "wg", "ALLGATHER_EP", "EP"),
        ("HYBRID_TRANSFORMER_FWD_IN_BCKWD", "wg", "ALLGATHER_DP_EP", "DP_EP"),
        ("HYBRID_TRANSFORMER", "fwd", "ALLGATHER", "TP"),
        ("DATA", "wg", "ALLREDUCE", "ALL"),
        ("MODEL", "fwd", "ALLGATHER", "ALL"),
        ("MICRO", "wg", "ALLREDUCE", "ALL"),
        ("HYBRID_DATA_MODEL", "fwd", "ALLGATHER", "MP"),
        ("HYBRID_MODEL_DATA", "wg", "ALLREDUCE", "DP"),
        ("HYBRID_DLRM", "fwd", "ALLTOALL", "MP"),
    ],
)
def test_route_follows_simai(policy: str, phase: str, comm: str, group: str) -> None:
    assert route(policy, phase, comm) == group


@pytest.mark.parametrize(
    ("comm", "note"),
    [
        ("ALLREDUSE", "no collective SimAI knows"),
        ("BROADCAST", "no collective SimAI knows"),
        ("ALLREDUCE_TP", "as ALLREDUCE in no group"),
        ("ALLREDUCEALLTOALL", "as ALLREDUCE in no group"),
    ],
)
def test_route_of_types_that_cost_nothing(comm: str, note: str) -> None:
    # why they cost nothing is lint's finding (WK403/WK404), shown by explain on the row
    assert route("HYBRID_TRANSFORMER_FWD_IN_BCKWD", "fwd", comm) is None
    e = ex(training().replace(ATT, ATT.replace("ALLREDUCE", comm, 1)))
    assert any(f.line == 6 and comm in f.message for f in e.findings), note


def test_route_of_none_is_no_group() -> None:
    assert route("HYBRID_TRANSFORMER_FWD_IN_BCKWD", "wg", "NONE") is None


def test_unknown_type_is_annotated_and_left_out_of_the_group_totals() -> None:
    text = training().replace(ATT, ATT.replace("ALLREDUCE", "ALLREDUSE"))
    e = ex(text)
    row = next(r for r in e.structure.reference if r.line == 6)
    fwd = row.phases[0]
    assert fwd.group is None and fwd.note is None  # lint's WK404 says why, once
    (unknown,) = [c for c in e.collectives if c.collective == "ALLREDUSE"]
    assert unknown.group is None and unknown.calls == 3 * 2
    assert e.comm_bytes["TP"] == ex(training()).comm_bytes["TP"] - 6 * 33554432
    assert any(f.line == 6 and "ALLREDUSE" in f.message for f in e.findings)
    assert "line 6 fwd:" not in _text(e, 80)


def test_customized_rows_use_their_own_policy() -> None:
    text = text_of(
        "HYBRID_CUSTOMIZED",
        [
            "a -1 5 ALLGATHER 100 5 NONE 0 5 ALLREDUCE 200 5 MODEL",
            "b -1 5 ALLGATHER 100 5 NONE 0 5 ALLREDUCE 200 5 HYBRID_DATA_MODEL",
        ],
    )
    e = ex(text)
    assert e.dialect == "customized"
    a, b = e.structure.body
    assert (a.policy, a.phases[0].group, a.phases[2].group) == ("MODEL", "ALL", "ALL")
    assert (b.policy, b.phases[0].group, b.phases[2].group) == ("HYBRID_DATA_MODEL", "MP", "DP")
    assert "1 MODEL, 1 HYBRID_DATA_MODEL" in e.represents


# ---- other dialects: no transformer vocabulary where it does not apply ----------------------

TRANSFORMER_WORDS = re.compile(r"transformer|pipeline|micro-batch|stage|embedding", re.I)


def test_micro_benchmark_lists_collectives_and_sizes() -> None:
    rows = [f"micro_test -1 1 NONE 0 1 NONE 0 1 ALLREDUCE {4096 << i} 1" for i in range(4)]
    e = ex(text_of("MICRO", rows))
    assert e.dialect == "micro"
    assert e.represents.startswith(
        "A collective micro-benchmark: 4 rows, each one ALLREDUCE of 4 KiB to 32 KiB (4 sizes)"
    )
    # SimAI, as ASTRA-sim 1.0, issues only layers[0]'s weight-gradient collective under MICRO
    assert "only the first row's weight-gradient collective is issued" in e.represents
    assert "over all GPUs" not in e.represents
    assert not TRANSFORMER_WORDS.search(e.represents)
    assert e.comm_bytes["ALL"] == sum(4096 << i for i in range(4))


def test_data_parallel_file() -> None:
    rows = [
        "conv1 -1 13003 NONE 0 12864 NONE 0 32291 ALLREDUCE 37632 3229",
        "conv2 -1 3456 NONE 0 3648 NONE 0 7488 ALLREDUCE 65536 749",
    ]
    e = ex(text_of("DATA", rows))
    assert e.dialect == "data" and e.tp is None and e.groups == 0
    assert e.represents.startswith("A data-parallel workload (ASTRA-sim 1.0 policy DATA): 2 layers")
    assert "run over all GPUs" in e.represents
    assert not TRANSFORMER_WORDS.search(e.represents)
    assert explain_json.to_dict(e)["layers_per_stage"] is None


def test_dlrm_bare_number_is_explained() -> None:
    rows = ["Embedding -1 300 ALLTOALL 98304 300 ALLTOALL 98304 300 NONE 0 98"]
    e = ex(text_of("HYBRID_DLRM 4", rows))
    assert e.dialect == "dlrm" and e.leading == ("4",)
    assert "WK222" in {f.code for f in e.findings}
    assert not TRANSFORMER_WORDS.search(e.represents.replace("embedding all-to-alls", ""))


def test_inference_file_is_layers_once_simulated_as_training() -> None:
    header = (
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 8 pp: 1 all_gpus: 16 "
        "mode: 1 vpp: 1 ga: 1 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0"
    )
    layer = [
        "attention_norm -1 1 NONE 0 0 NONE 0 0 NONE 0 100",
        "attention_layer -1 1 ALLREDUCE 33554432 0 NONE 0 0 NONE 0 100",
        "moe_expert -1 1 ALLTOALL_EP 134217728 1 NONE 0 1 NONE 0 100",
    ]
    e = ex(text_of(header, layer * 3))
    assert e.dialect == "inference" and e.layers_in_body == 3 and e.groups == 0
    assert e.layers_per_stage is None and e.model_layers is None
    assert e.represents.startswith("An inference workload (mode: 1): 3 layers, each once")
    assert "simulates these rows as one training iteration" in e.represents
    assert e.generation.topk == 8  # 134217728 x TP 2 / 33554432
    assert e.generation.era is not None and "inference generator" in e.generation.era.label


def test_bom_before_the_policy_is_said_first() -> None:
    e = ex("\ufeff" + training())
    assert e.bom and e.represents.startswith("A UTF-8 byte-order mark precedes the policy word")
    assert "Read without it: One GPU's view of one representative pipeline stage" in e.represents


def test_unknown_policy() -> None:
    e = ex(text_of("HYBRID_NONSENSE", [ATT]))
    assert e.dialect == "unknown"
    assert "is no parallelism policy SimAI knows" in e.represents


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("format", ["text", "markdown", "html"])
def test_a_file_without_a_policy_names_no_python_none(
    tmp_path: Path, lang: str, format: str
) -> None:
    """Line 1 blank: WK101 says once that there is no policy; no row's phase says 'no group
    under policy None' (the missing policy printed as Python's None, on every phase)."""
    path = tmp_path / "blank1.txt"
    path.write_text("\n" + training().split("\n", 1)[1])
    result = CliRunner().invoke(app, ["explain", str(path), "--lang", lang, "--format", format])
    assert result.exit_code == 0, result.output
    assert "WK101" in result.stdout
    assert "None" not in result.stdout


def test_the_rows_line_counts_the_rows_past_a_short_count(tmp_path: Path) -> None:
    """Line 2 says 99 of 1,309 rows: the layout's rows line said '99 declared, 99 in the
    body', as if the file held 99; it now names the 1,210 rows SimAI never reads."""
    text = PP1.read_text()
    path = tmp_path / "short.txt"
    path.write_text(text.replace("\n1309\n", "\n99\n", 1))
    out = CliRunner().invoke(app, ["explain", str(path)]).stdout
    row = " ".join(out.split("\n  rows", 1)[1].split("\n\n")[0].split())
    assert row.startswith("99 declared, 99 in the body and 1,210 more rows past the count"), row
    whole = CliRunner().invoke(app, ["explain", str(PP1)]).stdout
    assert "past the count" not in whole


# ---- eras -----------------------------------------------------------------------------------


def _era(text: str) -> tuple[str | None, str | None]:
    era = ex(text).generation.era
    assert era is not None
    return era.earliest, era.latest


def test_era_rules() -> None:
    base = training(pp=1, world=8, pp_comm="0")
    assert _era(base) == ("2024-12-04", None)
    assert _era(training(pp=1, world=8, pp_comm="41943040")) == ("2024-12-02", "2024-12-04")
    assert _era(training(pp_comm="8388608.0")) == ("2025-01-02", None)
    assert _era(base.replace(" pp_comm: 0", "")) == ("2024-11-05", "2024-12-02")
    assert _era(base.replace(" vpp: 2", "").replace(" pp_comm: 0", "")) == (None, "2024-11-05")
    # a measured file with a size in a NONE column predates 2025-09-15
    none_size = base.replace("2478000 NONE 0 100", "2478000 NONE 77 100", 1)
    assert _era(none_size) == ("2024-12-04", "2025-09-15")


def test_era_of_a_v1_header() -> None:
    text = text_of(
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD\tmodel_parallel_NPU_group: 8 checkpoints: 0 "
        "checkpoint_initiates: 0",
        [EMB, ATT, MLP],
    )
    era = ex(text).generation.era
    assert era is not None and era.label == "AICB v1.0-style header"


# ---- helpers --------------------------------------------------------------------------------


def test_compress() -> None:
    names = ["embedding_layer"] + ["attention_layer", "mlp_layer"] * 9
    assert compress(names) == "embedding_layer, 9 x (attention_layer, mlp_layer)"
    moe = ["embedding_layer"] + (["attention_column", "attention_row"] + ["mlp_moelayer"] * 5) * 2
    assert (
        compress(moe) == "embedding_layer, 2 x (attention_column, attention_row, 5 x mlp_moelayer)"
    )
    assert compress([f"optimizer{i}" for i in range(1, 5)]) == "optimizer1..4"
    assert compress(["a", "b", "c"]) == "a, b, c"


def test_units() -> None:
    assert human_bytes(33554432) == "32 MiB"
    assert human_bytes(1151860736) == "1.07 GiB"
    assert human_bytes(4) == "4 B"
    assert human_ns(1820000) == "1.82 ms"
    assert human_ns(799000) == "799 µs"
    assert human_ns(17374000) == "17.4 ms"
    assert human_ns(7) == "7 ns"


def test_layer_kinds() -> None:
    assert layer_kind("attention_column", True) == "attention"
    assert layer_kind("mlp_moelayer", True) == "moe"
    assert layer_kind("moe_grad_norm1", True) == "grad sync"
    assert layer_kind("cross_entropy2", True) == "loss"
    assert layer_kind("layer_64_1_conv4", False) == "layer_64_1_conv"


def test_bar() -> None:
    assert bar(0.5, 8) == "████    "
    assert bar(3 / 8, 1) == "▍"
    assert bar(0.0, 3) == "   "


# ---- findings, inline where they apply -------------------------------------------------------


def _finding_at(line: int, code: str = "WK999") -> Diagnostic:
    return Diagnostic(code, f"a finding on line {line}", Span.on_line(line, 1, 2), Severity.WARNING)


def test_findings_are_placed_in_the_section_of_their_line() -> None:
    result = parse_text(training())
    # header, prologue row 4, group 2's first row (line 10), epilogue row 21, every group row
    diagnostics = [_finding_at(1), _finding_at(4), _finding_at(10), _finding_at(21)]
    diagnostics += [
        Diagnostic("WK998", "the same on every group", Span.on_line(n, 1, 2), Severity.WARNING)
        for n in (6, 11, 16)
    ]
    e = explain(result, None, findings=diagnostics)
    sections = {(f.code, f.line): f.section for f in e.findings}
    assert sections[("WK999", 1)] == "header"
    assert sections[("WK999", 4)] == "prologue"
    assert sections[("WK999", 10)] == "groups"
    assert sections[("WK999", 21)] == "epilogue"
    (repeated,) = [f for f in e.findings if f.code == "WK998"]
    assert (repeated.count, repeated.lines, repeated.line) == (3, (6, 11, 16), 6)
    out = _text(e, 80)
    layout = out[out.index("Parallel layout") : out.index("Structure")]
    assert "WK999 warning (line 1)" in layout
    prologue = out[out.index("Prologue") : out.index("Micro-batch group")]
    assert "WK999 warning (line 4)" in prologue and re.search(r"!4 grad_param_comm", prologue)
    group = out[out.index("Micro-batch group") : out.index("Epilogue")]
    assert "WK998 warning (3 lines: 6, 11, 16)" in group and re.search(r"!6 attention", group)
    md = explain_markdown.render(e)
    assert "| 4 :warning: | `grad_param_comm` |" in md


# ---- renderings -----------------------------------------------------------------------------


def _text(e: Explanation, width: int) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(explain_text.render(e))
    return out.getvalue()


@pytest.mark.parametrize("width", [80, 160])
def test_text_fits_the_width_and_has_every_section(seed: Explanation, width: int) -> None:
    out = _text(seed, width)
    assert all(len(line.rstrip()) <= width for line in out.splitlines())
    for title in (
        "What this file is",
        "Parallel layout",
        "Structure",
        "Prologue: once per iteration",
        "Micro-batch group 2 of 64 (lines 29-47)",
        "Epilogue: once per iteration",
        "How it was generated",
        "Totals per iteration",
        "by layer kind",
    ):
        assert title in out
    assert "64 x [embedding_layer, 9 x (attention_layer, mlp_layer)]" in out
    assert out.count("■") == 2  # the highlighted GPU and the caption naming it
    assert "one representative pipeline stage" in out


def test_text_at_80_drops_the_group_suffix_the_group_column_shows(seed: Explanation) -> None:
    narrow, wide = _text(seed, 80), _text(seed, 160)
    assert re.search(r"8 moe_grad_norm1 +wg +1 ns ALLGATHER +DP/EP 8", narrow)
    assert re.search(r"moe_grad_norm1 +wg +1 ns +ALLGATHER_DP_EP +DP/EP 8", wide)


def test_grid_collapses_a_large_world() -> None:
    text = training(tp=2, pp=12, world=9216)
    e = ex(text)
    lines = grid_lines(e, 78)
    rendered = ["".join(t for t, _ in pieces) for pieces in lines]
    assert all(len(line.rstrip()) <= 78 for line in rendered)
    assert "DP 383" in rendered[0] and "..." in rendered[0]
    assert rendered[1].startswith("stage 0") and any(r.startswith("stage 11") for r in rendered)
    assert sum(1 for pieces in lines for _, lit in pieces if lit) == 1


def test_markdown_has_the_same_sections(seed: Explanation) -> None:
    md = explain_markdown.render(seed)
    for title in (
        "#### Parallel layout",
        "#### Structure",
        "#### How it was generated",
        "#### Totals per iteration (one GPU)",
        "<summary><b>Micro-batch group 2 of 64",
    ):
        assert title in md
    assert "| 29 | `embedding_layer` | fwd | 799 µs | ALLREDUCE | TP 4 | 32 MiB | 8 MiB |" in md
    assert md.count("```text") == 2


JSON_KEYS = {
    "policy",
    "tp",
    "pp",
    "dp",
    "ep",
    "dp_ep",
    "ga",
    "vpp",
    "all_gpus",
    "pp_comm",
    "declared_rows",
    "rows",
    "groups",
    "layers_per_stage",
    "model_layers",
    "sequence_parallel",
    "moe",
    "activation_bytes",
    "placeholder_compute",
    "bubble_fraction",
    "comm_bytes",
    "compute_ns",
    "represents",
    "findings",
}


def test_json_contract(seed: Explanation) -> None:
    doc = json.loads(json.dumps(explain_json.to_dict(seed)))
    assert doc.keys() >= JSON_KEYS
    assert set(doc["comm_bytes"]) == {"TP", "DP", "EP", "DP_EP", "PP"}
    assert set(doc["compute_ns"]) == {"fwd", "ig", "wg", "total"}
    assert doc["structure"]["groups"]["shapes"][0]["count"] == 64
    assert doc["structure"]["groups"]["expanded_rows"][0]["phases"]["fwd"]["per_rank"] == 8388608
    assert isinstance(doc["findings"], list)


def test_absent_header_values_are_null_in_json() -> None:
    text = training().replace(" vpp: 2", "").replace(" pp_comm: 33554432", "")
    doc = explain_json.to_dict(ex(text))
    assert doc["vpp"] is None and doc["pp_comm"] is None and doc["bubble_fraction"] is None
    assert doc["layers_per_stage"] == 2  # counted, not copied from the header


# ---- the command ----------------------------------------------------------------------------

runner = CliRunner()


def test_cli_json() -> None:
    result = runner.invoke(app, ["explain", "--format", "json", str(SEED)])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["layers_per_stage"] == 9


def test_cli_markdown_and_text() -> None:
    md = runner.invoke(app, ["explain", "-f", "markdown", str(PP1)])
    assert md.exit_code == 0 and md.stdout.startswith("### `gpt13b-world8-tp2-pp1-sp.txt`")
    text = runner.invoke(app, ["explain", str(PP1)])
    assert text.exit_code == 0 and "whole model" in text.stdout


def test_cli_reads_stdin() -> None:
    result = runner.invoke(app, ["explain", "-f", "json", "-"], input=training())
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["path"] == "-" and doc["groups"] == 3


def test_cli_explains_a_file_with_lint_errors_and_exits_0(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(training().replace("\n19\n", "\n99\n"))
    result = runner.invoke(app, ["explain", "-f", "json", str(bad)])
    assert result.exit_code == 0
    assert any(f["code"] == "WK105" for f in json.loads(result.stdout)["findings"])


@pytest.mark.parametrize("name", ["missing.txt", ""])
def test_cli_unreadable_path_exits_2(tmp_path: Path, name: str) -> None:
    result = runner.invoke(app, ["explain", str(tmp_path / name)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_a_micro_file_without_rows_says_so_in_singular_and_plural() -> None:
    one = ex("MICRO\n1\n")
    assert one.represents == "A collective micro-benchmark (MICRO header) with no rows."
    assert "WK105" in {f.code for f in one.findings}


def _fenced_blocks(md: str) -> list[list[str]]:
    """The contents of the fenced code blocks, closed as CommonMark closes them: by a line of
    backticks at least as long as the opening fence."""
    blocks: list[list[str]] = []
    fence = ""
    for line in md.splitlines():
        if not fence:
            opening = re.match(r"(`{3,})[^`]*$", line)
            if opening:
                fence = opening[1]
                blocks.append([])
        elif re.fullmatch(rf"`{{{len(fence)},}}\s*", line):
            fence = ""
        else:
            blocks[-1].append(line)
    assert not fence, "a fenced block is left open"
    return blocks


def test_markdown_keeps_backticks_of_layer_names_inside_their_code() -> None:
    """A layer named ```mlp must not close a fenced block or a code span and spill the rest
    of the answer into the issue it is pasted into."""
    text = (SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt").read_text()
    md = explain_markdown.render(ex(text.replace("\nmlp_layer", "\n```mlp")))
    assert any(line.startswith("```mlp ") for block in _fenced_blocks(md) for line in block)
    assert "| ```` ```mlp ```` |" in md


def test_no_bubble_is_never_said_beside_a_nan_bubble(tmp_path: Path) -> None:
    """Issue 32: "no bubble" and "bubble NaN or Inf us" in one output (pp 1, no vpp)."""
    sample = Path(__file__).parents[1] / "samples" / "gpt13b-world8-tp2-pp1-sp.txt"
    path = tmp_path / "novpp.txt"
    path.write_text(sample.read_text().replace(" vpp: 40", "", 1))
    text = " ".join(CliRunner().invoke(app, ["explain", str(path)]).stdout.split())
    assert "bubble NaN" in text
    assert "no bubble" not in text
    whole = " ".join(CliRunner().invoke(app, ["explain", str(sample)]).stdout.split())
    assert "no bubble" in whole and "NaN" not in whole


def test_a_group_of_one_row_and_no_layer_is_counted_in_words() -> None:
    """Issue 41: "2 x [embedding_layer] (1 rows, 0 layers each)"."""
    from wkparse.explanation import explain
    from wkparse.render.explain.cells import structure_rows

    row = "embedding_layer\t-1\t556000\tALLREDUCE\t13870912\t1\tNONE\t0\t1\tNONE\t0\t100"
    text = (
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 8 ep: 1 pp: 1 vpp: 1 ga: 2 "
        f"all_gpus: 8 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0\n2\n{row}\n{row}\n"
    )
    said = [what for _, _, what in structure_rows(explain(parse_text(text), "x.txt"))]
    assert "2 x [embedding_layer] (1 row each)" in said, said
    assert not any("rows," in w or "0 layers" in w for w in said)


def test_explaining_a_file_leaves_aicb_s_generator_unloaded(tmp_path: Path) -> None:
    """AICB's generator (16 ms of imports) is loaded only where AICB is run (a command to
    compare with, a file name AICB gives, the command inferred from a file small enough):
    explaining a file past the inference's size never loads it."""
    import subprocess
    import sys

    sample = Path(__file__).resolve().parent.parent / "samples" / "gpt13b-world8-tp2-pp1-sp.txt"
    path = tmp_path / "w.txt"
    path.write_bytes(sample.read_bytes())
    code = (
        "import sys\n"
        "from wkparse.cli import main\n"
        "from wkparse.explanation import generation\n"
        "generation._INFER_MOST_BYTES = 0  # (as a file of a million rows is)\n"
        "sys.argv[1:] = ['explain', sys.argv[1]]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "assert 'wkparse.models.aicb.generation' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True)
    assert done.returncode == 0, done.stderr.decode()
