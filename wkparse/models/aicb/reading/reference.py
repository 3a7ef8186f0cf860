"""What Megatron-LM communicates per layer: the reference AICB's output is read against.

AICB's rows say which collectives a training step runs; they are not always what the training
they describe runs (`departures` compares the two). This module is the other side: the
collectives Megatron-LM issues for one transformer block of one micro-batch, and for the data-
parallel gradient step of one iteration, in SimAI's terms (phase, group, type, bytes of the
whole collective), derived from Megatron-LM's source (NVIDIA/Megatron-LM, read at d98e8a6;
the same calls stand in core_v0.13.0, the release AICB's MoE rows follow):

- `megatron/core/tensor_parallel/layers.py`: `ColumnParallelLinear.forward` and
  `LinearWithGradAccumulationAndAsyncCommunication.backward` (without sequence parallelism the
  input gradient of a column-parallel linear is all-reduced over TP, `allreduce_dgrad`; with it,
  the input is all-gathered in the forward and the input gradient reduce-scattered in the
  backward); `RowParallelLinear.forward` (the output is all-reduced over TP,
  `reduce_from_tensor_model_parallel_region`, or reduce-scattered with sequence parallelism,
  `reduce_scatter_to_sequence_parallel_region`).
- `megatron/core/tensor_parallel/mappings.py`: the backward of those mappings (`_reduce` ->
  identity; `_ReduceScatterToSequenceParallelRegion.backward` -> all-gather;
  `_GatherFromSequenceParallelRegion.backward` -> reduce-scatter).
- `megatron/core/transformer/moe/token_dispatcher.py`, `MoEAlltoAllTokenDispatcher`:
  `token_dispatch` and `token_combine` each run one all-to-all over the EP group (so does their
  backward); with TP > 1 `dispatch_postprocess` all-gathers the tokens over TP and
  `combine_preprocess` reduce-scatters them (and the reverse in the backward).
- `megatron/core/distributed/param_and_grad_buffer.py`, `_ParamAndGradBucketGroup`: with the
  distributed optimizer `start_grad_sync` reduce-scatters the gradients over DP (fp32 for bf16
  training: `megatron/training/arguments.py` sets `accumulate_allreduce_grads_in_fp32`) and
  `start_param_sync` all-gathers the bf16 parameters; expert parameters over the expert
  data-parallel group (SimAI's `_DP_EP`, DP / EP ranks).

A dense block (attention, or MLP) is one column-parallel linear followed by one row-parallel
linear (QKV then the output projection; fc1 then fc2, SwiGLU's two halves being one fused
linear). Its activation `A` is 2 * micro_batch * seq_length * hidden_size bytes (bf16), the
size AICB writes too. Not counted, on purpose: the backward re-all-gather of a sequence-parallel
column input for the weight gradient (`backward`, `wgrad_compute`; overlapped with the
input-gradient GEMM and written by no AICB path), the MoE router's small metadata all-gather,
and the embedding, output layer and loss (first and last stages only). DeepSeek's MLA
attention is not modelled under TP > 1 (its presets run TP 1, where it has no TP traffic).
"""

from __future__ import annotations

from dataclasses import dataclass

from wkparse.i18n import N_

#: where each expected collective comes from in Megatron-LM (file, function)
LAYERS = "megatron/core/tensor_parallel/layers.py"
DISPATCHER = "megatron/core/transformer/moe/token_dispatcher.py"
BUFFER = "megatron/core/distributed/param_and_grad_buffer.py"


@dataclass(frozen=True, slots=True)
class Collective:
    """One collective Megatron-LM runs, as SimAI names it.

    `phase` is fwd, ig (input gradient) or wg (weight gradient); `group` TP, EP, DP or DP_EP;
    `kind` ALLREDUCE, ALLGATHER, REDUCESCATTER or ALLTOALL; `size` the bytes of the whole
    collective (None: not known from what was given); `what` says what it moves.
    """

    phase: str
    group: str
    kind: str
    size: int | None
    what: str
    source: str


