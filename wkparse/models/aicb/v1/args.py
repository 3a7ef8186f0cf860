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
from wkparse.models.aicb.errors import AicbError
from wkparse.models.aicb.formulas import data_parallel, ga
from wkparse.models.aicb.options import Option, parse
from wkparse.models.aicb.training.args import (
    OPTIONS,
    TrainingArgs,
    ffn_size,
    measured_times,
    padded_vocab,
)

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


def _assert(ok: bool, message: str) -> None:
    if not ok:
        raise AicbError(f"AICB stops: AssertionError: {message}")


def v1_args(argv: Sequence[str], *, moe_only: bool) -> tuple[TrainingArgs, list[tuple[str, str]]]:
    """The v1.0 generator's settings, and (dest, note) for each given option without effect."""
    parsed = parse(argv, V1_OPTIONS)
    v = parsed.values
    world, tp, pp = (parsed.integer(k) for k in ("world_size", "tp_num", "pp_num"))
    if tp * pp == 0:
        raise AicbError("AICB stops: ZeroDivisionError: tp * pp is 0")
    _assert(world % (tp * pp) == 0, f"world size: {world}, tp: {tp}, pp: {pp}")
    sp, moe = bool(v["enable_sequence_parallel"]), bool(v["moe_enabled"])
    if moe_only or moe:
        _assert(moe and sp, "moe must be enabled with sequence parallel")
    dp = data_parallel(world, tp, pp)
    assert dp is not None  # both cases are stopped above
    mbs, gbs = parsed.integer("micro_batch"), parsed.integer("global_batch")
    if dp * mbs == 0:
        raise AicbError("AICB stops: ZeroDivisionError: data-parallel size * micro_batch is 0")
    layers = parsed.integer("num_layers")
    heads = v["num_attention_heads"]
    heads = layers if heads is None else heads
    assert isinstance(heads, int)
    hidden = parsed.integer("hidden_size")
    tp_padded = padded_vocab(
        parsed.integer("vocab_size"), parsed.integer("make_vocab_size_divisible_by"), tp
    )
    ffn = v["ffn_hidden_size"]
    ffn = ffn_size(hidden, bool(v["swiglu"])) if ffn is None else ffn
    assert isinstance(ffn, int)
    aiob, comp = bool(v["aiob_enable"]), v["comp_filepath"]
    measured_times(aiob, comp)
    name = v["model_name"]
    assert name is None or isinstance(name, str)
    assert comp is None or isinstance(comp, str)
    args = TrainingArgs(
        frame=str(v["comm_frame"]),
        gpu_type=None,
        model_name=name,
        world_size=world,
        tp=tp,
        pp=pp,
        ep=parsed.integer("expert_parallel_size"),
        global_batch=gbs,
        micro_batch=mbs,
        seq_length=parsed.integer("seq_length"),
        hidden_size=hidden,
        num_layers=layers,
        num_attention_heads=heads,
        vocab_size=parsed.integer("vocab_size"),
        padded_vocab_size=tp_padded,
        ffn_hidden_size=ffn,
        add_bias_linear=bool(v["add_bias_linear"]),
        use_flash_attn=bool(v["use_flash_attn"]),
        sequence_parallel=sp,
        moe_enable=moe,
        num_experts=parsed.integer("num_moe_experts"),
        topk=parsed.integer("moe_router_topk"),
        grouped_gemm=bool(v["moe_grouped_gemm"]),
        aiob_enable=aiob,
        comp_filepath=comp,
        recompute=False,
        n_dense_layers=0,
        n_shared_expert=0,
        qk_rope_dim=0,
        qk_nope_dim=0,
        q_lora_rank=0,
        kv_lora_rank=0,
        v_head_dim=0,
        dp=dp,
        ga=ga(gbs, mbs, dp) or 0,  # dp * mbs is not 0 here
    )
    return args, parsed.idle(V1_OPTIONS)
