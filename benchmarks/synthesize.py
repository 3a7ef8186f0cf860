#!/usr/bin/env python3
"""Write realistic AICB-shaped SimAI training workload files (AICB era 2025-12).

A benchmark front end to ``wkparse.models.aicb``, the package's model of AICB's training
generator (``workload_generator/SimAI_training_workload_generator.py``): it turns a few
shape arguments into the generator's arguments and writes what AICB would write. With
``aiob=True`` the compute times are the ones AICB derives from its shipped
``workload/aiob_inputs/Example.txt`` (what every ``--aiob_enable --comp_filepath
workload/aiob_inputs/Example.txt`` run writes, whatever the model).
``scale_compute=True`` instead scales those times roughly with the layer's work, which
AICB never does (for benchmarks that want varied values). ``wkparse aicb -- COMMAND``
is the user-facing way to the same files.

Library use::

    text = synthesize(tp=4, pp=4, world=128, gbs=512, mbs=1, seq=4096,
                      layers=36, hidden=4096)

Command line::

    python benchmarks/synthesize.py --model gpt_7B --world 128 --tp 4 --pp 4 \\
        --gbs 512 --mbs 1 --seq 4096 -o samples/
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from wkparse.models.aicb import AicbError
from wkparse.models.aicb.dump import Cell, Row, Workload
from wkparse.models.aicb.names import training_name
from wkparse.models.aicb.training import aiob
from wkparse.models.aicb.training import rows as training
from wkparse.models.aicb.training.args import TrainingArgs, training_args
from wkparse.models.aicb.training.presets import SCRIPT_PRESETS

__all__ = [
    "PRESETS",
    "Preset",
    "WorkloadConfig",
    "aicb_filename",
    "config_from_args",
    "gbs_for_rows",
    "main",
    "render",
    "row_count",
    "synthesize",
    "workload",
]

# --------------------------------------------------------------------------- presets


@dataclass(frozen=True)
class Preset:
    """A model shape from AICB's ``scripts/megatron_workload_with_aiob.sh``."""

    layers: int
    hidden: int
    heads: int
    ffn: int | None = None  # None: AICB's SwiGLU default from ``hidden``
    moe: bool = False
    experts: int = 8
    topk: int = 2


def _presets() -> dict[str, Preset]:
    """The script's Megatron presets (wkparse.models.aicb.training.presets), by shell-safe
    model name."""
    found = {}
    for p in SCRIPT_PRESETS.values():
        s = p.settings
        if "num_layers" not in s or s.get("frame") == "DeepSeek":
            continue
        ffn = s.get("ffn_hidden_size")
        found[p.model_name.replace("*", "x")] = Preset(
            int(s["num_layers"]),
            int(s["hidden_size"]),
            int(s["num_attention_heads"]),
            ffn=int(ffn) if ffn else None,
            moe="moe_enable" in s,
        )
    return found


PRESETS: dict[str, Preset] = _presets()

# The shape Example.txt's times are taken to stand for when ``scale_compute`` is on.
_REF_HIDDEN = 4096
_REF_FFN = 10880
_REF_TOKENS = 4096  # micro_batch * seq_length
_REF_TP = 4

# ------------------------------------------------------------------------ config


