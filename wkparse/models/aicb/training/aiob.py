"""Measured compute times: AICB's AIOB files, read the way its training generator reads them.

An AIOB file (`--comp_filepath`) lists sections (`atten_qkv:`) with `time_gpu_min/avg/max`
lines in microseconds. AICB sums the averages of every attention section (names holding
`atten`, plus `layernorm`) into one attention time and of every MLP section (`mlp`, plus
`layernorm2`) into one MLP time, counts the `atten_flash` kernel twice under
`--recompute_activations`, keeps the others by name (`Emb` is the embedding's), and takes the
gradient step from `param_time` (its minimum and its average). All in nanoseconds, rounded as
Python rounds.

`workload/aiob_inputs/Example.txt` is the file AICB ships and its scripts' examples pass. When
that path is not readable here, its measurements below are used instead. They are data from
AICB (aliyun/aicb, `workload/aiob_inputs/Example.txt`, Copyright (c) 2021 Alibaba Group,
Apache License 2.0); only the section names and their minimum and average times
are kept, which is all the generator reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from wkparse.i18n import _
from wkparse.models.aicb.errors import AicbError

SHIPPED = PurePosixPath("workload/aiob_inputs/Example.txt")

#: (section, time_gpu_min, time_gpu_avg) of AICB's Example.txt, in its order (microseconds)
_EXAMPLE: tuple[tuple[str, int, int], ...] = (
    ("Emb", 782, 799),
    ("layernorm", 43, 70),
    ("atten_qkv", 862, 889),
    ("atten_flash", 460, 512),
    ("atten_linear", 333, 349),
    ("layernorm2", 67, 71),
    ("mlp_linear_1", 1372, 1408),
    ("mlp_gelu", 246, 257),
    ("mlp_linear_2", 720, 742),
    ("layernorm_post", 68, 70),
    ("logit_time", 12435, 12824),
    ("param_time", 16647, 17374),
)

#: per-layer times AICB looks up by exact layer name (DeepSeek's MLA), 0 unless measured
_PER_LAYER = (
    "attention_linear_q_lora",
    "attention_q_column",
    "attention_linear_kv_lora",
    "attention_kv_column",
    "attention_o_row",
)

_SECTION = re.compile(r"^(\w+):")
_AVG = re.compile(r"time_gpu_avg:\s+(\d+(\.\d+)?)")
_MIN = re.compile(r"time_gpu_min:\s+(\d+(\.\d+)?)")


def _example_lines() -> Iterable[str]:
    yield "train_iter:10\n"
    for section, low, avg in _EXAMPLE:
        yield f"{section}:\n    time_gpu_min: {low}\n    time_gpu_avg: {avg}\n"


def compute_times(lines: Iterable[str], recompute: bool) -> dict[str, int]:
    """The compute-time table AICB's training generator builds from an AIOB file's lines."""
    attention = mlp = grad_fwd = grad_bwd = 0.0
    others: dict[str, float] = {}
    per_layer = dict.fromkeys(_PER_LAYER, 0)
    section: str | None = None
    for text in lines:
        for line in text.splitlines():
            header = _SECTION.match(line)
            if header:
                section = header.group(1)
            avg, low = _AVG.search(line), _MIN.search(line)
            if section == "param_time":
                if low:
                    grad_fwd = float(low.group(1)) * 1000
                if avg:
                    grad_bwd = float(avg.group(1)) * 1000
            elif avg and section:
                value = float(avg.group(1)) * 1000
                if "atten" in section or section == "layernorm":
                    attention += value * 2 if recompute and "flash" in section else value
                elif "mlp" in section or section == "layernorm2":
                    mlp += value
                else:
                    others[section] = value
                if section in per_layer:
                    per_layer[section] = round(value)
    table = {
        "attention_forward": round(attention),
        "attention_backward": round(attention),
        "mlp_forward": round(mlp),
        "mlp_backward": round(mlp),
        "grad_forward": round(grad_fwd),
        "grad_backward": round(grad_bwd),
    }
    table.update({k: round(v) for k, v in others.items() if k != "param_time"})
    table.update(per_layer)
    return table


def shipped_layer_times() -> tuple[frozenset[int], frozenset[int]]:
    """The attention and MLP compute times (ns) AICB's training generator writes from its
    shipped Example.txt, with and without `--recompute_activations`."""
    plain = compute_times(_example_lines(), False)
    again = compute_times(_example_lines(), True)
    return (
        frozenset({plain["attention_forward"], again["attention_forward"]}),
        frozenset({plain["mlp_forward"], again["mlp_forward"]}),
    )


def load(path: str, recompute: bool) -> tuple[dict[str, int], str]:
    """The table for `--comp_filepath path`, and where its times came from (for the notes)."""
    local = Path(path)
    if local.is_file():
        try:
            text = local.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise AicbError(f"--comp_filepath {path}: {exc.strerror or exc}") from None
        return compute_times([text], recompute), _("compute times read from {path}").format(
            path=path
        )
    if PurePosixPath(path.replace("\\", "/")).parts[-3:] == SHIPPED.parts:
        return (
            compute_times(_example_lines(), recompute),
            _(
                "compute times of AICB's shipped {file} (not found here; built-in values used)"
            ).format(file=SHIPPED),
        )
    raise AicbError(
        f"--comp_filepath {path}: no such file here (only AICB's shipped {SHIPPED} is built in)"
    )


def lookup(table: dict[str, int] | None, direction: str, stage: str) -> int:
    """A compute time by AICB's naming rules; 1 (AICB's default) when nothing matches."""
    if table is None:
        raise AicbError(
            "AICB stops: AttributeError ('NoneType' object has no attribute 'keys'): DeepSeek's "
            "unsharded attention linears need --aiob_enable under sequence parallelism"
        )
    if stage in table:
        return table[stage]
    if stage == "embedding":
        key = "Emb"
    elif stage == "final":
        key = f"attention_{direction}"
    else:
        key = f"{stage}_{direction}"
    return table.get(key, 1)


def lookup_v1(table: dict[str, int], direction: str, stage: str) -> int | str:
    """A compute time as AICB v1.0 (2024-07-31) looked it up: `Emb` for the embedding, else
    exactly `{stage}_{direction}`, else the table's `default`, else Python's `None` (which
    it wrote as a time: v1.0 had no time for its `fused`, `moelayer` and `final` layers)."""
    key = "Emb" if stage == "embedding" else f"{stage}_{direction}"
    if key in table:
        return table[key]
    return table.get("default", "None")
