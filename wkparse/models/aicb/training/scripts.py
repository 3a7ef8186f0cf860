"""AICB's two shell scripts, as `sh` runs them: options in, the generator's argument list out.

`scripts/megatron_workload_with_aiob.sh` reads options in a `case` loop and stops at the first
word it does not know (including `--opt=value` spellings: only `--opt value` is understood);
everything from there on is dropped without a word. Then its `-m` preset assigns model shape
and, for most presets, tp, overriding what the user gave. It builds one command string and
runs it unquoted, so the shell splits values at white space. The same holds for
`scripts/inference_workload_with_aiob.sh`, whose help text advertises `--model-size` style
names that its loop does not accept (they stop the loop). Each function returns the argument
list the script hands to Python, and notes on what the script did on the way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from wkparse.i18n import _
from wkparse.models.aicb.errors import AicbError
from wkparse.models.aicb.training.presets import FALLBACK_PRESET, SCRIPT_PRESETS, ScriptPreset

TRAINING_SCRIPT = "scripts/megatron_workload_with_aiob.sh"
INFERENCE_SCRIPT = "scripts/inference_workload_with_aiob.sh"


@dataclass(slots=True)
class ScriptRun:
    """What a script run hands to its generator."""

    argv: list[str]
    notes: list[str] = field(default_factory=list)
    #: the script variables the user's words set (the rest are the script's own choices)
    typed: set[str] = field(default_factory=set)
    #: the user's options a `-m` preset replaced, in the order the preset assigns them
    overrides: list[Override] = field(default_factory=list)


#: how a note names a script variable a preset assigns (the generator's short names; the
#: other variables by their own names)
_SHORT = {"tensor_model_parallel_size": "tp", "tp_num": "tp", "num_attention_heads": "heads"}


@dataclass(frozen=True, slots=True)
class Override:
    """One option the user gave that the script's `-m` preset replaced."""

    #: the `-m` words as the user gave them (`-m 7`), or the script's default (`-m 13`)
    preset: str
    #: whether the user typed `-m` at all (else the script's default preset applied)
    chosen: bool
    variable: str
    #: the preset's value, and the user's option word and value
    value: str
    option: str
    given: str

    def note(self) -> str:
        """`-m 7` sets tp 4: your `--tensor_model_parallel_size 8` was dropped."""
        what = f"{_SHORT.get(self.variable, self.variable)} {self.value}".strip()
        yours = f"{self.option} {self.given}".strip()
        if self.chosen:
            text = _("`{preset}` sets {what}: your `{yours}` was dropped")
        else:
            text = _(
                "`{preset}` (the script's default preset) sets {what}: your `{yours}` was dropped"
            )
        return text.format(preset=self.preset, what=what, yours=yours)


def read_options(
    script: str,
    words: Sequence[str],
    valued: Mapping[str, str],
    flags: Mapping[str, tuple[str, str]],
    values: dict[str, str],
    typed: set[str],
    spelled: dict[str, tuple[str, str]] | None = None,
) -> list[str]:
    """Run a script's option loop over `words`, updating `values` and `typed` (and `spelled`:
    variable -> the user's last option word and value); return notes."""
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("-h", "--help"):
            raise AicbError(f"{script}: {word} prints the usage and exits; no file is written")
        if word in valued:
            if i + 1 >= len(words):
                raise AicbError(
                    f"{script}: {word} needs a value (the script fails on 'shift'; no file)"
                )
            values[valued[word]] = words[i + 1]
            typed.add(valued[word])
            if spelled is not None:
                spelled[valued[word]] = (word, words[i + 1])
            i += 2
            continue
        if word in flags:
            variable, value = flags[word]
            values[variable] = value
            typed.add(variable)
            if spelled is not None:
                spelled[variable] = (word, "")
            i += 1
            continue
        dropped = " ".join(words[i:])
        return [
            _("{script} stops reading options at {word}; it ignores: {dropped}").format(
                script=script, word=repr(word), dropped=dropped
            )
        ]
    return []


def _split(value: str) -> list[str]:
    """An unquoted expansion: split at white space (pathname expansion assumed to match none)."""
    return value.split()