@dataclass(frozen=True, slots=True)
class Setting:
    """The parallelism a file (or its command) describes, and what sizes follow from it."""

    tp: int
    ep: int
    dp: int
    sequence_parallel: bool
    #: 2 * micro_batch * seq_length * hidden_size bytes; None when not known
    activation: int | None = None
    #: experts each token is routed to (MoE); None when not known
    topk: int | None = None

    def group_size(self, group: str) -> int:
        """Ranks in a SimAI group (DP_EP: the expert data-parallel group, DP / EP)."""
        sizes = {"TP": self.tp, "EP": self.ep, "DP": self.dp}
        return sizes.get(group, self.dp // self.ep if self.ep else 0)


def dense_block(s: Setting) -> tuple[Collective, ...]:
    """A column- then a row-parallel linear (attention, or a dense MLP), one micro-batch."""
    if s.tp <= 1:
        return ()
    a = s.activation
    if not s.sequence_parallel:
        return (
            Collective(
                "fwd", "TP", "ALLREDUCE", a, N_("the row-parallel output all-reduce"),
                f"{LAYERS}: RowParallelLinear.forward",
            ),
            Collective(
                "ig", "TP", "ALLREDUCE", a, N_("the column-parallel input-gradient all-reduce"),
                f"{LAYERS}: LinearWithGradAccumulationAndAsyncCommunication.backward",
            ),
        )  # fmt: skip
    return (
        Collective(
            "fwd", "TP", "ALLGATHER", a, N_("the sequence-parallel input all-gather"),
            f"{LAYERS}: LinearWithGradAccumulationAndAsyncCommunication.forward",
        ),
        Collective(
            "fwd", "TP", "REDUCESCATTER", a, N_("the sequence-parallel output reduce-scatter"),
            f"{LAYERS}: RowParallelLinear.forward",
        ),
        Collective(
            "ig", "TP", "REDUCESCATTER", a,
            N_("the sequence-parallel input-gradient reduce-scatter"),
            f"{LAYERS}: LinearWithGradAccumulationAndAsyncCommunication.backward",
        ),
        Collective(
            "ig", "TP", "ALLGATHER", a, N_("the sequence-parallel output-gradient all-gather"),
            "megatron/core/tensor_parallel/mappings.py: "
            "_ReduceScatterToSequenceParallelRegion.backward",
        ),
    )  # fmt: skip


def moe_block(s: Setting) -> tuple[Collective, ...]:
    """One MoE layer's token dispatch and combine, forward and backward, one micro-batch."""
    a, k = s.activation, s.topk
    routed = a * k if a is not None and k is not None else None
    out: list[Collective] = []
    if s.ep > 1:
        per_rank = routed // s.tp if routed is not None else None
        for phase in ("fwd", "ig"):
            out += [
                Collective(
                    phase, "EP", "ALLTOALL", per_rank, N_("the expert dispatch all-to-all"),
                    f"{DISPATCHER}: MoEAlltoAllTokenDispatcher.token_dispatch",
                ),
                Collective(
                    phase, "EP", "ALLTOALL", per_rank, N_("the expert combine all-to-all"),
                    f"{DISPATCHER}: MoEAlltoAllTokenDispatcher.token_combine",
                ),
            ]  # fmt: skip
    if s.tp > 1:
        for phase in ("fwd", "ig"):
            out += [
                Collective(
                    phase, "TP", "ALLGATHER", routed, N_("the expert tokens' TP all-gather"),
                    f"{DISPATCHER}: MoEAlltoAllTokenDispatcher.dispatch_postprocess",
                ),
                Collective(
                    phase, "TP", "REDUCESCATTER", routed,
                    N_("the expert tokens' TP reduce-scatter"),
                    f"{DISPATCHER}: MoEAlltoAllTokenDispatcher.combine_preprocess",
                ),
            ]  # fmt: skip
    return tuple(out)


def gradients(
    s: Setting, *, experts: bool, scattered: dict[str, int | None]
) -> tuple[Collective, ...]:
    """The distributed optimizer's gradient reduce-scatter and parameter all-gather, per
    iteration: over DP, and over DP_EP for expert parameters when the file has MoE layers.

    `scattered` gives, per group, the reduce-scatter bytes the file writes (the parameter
    count is AICB's own): the all-gather moves half as much (bf16 parameters, fp32 gradients).
    """
    out: list[Collective] = []
    groups = ["DP", "DP_EP"] if experts and s.ep > 1 else ["DP"]
    for group in groups:
        if s.group_size(group) <= 1:
            continue
        rs = scattered.get(group)
        out += [
            Collective(
                "wg", group, "REDUCESCATTER", rs, N_("the gradient reduce-scatter"),
                f"{BUFFER}: _ParamAndGradBucketGroup.start_grad_sync",
            ),
            Collective(
                "wg", group, "ALLGATHER", rs // 2 if rs else None,
                N_("the parameter all-gather"),
                f"{BUFFER}: _ParamAndGradBucketGroup.start_param_sync",
            ),
        ]  # fmt: skip
    return tuple(out)
