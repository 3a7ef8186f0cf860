"""explain's activation size when no row carries it (TP 1): read from pp_comm with PP > 1."""

from __future__ import annotations

from wkparse.explanation import explain
from wkparse.parse import parse_text
from wkparse.render.explain import json as explain_json

NAME = (
    "aiob-None-gpt_7B-world_size16-tp1-pp2-ep1-gbs16-mbs1-seq4096-MOE-False-GEMM-False-"
    "flash_attn-True.txt"
)
ROW = "{name}\t-1\t1000\tNONE\t0\t1000\tNONE\t0\t1000\tNONE\t0\t100"


def tp1_file(pp: int = 2, pp_comm: int = 16777216) -> str:
    rows = [ROW.format(name=n) for n in ("embedding_layer", "attention_layer", "mlp_layer") * 2]
    header = (
        f"HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 1 ep: 1 pp: {pp} vpp: 1 "
        f"ga: 2 all_gpus: 16 checkpoints: 0 checkpoint_initiates: 0 pp_comm: {pp_comm}"
    )
    return "\n".join([header, str(len(rows)), *rows]) + "\n"


def test_tp1_pipelined_file_takes_the_activation_from_pp_comm() -> None:
    e = explain(parse_text(tp1_file()), NAME)
    assert (e.activation_bytes, e.activation_source) == (16777216, "pp_comm")
    # 16 MiB = 2 x mbs 1 x seq 4096 x hidden
    assert e.generation.hidden == 2048
    doc = explain_json.to_dict(e)
    assert (doc["activation_bytes"], doc["activation_source"]) == (16777216, "pp_comm")


def test_tp1_single_stage_file_states_no_activation() -> None:
    e = explain(parse_text(tp1_file(pp=1, pp_comm=0)), NAME)
    assert (e.activation_bytes, e.activation_source) == (None, None)
