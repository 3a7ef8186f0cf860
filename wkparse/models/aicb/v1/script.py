"""The training script of AICB v1.0 (2024-07-31 .. 2024-09-11), `--tp_num` and all.

`scripts/megatron_workload_with_aiob.sh` read other option words then (`--tp_num`,
`--moe_enabled`, `--num_moe_experts`, `--expert_parallel_size`; no `--gpu_type`, no
`--recompute_activations`), defaulted the hidden size to 5140 (the `-m 13` preset sets 5120),
had the presets of `presets.V1_SCRIPT_PRESETS`, and ran
`workload_generator.AIOB_simAI_workload_generator` with `--comm_frame=...`. Its loop, preset
and command-string rules are the later script's (`scripts.training_script`), and its tables
are the later script's (`scripts.TRAINING`) with those names, less what came later.
"""

from __future__ import annotations

from wkparse.models.aicb.training.presets import V1_SCRIPT_PRESETS
from wkparse.models.aicb.training.scripts import TRAINING, TrainingScript

#: the later script's variables that v1.0 named otherwise (its option words are `--` + these)
_RENAMED = {
    "frame": "comm_frame",
    "tensor_model_parallel_size": "tp_num",
    "pipeline_model_parallel": "pp_num",
    "moe_enable": "moe_enabled",
    "num_experts": "num_moe_experts",
    "expert_model_parallel_size": "expert_parallel_size",
}
#: what came later: the GPU type, recomputation, DeepSeek's variables and the short words
_LATER = frozenset(
    {
        "gpu_type", "recompute_activations", "q_lora_rank", "kv_lora_rank", "qk_nope_dim",
        "qk_rope_dim", "v_head_dim", "n_shared_expert", "n_dense_layer",
    }
)  # fmt: skip
_LATER_WORDS = frozenset(
    {"--tp", "--pp", "--topk", "--experts", "--ep", "--aiob", "--flash_attn", "--moe_grouped_gemm"}
)


def _v1(name: str) -> str:
    return _RENAMED.get(name, name)


def _word(word: str) -> str:
    """An option word as v1.0 spelled it."""
    return "--" + _RENAMED[word[2:]] if word[2:] in _RENAMED else word


V1_TRAINING = TrainingScript(
    valued={
        _word(w): _v1(var)
        for w, var in TRAINING.valued.items()
        if var not in _LATER and w not in _LATER_WORDS
    },
    flags={
        _word(w): (_v1(var), _word(option))
        for w, (var, option) in TRAINING.flags.items()
        if var not in _LATER and w not in _LATER_WORDS
    },
    defaults={
        _v1(k): "5140" if k == "hidden_size" else value  # the `-m 13` preset sets 5120
        for k, value in TRAINING.defaults.items()
        if k not in _LATER and k != "num_experts"
    },
    passed=tuple(_v1(v) for v in TRAINING.passed if v not in _LATER),
    flag_vars=tuple(_v1(v) for v in TRAINING.flag_vars if v not in _LATER),
    optional=tuple(_v1(v) for v in TRAINING.optional if v not in _LATER),
    flag_valued=frozenset(map(_v1, TRAINING.flag_valued)),
    presets=V1_SCRIPT_PRESETS,
    fallback=TRAINING.fallback,
)