TRAINING_VALUED = {
    "--gpu_type": "gpu_type",
    "--frame": "frame",
    "--world_size": "world_size",
    "--tensor_model_parallel_size": "tensor_model_parallel_size",
    "--tp": "tensor_model_parallel_size",
    "--pipeline_model_parallel": "pipeline_model_parallel",
    "--pp": "pipeline_model_parallel",
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
    "--topk": "moe_router_topk",
    "--num_experts": "num_experts",
    "--experts": "num_experts",
    "--expert_model_parallel_size": "expert_model_parallel_size",
    "--ep": "expert_model_parallel_size",
}
TRAINING_FLAGS = {
    "--aiob_enable": ("aiob_enable", "--aiob_enable"),
    "--aiob": ("aiob_enable", "--aiob_enable"),
    "--use_flash_attn": ("use_flash_attn", "--use_flash_attn"),
    "--flash_attn": ("use_flash_attn", "--use_flash_attn"),
    "--swiglu": ("swiglu", "--swiglu"),
    "--sp": ("sp_enable", "--enable_sequence_parallel"),
    "--sp-enable": ("sp_enable", "--enable_sequence_parallel"),
    "--moe_enable": ("moe_enable", "--moe_enable"),
    "--grouped_gemm": ("grouped_gemm", "--moe_grouped_gemm"),
    "--moe_grouped_gemm": ("grouped_gemm", "--moe_grouped_gemm"),
    "--recompute_activations": ("recompute_activations", "--recompute_activations"),
    "--recompute": ("recompute_activations", "--recompute_activations"),
}
_TRAINING_DEFAULTS = {
    "frame": "Megatron",
    "world_size": "32",
    "tensor_model_parallel_size": "8",
    "pipeline_model_parallel": "1",
    "global_batch": "1024",
    "micro_batch": "1",
    "num_layers": "40",
    "seq_length": "4096",
    "hidden_size": "5120",
    "epoch_num": "1",
    "num_attention_heads": "40",
    "model_size": "13",
    "max_position_embeddings": "4096",
    "vocab_size": "50257",
    "num_experts": "1",
    "gpu_type": "None",
}
#: always passed, as `--name=$variable`, in the script's order
_TRAINING_PASSED = (
    "gpu_type", "frame", "world_size", "tensor_model_parallel_size", "pipeline_model_parallel",
    "global_batch", "micro_batch", "num_layers", "seq_length", "hidden_size", "epoch_num",
    "num_attention_heads", "model_name", "max_position_embeddings", "vocab_size",
)  # fmt: skip
_TRAINING_FLAG_VARS = (
    "aiob_enable", "use_flash_attn", "swiglu", "sp_enable", "recompute_activations",
)  # fmt: skip
#: passed as `--name=$variable` only when set and not empty, in the script's order
_TRAINING_OPTIONAL = (
    "ffn_hidden_size", "comp_filepath", "moe_enable", "moe_router_topk", "num_experts",
    "expert_model_parallel_size", "grouped_gemm", "q_lora_rank", "kv_lora_rank", "qk_nope_dim",
    "qk_rope_dim", "v_head_dim", "n_shared_expert", "n_dense_layer",
)  # fmt: skip
_FLAG_VALUED = frozenset({"moe_enable", "grouped_gemm"})


@dataclass(frozen=True, slots=True)
class TrainingScript:
    """One revision of the training script: the words its loop reads, its defaults, what it
    passes to Python and in which order, and its `-m` presets."""

    #: option word -> script variable (takes a value) ...
    valued: Mapping[str, str]
    #: ... and flag word -> (script variable, the generator option it passes)
    flags: Mapping[str, tuple[str, str]]
    defaults: Mapping[str, str]
    #: always passed as `--name=$variable`, then `--use-distributed-optimizer`
    passed: tuple[str, ...]
    #: flags passed as set (empty: nothing)
    flag_vars: tuple[str, ...]
    #: passed as `--name=$variable` when set, or as the flag itself (`flag_valued`)
    optional: tuple[str, ...]
    flag_valued: frozenset[str]
    presets: Mapping[str, ScriptPreset]
    fallback: ScriptPreset


#: the script since AICB v1.1 (2024-09-11), as it is now (`history` drops what came later)
TRAINING = TrainingScript(
    TRAINING_VALUED,
    TRAINING_FLAGS,
    _TRAINING_DEFAULTS,
    _TRAINING_PASSED,
    _TRAINING_FLAG_VARS,
    _TRAINING_OPTIONAL,
    _FLAG_VALUED,
    SCRIPT_PRESETS,
    FALLBACK_PRESET,
)


def training_script(words: Sequence[str], script: TrainingScript = TRAINING) -> ScriptRun:
    """`sh scripts/megatron_workload_with_aiob.sh WORDS...` -> the generator's arguments."""
    values, typed = dict(script.defaults), set[str]()
    spelled: dict[str, tuple[str, str]] = {}
    notes = read_options(
        TRAINING_SCRIPT, words, script.valued, script.flags, values, typed, spelled
    )
    size = values["model_size"]
    preset = script.presets.get(size)
    if preset is None:
        notes.append(
            _("{script}: unknown -m {size}; the script falls back to gpt_13B").format(
                script=TRAINING_SCRIPT, size=repr(size)
            )
        )
        preset = script.fallback
    overrides = _overrides(size, spelled, preset.settings, values)
    notes += [o.note() for o in overrides]
    values.update(preset.settings)
    argv: list[str] = []
    for name in script.passed:
        argv += _split(f"--{name}={values.get(name, '')}")
    argv.append("--use-distributed-optimizer")
    for name in script.flag_vars:
        argv += _split(values.get(name, ""))
    for name in script.optional:
        value = values.get(name, "")
        if not value:
            continue
        argv += _split(value if name in script.flag_valued else f"--{name}={value}")
    return ScriptRun(argv, notes, typed, overrides)


