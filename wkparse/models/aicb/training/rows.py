"""The rows AICB's training generator writes, with and without AIOB compute times.

Two paths, as in AICB: without `--aiob_enable` every compute time is a placeholder 1 and each
micro-batch group ends with an `embedding_norm` row; with it, times come from the AIOB table,
the gradient step is split into three rows, and a last pass zeroes every size next to a NONE.
The group's rows follow the layer walk (`layers`). One quirk is kept on purpose: under AIOB the
embedding row's weight-gradient time is whatever backward time the previous layer left behind
(the gradient step's for the first group), so the first group can differ from the others.
"""

from __future__ import annotations

from wkparse.models.aicb.dump import NONE, Cell, Row, Workload, comm_row
from wkparse.models.aicb.errors import AicbError
from wkparse.models.aicb.formulas import moe_dispatch, moe_routing, pp_comm
from wkparse.models.aicb.revisions import LATEST, Era
from wkparse.models.aicb.training import aiob
from wkparse.models.aicb.training.args import TrainingArgs
from wkparse.models.aicb.training.layers import Layer, layers, parameter_totals

POLICY = "HYBRID_TRANSFORMER_FWD_IN_BCKWD"

#: DeepSeek's forward expert dispatch travels in FP8 plus one FP32 scale per 128 values
FP8_FACTOR = (1 + 4 / 128) / 2

#: what AICB prints when the global batch is smaller than one step (it still writes the file)
GA_WARNING = "[WARN]: ga num < 1, please confirm global_batch num and micro_batch num"


def header(a: TrainingArgs, era: Era = LATEST.era) -> str:
    """Line 1 as the era writes it (vpp from 2024-11-05, pp_comm from 2024-12-02)."""
    if era.pp_comm == "always":  # 2024-12-02 .. 12-04: the whole activation, PP 1 too
        written: int | float = a.tp_comm_size
    else:
        sp = a.sequence_parallel and era.pp_comm == "pp_sp"
        written = pp_comm(a.tp_comm_size, a.tp, sequence_parallel=sp, pp=a.pp)
    vpp = f"vpp: {a.num_layers} " if era.vpp else ""
    tail = f" pp_comm: {written}" if era.pp_comm != "none" else ""
    return (
        f"{POLICY} model_parallel_NPU_group: {a.tp} ep: {a.ep} pp: {a.pp} "
        f"{vpp}ga: {a.ga} all_gpus: {a.world_size} "
        f"checkpoints: 0 checkpoint_initiates: 0{tail}"
    )


def _moe_rows(
    a: TrainingArgs, name: str, fwd: int, bwd: int, *, aiob_path: bool, era: Era = LATEST.era
) -> list[Row]:
    """A MoE block's rows: five (Megatron-Core 0.13, from 2025-09-24) or seven before."""
    if era.moe_rows == 7:
        return moe_rows_mc08(a, name, fwd, bwd, aiob_path=aiob_path)
    return _moe_rows_mc13(a, name, fwd, bwd, aiob_path=aiob_path)


