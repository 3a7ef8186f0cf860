#!/usr/bin/env python3
"""Write realistic AICB-shaped SimAI training workload files (AICB era 2025-12).

This is our own re-implementation of the layout AICB's training generator
(``workload_generator/SimAI_training_workload_generator.py``) writes, built from the
facts in ``FORMAT.md`` and checked against real generator output. It has no
dependencies and needs no GPU: parameter counts follow AICB's mocked Megatron model
(vocabulary padded to a multiple of 128 * TP, a SwiGLU FFN of
``int(4 * hidden * 2 / 3 / 64) * 64`` unless given, position embeddings of
``seq * hidden``), and with ``aiob=True`` the compute times are the ones AICB derives
from its bundled ``workload/aiob_inputs/Example.txt`` (what every ``--aiob_enable
--comp_filepath workload/aiob_inputs/Example.txt`` run writes, whatever the model).
``scale_compute=True`` instead scales those times roughly with the layer's work.

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


PRESETS: dict[str, Preset] = {
    "gpt_7B": Preset(36, 4096, 32),
    "gpt_13B": Preset(40, 5120, 40),
    "gpt_22B": Preset(48, 6144, 64),
    "gpt_175B": Preset(96, 12288, 96),
    "llama_405B": Preset(128, 16384, 128, ffn=53248),
    "Mixtral_8x7B": Preset(32, 4096, 32, ffn=14336, moe=True, experts=8, topk=2),
}

# ------------------------------------------------------------- compute times (ns)

# AICB averages the per-kernel times of Example.txt (in microseconds) into these:
_EMB_FWD = 799_000  # Emb
_ATTN = 1_820_000  # layernorm + atten_qkv + atten_flash + atten_linear
_MLP = 2_478_000  # layernorm2 + mlp_linear_1 + mlp_gelu + mlp_linear_2
_GRAD_FWD = 16_647_000  # param_time (min)
_GRAD_BWD = 17_374_000  # param_time (avg)
# The shape Example.txt's times are taken to stand for when ``scale_compute`` is on.
_REF_HIDDEN = 4096
_REF_FFN = 10880
_REF_TOKENS = 4096  # micro_batch * seq_length
_REF_TP = 4

_POLICY = "HYBRID_TRANSFORMER_FWD_IN_BCKWD"
_NONE = "NONE"

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

    @property
    def dp(self) -> int:
        return self.world // (self.tp * self.pp)

    @property
    def ga(self) -> int:
        return self.gbs // (self.mbs * self.dp)

    @property
    def vpp(self) -> int:
        return self.layers // self.pp if self.pp > 1 else self.layers

    @property
    def ffn_size(self) -> int:
        if self.ffn is not None:
            return self.ffn
        return int((4 * self.hidden * 2 / 3) / 64) * 64

    @property
    def activation(self) -> int:
        """TP activation bytes: 2 * micro_batch * seq_length * hidden_size (bf16)."""
        return 2 * self.mbs * self.seq * self.hidden

    @property
    def padded_vocab(self) -> int:
        multiple = 128 * self.tp
        return -(-self.vocab // multiple) * multiple


# --------------------------------------------------------------------------- rows


@dataclass(frozen=True)
class _Row:
    name: str
    fwd_t: int
    fwd_comm: str
    fwd_size: int
    ig_t: int
    ig_comm: str
    ig_size: int
    wg_t: int
    wg_comm: str
    wg_size: int

    def zero_none(self) -> _Row:
        """AICB's AIOB path sets the fwd / ig size to 0 where the type is NONE."""
        return replace(
            self,
            fwd_size=0 if self.fwd_comm == _NONE else self.fwd_size,
            ig_size=0 if self.ig_comm == _NONE else self.ig_size,
        )

    def line(self) -> str:
        return (
            f"{self.name}\t-1\t{self.fwd_t}\t{self.fwd_comm}\t{self.fwd_size}\t"
            f"{self.ig_t}\t{self.ig_comm}\t{self.ig_size}\t"
            f"{self.wg_t}\t{self.wg_comm}\t{self.wg_size}\t100\n"
        )


