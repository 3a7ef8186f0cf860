"""The options and checks of AICB v1.0's training generator (2024-07-31 .. 2024-09-11).

`workload_generator.AIOB_simAI_workload_generator` of v1.0 parsed nearly the options of the
later generator (`training_args.OPTIONS`) under other names: `--tp_num`, `--pp_num`,
`--comm_frame` (no DeepSeek), `--moe_enabled`, `--num_moe_experts`, `--expert_parallel_size`;
`--computation_enable` took a number and `--dtype` defaulted to float16. It had no
`--gpu_type`, `--recompute_activations`, `--workload_only` nor DeepSeek options. It did not
divide the layers by the pipeline stages: its file holds every layer. Until 2024-08-23 it
also asserted MoE and sequence parallelism for every run (`moe_only`), so only MoE runs wrote
a file. The result is a `TrainingArgs`, as the later generator's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from wkparse.i18n import N_
from wkparse.models.aicb.options import Option, Parsed, parse
from wkparse.models.aicb.training.args import OPTIONS, TrainingArgs, derived

_RENAMED = {
    "--frame": "--comm_frame",
    "--tensor_model_parallel_size": "--tp_num",
    "--pipeline_model_parallel": "--pp_num",
    "--moe_enable": "--moe_enabled",
    "--expert_model_parallel_size": "--expert_parallel_size",
    "--num_experts": "--num_moe_experts",
}
_ABSENT = frozenset(
    {
        "--gpu_type", "--context-parallel-size", "--enable_visual", "--workload_only",
        "--recompute_activations", "--n_dense_layers", "--n_shared_expert", "--qk_rope_dim",
        "--qk_nope_dim", "--q_lora_rank", "--kv_lora_rank", "--v_head_dim",
    }
)  # fmt: skip
_NO_EFFECT = N_("accepted by AICB; it does not change the workload file")
#: (v1.0 builds Megatron's model whatever --comm_frame says)
_CHANGED = {
    "--comm_frame": Option(
        "--comm_frame",
        "str",
        "Megatron",
        choices=("Megatron", "DeepSpeed", "collective_test"),
        effect=_NO_EFFECT,
    ),
    "--computation_enable": Option("--computation_enable", "int", 1, effect=_NO_EFFECT),
    "--dtype": Option("--dtype", "str", "float16", effect=_NO_EFFECT),
}


def _v1_options() -> tuple[Option, ...]:
    out = []
    for option in OPTIONS:
        if option.flag in _ABSENT:
            continue
        flag = _RENAMED.get(option.flag, option.flag)
        out.append(_CHANGED.get(flag, replace(option, flag=flag)))
    return tuple(out)


V1_OPTIONS = _v1_options()


#: what the later generator reads from options v1.0 lacked, as v1.0 built its model
_FIXED: dict[str, object] = {
    "gpu_type": None,
    "recompute_activations": False,
    "n_dense_layers": 0,
    "n_shared_expert": 0,
    "qk_rope_dim": 0,
    "qk_nope_dim": 0,
    "q_lora_rank": 0,
    "kv_lora_rank": 0,
    "v_head_dim": 0,
}
#: v1.0's name of an option -> the later generator's
_LATER = {replace(o, flag=_RENAMED[o.flag]).dest: o.dest for o in OPTIONS if o.flag in _RENAMED}


def v1_args(argv: Sequence[str], *, moe_only: bool) -> tuple[TrainingArgs, list[tuple[str, str]]]:
    """The v1.0 generator's settings, and (dest, note) for each given option without effect:
    its options under the later generator's names, derived as that generator derives them,
    but for what v1.0 did otherwise (`derived`'s `per_stage` and `moe_only`)."""
    parsed = parse(argv, V1_OPTIONS)
    values = {_LATER.get(k, k): x for k, x in parsed.values.items()} | _FIXED
    return derived(Parsed(values), per_stage=False, moe_only=moe_only), parsed.idle(V1_OPTIONS)