def moe_rows_mc08(a: TrainingArgs, name: str, fwd: int, bwd: int, *, aiob_path: bool) -> list[Row]:
    """The seven rows of one MoE block before 2025-09-24 (Megatron-Core 0.8's dispatcher):
    routing all-gather, TP all-to-all, EP dispatch, TP all-gather and reduce-scatter, EP
    combine, TP all-to-all. With EP 1 under AIOB the two EP rows carry 1 byte and the fourth
    row's input-gradient collective is an all-gather."""
    act, tp, k = a.tp_comm_size, a.tp, a.topk
    per_tp, routed = act // tp, act * k // tp
    if not aiob_path:
        ag, a2a, a2a_ep, rs = "ALLGATHER", "ALLTOALL", "ALLTOALL_EP", "REDUCESCATTER"
        routing = 2 * a.seq_length * a.num_experts
        plain: list[tuple[str, Cell, str, Cell]] = [
            (ag, routing, ag, routing),
            (a2a, per_tp, a2a, per_tp),
            (a2a_ep, routed, a2a_ep, routed),
            (ag, routed, ag, act * k),
            (rs, routed, ag, routed),
            (a2a_ep, routed, a2a_ep, routed),
            (a2a, per_tp, a2a, per_tp),
        ]
        return [Row(name, 1, f, fs, 1, b, bs, 1, NONE, 0) for f, fs, b, bs in plain]
    c = ["ALLGATHER", "ALLTOALL", "ALLTOALL_EP", "ALLGATHER", "REDUCESCATTER"]
    c += ["ALLTOALL_EP", "ALLTOALL"]
    if tp == 1:  # only the expert all-to-alls stay
        c = [x if x == "ALLTOALL_EP" else NONE for x in c]
    routing = 2 * a.micro_batch * a.seq_length * a.num_experts
    ep1 = a.ep == 1
    dispatch = 1 if ep1 else routed
    # DeepSeek's forward dispatch in FP8 (2025-09-15 .. 09-24): Python's `*=`, a float
    fwd_dispatch: Cell = dispatch * FP8_FACTOR if a.deepseek and not ep1 else dispatch
    spec: list[tuple[str, Cell, str, Cell]] = [
        (c[0], routing, c[0], routing),
        (c[1], per_tp, c[1], per_tp),
        (c[2], fwd_dispatch, c[2], dispatch),
        (c[3], act * k, c[3] if ep1 else c[4], act * k),
        (c[4], act * k, c[3], act * k),
        (c[5], dispatch, c[5], dispatch),
        (c[6], per_tp, c[6], per_tp),
    ]
    rows = [Row(name, 1, f, fs, 1, b, bs, 1, NONE, 0) for f, fs, b, bs in spec]
    rows[0] = Row(name, fwd, c[0], routing, bwd, c[0], routing, 1, NONE, 0)
    return rows


def _moe_rows_mc13(a: TrainingArgs, name: str, fwd: int, bwd: int, *, aiob_path: bool) -> list[Row]:
    """The five rows of one MoE block: routing all-gather, dispatch, two TP steps, combine."""
    first, a2a, gather, scatter = "ALLGATHER", "ALLTOALL_EP", "ALLGATHER", "REDUCESCATTER"
    if aiob_path:
        if a.ep == 1:
            a2a = NONE
        if a.tp == 1:
            if a.ep == 1:
                first = NONE
            gather = scatter = NONE
    act = a.tp_comm_size
    dispatch = moe_dispatch(act, a.topk, a.tp)
    fwd_dispatch = int(dispatch * FP8_FACTOR) if a.deepseek else dispatch
    tp_size = act * a.topk
    routing = moe_routing(a.ep, a.num_experts, a.tp)
    return [
        Row(name, fwd, first, routing, bwd, NONE, 0, 1, NONE, 0),
        Row(name, 1, a2a, fwd_dispatch, 1, a2a, dispatch, 1, NONE, 0),
        Row(name, 1, gather, tp_size, 1, scatter, tp_size, 1, NONE, 0),
        Row(name, 1, scatter, tp_size, 1, gather, tp_size, 1, NONE, 0),
        Row(name, 1, a2a, dispatch, 1, a2a, dispatch, 1, NONE, 0),
    ]


def epilogue(a: TrainingArgs) -> list[Row]:
    ce = a.seq_length * a.micro_batch * 4
    rows = [Row(f"cross_entropy{i}", 0, "ALLREDUCE", ce, 0, NONE, 0, 0, NONE, 0) for i in (1, 2, 3)]
    rows += [Row(f"optimizer{i}", 0, "ALLREDUCE", 4, 0, NONE, 0, 0, NONE, 0) for i in (1, 2, 3, 4)]
    return rows


