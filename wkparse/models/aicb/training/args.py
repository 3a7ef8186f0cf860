"""The options of AICB's training generator and the checks it runs before writing anything.

`python -m workload_generator.SimAI_training_workload_generator` parses these (AICB's
`utils/utils.py`, `get_params`), then derives data-parallel size, micro-batch count, padded
vocabulary and FFN size, divides the layers by the pipeline stages, and asserts a few
combinations. `TrainingArgs` holds the result; every assertion AICB makes is an AicbError here
with AICB's own wording, because AICB writes no file then.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wkparse.i18n import N_, _
from wkparse.models.aicb.errors import AicbError, MeasuredOnGpu
from wkparse.models.aicb.formulas import activation, data_parallel, ga
from wkparse.models.aicb.options import Option, Parsed, parse

#: what an option that leaves the file alone does (translated where shown: `Parsed.idle`)
_NO_EFFECT = N_("accepted by AICB; it does not change the workload file")
_DEEPSPEED = N_("a DeepSpeed setting; the SimAI training generator does not read it")
_MICROTEST = N_("a collective-test setting; the SimAI training generator does not read it")

FRAMES = ("Megatron", "DeepSpeed", "collective_test", "DeepSeek")

OPTIONS: tuple[Option, ...] = (
    Option(
        "--frame",
        "str",
        "Megatron",
        choices=FRAMES,
        note="DeepSeek builds the DeepSeek model; the others Megatron's",
    ),
    Option("--gpu_type", "str", None, note="the file name's first part"),
    Option("--world_size", "int", 1),
    Option("--tensor_model_parallel_size", "int", 1),
    Option("--pipeline_model_parallel", "int", 1),
    Option("--context-parallel-size", "int", 1, effect=_NO_EFFECT),
    Option("--pp_rank", "int", -1, effect=_NO_EFFECT),
    Option("--global_batch", "int", 4),
    Option("--micro_batch", "int", 1),
    Option(
        "--epoch_num", "int", 1, effect=N_("used only when AICB measures compute times on a GPU")
    ),
    Option("--computation_enable", "flag", False, effect=_NO_EFFECT),
    Option("--dtype", "str", "bfloat16", note="only AICB's checks read it (EP and grouped GEMM)"),
    Option("--ffn_hidden_size", "int", None),
    Option("--enable_visual", "flag", False, effect=_NO_EFFECT),
    Option("--workload_only", "flag", False, effect=_NO_EFFECT),
    # model
    Option("--model_name", "str", None, note="the file name's model part"),
    Option("--hidden_size", "int", 1024),
    Option("--num_layers", "int", 24),
    Option("--seq_length", "int", 2048),
    Option("--num_attention_heads", "int", None),
    Option("--vocab_size", "int", 32000),
    Option("--max_position_embeddings", "int", 4096, effect=_NO_EFFECT),
    Option("--add_bias_linear", "flag", False),
    Option("--use_flash_attn", "flag", False, note="the file name only"),
    Option("--swiglu", "flag", False),
    # DeepSpeed
    Option("--stage", "int", 3, choices=(1, 2, 3), effect=_DEEPSPEED),
    Option("--amp_enabled", "flag", False, effect=_DEEPSPEED),
    Option("--reduce_bucket_size", "int", 500_000_000, effect=_DEEPSPEED),
    Option("--allgather_bucket_size", "int", 500_000_000, effect=_DEEPSPEED),
    Option("--contiguous_gradients", "flag", False, effect=_DEEPSPEED),
    Option("--param_persistence_threshold", "int", 100_000, effect=_DEEPSPEED),
    Option("--model_persistence_threshold", "int", 2**63 - 1, effect=_DEEPSPEED),
    Option("--max_live_parameters", "int", 1_000_000_000, effect=_DEEPSPEED),
    Option("--prefetch_bucket_size", "int", 1_000_000_000, effect=_DEEPSPEED),
    # Megatron
    Option("--enable_sequence_parallel", "flag", False),
    Option("--use-distributed-optimizer", "flag", False, effect=_NO_EFFECT),
    Option("--make_vocab_size_divisible_by", "int", 128),
    Option("--overlap_grad_reduce", "flag", False, effect=_NO_EFFECT),
    # collective test
    Option("--begin_size", "int", 1048576, effect=_MICROTEST),
    Option("--end_size", "int", 1048576, effect=_MICROTEST),
    Option("--test_comm", "str", "all_reduce", effect=_MICROTEST),
    Option("--iter_num", "int", 500, effect=_MICROTEST),
    Option("--multi_all_reduce_enable", "int", 0, effect=_MICROTEST),
    Option("--overlap_version", "flag", False, effect=_NO_EFFECT),
    # MoE
    Option("--moe_enable", "flag", False),
    Option("--expert_model_parallel_size", "int", 1),
    Option("--num_experts", "int", 1),
    Option("--moe_router_topk", "int", 1),
    Option(
        "--moe_grouped_gemm",
        "flag",
        False,
        note="the file name (GEMM-True) and a bf16 check; rows unchanged",
    ),
    Option("--activation_func", "str", None, effect=_NO_EFFECT),
    # AIOB
    Option(
        "--aiob_enable",
        "flag",
        False,
        note="with --comp_filepath; refused without it (AICB measures on a GPU)",
    ),
    Option(
        "--comp_filepath",
        "str",
        None,
        note="read when present; AICB's shipped Example.txt built in",
    ),
    Option("--gated_linear_unit", "str", False, effect=_NO_EFFECT),
    Option("--bias_gelu_fusion", "flag", False, effect=_NO_EFFECT),
    Option("--openai_gelu", "flag", False, effect=_NO_EFFECT),
    Option("--onnx_safe", "flag", False, effect=_NO_EFFECT),
    Option("--squared_relu", "flag", False, effect=_NO_EFFECT),
    Option("--recompute_activations", "flag", False),
    # DeepSeek
    Option("--n_dense_layers", "int", 3),
    Option("--n_shared_expert", "int", 2),
    Option("--qk_rope_dim", "int", 64),
    Option("--qk_nope_dim", "int", 128),
    Option("--q_lora_rank", "int", 1536),
    Option("--kv_lora_rank", "int", 512),
    Option("--v_head_dim", "int", 128),
)


@dataclass(frozen=True, slots=True)
class TrainingArgs:
    """The training generator's settings after its own derivations (names as AICB's)."""

    frame: str
    gpu_type: str | None
    model_name: str | None
    world_size: int
    tp: int
    pp: int
    ep: int
    global_batch: int
    micro_batch: int
    seq_length: int
    hidden_size: int
    #: layers of one pipeline stage: AICB floors num_layers / pp when pp > 1
    num_layers: int
    num_attention_heads: int
    vocab_size: int
    padded_vocab_size: int
    ffn_hidden_size: int
    add_bias_linear: bool
    use_flash_attn: bool
    sequence_parallel: bool
    moe_enable: bool
    num_experts: int
    topk: int
    grouped_gemm: bool
    aiob_enable: bool
    comp_filepath: str | None
    recompute: bool
    n_dense_layers: int
    n_shared_expert: int
    qk_rope_dim: int
    qk_nope_dim: int
    q_lora_rank: int
    kv_lora_rank: int
    v_head_dim: int
    dp: int
    ga: int

    @property
    def deepseek(self) -> bool:
        """AICB builds its DeepSeek model for `--frame DeepSeek`, Megatron's for every other."""
        return self.frame == "DeepSeek"

    @property
    def tp_comm_size(self) -> int:
        """Bytes of one bf16 activation: 2 * micro_batch * seq_length * hidden_size."""
        return activation(self.micro_batch, self.seq_length, self.hidden_size)


