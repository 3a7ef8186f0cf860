"""The options of AICB's inference generator and the model configuration it loads.

`python -m workload_generator.SimAI_inference_workload_generator MODEL [CONFIG] --phase ...`
takes a model name (which mocked model: `Qwen3-Moe`, `Qwen3-Next` or `DeepSeek` in it) and a
JSON configuration, then lets a fixed list of command-line values override the JSON. The
scripts' three default configurations are built in, and the five more the side branch shipped
until 2025-12-05 (the keys the generator reads, from aliyun/aicb
`scripts/inference_configs/*.json`, Copyright (c) 2021 Alibaba Group, Apache License 2.0); any
other configuration file is read from disk.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from types import MappingProxyType

from wkparse.i18n import N_
from wkparse.models.aicb.errors import AicbError
from wkparse.models.aicb.options import Option, parse

PHASES = ("decode", "prefill")

OPTIONS: tuple[Option, ...] = (
    Option("--aiob_enable", "flag", False, note="refused: AICB measures compute times on a GPU"),
    Option(
        "--aiob_forward_loops", "int", 1, effect=N_("used only when AICB measures times on a GPU")
    ),
    Option(
        "--moe_routing_strategy",
        "str",
        "RoundRobin",
        choices=("RoundRobin", "UniformRandom"),
        effect=N_("used only when AICB measures times on a GPU"),
    ),
    Option("--seq_length", "int", 1),
    Option("--micro_batch", "int", 1),
    Option("--world_size", "int", 1),
    Option("--tensor_model_parallel_size", "int", 1),
    Option("--expert_model_parallel_size", "int", 1),
    Option("--pipeline_model_parallel", "int", 1),
    Option("--moe_enable", "flag", flag_default=True, effect=N_("always on: its default is True")),
    Option("--result_dir", "str", "results/workload/", note="where AICB writes the file"),
    Option("--phase", "str", "decode", choices=PHASES),
)

#: DeepSeek-671B's shape: the shipped `deepseek_default.json`, and the defaults of the first
#: inference generator's DeepSeek parameter class (`first_inference`)
DEEPSEEK_671B: Mapping[str, object] = MappingProxyType(
    {
        "num_layers": 61,
        "dense_layer": 3,
        "hidden_size": 7168,
        "num_attention_heads": 128,
        "vocab_size": 129280,
        "d_kv_c": 512,
        "d_q_c": 1536,
        "d_r": 64,
        "head_num": 128,
        "d_q": 128,
        "d_kv": 128,
        "router_expert": 256,
        "duped_expert": 32,
        "shared_experts": 1,
        "moe_router_topk": 8,
        "expert_dim": 2048,
        "num_experts": 288,
    }
)
#: Qwen3-Moe-235B's and Qwen3-Next-80B's shapes, as their shipped default configurations give
#: them (the first generator's configurations too)
QWEN3_MOE_235B: Mapping[str, object] = MappingProxyType(
    {
        "hidden_size": 4096,
        "moe_intermediate_size": 1536,
        "num_experts": 128,
        "num_experts_per_tok": 8,
        "num_hidden_layers": 94,
    }
)
QWEN3_NEXT_80B: Mapping[str, object] = MappingProxyType(
    {
        "full_attention_interval": 4,
        "hidden_size": 2048,
        "moe_intermediate_size": 512,
        "num_experts": 512,
        "num_experts_per_tok": 10,
        "num_hidden_layers": 48,
    }
)
_CONFIGS = "scripts/inference_configs"
#: the keys the generator reads from each shipped default configuration
BUILT_IN_CONFIGS: Mapping[str, Mapping[str, object]] = MappingProxyType(
    {
        f"{_CONFIGS}/qwen3_moe_default.json": QWEN3_MOE_235B,
        f"{_CONFIGS}/qwen3_next_default.json": QWEN3_NEXT_80B,
        f"{_CONFIGS}/deepseek_default.json": DEEPSEEK_671B,
    }
)

_QWEN3_MOE = {
    **QWEN3_MOE_235B,
    "model_name": "Qwen3-Moe-235B",
    "frame": "Qwen3-Moe",
}
#: and those the side branch also shipped from 2025-11-04 until 26b1345 deleted them on
#: 2025-12-05 (aliyun/aicb 05551a1; their `aiob_enable` is overridden by the option's default)
EARLY_CONFIGS: Mapping[str, Mapping[str, object]] = MappingProxyType(
    {
        f"{_CONFIGS}/qwen3_default.json": _QWEN3_MOE,
        f"{_CONFIGS}/qwen3_default_aiob.json": _QWEN3_MOE,
        f"{_CONFIGS}/qwen3_moe_default_aiob.json": _QWEN3_MOE,
        f"{_CONFIGS}/qwen3_next_default_aiob.json": {
            **QWEN3_NEXT_80B,
            "model_name": "Qwen3-Next-80B",
            "frame": "Qwen3-Next-80B",
        },
        f"{_CONFIGS}/deepseek_default_aiob.json": {
            **DEEPSEEK_671B,
            "model_name": "DeepSeek-671B",
            "frame": "DeepSeek",
        },
    }
)

#: substring of the model argument -> (family, the name and frame its parameters class sets)
FAMILIES = (
    ("Qwen3-Moe", "Qwen3-Moe-235B", "Qwen3-Moe"),
    ("Qwen3-Next", "Qwen3-Next-80B", "Qwen3-Next"),
    ("DeepSeek", "DeepSeek-671B", "DeepSeek"),
)


@dataclass(frozen=True, slots=True)
class InferenceArgs:
    family: str
    model_name: str
    frame: str
    phase: str
    seq_length: int
    micro_batch: int
    world_size: int
    tp: int
    ep: int
    pp: int
    result_dir: str
    config: Mapping[str, object]

    def number(self, key: str) -> int:
        """An integer the model reads from the configuration (AICB fails without it)."""
        value = self.config.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise AicbError(
                f"AICB stops: the {self.family} configuration has no integer {key!r} "
                f"(found {value!r})"
            )
        return value

    @property
    def topk(self) -> int:
        key = "moe_router_topk" if "moe_router_topk" in self.config else "num_experts_per_tok"
        return self.number(key)


def _config(path: str | None, early: bool) -> Mapping[str, object]:
    if path is None:
        raise AicbError("AICB stops: no configuration file given (the model needs its shape)")
    local = Path(path)
    if local.is_file():
        try:
            data = json.loads(local.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise AicbError(f"[ERRPR] File '{path}' is not valid JSON. ({exc})") from None
        except RecursionError:  # Python's json gives up as AICB's does: AICB stops
            raise AicbError(f"AICB stops: RecursionError reading {path}") from None
        if not isinstance(data, dict):
            raise AicbError(f"{path}: the configuration is not a JSON object")
        return data
    tail = "/".join(PurePosixPath(path.replace("\\", "/")).parts[-3:])
    if tail in BUILT_IN_CONFIGS:
        return BUILT_IN_CONFIGS[tail]
    if early and tail in EARLY_CONFIGS:
        return EARLY_CONFIGS[tail]
    raise AicbError(f"[ERRPR] Config file '{path}' not found.")


def inference_args(
    argv: Sequence[str], missing: frozenset[str] = frozenset(), early_configs: bool = False
) -> tuple[InferenceArgs, list[tuple[str, str]]]:
    """Parse the inference generator's arguments; return its settings and idle options.

    `missing`: options the generator did not have yet at the revision (argparse refuses them
    and resolves prefixes without them); `early_configs`: the revision still ships
    `EARLY_CONFIGS`.
    """
    options = tuple(o for o in OPTIONS if o.flag not in missing)
    try:
        parsed = parse(argv, options, positionals=2)
    except AicbError as exc:
        later = sorted({w.split("=")[0] for w in argv} & missing)
        if later and "unrecognized arguments" in str(exc):
            hint = f"{', '.join(later)} came later; see wkparse aicb --versions"
            raise AicbError(f"{exc} ({hint})") from None
        raise
    if not parsed.positionals:
        raise AicbError("the following arguments are required: model_name")
    v = parsed.values
    idle = parsed.idle(options)
    if v["aiob_enable"]:
        raise AicbError(
            "--aiob_enable measures compute times on a GPU with torch; wkparse cannot "
            "reproduce that run (without it AICB writes compute times of 1)"
        )
    model = parsed.positionals[0]
    family = next((f for f in FAMILIES if f[0] in model), None)
    if family is None:
        raise AicbError(f"Invalid model name: {model}")
    config = _config(parsed.positionals[1] if len(parsed.positionals) > 1 else None, early_configs)

    world, tp, ep = (
        parsed.integer("world_size"),
        parsed.integer("tensor_model_parallel_size"),
        parsed.integer("expert_model_parallel_size"),
    )
    if world < tp or world < ep or world < 1:
        raise AicbError(
            f"AICB stops: Invalid world size: world_size={world}, "
            f"tensor_model_parallel_size={tp}, expert_model_parallel_size={ep}"
        )
    if tp == 0 or ep == 0:
        raise AicbError("AICB stops: ZeroDivisionError: a parallel size is 0")
    args = InferenceArgs(
        family=family[0],
        model_name=str(config.get("model_name", family[1])),
        frame=str(config.get("frame", family[2])),
        phase=str(v["phase"]),
        seq_length=parsed.integer("seq_length"),
        micro_batch=parsed.integer("micro_batch"),
        world_size=world,
        tp=tp,
        ep=ep,
        pp=parsed.integer("pipeline_model_parallel"),
        result_dir=str(v["result_dir"]),
        config=config,
    )
    return args, idle