def _param_counts(cfg: WorkloadConfig) -> tuple[int, int]:
    """(all parameters, MoE parameters) of one stage, counted as AICB's mocked model."""
    h, tp = cfg.hidden, cfg.tp
    vocab_part = cfg.padded_vocab // tp
    embedding = 4 * vocab_part * h + cfg.seq * h
    attention = h * (3 * h // tp) + (h // tp) * h  # qkv column + dense row
    ffn_part = cfg.ffn_size // tp
    mlp = 2 * h * ffn_part
    moe_mlp = 2 * h * ((cfg.ffn_size * (cfg.experts // cfg.ep)) // tp)
    if cfg.sequence_parallel:
        # SP walks the linears themselves: + pre-MLP layernorm and the final column
        per_layer = attention + 2 * h + (moe_mlp if cfg.moe else mlp)
        total = embedding + cfg.vpp * per_layer + h * vocab_part
    else:
        total = embedding + cfg.vpp * (attention + mlp)
    moe_total = cfg.vpp * moe_mlp if cfg.moe else 0
    return total, moe_total


def _times(cfg: WorkloadConfig) -> tuple[int, int, int]:
    """(embedding fwd, attention, mlp) compute ticks for one layer."""
    if not cfg.scale_compute:
        return _EMB_FWD, _ATTN, _MLP
    tokens = (cfg.mbs * cfg.seq) / _REF_TOKENS
    tp = _REF_TP / cfg.tp
    width = cfg.hidden / _REF_HIDDEN
    emb = _EMB_FWD * tokens * width
    attn = _ATTN * tokens * width * width * tp
    mlp = _MLP * tokens * width * (cfg.ffn_size / _REF_FFN) * tp
    return max(1, round(emb)), max(1, round(attn)), max(1, round(mlp))


def _layer_names(cfg: WorkloadConfig) -> list[str]:
    """Row-producing layers of one micro-batch, in AICB's model-walk order."""
    names = ["embedding_layer"]
    for _ in range(cfg.vpp):
        if cfg.sequence_parallel:
            names += ["attention_column", "attention_row"]
            names += ["mlp_moelayer"] if cfg.moe else ["mlp_column", "mlp_row"]
        else:
            names += ["attention_layer", "mlp_layer"]
    if cfg.sequence_parallel:
        names.append("final_column")
    return names


def _moe_rows(cfg: WorkloadConfig, fwd_t: int, bwd_t: int, aiob: bool) -> list[_Row]:
    act, tp, ep = cfg.activation, cfg.tp, cfg.ep
    gather = 2 * ep * cfg.experts * tp
    dispatch = act * cfg.topk // tp
    tp_size = act * cfg.topk
    c1, c2, c3, c4 = "ALLGATHER", "ALLTOALL_EP", "ALLGATHER", "REDUCESCATTER"
    if aiob:
        if ep == 1:
            c2 = _NONE
        if tp == 1:
            if ep == 1:
                c1 = _NONE
            c3 = c4 = _NONE
    n = "mlp_moelayer"
    return [
        _Row(n, fwd_t, c1, gather, bwd_t, _NONE, 0, 1, _NONE, 0),  # routing metadata
        _Row(n, 1, c2, dispatch, 1, c2, dispatch, 1, _NONE, 0),  # EP dispatch
        _Row(n, 1, c3, tp_size, 1, c4, tp_size, 1, _NONE, 0),  # TP permutation
        _Row(n, 1, c4, tp_size, 1, c3, tp_size, 1, _NONE, 0),  # TP unpermutation
        _Row(n, 1, c2, dispatch, 1, c2, dispatch, 1, _NONE, 0),  # EP combine
    ]


def _group_aiob(cfg: WorkloadConfig, wg_state: int) -> tuple[list[_Row], int]:
    """One micro-batch with AIOB times; ``wg_state`` mimics AICB's carried-over
    ``backward_compute_time`` (the embedding row's wg time is the previous layer's)."""
    emb_t, attn_t, mlp_t = _times(cfg)
    act, tp1 = cfg.activation, cfg.tp == 1
    rows: list[_Row] = []
    for name in _layer_names(cfg):
        if name == "embedding_layer":
            comm = _NONE if tp1 else "ALLREDUCE"
            rows.append(_Row(name, emb_t, comm, act, 1, _NONE, 0, wg_state, _NONE, 0))
            continue
        base = mlp_t if name.startswith("mlp") else attn_t  # final_column: attention
        if name == "mlp_moelayer":
            rows += _moe_rows(cfg, mlp_t, mlp_t, aiob=True)
            wg_state = mlp_t
        elif name.endswith("_column"):
            t = int(base / 2)
            fwd, ig = (_NONE, _NONE) if tp1 else ("ALLGATHER", "REDUCESCATTER")
            rows.append(_Row(name, t, fwd, act, t, ig, 0, t, _NONE, 0))
            wg_state = t
        elif name.endswith("_row"):
            t = int(base / 2)
            fwd, ig = (_NONE, _NONE) if tp1 else ("REDUCESCATTER", "ALLGATHER")
            rows.append(_Row(name, t, fwd, act, t, ig, act, t, _NONE, 0))
            wg_state = t
        else:  # attention_layer / mlp_layer
            comm = _NONE if tp1 else "ALLREDUCE"
            rows.append(_Row(name, base, comm, act, base, _NONE, 0, base, _NONE, 0))
            wg_state = base
    return [r.zero_none() for r in rows], wg_state


def _group_plain(cfg: WorkloadConfig) -> list[_Row]:
    """One micro-batch without AIOB: placeholder times of 1, AICB's non-AIOB types."""
    act = cfg.activation
    rows: list[_Row] = []
    for name in _layer_names(cfg):
        if not cfg.sequence_parallel:
            rows.append(_Row(name, 1, "ALLREDUCE", act, 1, "ALLREDUCE", act, 1, _NONE, 0))
        elif name == "embedding_layer":
            rows.append(_Row(name, 1, _NONE, act, 1, _NONE, act, 1, _NONE, 0))
        elif name == "mlp_moelayer":
            rows += _moe_rows(cfg, 1, 1, aiob=False)
        elif name.endswith("_column"):
            rows.append(_Row(name, 1, "ALLGATHER", act, 1, _NONE, 0, 1, _NONE, 0))
        else:  # *_row
            rows.append(_Row(name, 1, "REDUCESCATTER", act, 1, _NONE, act, 1, _NONE, 0))
    norm = 2 * cfg.vocab * cfg.hidden
    rows.append(_Row("embedding_norm", 1, "ALLREDUCE", norm, 1, _NONE, 0, 1, _NONE, 0))
    return rows


def _prologue(cfg: WorkloadConfig) -> list[_Row]:
    total, moe = _param_counts(cfg)
    rows: list[_Row] = []
    if cfg.aiob:
        dense = total - moe
        rows += [
            _Row("grad_gather", 1, _NONE, 0, 1, _NONE, 0, 1, "ALLGATHER", 2 * dense),
            _Row("grad_param_comm", 1, _NONE, 0, 1, _NONE, 0, 1, "REDUCESCATTER", 4 * dense),
            _Row("grad_param_compute", 1, _NONE, 0, _GRAD_FWD + _GRAD_BWD, _NONE, 0, 1, _NONE, 0),
        ]
    else:
        rows.append(
            _Row("grad_norm", 1, "ALLGATHER", 2 * total, 1, _NONE, 0, 1, "REDUCESCATTER", 4 * total)
        )
    if not cfg.sequence_parallel:
        rows.append(_Row("layernorm", 1, _NONE, 0, 1, "ALLREDUCE", 2 * total, 1, _NONE, 0))
    if cfg.aiob:
        comm = _NONE if cfg.tp == 1 else "ALLREDUCE"
        rows.append(_Row("embedding_grads", 1, _NONE, 0, 1, comm, cfg.activation, 1, _NONE, 0))
    if cfg.ep != cfg.dp:  # written for dense models too, then with size 0
        rows += [
            _Row("moe_grad_norm1", 1, _NONE, 0, 1, _NONE, 0, 1, "ALLGATHER_DP_EP", 2 * moe),
            _Row("moe_grad_norm2", 1, _NONE, 0, 1, _NONE, 0, 1, "REDUCESCATTER_DP_EP", 4 * moe),
        ]
    if cfg.aiob:
        rows = [r.zero_none() for r in rows]
    return rows


def _epilogue(cfg: WorkloadConfig) -> list[_Row]:
    ce = 4 * cfg.seq * cfg.mbs
    rows = [
        _Row(f"cross_entropy{i}", 0, "ALLREDUCE", ce, 0, _NONE, 0, 0, _NONE, 0) for i in range(1, 4)
    ]
    rows += [
        _Row(f"optimizer{i}", 0, "ALLREDUCE", 4, 0, _NONE, 0, 0, _NONE, 0) for i in range(1, 5)
    ]
    return rows


def _header(cfg: WorkloadConfig) -> str:
    if cfg.pp == 1:
        pp_comm = "0"
    elif cfg.sequence_parallel:
        pp_comm = str(cfg.activation / cfg.tp)  # Python float, as AICB: 8388608.0
    else:
        pp_comm = str(cfg.activation)
    return (
        f"{_POLICY} model_parallel_NPU_group: {cfg.tp} ep: {cfg.ep} pp: {cfg.pp} "
        f"vpp: {cfg.vpp} ga: {cfg.ga} all_gpus: {cfg.world} "
        f"checkpoints: 0 checkpoint_initiates: 0 pp_comm: {pp_comm}"
    )


@dataclass(frozen=True)
class _Plan:
    header: str
    prologue: list[_Row]
    first_group: list[_Row]
    later_group: list[_Row]  # every micro-batch after the first (identical rows)
    ga: int
    epilogue: list[_Row]

    @property
    def rows(self) -> int:
        groups = 0 if self.ga < 1 else len(self.first_group) + (self.ga - 1) * len(self.later_group)
        return len(self.prologue) + groups + len(self.epilogue)


def _plan(cfg: WorkloadConfig) -> _Plan:
    if cfg.aiob:
        first, state = _group_aiob(cfg, _GRAD_BWD)
        later, _ = _group_aiob(cfg, state)
    else:
        first = later = _group_plain(cfg)
    return _Plan(_header(cfg), _prologue(cfg), first, later, cfg.ga, _epilogue(cfg))


# ------------------------------------------------------------------------ public


def _jittered(row: _Row, rng: random.Random, jitter: float) -> _Row:
    """`row` with each real compute time (> 1 tick) and each all-to-all size scaled by its
    own factor in [1 - jitter, 1 + jitter]: what a profiler's per-micro-batch times or MoE
    token routing give, where no two rows repeat."""

    def scale(value: int) -> int:
        return max(1, round(value * (1 + rng.uniform(-jitter, jitter))))

    def size(comm: str, value: int) -> int:
        return scale(value) if comm.startswith("ALLTOALL") and value else value

    return replace(
        row,
        fwd_t=scale(row.fwd_t) if row.fwd_t > 1 else row.fwd_t,
        ig_t=scale(row.ig_t) if row.ig_t > 1 else row.ig_t,
        wg_t=scale(row.wg_t) if row.wg_t > 1 else row.wg_t,
        fwd_size=size(row.fwd_comm, row.fwd_size),
        ig_size=size(row.ig_comm, row.ig_size),
        wg_size=size(row.wg_comm, row.wg_size),
    )


def render(cfg: WorkloadConfig, *, jitter: float = 0.0, seed: int = 0) -> str:
    """The whole workload file for ``cfg``.

    With ``jitter`` (a fraction, e.g. 0.05), every micro-batch group gets its own compute
    times and all-to-all sizes, drawn from ``random.Random(seed)``: the rows then almost
    never repeat, unlike AICB's output, whose groups are identical.
    """
    plan = _plan(cfg)
    parts = [plan.header, "\n", str(plan.rows), "\n"]
    parts += [r.line() for r in plan.prologue]
    if plan.ga >= 1 and jitter:
        rng = random.Random(seed)
        for group in [plan.first_group, *([plan.later_group] * (plan.ga - 1))]:
            parts += [_jittered(r, rng, jitter).line() for r in group]
    elif plan.ga >= 1:
        parts += [r.line() for r in plan.first_group]
        later = "".join(r.line() for r in plan.later_group)
        parts.append(later * (plan.ga - 1))
    parts += [r.line() for r in plan.epilogue]
    return "".join(parts)


def row_count(cfg: WorkloadConfig) -> int:
    """The row count ``render(cfg)`` declares (and writes), without building the text."""
    return _plan(cfg).rows


def gbs_for_rows(cfg: WorkloadConfig, rows: int) -> int:
    """A global batch giving ``cfg`` a file of about ``rows`` rows (at least one group)."""
    plan = _plan(replace(cfg, gbs=cfg.mbs * cfg.dp))  # ga == 1
    fixed = len(plan.prologue) + len(plan.epilogue) + len(plan.first_group)
    per_group = max(1, len(plan.later_group))
    ga = 1 + max(0, round((rows - fixed) / per_group))
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
    """AICB's result file name, e.g. ``None-gpt_7B-world_size128-tp4-pp4-ep1-gbs512-
    mbs1-seq4096-MOE-False-GEMM-False-flash_attn-True.txt``; ``gpu_type`` is ``None``
    unless ``--gpu_type`` was given, ``grouped_gemm`` follows ``moe`` by default
    (``--moe_grouped_gemm``). ``prefix`` is prepended verbatim (the corpus uses
    ``aiob-`` / ``sp-``; AICB itself writes none)."""
    gemm = moe if grouped_gemm is None else grouped_gemm
    return (
        f"{prefix}{gpu_type}-{model}-world_size{world}-tp{tp}-pp{pp}-ep{ep}-gbs{gbs}"
        f"-mbs{mbs}-seq{seq}-MOE-{moe}-GEMM-{gemm}-flash_attn-{flash_attn}.txt"
    )


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
    text = render(cfg, jitter=ns.jitter, seed=ns.seed)
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