def _assert(ok: bool, message: str) -> None:
    if not ok:
        raise AicbError(f"AICB stops: AssertionError: {message}")


def padded_vocab(vocab: int, divisible_by: int, tp: int) -> int:
    multiple = divisible_by * tp
    if multiple == 0:
        raise AicbError("AICB stops: ZeroDivisionError padding the vocabulary (multiple 0)")
    if multiple < 0:
        raise AicbError(f"--make_vocab_size_divisible_by * tp is {multiple}: not modelled")
    return -(-vocab // multiple) * multiple


def measured_times(aiob: bool, comp: object) -> None:
    """Refuse an AIOB run without a times file: AICB would measure them on a GPU."""
    if aiob and comp is None:
        raise MeasuredOnGpu(
            _(
                "--aiob_enable without --comp_filepath measures compute times on a GPU with "
                "torch; wkparse cannot reproduce that run (give --comp_filepath FILE)"
            )
        )


def ffn_size(hidden: int, swiglu: bool) -> int:
    if swiglu:
        # AICB's float arithmetic, kept as is: it decides the size for odd hidden sizes
        return int((4 * hidden * 2 / 3) / 64) * 64
    return 4 * hidden


def training_args(argv: Sequence[str]) -> tuple[TrainingArgs, list[tuple[str, str]]]:
    """The generator's settings, and (dest, note) for each given option without effect."""
    parsed = parse(argv, OPTIONS)
    idle = parsed.idle(OPTIONS)
    return derived(parsed), idle


def derived(parsed: Parsed, *, per_stage: bool = True, moe_only: bool = False) -> TrainingArgs:
    """`TrainingArgs` from the options as this generator names them, after AICB's derivations
    and checks. An older generator's options are renamed to these first; what it did
    otherwise: `per_stage` False kept every layer (v1.0 did not divide them by the pipeline
    stages, nor check EP, dtype and grouped GEMM), `moe_only` asserted MoE and sequence
    parallelism for every run (v1.0 until 2024-08-23)."""
    v = parsed.values
    world, tp, pp = (
        parsed.integer("world_size"),
        parsed.integer("tensor_model_parallel_size"),
        parsed.integer("pipeline_model_parallel"),
    )
    if tp * pp == 0:
        raise AicbError("AICB stops: ZeroDivisionError: tp * pp is 0")
    _assert(world % (tp * pp) == 0, f"world size: {world}, tp: {tp}, pp: {pp}")
    sp, moe = bool(v["enable_sequence_parallel"]), bool(v["moe_enable"])
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
    padded = padded_vocab(
        parsed.integer("vocab_size"), parsed.integer("make_vocab_size_divisible_by"), tp
    )
    ffn = v["ffn_hidden_size"]
    ffn = ffn_size(hidden, bool(v["swiglu"])) if ffn is None else ffn
    assert isinstance(ffn, int)
    ep, experts, dtype = (
        parsed.integer("expert_model_parallel_size"),
        parsed.integer("num_experts"),
        v["dtype"],
    )
    if per_stage:
        if ep > 1:
            _assert(
                experts % ep == 0,
                "Number of experts should be a multiple of expert model parallel_size.",
            )
            _assert(dtype != "float16", "Expert parallelism is not supported with fp16 training.")
        if v["moe_grouped_gemm"]:
            _assert(dtype == "bfloat16", "Currently GroupedGEMM for MoE only supports bf16 dtype.")
        if pp > 1:
            layers //= pp
    aiob, comp = bool(v["aiob_enable"]), v["comp_filepath"]
    measured_times(aiob, comp)
    gpu, name = v["gpu_type"], v["model_name"]
    assert gpu is None or isinstance(gpu, str)
    assert name is None or isinstance(name, str)
    assert comp is None or isinstance(comp, str)
    return TrainingArgs(
        frame=str(v["frame"]),
        gpu_type=gpu,
        model_name=name,
        world_size=world,
        tp=tp,
        pp=pp,
        ep=ep,
        global_batch=gbs,
        micro_batch=mbs,
        seq_length=parsed.integer("seq_length"),
        hidden_size=hidden,
        num_layers=layers,
        num_attention_heads=heads,
        vocab_size=parsed.integer("vocab_size"),
        padded_vocab_size=padded,
        ffn_hidden_size=ffn,
        add_bias_linear=bool(v["add_bias_linear"]),
        use_flash_attn=bool(v["use_flash_attn"]),
        sequence_parallel=sp,
        moe_enable=moe,
        num_experts=experts,
        topk=parsed.integer("moe_router_topk"),
        grouped_gemm=bool(v["moe_grouped_gemm"]),
        aiob_enable=aiob,
        comp_filepath=comp,
        recompute=bool(v["recompute_activations"]),
        n_dense_layers=parsed.integer("n_dense_layers"),
        n_shared_expert=parsed.integer("n_shared_expert"),
        qk_rope_dim=parsed.integer("qk_rope_dim"),
        qk_nope_dim=parsed.integer("qk_nope_dim"),
        q_lora_rank=parsed.integer("q_lora_rank"),
        kv_lora_rank=parsed.integer("kv_lora_rank"),
        v_head_dim=parsed.integer("v_head_dim"),
        dp=dp,
        ga=ga(gbs, mbs, dp) or 0,  # dp * mbs is not 0 here
    )