def _moe_grad_rows(a: TrainingArgs, moe: int) -> list[Row]:
    if a.ep == a.dp:
        return []
    return [
        comm_row("moe_grad_norm1", "ALLGATHER_DP_EP", 2 * moe),
        comm_row("moe_grad_norm2", "REDUCESCATTER_DP_EP", 4 * moe),
    ]


def _plain_group(a: TrainingArgs, listed: list[Layer], era: Era) -> list[Row]:
    """One micro-batch without AIOB."""
    act, sp = a.tp_comm_size, a.sequence_parallel
    rows: list[Row] = []
    for layer in listed:
        name = layer.name
        fwd_size = act * 2 if a.recompute and "attention" in name else act
        if not sp:
            rows.append(Row(name, 1, "ALLREDUCE", fwd_size, 1, "ALLREDUCE", act, 1, NONE, 0))
            continue
        if "embedding" in name:
            rows.append(Row(name, 1, NONE, act, 1, NONE, act, 1, NONE, 0))
        if "attention_linear" in name:
            aiob.lookup(None, "forward", name)  # AICB crashes here without a time table
        if "row" in name:
            rows.append(Row(name, 1, "REDUCESCATTER", fwd_size, 1, NONE, act, 1, NONE, 0))
        if "column" in name:
            rows.append(Row(name, 1, "ALLGATHER", fwd_size, 1, NONE, 0, 1, NONE, 0))
        if "moelayer" in name:
            rows += _moe_rows(a, name, 1, 1, aiob_path=False, era=era)
    norm = a.vocab_size * a.hidden_size * 2
    rows.append(Row("embedding_norm", 1, "ALLREDUCE", norm, 1, NONE, 0, 1, NONE, 0))
    return rows


def _times(table: dict[str, int], name: str) -> tuple[int, int]:
    """A layer's (forward, backward) time: its own entry, else its block's (`attention_...`)."""
    own = table.get(name)
    if own is not None and own != 1:
        return own, own
    stage = name.split("_")[0]
    return aiob.lookup(table, "forward", stage), aiob.lookup(table, "backward", stage)


class _AiobGroup:
    """Builds AIOB groups, carrying the backward time from one layer to the next as AICB does."""

    def __init__(
        self, a: TrainingArgs, table: dict[str, int], listed: list[Layer], era: Era
    ) -> None:
        self.a, self.table, self.listed, self.era = a, table, listed, era
        self.fwd = aiob.lookup(table, "forward", "grad")
        self.bwd = aiob.lookup(table, "backward", "grad")

    def build(self) -> list[Row]:
        a, act = self.a, self.a.tp_comm_size
        tp1 = a.tp == 1
        rows: list[Row] = []
        for layer in self.listed:
            name = layer.name
            if not a.sequence_parallel:
                comm = NONE if tp1 else "ALLREDUCE"
                if a.recompute and "attention" in name:
                    self.fwd *= 2  # AICB doubles the stale value, then overwrites it
                if "embedding" in name:
                    emb = aiob.lookup(self.table, "", "embedding")
                    rows.append(Row(name, emb, comm, act, 1, NONE, 0, self.bwd, NONE, 0))
                else:
                    self.fwd, self.bwd = _times(self.table, name)
                    rows.append(
                        Row(name, self.fwd, comm, act, self.bwd, NONE, 0, self.bwd, NONE, 0)
                    )
                continue
            if "embedding" in name:
                emb = aiob.lookup(self.table, "", "embedding")
                comm = NONE if tp1 else "ALLREDUCE"
                rows.append(Row(name, emb, comm, act, 1, NONE, 0, self.bwd, NONE, 0))
            if "attention_linear" in name:
                self.fwd, self.bwd = _times(self.table, name)
                if a.recompute:
                    self.fwd *= 2
                rows.append(Row(name, self.fwd, NONE, 0, self.bwd, NONE, 0, self.bwd, NONE, 0))
            if "row" in name or "column" in name:
                self.fwd, self.bwd = _times(self.table, name)
                if a.recompute and "attention" in name:
                    self.fwd *= 2
                self.fwd, self.bwd = int(self.fwd / 2), int(self.bwd / 2)
                if "row" in name:
                    fc, bc, bsize = ("REDUCESCATTER", "ALLGATHER", act)
                else:
                    fc, bc, bsize = ("ALLGATHER", "REDUCESCATTER", 0)
                if tp1:
                    fc = bc = NONE
                rows.append(Row(name, self.fwd, fc, act, self.bwd, bc, bsize, self.bwd, NONE, 0))
            elif "moelayer" in name:
                self.fwd, self.bwd = _times(self.table, name)
                rows += _moe_rows(a, name, self.fwd, self.bwd, aiob_path=True, era=self.era)
        return [r.zero_unused_sizes() for r in rows] if self.era.zero_none_sizes else rows