def _overrides(
    size: str,
    spelled: Mapping[str, tuple[str, str]],
    settings: Mapping[str, str],
    values: Mapping[str, str],
) -> list[Override]:
    """The options the user gave that the preset's assignments replace with another value."""
    chosen = "model_size" in spelled
    preset = f"{spelled['model_size'][0]} {size}" if chosen else f"-m {size}"
    out = []
    for variable, value in settings.items():
        if variable not in spelled or values.get(variable) == value:
            continue
        option, given = spelled[variable]
        out.append(Override(preset, chosen, variable, value, option, given))
    return out


INFERENCE_VALUED = {
    "-m": "model_size", "--model_size": "model_size",
    "-c": "config", "--config": "config",
    "-p": "phase", "--phase": "phase",
    "-s": "seq_length", "--seq_length": "seq_length",
    "-b": "micro_batch", "--micro_batch": "micro_batch",
    "-w": "world_size", "--world_size": "world_size",
    "-t": "tensor_model_parallel_size",
    "--tensor_model_parallel_size": "tensor_model_parallel_size",
    "-e": "expert_model_parallel_size",
    "--expert_model_parallel_size": "expert_model_parallel_size",
    "-l": "pipeline_model_parallel", "--pipeline_model_parallel": "pipeline_model_parallel",
    "-r": "result_dir", "--result_dir": "result_dir",
    "-f": "aiob_forward_loops", "--aiob_forward_loops": "aiob_forward_loops",
}  # fmt: skip
INFERENCE_FLAGS = {
    "-M": ("moe_enable", "true"),
    "--moe_enable": ("moe_enable", "true"),
    "-a": ("aiob_enable", "true"),
    "--aiob_enable": ("aiob_enable", "true"),
}
_INFERENCE_DEFAULTS = {
    "model_size": "deepseek-671B",
    "config": "",
    "phase": "decode",
    "seq_length": "1024",
    "micro_batch": "32",
    "world_size": "8",
    "tensor_model_parallel_size": "1",
    "expert_model_parallel_size": "8",
    "pipeline_model_parallel": "1",
    "moe_enable": "true",
    "result_dir": "results/workload/",
    "aiob_enable": "false",
    "aiob_forward_loops": "10",
}
#: -m value -> (model name, the script's default config file)
INFERENCE_MODELS = {
    "deepseek-671B": ("DeepSeek-671B", "scripts/inference_configs/deepseek_default.json"),
    "qwen3-235B": ("Qwen3-Moe-235B", "scripts/inference_configs/qwen3_moe_default.json"),
    "qwen3-next-80B": ("Qwen3-Next-80B", "scripts/inference_configs/qwen3_next_default.json"),
}
_INFERENCE_PASSED = (
    "phase", "seq_length", "micro_batch", "world_size", "tensor_model_parallel_size",
    "expert_model_parallel_size", "pipeline_model_parallel",
)  # fmt: skip


def inference_script(words: Sequence[str]) -> ScriptRun:
    """`sh scripts/inference_workload_with_aiob.sh WORDS...` -> the generator's arguments."""
    values, typed = dict(_INFERENCE_DEFAULTS), set[str]()
    notes = read_options(INFERENCE_SCRIPT, words, INFERENCE_VALUED, INFERENCE_FLAGS, values, typed)
    size = values["model_size"]
    if size not in INFERENCE_MODELS:
        raise AicbError(f"{INFERENCE_SCRIPT}: Invalid model size: {size} (it prints the usage)")
    model, config = INFERENCE_MODELS[size]
    argv = [*_split(model), *_split(values["config"] or config)]
    for name in _INFERENCE_PASSED:
        if values[name]:
            argv += [f"--{name}", *_split(values[name])]
    if values["moe_enable"] == "true":
        argv.append("--moe_enable")
    if values["result_dir"]:
        argv += ["--result_dir", *_split(values["result_dir"])]
    if values["aiob_enable"] == "true":
        argv.append("--aiob_enable")
    if values["aiob_forward_loops"]:
        argv += ["--aiob_forward_loops", *_split(values["aiob_forward_loops"])]
    return ScriptRun(argv, notes, typed)
