"""AICB's first inference generator (master 2025-09-25 .. 2025-12-27, from b866b12).

`python -m workload_generator.SimAI_inference_workload_generator MODEL [CONFIG]` read no
options then: every setting (world size, TP, EP, PP, batch, sequence) came from the JSON
configuration, over its parameter class's defaults (DeepSeek's class has a whole default model
and takes only the keys it knows; Qwen3-Moe's takes every key and has no shape of its own).
Later words were ignored. It knew `Qwen3-Moe` and `DeepSeek` models (Qwen3-Next came on the
side branch on 2025-10-29, `next_branch`, which also dropped the zeros: times 1), no phase (the
tokens are micro-batch x sequence), and without AIOB wrote compute times of 0 (its table of
measured times held zeros, not nothing). Its script took only `-m` and `-c`. The rows are
`inference.workload`'s, with `first=True`. The scripts' configurations of that time are built
in (from aliyun/aicb b866b12 `scripts/inference_configs/*.json`, Copyright (c) 2021 Alibaba
Group, Apache License 2.0; the keys the generator reads).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from types import MappingProxyType

from wkparse.models.aicb.errors import AicbError
from wkparse.models.aicb.inference.args import (
    DEEPSEEK_671B,
    QWEN3_MOE_235B,
    QWEN3_NEXT_80B,
    InferenceArgs,
)
from wkparse.models.aicb.training.scripts import INFERENCE_SCRIPT, ScriptRun, read_options

_RUN = {"seq_length": 1, "micro_batch": 64, "world_size": 32, "pipeline_model_parallel": 1}
_QWEN3_DEFAULTS: Mapping[str, object] = {
    "aiob_enable": True,
    "model_name": "Qwen3-Moe-235B",
    "frame": "Qwen3-Moe",
    **_RUN,
    "tensor_model_parallel_size": 1,
    "expert_model_parallel_size": 32,
    "result_dir": "results/workload/",
}
_DEEPSEEK_DEFAULTS: Mapping[str, object] = {
    "aiob_enable": True,
    "model_name": "DeepSeek-671B",
    "frame": "DeepSeek",
    **DEEPSEEK_671B,
    **_RUN,
    "tensor_model_parallel_size": 8,
    "expert_model_parallel_size": 32,
    "result_dir": "results/workload/",
}
_NEXT_DEFAULTS = {**_QWEN3_DEFAULTS, "model_name": "Qwen3-Next-80B", "frame": "Qwen3-Next"}
_NEXT_SHAPE = {"model_name": "Qwen3-Next-80B", "frame": "Qwen3-Next-80B", **QWEN3_NEXT_80B}
_CONFIGS = "scripts/inference_configs"
_QWEN3 = {**_QWEN3_DEFAULTS, "aiob_enable": False, **QWEN3_MOE_235B}
#: the shipped configurations of 2025-09-25 (the `_aiob` ones switch AIOB on)
BUILT_IN_CONFIGS: Mapping[str, Mapping[str, object]] = MappingProxyType(
    {
        f"{_CONFIGS}/qwen3_default.json": _QWEN3,
        f"{_CONFIGS}/qwen3_default_aiob.json": {**_QWEN3, "aiob_enable": True},
        f"{_CONFIGS}/deepseek_default.json": {**_DEEPSEEK_DEFAULTS, "aiob_enable": False},
        f"{_CONFIGS}/deepseek_default_aiob.json": dict(_DEEPSEEK_DEFAULTS),
    }
)
#: and those the side branch added on 2025-10-29 (`qwen3_moe_` is `qwen3_` renamed)
NEXT_CONFIGS: Mapping[str, Mapping[str, object]] = MappingProxyType(
    {
        **BUILT_IN_CONFIGS,
        f"{_CONFIGS}/qwen3_moe_default.json": _QWEN3,
        f"{_CONFIGS}/qwen3_moe_default_aiob.json": {**_QWEN3, "aiob_enable": True},
        f"{_CONFIGS}/qwen3_next_default.json": {
            **_NEXT_DEFAULTS,
            **_NEXT_SHAPE,
            "aiob_enable": False,
        },
        f"{_CONFIGS}/qwen3_next_default_aiob.json": {
            **_NEXT_DEFAULTS,
            **_NEXT_SHAPE,
            "aiob_enable": True,
        },
    }
)
#: (family in the model argument, its defaults, whether it takes keys it does not know)
FAMILIES = (("Qwen3-Moe", _QWEN3_DEFAULTS, True), ("DeepSeek", _DEEPSEEK_DEFAULTS, False))
#: the side branch's Qwen3-Next (2025-10-29), checked after Qwen3-Moe as AICB did
NEXT_FAMILY = ("Qwen3-Next", _NEXT_DEFAULTS, True)


def _config(
    path: str | None, notes: list[str], built_in: Mapping[str, Mapping[str, object]]
) -> Mapping[str, object]:
    """The JSON's keys; a file that is missing or not JSON leaves the defaults, as AICB did."""
    if path is None:
        return {}
    local = Path(path)
    if local.is_file():
        try:
            data = json.loads(local.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            notes.append(f"AICB prints: Error decoding JSON from {path}. Using default values.")
            return {}
        except RecursionError:  # Python's json gives up as AICB's does: AICB stops
            raise AicbError(f"AICB stops: RecursionError reading {path}") from None
        return data if isinstance(data, dict) else {}
    tail = "/".join(PurePosixPath(path.replace("\\", "/")).parts[-3:])
    if tail in built_in:
        return built_in[tail]
    notes.append(f"AICB prints: Config file {path} not found. Using default values.")
    return {}


def _int(params: Mapping[str, object], key: str) -> int:
    value = params.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise AicbError(f"AICB stops: the configuration's {key!r} is not an integer ({value!r})")
    return value


def first_inference_args(
    argv: Sequence[str], next_branch: bool = False
) -> tuple[InferenceArgs, list[str]]:
    """The first generator's settings for `MODEL [CONFIG] ...`, and notes for the user;
    `next_branch`: as on the side branch of 2025-10-29 (Qwen3-Next and its configurations)."""
    if not argv:
        raise AicbError("Usage: python workload_generator.py <model_name> [config_file]")
    model, notes = argv[0], []
    if len(argv) > 2:
        notes.append(
            "the inference generator of this revision reads only the model and the "
            f"configuration; it ignores: {' '.join(argv[2:])}"
        )
    families = (*FAMILIES[:1], NEXT_FAMILY, *FAMILIES[1:]) if next_branch else FAMILIES
    family = next((f for f in families if f[0] in model), None)
    if family is None:
        raise AicbError(f"Invalid model name: {model}")
    name, defaults, takes_any = family
    built_in = NEXT_CONFIGS if next_branch else BUILT_IN_CONFIGS
    given = _config(argv[1] if len(argv) > 1 else None, notes, built_in)
    params = dict(defaults)
    params.update((k, v) for k, v in given.items() if takes_any or k in defaults)
    if params["aiob_enable"]:
        raise AicbError(
            "the configuration switches AIOB on (aiob_enable): AICB measures compute times "
            "on a GPU with torch; wkparse cannot reproduce that run"
        )
    tp = _int(params, "tensor_model_parallel_size")
    if tp == 0:
        raise AicbError("AICB stops: ZeroDivisionError: tensor_model_parallel_size is 0")
    args = InferenceArgs(
        family=name,
        model_name=str(params["model_name"]),
        frame=str(params["frame"]),
        phase="",
        seq_length=_int(params, "seq_length"),
        micro_batch=_int(params, "micro_batch"),
        world_size=_int(params, "world_size"),
        tp=tp,
        ep=_int(params, "expert_model_parallel_size"),
        pp=_int(params, "pipeline_model_parallel"),
        result_dir=str(params["result_dir"]),
        config=params,
    )
    return args, notes


#: the script's option words (it had no flags)
SCRIPT_VALUED = MappingProxyType(
    {"-m": "model_size", "--model_size": "model_size", "-c": "config", "--config": "config"}
)
#: -m value -> (model argument, the script's default configuration)
_SCRIPT_MODELS = {
    "deepseek-671B": ("DeepSeek-671B", f"{_CONFIGS}/deepseek_default.json"),
    "qwen3-235B": ("Qwen3-Moe-235B", f"{_CONFIGS}/qwen3_default.json"),
}
#: the side branch's script (2025-10-29)
_NEXT_SCRIPT_MODELS = {
    **_SCRIPT_MODELS,
    "qwen3-235B": ("Qwen3-Moe-235B", f"{_CONFIGS}/qwen3_moe_default.json"),
    "qwen3-next-80B": ("Qwen3-Next-80B", f"{_CONFIGS}/qwen3_next_default.json"),
}


def first_inference_script(words: Sequence[str], next_branch: bool = False) -> ScriptRun:
    """`sh scripts/inference_workload_with_aiob.sh [-m SIZE] [-c CONFIG]` of 2025-09-25 (or
    of the side branch's 2025-10-29, `next_branch`)."""
    models = _NEXT_SCRIPT_MODELS if next_branch else _SCRIPT_MODELS
    values, typed = {"model_size": "deepseek-671B", "config": ""}, set[str]()
    notes = read_options(INFERENCE_SCRIPT, words, SCRIPT_VALUED, {}, values, typed)
    if values["model_size"] not in models:
        raise AicbError(
            f"{INFERENCE_SCRIPT}: unknown -m {values['model_size']}: it runs the generator "
            "without a model, which prints its usage"
        )
    model, config = models[values["model_size"]]
    return ScriptRun([model, *(values["config"] or config).split()], notes, typed)
