"""The model presets of AICB's `scripts/megatron_workload_with_aiob.sh` (`-m SIZE`).

The script sets these after reading the command line, so a preset's values win over the
options a user gave for the same settings (`-m 7 --tensor_model_parallel_size 8` runs with
tp 4). `settings` holds exactly the script variables each preset assigns; the script passes
them on to the Python generator. `PRESETS` indexes the same data by the model name that ends
up in the file name, for the lint and explain checks that only see a name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from types import MappingProxyType

from wkparse.record import record

_DEEPSEEK_SHAPE = {"qk_nope_dim": "128", "qk_rope_dim": "64", "v_head_dim": "128"}


@record
class ScriptPreset:
    """What one `-m SIZE` case of the script assigns (script variable -> value)."""

    size: str
    settings: Mapping[str, str] = field(default_factory=dict)

    @property
    def model_name(self) -> str:
        return self.settings["model_name"]


def _preset(size: str, **settings: str) -> ScriptPreset:
    return ScriptPreset(size, MappingProxyType(settings))


def _gpt(name: str, layers: int, hidden: int, heads: int, **more: str) -> dict[str, str]:
    return dict(
        model_name=name,
        num_layers=str(layers),
        hidden_size=str(hidden),
        num_attention_heads=str(heads),
        **more,
    )


def _deepseek(name: str, layers: int, hidden: int, heads: int, **more: str) -> dict[str, str]:
    return dict(
        model_name=name,
        frame="DeepSeek",
        moe_enable="--moe_enable",
        num_layers=str(layers),
        hidden_size=str(hidden),
        num_attention_heads=str(heads),
        **_DEEPSEEK_SHAPE,
        **more,
        tensor_model_parallel_size="1",
    )


#: every `-m` value the script knows, in the script's order
SCRIPT_PRESETS: Mapping[str, ScriptPreset] = MappingProxyType(
    {
        p.size: p
        for p in (
            _preset("175", **_gpt("gpt_175B", 96, 12288, 96, tensor_model_parallel_size="8")),
            _preset("22", **_gpt("gpt_22B", 48, 6144, 64, tensor_model_parallel_size="8")),
            _preset("13", **_gpt("gpt_13B", 40, 5120, 40)),
            _preset("7", **_gpt("gpt_7B", 36, 4096, 32, tensor_model_parallel_size="4")),
            _preset("405", **_gpt("llama_405B", 128, 16384, 128, ffn_hidden_size="53248")),
            _preset(
                "moe",
                **_gpt(
                    "Mixtral_8*7B",
                    32,
                    4096,
                    32,
                    ffn_hidden_size="14336",
                    tensor_model_parallel_size="4",
                    moe_enable="--moe_enable",
                    grouped_gemm="--moe_grouped_gemm",
                ),
            ),
            _preset(
                "deepseek671",
                **_deepseek(
                    "DeepSeek_671B",
                    61,
                    18432,
                    128,
                    ffn_hidden_size="2048",
                    q_lora_rank="1536",
                    kv_lora_rank="512",
                    num_experts="256",
                    n_shared_expert="1",
                    n_dense_layer="3",
                ),
            ),
            _preset(
                "deepseek236",
                **_deepseek(
                    "DeepSeek_236B",
                    60,
                    12288,
                    128,
                    ffn_hidden_size="1536",
                    q_lora_rank="1536",
                    kv_lora_rank="512",
                    num_experts="160",
                    n_shared_expert="2",
                    n_dense_layer="1",
                ),
            ),
            _preset(
                "deepseek16",
                **_deepseek(
                    "DeepSeek_16B",
                    27,
                    10944,
                    16,
                    ffn_hidden_size="1408",
                    q_lora_rank="0",
                    kv_lora_rank="512",
                    num_experts="64",
                    n_shared_expert="2",
                    n_dense_layer="1",
                ),
            ),
            _preset("deepseek", frame="DeepSeek", model_name="DeepSeek", moe_enable="--moe_enable"),
        )
    }
)

#: what the script falls back to for any other `-m` value (after printing a complaint)
FALLBACK_PRESET = _preset("13", **_gpt("gpt_13B", 40, 5120, 40))

#: the `-m` values of the v1.0 script (2024-07-31 .. 2024-09-11), whose tp variable is
#: `tp_num`: no 405 nor DeepSeek, and `moe` is Mixtral's shape at tp 2 without MoE switched on
V1_SCRIPT_PRESETS: Mapping[str, ScriptPreset] = MappingProxyType(
    {
        p.size: p
        for p in (
            _preset("175", **_gpt("gpt_175B", 96, 12288, 96, tp_num="8")),
            _preset("22", **_gpt("gpt_22B", 48, 6144, 64, tp_num="8")),
            _preset("13", **_gpt("gpt_13B", 40, 5120, 40)),
            _preset("7", **_gpt("gpt_7B", 36, 4096, 32, tp_num="4")),
            _preset(
                "moe", **_gpt("Mixtral_8*7B", 32, 4096, 32, ffn_hidden_size="14336", tp_num="2")
            ),
        )
    }
)


@record
class Preset:
    """A preset's model shape, as the file-name checks and explain use it."""

    layers: int
    hidden: int
    heads: int
    moe: bool = False


def _shapes() -> dict[str, Preset]:
    shapes: dict[str, Preset] = {}
    for p in SCRIPT_PRESETS.values():
        s = p.settings
        if "num_layers" not in s:
            continue
        shape = Preset(
            int(s["num_layers"]),
            int(s["hidden_size"]),
            int(s["num_attention_heads"]),
            moe="moe_enable" in s,
        )
        shapes[p.model_name] = shape
        # the Python entry point is often given the shell-safe spelling of Mixtral_8*7B
        shapes[p.model_name.replace("*", "x")] = shape
    return shapes


#: model name (as AICB writes it into file names) -> its preset's shape
PRESETS: Mapping[str, Preset] = MappingProxyType(_shapes())
