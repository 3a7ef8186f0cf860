"""The training script of AICB v1.0 (2024-07-31 .. 2024-09-11), `--tp_num` and all.

`scripts/megatron_workload_with_aiob.sh` read other option words then (`--tp_num`,
`--moe_enabled`, `--num_moe_experts`, `--expert_parallel_size`; no `--gpu_type`, no
`--recompute_activations`), defaulted the hidden size to 5140 (the `-m 13` preset sets 5120),
had the presets of `presets.V1_SCRIPT_PRESETS`, and ran
`workload_generator.AIOB_simAI_workload_generator` with `--comm_frame=...`. Its loop, preset
and command-string rules are the later script's (`scripts.training_script`).
"""

from __future__ import annotations

from wkparse.models.aicb.training.presets import FALLBACK_PRESET, V1_SCRIPT_PRESETS
from wkparse.models.aicb.training.scripts import TrainingScript

_VALUED = {
    "--comm_frame": "comm_frame",
    "--world_size": "world_size",
    "--tp_num": "tp_num",
    "--pp_num": "pp_num",
    "--global_batch": "global_batch",
    "--micro_batch": "micro_batch",
    "--num_layers": "num_layers",
    "--seq_length": "seq_length",
    "--hidden_size": "hidden_size",
    "--epoch_num": "epoch_num",
    "--num_attention_heads": "num_attention_heads",
    "--ffn_hidden_size": "ffn_hidden_size",
    "--comp_filepath": "comp_filepath",
    "-m": "model_size",
    "--model_size": "model_size",
    "--max_position_embeddings": "max_position_embeddings",
    "--moe_router_topk": "moe_router_topk",
    "--num_moe_experts": "num_moe_experts",
    "--expert_parallel_size": "expert_parallel_size",
}
_FLAGS = {
    "--aiob_enable": ("aiob_enable", "--aiob_enable"),
    "--use_flash_attn": ("use_flash_attn", "--use_flash_attn"),
    "--swiglu": ("swiglu", "--swiglu"),
    "--sp": ("sp_enable", "--enable_sequence_parallel"),
    "--sp-enable": ("sp_enable", "--enable_sequence_parallel"),
    "--moe_enabled": ("moe_enabled", "--moe_enabled"),
    "--grouped_gemm": ("grouped_gemm", "--moe_grouped_gemm"),
}
_DEFAULTS = {
    "comm_frame": "Megatron",
    "world_size": "32",
    "tp_num": "8",
    "pp_num": "1",
    "global_batch": "1024",
    "micro_batch": "1",
    "num_layers": "40",
    "seq_length": "4096",
    "hidden_size": "5140",
    "epoch_num": "1",
    "num_attention_heads": "40",
    "model_size": "13",
    "max_position_embeddings": "4096",
    "vocab_size": "50257",
}

_PASSED = (
    "comm_frame", "world_size", "tp_num", "pp_num", "global_batch", "micro_batch", "num_layers",
    "seq_length", "hidden_size", "epoch_num", "num_attention_heads", "model_name",
    "max_position_embeddings", "vocab_size",
)  # fmt: skip
_OPTIONAL = (
    "ffn_hidden_size", "comp_filepath", "moe_enabled", "moe_router_topk", "num_moe_experts",
    "expert_parallel_size", "grouped_gemm",
)  # fmt: skip

V1_TRAINING = TrainingScript(
    valued=_VALUED,
    flags=_FLAGS,
    defaults=_DEFAULTS,
    passed=_PASSED,
    flag_vars=("aiob_enable", "use_flash_attn", "swiglu", "sp_enable"),
    optional=_OPTIONAL,
    flag_valued=frozenset({"moe_enabled", "grouped_gemm"}),
    presets=V1_SCRIPT_PRESETS,
    fallback=FALLBACK_PRESET,
)