def layernorm_rows(a: TrainingArgs, size: Cell) -> list[Row]:
    """The layer norms' gradient all-reduce, which AICB writes only without sequence
    parallelism."""
    if a.sequence_parallel:
        return []
    return [Row("layernorm", 1, NONE, 0, 1, "ALLREDUCE", size, 1, NONE, 0)]


def plain_prologue(a: TrainingArgs, total: int) -> list[Row]:
    """The gradient rows before the first group on the path without AIOB (every era)."""
    norm = Row("grad_norm", 1, "ALLGATHER", 2 * total, 1, NONE, 0, 1, "REDUCESCATTER", 4 * total)
    return [norm, *layernorm_rows(a, 2 * total)]


def workload(a: TrainingArgs, table: dict[str, int] | None, era: Era = LATEST.era) -> Workload:
    """The file AICB's training generator writes; `table` holds AIOB times (None: no AIOB).

    `era` is the AICB revision's behaviour (`revisions`); the default is the current one.
    """
    if table is None and not era.plain_path:
        raise AicbError(
            "AICB stops: AttributeError ('Namespace' object has no attribute "
            "'expert_parallel_size'): before 2024-10-30 only --aiob_enable runs write a file"
        )
    listed = layers(a, era.embedding_rows, era.moe_needs_grouped_gemm)
    moe_layers = any("moelayer" in layer.name for layer in listed)
    if a.sequence_parallel and a.ga > 0 and not a.moe_enable and moe_layers:
        raise AicbError(
            "AICB stops: AttributeError ('SIMAI_workload' object has no attribute "
            "'num_experts'): DeepSeek's MoE layers need --moe_enable"
        )
    total, moe = parameter_totals(listed)
    act = a.tp_comm_size
    groups: list[list[Row]] = []
    if table is None:
        prologue = plain_prologue(a, total) + _moe_grad_rows(a, moe)
        if a.ga > 0:
            groups = [_plain_group(a, listed, era)] * a.ga
        return Workload(header(a, era), prologue, groups, epilogue(a))
    builder = _AiobGroup(a, table, listed, era)
    dense = total - moe
    prologue = [
        comm_row("grad_gather", "ALLGATHER", 2 * dense),
        comm_row("grad_param_comm", "REDUCESCATTER", 4 * dense),
        Row("grad_param_compute", 1, NONE, 0, builder.fwd + builder.bwd, NONE, 0, 1, NONE, 0),
    ]
    prologue += layernorm_rows(a, 2 * total)
    emb_comm = NONE if a.tp == 1 else "ALLREDUCE"
    prologue.append(Row("embedding_grads", 1, NONE, 0, 1, emb_comm, act, 1, NONE, 0))
    prologue += _moe_grad_rows(a, moe)
    if a.ga > 0:
        first = builder.build()
        later = builder.build() if a.ga > 1 else []
        # the second group starts from what the last layer left, as every later one does
        groups = [first] + [later] * (a.ga - 1)
    last = epilogue(a)
    if era.zero_none_sizes:
        prologue = [r.zero_unused_sizes() for r in prologue]
        last = [r.zero_unused_sizes() for r in last]
    return Workload(header(a, era), prologue, groups, last)