@dataclass(frozen=True)
class WorkloadConfig:
    """Everything the generator's output depends on (AICB argument in comments)."""

    tp: int  # --tensor_model_parallel_size
    pp: int  # --pipeline_model_parallel
    world: int  # --world_size
    gbs: int  # --global_batch
    mbs: int  # --micro_batch
    seq: int  # --seq_length
    layers: int  # --num_layers (whole model; divided by pp when pp > 1)
    hidden: int  # --hidden_size
    ep: int = 1  # --expert_model_parallel_size
    vocab: int = 50257  # --vocab_size
    ffn: int | None = None  # --ffn_hidden_size (None: SwiGLU default)
    sequence_parallel: bool = False  # --enable_sequence_parallel
    aiob: bool = True  # --aiob_enable --comp_filepath workload/aiob_inputs/Example.txt
    moe: bool = False  # --moe_enable
    experts: int = 8  # --num_experts
    topk: int = 2  # --moe_router_topk
    scale_compute: bool = False  # ours: scale Example.txt times by layer shape
    heads: int = 1  # --num_attention_heads (1: a query projection exactly hidden wide)

    def __post_init__(self) -> None:
        for field in ("tp", "pp", "ep", "world", "mbs", "seq", "hidden", "vocab", "topk"):
            if getattr(self, field) < 1:
                raise ValueError(f"{field} must be at least 1")
        for field in ("gbs", "layers", "experts"):
            if getattr(self, field) < 0:
                raise ValueError(f"{field} must not be negative")
        if self.tp * self.pp > self.world:
            raise ValueError("tp * pp is larger than world: data parallel size would be 0")
        if self.moe and not self.sequence_parallel:
            # AICB: "AssertionError: moe must be enabled with sequence parallel"
            raise ValueError("AICB requires sequence parallel for MoE (moe=True)")

    def argv(self) -> list[str]:
        """The arguments of AICB's training generator that describe this configuration."""
        argv = [
            f"--world_size={self.world}",
            f"--tensor_model_parallel_size={self.tp}",
            f"--pipeline_model_parallel={self.pp}",
            f"--expert_model_parallel_size={self.ep}",
            f"--global_batch={self.gbs}",
            f"--micro_batch={self.mbs}",
            f"--seq_length={self.seq}",
            f"--num_layers={self.layers}",
            f"--hidden_size={self.hidden}",
            f"--num_attention_heads={self.heads}",
            f"--vocab_size={self.vocab}",
            f"--num_experts={self.experts}",
            f"--moe_router_topk={self.topk}",
            "--swiglu",
        ]
        if self.ffn is not None:
            argv.append(f"--ffn_hidden_size={self.ffn}")
        if self.sequence_parallel:
            argv.append("--enable_sequence_parallel")
        if self.moe:
            argv.append("--moe_enable")
        if self.aiob:
            argv += ["--aiob_enable", f"--comp_filepath={aiob.SHIPPED}"]
        return argv

    def aicb(self) -> TrainingArgs:
        """AICB's settings for this configuration (its derivations: dp, ga, layers per stage)."""
        try:
            return training_args(self.argv())[0]
        except AicbError as exc:
            raise ValueError(str(exc)) from None

    @property
    def dp(self) -> int:
        return self.aicb().dp

    @property
    def ga(self) -> int:
        return self.aicb().ga

    @property
    def vpp(self) -> int:
        return self.aicb().num_layers


# --------------------------------------------------------------------------- rows


def _scaled(cfg: WorkloadConfig, args: TrainingArgs, table: dict[str, int]) -> dict[str, int]:
    """Example.txt's times scaled roughly with the layer's work (``scale_compute``)."""
    tokens = (cfg.mbs * cfg.seq) / _REF_TOKENS
    tp = _REF_TP / cfg.tp
    width = cfg.hidden / _REF_HIDDEN
    factors = {
        "Emb": tokens * width,
        "attention": tokens * width * width * tp,
        "mlp": tokens * width * (args.ffn_hidden_size / _REF_FFN) * tp,
    }
    scaled = dict(table)
    for key, value in table.items():
        factor = factors.get(key.split("_")[0])
        if factor is not None and value:
            scaled[key] = max(1, round(value * factor))
    return scaled


def workload(cfg: WorkloadConfig) -> Workload:
    """What AICB writes for ``cfg`` (wkparse.models.aicb's model of the generator)."""
    args = cfg.aicb()
    table = None
    if cfg.aiob:
        table, _ = aiob.load(str(aiob.SHIPPED), recompute=False)
        if cfg.scale_compute:
            table = _scaled(cfg, args, table)
    try:
        return training.workload(args, table)
    except AicbError as exc:
        raise ValueError(str(exc)) from None


# ------------------------------------------------------------------------ public


def _jittered(row: Row, rng: random.Random, jitter: float, every_size: bool = False) -> Row:
    """`row` with each real compute time (> 1 tick) and each all-to-all size (`every_size`:
    each non-zero size) scaled by its own factor in [1 - jitter, 1 + jitter]: what a
    profiler's per-micro-batch times or MoE token routing give, where no two rows repeat."""

    def time(value: Cell) -> Cell:
        if not isinstance(value, int) or value <= 1:
            return value
        return max(2, round(value * (1 + rng.uniform(-jitter, jitter))))

    def size(comm: str, value: Cell) -> Cell:
        varied = every_size or comm.startswith("ALLTOALL")
        if not varied or not isinstance(value, int) or not value:
            return value
        return max(1, round(value * (1 + rng.uniform(-jitter, jitter))))

    return replace(
        row,
        fwd_time=time(row.fwd_time),
        ig_time=time(row.ig_time),
        wg_time=time(row.wg_time),
        fwd_size=size(row.fwd_comm, row.fwd_size),
        ig_size=size(row.ig_comm, row.ig_size),
        wg_size=size(row.wg_comm, row.wg_size),
    )


