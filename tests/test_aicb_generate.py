"""wkparse.models.aicb against real AICB output, byte for byte, and against files derived by hand.

Every `aicb-2025-12*` file of the shared corpus is regenerated from its MANIFEST.tsv arguments
(the Python entry point) and, where the shell scripts can express the same run, from the
equivalent `sh scripts/...` command line. Configurations the corpus lacks (DeepSeek, recompute,
MoE without AIOB, tp 1) are checked on rows derived by hand from AICB's code paths.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tests.conftest import GENERATED, absent, manifest
from wkparse.models.aicb import AicbError, generate

CORPUS = GENERATED
TRAINING = "python -m workload_generator.SimAI_training_workload_generator"
INFERENCE = "python -m workload_generator.SimAI_inference_workload_generator"
EXAMPLE = "--aiob_enable --comp_filepath workload/aiob_inputs/Example.txt"


MANIFEST = [
    (r["file"], r["generator"], r["arguments"])
    for r in manifest(refused=True)
    if r["generator"].startswith("aicb-2025-12")
]
WRITTEN = [(f, e, a) for f, e, a in MANIFEST if f != "-"]


def _python_command(era: str, args: str) -> str:
    return f"{INFERENCE if 'inference' in era else TRAINING} {args}"


def _aicb_name(corpus_file: str) -> str:
    """The corpus prefixes its file names with `aiob-` / `sp-`; AICB writes none."""
    name = Path(corpus_file).name
    while name.startswith(("aiob-", "sp-")):
        name = name.split("-", 1)[1]
    return name


@pytest.mark.skipif(not WRITTEN, reason=absent(GENERATED))
@pytest.mark.parametrize(("file", "era", "args"), WRITTEN, ids=[Path(w[0]).name for w in WRITTEN])
def test_corpus_file_reproduced_from_python_command(file: str, era: str, args: str) -> None:
    made = generate(_python_command(era, args))
    assert made.text() == (CORPUS / file).read_text(encoding="utf-8")
    assert made.filename == _aicb_name(file)


def test_every_current_corpus_file_is_covered() -> None:
    if not WRITTEN:
        pytest.skip(absent(GENERATED))
    folders = ("aicb-2025-12", "aicb-2025-12-inference")
    on_disk = {str(p.relative_to(CORPUS)) for f in folders for p in (CORPUS / f).glob("*.txt")}
    assert on_disk <= {f for f, _, _ in WRITTEN}
    assert len(on_disk) == 24  # 22 training, 2 inference


@pytest.mark.parametrize("args", [a for f, _, a in MANIFEST if f == "-"] or ["-"])
def test_runs_aicb_refuses_are_refused_with_its_message(args: str) -> None:
    if args == "-":
        pytest.skip(absent(GENERATED))
    with pytest.raises(AicbError, match="moe must be enabled with sequence parallel"):
        generate(f"{TRAINING} {args}")


# --------------------------------------------------------------- the shell scripts

_SIZES = {"gpt_7B": "7", "gpt_13B": "13", "gpt_22B": "22", "gpt_175B": "175"}
_SIZES |= {"llama_405B": "405", "Mixtral_8x7B": "moe"}
#: tp each preset forces (the script sets it after reading the options); None: the user's
_FORCED_TP = {"7": 4, "22": 8, "175": 8, "moe": 4, "13": None, "405": None}


def _script_command(args: str) -> str | None:
    """The megatron script line for a MANIFEST run, or None when the script cannot express it."""
    words = shlex.split(args)
    opts = {w[2:]: (words[i + 1] if i + 1 < len(words) else "") for i, w in enumerate(words)}
    size = _SIZES[opts["model_name"]]
    tp = int(opts["tensor_model_parallel_size"])
    if _FORCED_TP[size] not in (None, tp):
        return None
    line = [
        "sh scripts/megatron_workload_with_aiob.sh", f"-m {size}",
        f"--world_size {opts['world_size']}", f"--tp {tp}",
        f"--pipeline_model_parallel {opts['pipeline_model_parallel']}",
        f"--global_batch {opts['global_batch']}", f"--micro_batch {opts['micro_batch']}",
        f"--seq_length {opts['seq_length']}", "--swiglu", "--use_flash_attn",
    ]  # fmt: skip
    if "enable_sequence_parallel" in opts:
        line.append("--sp")
    if "aiob_enable" in opts:
        line.append("--aiob --comp_filepath workload/aiob_inputs/Example.txt")
    if "moe_enable" in opts:
        line.append(f"--experts {opts['num_experts']} --topk {opts['moe_router_topk']}")
        line.append(f"--ep {opts['expert_model_parallel_size']}")
    return " ".join(line)


def _inference_script_command(args: str) -> str:
    words = shlex.split(args)
    opts = {w[2:]: (words[i + 1] if i + 1 < len(words) else "") for i, w in enumerate(words)}
    size = {"Qwen3-Moe-235B": "qwen3-235B", "Qwen3-Next-80B": "qwen3-next-80B"}[words[0]]
    return (
        f"sh scripts/inference_workload_with_aiob.sh -m {size} -p {opts['phase']} "
        f"-s {opts['seq_length']} -b {opts['micro_batch']} -w {opts['world_size']} "
        f"-t {opts['tensor_model_parallel_size']} -e {opts['expert_model_parallel_size']} "
        f"-l {opts['pipeline_model_parallel']}"
    )


SCRIPTED = [
    (f, cmd)
    for f, era, a in WRITTEN
    if (cmd := _inference_script_command(a) if "inference" in era else _script_command(a))
]


@pytest.mark.skipif(not SCRIPTED, reason=absent(GENERATED))
@pytest.mark.parametrize(("file", "command"), SCRIPTED, ids=[Path(s[0]).name for s in SCRIPTED])
def test_corpus_file_reproduced_from_script_command(file: str, command: str) -> None:
    made = generate(command)
    assert made.text() == (CORPUS / file).read_text(encoding="utf-8")
    # the script's Mixtral preset is named Mixtral_8*7B; the corpus ran Mixtral_8x7B
    assert made.filename == _aicb_name(file).replace("Mixtral_8x7B", "Mixtral_8*7B")


def test_script_reproduces_most_of_the_corpus() -> None:
    if not WRITTEN:
        pytest.skip(absent(GENERATED))
    # the other 5 use a tp the script's preset overrides (gpt_7B at tp 1, 2 and 8, gpt_22B at
    # tp 4, Mixtral at tp 2): no script command line writes them
    assert (len(SCRIPTED), len(WRITTEN)) == (23, 28)


# ------------------------------------------------------- files derived by hand

_DEEPSEEK_TINY = (
    f"{TRAINING} --frame DeepSeek --world_size 4 --tensor_model_parallel_size 2 "
    "--expert_model_parallel_size 2 --global_batch 4 --micro_batch 1 --seq_length 8 "
    "--hidden_size 16 --num_layers 2 --n_dense_layers 1 --num_attention_heads 2 "
    "--ffn_hidden_size 8 --num_experts 4 --moe_router_topk 2 --q_lora_rank 4 --kv_lora_rank 4 "
    "--qk_rope_dim 2 --qk_nope_dim 2 --v_head_dim 2 --n_shared_expert 1 --vocab_size 100 "
    f"--enable_sequence_parallel --moe_enable {EXAMPLE}"
)


def _row(*fields: object) -> str:
    name, *rest = fields
    return "\t".join([str(name), "-1", *map(str, rest), "100"]) + "\n"


def test_deepseek_sequence_parallel_aiob_by_hand() -> None:
    """Derived from AICB's MockedDeepSeek walk and workload_generate_aiob, by hand.

    Activation 2*mbs*seq*hidden = 256. Vocabulary 100 pads to 256 (multiple 128*tp). Counts:
    embedding 4*(256/2)*16 + 8*16 = 8320; MLA 16*4 + 2*4 + 4*(8/2) + 16*6 + 2*4 + 4*(8/2)
    + (4/2)*16 = 240; pre-MLP norm 32; dense MLP 16*4 + 4*16 = 128; MoE 3*16*(8*2/2) + 128
    (shared experts, counted again as their own column and row) = 512; final 16*256/2 = 2048.
    Total 8320 + (240+32+128) + (240+32+512+128) + 2048 = 11680, MoE 512, dense 11168.
    Example.txt: MLA per-layer times 0 (no such sections), mlp 2478000 (halved on linears),
    final column = attention 1820000 / 2. EP 2 == DP 2: no moe_grad_norm rows.
    """
    act = 256
    ag, rs, a2a, none = "ALLGATHER", "REDUCESCATTER", "ALLTOALL_EP", "NONE"
    mlp = 1239000

    def group(carried: int) -> list[str]:
        mla = [
            _row("attention_linear_q_lora", 0, none, 0, 0, none, 0, 0, none, 0),
            _row("attention_q_column", 0, ag, act, 0, rs, 0, 0, none, 0),
            _row("attention_linear_kv_lora", 0, none, 0, 0, none, 0, 0, none, 0),
            _row("attention_kv_column", 0, ag, act, 0, rs, 0, 0, none, 0),
            _row("attention_o_row", 0, rs, act, 0, ag, act, 0, none, 0),
        ]
        dense = [
            _row("mlp_column", mlp, ag, act, mlp, rs, 0, mlp, none, 0),
            _row("mlp_row", mlp, rs, act, mlp, ag, act, mlp, none, 0),
        ]
        moe = [
            _row("mlp_moelayer", 2478000, ag, 2 * 2 * 4 * 2, 2478000, none, 0, 1, none, 0),
            _row("mlp_moelayer", 1, a2a, int(act * 2 // 2 * 0.515625), 1, a2a, act, 1, none, 0),
            _row("mlp_moelayer", 1, ag, act * 2, 1, rs, act * 2, 1, none, 0),
            _row("mlp_moelayer", 1, rs, act * 2, 1, ag, act * 2, 1, none, 0),
            _row("mlp_moelayer", 1, a2a, act, 1, a2a, act, 1, none, 0),
        ]
        return [
            _row("embedding_layer", 799000, "ALLREDUCE", act, 1, none, 0, carried, none, 0),
            *mla, *dense, *mla, *moe, *dense,
            _row("final_column", 910000, ag, act, 910000, rs, 0, 910000, none, 0),
        ]  # fmt: skip

    rows = [
        _row("grad_gather", 1, none, 0, 1, none, 0, 1, ag, 2 * 11168),
        _row("grad_param_comm", 1, none, 0, 1, none, 0, 1, rs, 4 * 11168),
        _row("grad_param_compute", 1, none, 0, 16647000 + 17374000, none, 0, 1, none, 0),
        _row("embedding_grads", 1, none, 0, 1, "ALLREDUCE", act, 1, none, 0),
        *group(17374000),
        *group(910000),
        *[_row(f"cross_entropy{i}", 0, "ALLREDUCE", 32, 0, none, 0, 0, none, 0) for i in (1, 2, 3)],
        *[_row(f"optimizer{i}", 0, "ALLREDUCE", 4, 0, none, 0, 0, none, 0) for i in (1, 2, 3, 4)],
    ]
    header = (
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 2 pp: 1 vpp: 2 ga: 2 "
        "all_gpus: 4 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0\n"
    )
    made = generate(_DEEPSEEK_TINY)
    assert made.text() == header + f"{len(rows)}\n" + "".join(rows)
    assert made.filename == (
        "None-None-world_size4-tp2-pp1-ep2-gbs4-mbs1-seq8-MOE-True-GEMM-False-flash_attn-False.txt"
    )


def test_deepseek_without_aiob_under_sp_is_refused_as_aicb_crashes() -> None:
    with pytest.raises(AicbError, match="AttributeError"):
        generate(_DEEPSEEK_TINY.replace(EXAMPLE, ""))


def test_deepseek_without_sp_lists_whole_blocks() -> None:
    """Non-SP DeepSeek (no MoE flag): MLA and MLP blocks; shared experts are an `mlp_layer`."""
    command = _DEEPSEEK_TINY.replace("--enable_sequence_parallel --moe_enable ", "")
    names = [line.split("\t")[0] for line in generate(command).text().splitlines()[2:]]
    group = ["embedding_layer", "attention_layer_mla", "mlp_layer"]
    group += ["attention_layer_mla", "mlp_moelayer", "mlp_layer"]
    assert names[5:11] == group
    assert names[11:17] == group  # after 5 AIOB rows: grad_gather ... embedding_grads


_GPT = (
    f"{TRAINING} --model_name gpt_7B --num_layers 36 --hidden_size 4096 "
    "--num_attention_heads 32 --world_size 32 --tensor_model_parallel_size 4 "
    "--pipeline_model_parallel 4 --global_batch 16 --micro_batch 1 --seq_length 4096 "
    "--swiglu --use_flash_attn --vocab_size 50257"
)


def test_recompute_aiob_counts_flash_attention_twice() -> None:
    """AICB adds atten_flash (512 us) twice: attention 1820000 -> 2332000 ns."""
    text = generate(f"{_GPT} --recompute_activations {EXAMPLE}").text()
    rows = [line.split("\t") for line in text.splitlines()[2:]]
    attention = {r[2] for r in rows if r[0] == "attention_layer"}
    assert attention == {"2332000"}
    assert {r[2] for r in rows if r[0] == "mlp_layer"} == {"2478000"}


def test_recompute_aiob_sp_doubles_attention_linears_again() -> None:
    """Under SP the attention linears double the (already recomputed) time, then halve it."""
    text = generate(f"{_GPT} --recompute_activations --enable_sequence_parallel {EXAMPLE}").text()
    rows = {line.split("\t")[0]: line.split("\t") for line in text.splitlines()[2:]}
    assert rows["attention_column"][2] == str(2332000 * 2 // 2)
    assert rows["attention_column"][5] == str(2332000 // 2)
    assert rows["mlp_column"][2] == str(2478000 // 2)


def test_recompute_without_aiob_doubles_attention_message() -> None:
    text = generate(f"{_GPT} --recompute_activations").text()
    rows = {line.split("\t")[0]: line.split("\t") for line in text.splitlines()[2:]}
    act = 2 * 1 * 4096 * 4096
    assert rows["attention_layer"][4] == str(2 * act)
    assert rows["mlp_layer"][4] == str(act)


def test_moe_without_aiob_keeps_every_collective_even_at_tp_and_ep_1() -> None:
    """Without AIOB AICB never swaps a MoE collective for NONE (it does under AIOB)."""
    moe = (
        f"{TRAINING} --world_size 2 --global_batch 2 --num_layers 1 --hidden_size 64 "
        "--num_attention_heads 4 --seq_length 16 --moe_enable --enable_sequence_parallel "
        "--num_experts 2 --moe_router_topk 2 --moe_grouped_gemm"
    )
    made = generate(moe)
    moe_rows = [r.split("\t") for r in made.text().splitlines() if r.startswith("mlp_moelayer")]
    act = 2 * 16 * 64
    assert [r[3] for r in moe_rows[:5]] == [
        "ALLGATHER", "ALLTOALL_EP", "ALLGATHER", "REDUCESCATTER", "ALLTOALL_EP",
    ]  # fmt: skip
    assert moe_rows[0][4] == str(2 * 1 * 2 * 1)
    assert moe_rows[2][4] == str(act * 2)
    assert "GEMM-True" in made.filename and "MOE-True" in made.filename
    aiob_rows = [
        r.split("\t")
        for r in generate(f"{moe} {EXAMPLE}").text().splitlines()
        if r.startswith("mlp_moelayer")
    ]
    assert [r[3] for r in aiob_rows[:5]] == ["NONE"] * 5


def test_tp1_aiob_writes_none_and_zero_sizes() -> None:
    command = _GPT.replace("--tensor_model_parallel_size 4", "--tensor_model_parallel_size 1")
    text = generate(command.replace("--world_size 32", "--world_size 8") + f" {EXAMPLE}").text()
    rows = [line.split("\t") for line in text.splitlines()[2:]]
    layer = [r for r in rows if r[0] in ("attention_layer", "embedding_layer")]
    assert {(r[3], r[4]) for r in layer} == {("NONE", "0")}


def test_inference_deepseek_by_hand() -> None:
    """The shipped DeepSeek config: 61 layers, 3 dense, 1 shared expert, top-8, hidden 7168.

    Decode with batch 32: activation 2*32*7168 = 458752; combine 458752*8/tp(1) = 3670016,
    dispatch int(3670016 * 0.515625) = 1892352. A MoE layer: attention_layer, shared_experts,
    moe_route, moe_expert.
    """
    made = generate("sh scripts/inference_workload_with_aiob.sh")
    lines = made.text().splitlines()
    assert lines[0].endswith("all_gpus: 8 mode: 1 vpp: 1 ga: 1 checkpoints: 0 "
                             "checkpoint_initiates: 0 pp_comm: 0")  # fmt: skip
    assert int(lines[1]) == 3 * 2 + 58 * 4
    assert lines[2:4] == [
        _row("attention_layer", 1, "NONE", 0, 0, "NONE", 0, 0, "NONE", 0).rstrip("\n"),
        _row("dense_mlp", 1, "NONE", 0, 0, "NONE", 0, 0, "NONE", 0).rstrip("\n"),
    ]
    assert lines[8:12] == [
        _row("attention_layer", 1, "NONE", 0, 0, "NONE", 0, 0, "NONE", 0).rstrip("\n"),
        _row("shared_experts", 1, "NONE", 0, 0, "NONE", 0, 0, "NONE", 0).rstrip("\n"),
        _row("moe_route", 1, "ALLTOALL_EP", 1892352, 1, "NONE", 0, 1, "NONE", 0).rstrip("\n"),
        _row("moe_expert", 1, "ALLTOALL_EP", 3670016, 1, "NONE", 0, 1, "NONE", 0).rstrip("\n"),
    ]
    assert made.filename == "DeepSeek-671B-world_size8-tp1-pp1-ep8-bs32-seq1024-decode.txt"
