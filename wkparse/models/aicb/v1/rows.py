"""The rows AICB v1.0's training generator wrote (aliyun/aicb 4f33c8e, 2024-07-31).

The first SimAI generator walks the same mocked model as later ones (`layers`), but over every
layer (no pipeline split), and writes a header that knows only TP. Its two paths:

- without `--aiob_enable`: a `grad_norm` row (and `layernorm` without sequence parallelism),
  then per micro-batch group, under sequence parallelism, two rows per column-parallel linear
  (the all-gather, then an empty row), one per row-parallel linear, seven per MoE block
  (`moelayer`) and none for the embedding or the norms; without it one all-reduce row per
  attention, MLP and embedding block; each group ends with `embedding_norm`;
- with it: `grad_gather` / `grad_param_comm` carry the *pair* (all parameters, MoE
  parameters) repeated, as Python prints `2 * (a, b)`; then one row per listed layer (norms,
  MoE blocks and the final linear included), every forward size the activation; a layer
  whose time the AIOB table lacks gets Python's `None` as its times, and the embedding's
  weight-gradient time is whatever the previous layer left (across groups too).
"""

from __future__ import annotations

from wkparse.models.aicb.dump import NONE, Cell, Row, Workload, comm_row
from wkparse.models.aicb.training import aiob
from wkparse.models.aicb.training.args import TrainingArgs
from wkparse.models.aicb.training.layers import Layer, layers, parameter_totals
from wkparse.models.aicb.training.rows import (
    POLICY,
    epilogue,
    layernorm_rows,
    moe_rows_mc08,
    plain_prologue,
)

#: the layer name of a MoE block in v1.0 (`mlp_moelayer` from v1.1 on)
MOE_NAME = "moelayer"


def header(a: TrainingArgs) -> str:
    """Line 1: the policy, a tab, and TP only."""
    return f"{POLICY}\tmodel_parallel_NPU_group: {a.tp} checkpoints: 0 checkpoint_initiates: 0"


def _plain_group(a: TrainingArgs, listed: list[Layer]) -> list[Row]:
    act = a.tp_comm_size
    rows: list[Row] = []
    for layer in listed:
        name = layer.name
        if not a.sequence_parallel:
            rows.append(Row(name, 1, "ALLREDUCE", act, 1, "ALLREDUCE", act, 1, NONE, 0))
            continue
        if "row" in name:
            rows.append(Row(name, 1, "REDUCESCATTER", act, 1, NONE, 0, 1, NONE, 0))
        if "column" in name:
            rows.append(Row(name, 1, "ALLGATHER", act, 1, NONE, 0, 1, NONE, 0))
            rows.append(Row(name, 1, NONE, 0, 1, NONE, 0, 1, NONE, 0))
        if MOE_NAME in name:
            rows += moe_rows_mc08(a, name, 1, 1, aiob_path=False)
    norm = a.vocab_size * a.hidden_size * 2
    rows.append(Row("embedding_norm", 1, "ALLREDUCE", norm, 1, NONE, 0, 1, NONE, 0))
    return rows


class _AiobGroups:
    """AIOB groups; the backward time carries from layer to layer and group to group."""

    def __init__(self, a: TrainingArgs, table: dict[str, int], listed: list[Layer]) -> None:
        self.a, self.table, self.listed = a, table, listed
        self.bwd: Cell = table["grad_backward"]

    def build(self) -> list[Row]:
        a, act = self.a, self.a.tp_comm_size
        rows = []
        for layer in self.listed:
            name = layer.name
            fc = bc = NONE
            if not a.sequence_parallel:
                fc = "ALLREDUCE"
            elif "row" in name:
                fc, bc = "REDUCESCATTER", "ALLGATHER"
            elif "column" in name:
                fc, bc = "ALLGATHER", "REDUCESCATTER"
            if "embedding" in name:
                emb = aiob.lookup_v1(self.table, "", "embedding")
                rows.append(Row(name, emb, fc, act, 1, bc, 0, self.bwd, NONE, 0))
                continue
            stage = name.split("_")[0]
            fwd = aiob.lookup_v1(self.table, "forward", stage)
            self.bwd = aiob.lookup_v1(self.table, "backward", stage)
            rows.append(Row(name, fwd, fc, act, self.bwd, bc, 0, self.bwd, NONE, 0))
        return rows


def workload(a: TrainingArgs, table: dict[str, int] | None) -> Workload:
    """The file AICB v1.0 writes; `table` holds AIOB times (None: no AIOB)."""
    listed = layers(a, embedding_rows=2, moe_needs_gemm=True, moe_name=MOE_NAME)
    total, moe = parameter_totals(listed)
    act = a.tp_comm_size
    groups: list[list[Row]] = []
    if table is None:
        prologue = plain_prologue(a, total)
        if a.ga > 0:
            groups = [_plain_group(a, listed)] * a.ga
        return Workload(header(a), prologue, groups, epilogue(a))
    pair = (total, moe)
    builder = _AiobGroups(a, table, listed)
    # the gradient step's times are always in the table (0 without a param_time section)
    grad = table["grad_forward"] + table["grad_backward"]
    prologue = [
        comm_row("grad_gather", "ALLGATHER", str(2 * pair)),
        comm_row("grad_param_comm", "REDUCESCATTER", str(4 * pair)),
        Row("grad_param_compute", 1, NONE, 0, grad, NONE, 0, 1, NONE, 0),
    ]
    prologue += layernorm_rows(a, str(2 * pair))
    prologue.append(Row("embedding_grads", 1, NONE, 0, 1, "ALLREDUCE", act, 1, NONE, 0))
    if a.ga > 0:
        first = builder.build()
        later = builder.build() if a.ga > 1 else []
        groups = [first] + [later] * (a.ga - 1)
    return Workload(header(a), prologue, groups, epilogue(a))