def render(
    cfg: WorkloadConfig, *, jitter: float = 0.0, seed: int = 0, every_size: bool = False
) -> str:
    """The whole workload file for ``cfg``.

    With ``jitter`` (a fraction, e.g. 0.05), every micro-batch group gets its own compute
    times and all-to-all sizes, drawn from ``random.Random(seed)``: the rows then almost
    never repeat, unlike AICB's output, whose groups are identical. ``every_size`` jitters
    every collective's size too, so that nearly every row with a collective is its own kind
    of layer (name, collectives and sizes: what SimAI's report and the size checks group by).
    """
    written = workload(cfg)
    if jitter:
        rng = random.Random(seed)
        groups = [
            [_jittered(r, rng, jitter, every_size) for r in group] for group in written.groups
        ]
        written = replace(written, groups=groups)
    return written.text()


def row_count(cfg: WorkloadConfig) -> int:
    """The row count ``render(cfg)`` declares (and writes), without building the text."""
    return workload(cfg).row_count


def gbs_for_rows(cfg: WorkloadConfig, rows: int) -> int:
    """A global batch giving ``cfg`` a file of about ``rows`` rows (at least one group)."""
    one = workload(replace(cfg, gbs=cfg.mbs * cfg.dp))  # ga == 1
    per_group = max(1, len(one.groups[0]))
    fixed = one.row_count - per_group
    ga = max(1, round((rows - fixed) / per_group))
    return ga * cfg.mbs * cfg.dp


def synthesize(
    *,
    tp: int,
    pp: int,
    ep: int = 1,
    world: int,
    gbs: int,
    mbs: int,
    seq: int,
    layers: int,
    hidden: int,
    vocab: int = 50257,
    sequence_parallel: bool = False,
    aiob: bool = True,
    moe: bool = False,
    experts: int = 8,
    topk: int = 2,
    ffn: int | None = None,
    scale_compute: bool = False,
) -> str:
    """The full text of an AICB 2025-12 style training workload file.

    ``layers`` is the whole model's depth; with ``pp > 1`` the file holds one stage
    (``layers // pp`` layers, written as ``vpp``), repeated ``ga`` times.
    """
    return render(
        WorkloadConfig(
            tp=tp,
            pp=pp,
            ep=ep,
            world=world,
            gbs=gbs,
            mbs=mbs,
            seq=seq,
            layers=layers,
            hidden=hidden,
            vocab=vocab,
            ffn=ffn,
            sequence_parallel=sequence_parallel,
            aiob=aiob,
            moe=moe,
            experts=experts,
            topk=topk,
            scale_compute=scale_compute,
        )
    )


def aicb_filename(
    *,
    model: str,
    world: int,
    tp: int,
    pp: int,
    ep: int = 1,
    gbs: int,
    mbs: int,
    seq: int,
    moe: bool = False,
    grouped_gemm: bool | None = None,
    flash_attn: bool = True,
    gpu_type: str = "None",
    prefix: str = "",
) -> str:
    """AICB's result file name (wkparse.models.aicb.names), e.g. ``None-gpt_7B-world_size128-tp4-
    pp4-ep1-gbs512-mbs1-seq4096-MOE-False-GEMM-False-flash_attn-True.txt``; ``grouped_gemm``
    follows ``moe`` by default. ``prefix`` is prepended verbatim (the corpus uses ``aiob-`` /
    ``sp-``; AICB itself writes none)."""
    name = training_name(
        gpu_type=gpu_type,
        model=model,
        world=world,
        tp=tp,
        pp=pp,
        ep=ep,
        gbs=gbs,
        mbs=mbs,
        seq=seq,
        moe=moe,
        gemm=moe if grouped_gemm is None else grouped_gemm,
        flash=flash_attn,
    )
    return prefix + name


