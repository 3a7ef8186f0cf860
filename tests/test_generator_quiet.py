"""Quiet on real generator output, over the generator and not only the corpus: what
`wkparse aicb` writes (the model of AICB in `wkparse/models/aicb/`, which reproduces every current
AICB file of the corpus byte for byte) for a spread of presets, parallelisms, MoE, sequence
parallelism, AIOB and inference runs lints with no finding by default.

The one allowance: a rule whose page names the real SimAI runs that show its effect
(`oracle = [...]` in rules/WKxxx.toml, e.g. a TP group of one GPU whose time SimAI-Analytical
reports as infinite) may fire on such output; its message then says what SimAI does. Anything
else AICB writes as a matter of course is a fact for `wkparse explain`, or an opt-in rule.
"""

from __future__ import annotations

import functools

import pytest

from wkparse.catalog import catalog
from wkparse.engine import lint
from wkparse.models.aicb import generate
from wkparse.parse import parse_text

MEGATRON = "sh scripts/megatron_workload_with_aiob.sh"
PYTHON = "python -m workload_generator.SimAI_training_workload_generator"
INFERENCE = "sh scripts/inference_workload_with_aiob.sh"
AIOB = "--aiob --comp_filepath workload/aiob_inputs/Example.txt"
#: the tp a `-m` preset sets whatever the command says (DeepSeek sets 1, as the commands do)
FORCED_TP = {"7": 4, "22": 8, "175": 8, "moe": 4}
#: four data-parallel replicas and eight micro-batches per iteration (mbs 1)
DP, GBS = 4, 32


def _megatron(m: str, tp: int, pp: int, *more: str) -> str:
    world = (FORCED_TP.get(m) or tp) * pp * DP
    return (
        f"{MEGATRON} -m {m} --world_size {world} --tp {tp} --pipeline_model_parallel {pp} "
        f"--global_batch {GBS} --micro_batch 1 --seq_length 2048 --swiglu --use_flash_attn "
        + " ".join(more)
    ).strip()


def _commands() -> list[str]:
    out = []
    # dense presets, tp 1/2/4/8 x pp 1/2/4, with and without SP and AIOB
    for i, (m, tp, pp) in enumerate(
        (m, tp, pp) for m in ("7", "13", "22", "175") for tp, pp in ((1, 1), (2, 2), (4, 4), (8, 1))
    ):
        sp = "--sp" if i % 2 else ""
        aiob = AIOB if i % 3 == 0 else ""
        out.append(_megatron(m, tp, pp, sp, aiob))
    out.append(_megatron("405", 8, 4, "--sp", AIOB))
    out.append(_megatron("405", 4, 2))
    # Mixtral: every expert-parallel degree that divides its 8 experts, ep 1 included
    for ep, pp in ((1, 1), (1, 2), (2, 2), (4, 1), (8, 2)):
        out.append(_megatron("moe", 4, pp, "--sp", f"--experts 8 --topk 2 --ep {ep}"))
    out.append(_megatron("moe", 4, 2, "--sp", AIOB, "--experts 8 --topk 2 --ep 1"))
    # DeepSeek (tp 1; its unsharded attention needs SP with AIOB)
    for m, pp, ep in (("deepseek16", 1, 4), ("deepseek236", 2, 8), ("deepseek671", 1, 8)):
        out.append(_megatron(m, 1, pp, "--sp", AIOB, f"--ep {ep}"))
    # the Python entry point with a model the presets do not have
    for tp, pp in ((1, 1), (2, 4), (8, 2)):
        out.append(
            f"{PYTHON} --frame Megatron --model_name llama_70B --num_layers 80 --hidden_size "
            f"8192 --num_attention_heads 64 --ffn_hidden_size 28672 --world_size {tp * pp * DP} "
            f"--tensor_model_parallel_size {tp} --pipeline_model_parallel {pp} "
            f"--global_batch {GBS} --micro_batch 1 --seq_length 4096 --swiglu --use_flash_attn"
        )
    # inference: Qwen3 MoE, Qwen3-Next and DeepSeek, prefill and decode, ep within and beyond DP
    for m in ("qwen3-235B", "qwen3-next-80B", "deepseek-671B"):
        for phase, (w, t, e, pp) in (("prefill", (16, 2, 8, 2)), ("decode", (8, 4, 2, 1))):
            out.append(f"{INFERENCE} -m {m} -p {phase} -s 1024 -b 4 -w {w} -t {t} -e {e} -l {pp}")
    out.append(f"{INFERENCE} -m qwen3-235B -p decode -s 2048 -b 64 -w 8 -t 1 -e 8 -l 1")
    return out


COMMANDS = _commands()


@functools.cache
def oracle_backed() -> frozenset[str]:
    """The codes whose page names the real SimAI runs that show the rule's effect."""
    return frozenset(code for code, page in catalog().items() if page.oracle)


@pytest.mark.parametrize("command", COMMANDS)
def test_generator_output_lints_silent_by_default(command: str) -> None:
    made = generate(command)
    found = lint(parse_text(made.text()), made.filename)
    unbacked = sorted({(d.code, d.message) for d in found if d.code not in oracle_backed()})
    assert not unbacked, (
        f"{made.filename}: findings on unedited generator output; a rule may fire here only "
        "when the real SimAI demonstrably mishandles it (name the oracle case in its page's "
        f"`oracle = [...]`), otherwise make it opt-in and let explain state it: {unbacked[:5]}"
    )


#: AICB's inference generator writes a pp_comm past 2^31 - 1 for a large decode batch
TOO_LARGE = f"{INFERENCE} -m deepseek-671B -p decode -s 4096 -b 64 -w 32 -t 2 -e 4 -l 2"


def test_an_oracle_backed_rule_may_fire_on_generator_output() -> None:
    """SimAI's stoi throws on that pp_comm and SimAI aborts (the oracle's uncaught stoi
    exception): WK208 says so by default, and its page names the runs that show it."""
    made = generate(TOO_LARGE)
    found = lint(parse_text(made.text()), made.filename)
    assert {d.code for d in found} == {"WK208"} <= oracle_backed()
    assert all("crashes" in d.message for d in found)


def test_the_spread_covers_what_the_issue_names() -> None:
    """The spread holds MoE at ep 1, inference with ep beyond DP, SP, AIOB, tp 1 to 8, pp 1 to
    4, every dense preset, and DeepSeek and Qwen."""
    # AICB's non-AIOB MoE path writes ALLTOALL_EP rows at ep 1 (WK407's pattern, now opt-in)
    made = [generate(c) for c in COMMANDS if "-m moe" in c and "--ep 1" in c]
    assert any("\tALLTOALL_EP\t" in m.text() for m in made)
    # an inference file whose ep is beyond DP (WK211's header, now opt-in and only on _DP_EP)
    assert any("-w 16 -t 2 -e 8 -l 2" in c for c in COMMANDS)
    names = " ".join(generate(c).filename for c in COMMANDS)
    for part in ("tp1-", "tp2-", "tp4-", "tp8-", "pp1-", "pp2-", "pp4-", "ep1-", "ep8-"):
        assert part in names, part
    for model in ("gpt_7B", "gpt_13B", "gpt_22B", "gpt_175B", "llama_405B", "Mixtral", "DeepSeek"):
        assert model in names, model
    assert "Qwen3-Moe" in names and "Qwen3-Next" in names and "prefill" in names
    assert any("--sp" in c for c in COMMANDS) and any(AIOB in c for c in COMMANDS)