# --------------------------------------------------------------------------- CLI


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="synthesize.py",
        description="Write an AICB-shaped (2025-12) SimAI training workload file.",
    )
    p.add_argument("--model", choices=sorted(PRESETS), help="model preset (layers/hidden/...)")
    p.add_argument("--layers", type=int, help="number of layers (overrides the preset)")
    p.add_argument("--hidden", type=int, help="hidden size (overrides the preset)")
    p.add_argument("--ffn", type=int, help="FFN hidden size (default: preset or SwiGLU rule)")
    p.add_argument("--vocab", type=int, default=50257)
    p.add_argument("--world", type=int, required=True, help="all GPUs (world_size)")
    p.add_argument("--tp", type=int, required=True)
    p.add_argument("--pp", type=int, default=1)
    p.add_argument("--ep", type=int, default=1)
    p.add_argument("--gbs", type=int, help="global batch (required unless --rows)")
    p.add_argument("--mbs", type=int, default=1)
    p.add_argument("--seq", type=int, default=4096)
    p.add_argument("--sp", action="store_true", help="sequence parallel")
    p.add_argument("--no-aiob", dest="aiob", action="store_false", help="placeholder times 1")
    p.add_argument("--moe", action="store_true", help="MoE layers (implied by MoE presets)")
    p.add_argument("--experts", type=int, help="number of experts (default: preset or 8)")
    p.add_argument("--topk", type=int, help="router top-k (default: preset or 2)")
    p.add_argument(
        "--scale-compute",
        action="store_true",
        help="scale compute times with the layer shape instead of AICB's Example.txt values",
    )
    p.add_argument("--rows", type=int, help="pick ga (and so gbs) to give about ROWS rows")
    p.add_argument(
        "--jitter",
        type=float,
        default=0.0,
        help="vary each group's compute times and all-to-all sizes by up to this fraction "
        "(e.g. 0.05), so that rows do not repeat",
    )
    p.add_argument(
        "--every-size",
        action="store_true",
        help="with --jitter, vary every collective's size too (not only all-to-all ones)",
    )
    p.add_argument("--seed", type=int, default=0, help="random seed of --jitter")
    p.add_argument("--prefix", default="", help="file name prefix when -o is a directory")
    p.add_argument(
        "-o", "--output", help="output file or directory (AICB file name); default stdout"
    )
    return p


def config_from_args(argv: Sequence[str]) -> tuple[WorkloadConfig, str, argparse.Namespace]:
    """Parse CLI arguments into (config, model name, namespace); exits on bad input."""
    parser = _parser()
    ns = parser.parse_args(list(argv))
    preset = PRESETS.get(ns.model) if ns.model else None
    layers = ns.layers if ns.layers is not None else (preset.layers if preset else None)
    hidden = ns.hidden if ns.hidden is not None else (preset.hidden if preset else None)
    if layers is None or hidden is None:
        parser.error("give --model, or both --layers and --hidden")
    if ns.gbs is None and ns.rows is None:
        parser.error("give --gbs or --rows")
    moe = ns.moe or (preset.moe if preset else False)
    try:
        cfg = WorkloadConfig(
            tp=ns.tp,
            pp=ns.pp,
            ep=ns.ep,
            world=ns.world,
            gbs=ns.gbs if ns.gbs is not None else 0,
            mbs=ns.mbs,
            seq=ns.seq,
            layers=layers,
            hidden=hidden,
            vocab=ns.vocab,
            ffn=ns.ffn if ns.ffn is not None else (preset.ffn if preset else None),
            sequence_parallel=ns.sp,
            aiob=ns.aiob,
            moe=moe,
            experts=ns.experts if ns.experts is not None else (preset.experts if preset else 8),
            topk=ns.topk if ns.topk is not None else (preset.topk if preset else 2),
            scale_compute=ns.scale_compute,
            heads=preset.heads if preset and ns.hidden is None else 1,
        )
        if ns.rows is not None:
            cfg = replace(cfg, gbs=gbs_for_rows(cfg, ns.rows))
    except ValueError as exc:
        parser.error(str(exc))
    return cfg, ns.model or "custom", ns


def main(argv: Sequence[str] | None = None) -> int:
    cfg, model, ns = config_from_args(sys.argv[1:] if argv is None else argv)
    if not 0 <= ns.jitter < 1:
        _parser().error("--jitter must be at least 0 and below 1")
    text = render(cfg, jitter=ns.jitter, seed=ns.seed, every_size=ns.every_size)
    if ns.output is None:
        sys.stdout.write(text)
        return 0
    out = Path(ns.output)
    if out.is_dir():
        out = out / aicb_filename(
            model=model,
            world=cfg.world,
            tp=cfg.tp,
            pp=cfg.pp,
            ep=cfg.ep,
            gbs=cfg.gbs,
            mbs=cfg.mbs,
            seq=cfg.seq,
            moe=cfg.moe,
            prefix=ns.prefix,
        )
    with out.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    print(f"{out}: {row_count(cfg)} rows, ga {cfg.ga}, vpp {cfg.vpp}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
