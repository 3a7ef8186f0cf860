"""The numbers AICB derives from its settings, each written once: the generators write files
by these, and lint, explain and the file-name checks compare files against them.

- `activation`: bytes of one bf16 activation, 2 x micro-batch x tokens x hidden
  (`hidden_of` goes back from the bytes to the hidden size);
- `pp_comm`: the stage-to-stage bytes the training generator writes in the header, and
  `pp_comm_bytes`, the same as SimAI reads it back (`activation_of` goes the other way);
- `data_parallel`: DP = world / (TP x PP), which AICB asserts is whole, and `ga`, the
  micro-batch groups global batch / (micro-batch x DP);
- `moe_dispatch` and `moe_routing`: the bytes of a MoE layer's expert all-to-all and of its
  router all-gather (`topk_of` and `experts_of` go back to top-k and the expert count);
- `is_inference`: whether a header is marked as AICB's inference generator marks it.

SimAI's own DP (a C division of its `-g`) is `wkparse.models.simai.parallel`'s, not this one.
"""

from __future__ import annotations

from wkparse.ast import Header
from wkparse.models.simai.tokens import header_value

#: the header key and value AICB's inference generator writes (the training one writes none)
MODE_KEY, INFERENCE_MODE = "mode", 1


def activation(micro_batch: int, tokens: int, hidden: int) -> int:
    """Bytes of one bf16 activation: 2 x micro_batch x tokens x hidden (tokens is the sequence
    length, or 1 for an inference decode step)."""
    return 2 * micro_batch * tokens * hidden


def hidden_of(act: int, micro_batch: int, tokens: int) -> int | None:
    """The hidden size `act` was written from; None where the bytes are not a whole multiple
    of 2 x micro_batch x tokens."""
    per_hidden = activation(micro_batch, tokens, 1)
    return act // per_hidden if per_hidden and act % per_hidden == 0 else None


def pp_comm(act: int, tp: int, *, sequence_parallel: bool, pp: int) -> int | float:
    """The `pp_comm` the training generator writes: 0 without a pipeline (PP 1), else the
    activation, divided by TP under sequence parallelism as Python divides (a float, written
    `8388608.0`)."""
    if pp == 1:
        return 0
    return act / tp if sequence_parallel else act


def pp_comm_bytes(act: int, tp: int, *, sequence_parallel: bool) -> int:
    """`pp_comm` of a pipelined run as SimAI reads it back (stoi stops at the dot): computed
    in integers, so a hostile activation size cannot overflow a float."""
    return act // tp if sequence_parallel and tp > 0 else act


def activation_of(pp_comm_read: int, tp: int, *, sequence_parallel: bool) -> int:
    """The activation a pipelined run's `pp_comm` was written from (`pp_comm_bytes` undone)."""
    return pp_comm_read * tp if sequence_parallel and tp > 0 else pp_comm_read


def data_parallel(world: int, tp: int, pp: int) -> int | None:
    """AICB's DP = world // (TP x PP), as Python computes it; None where TP x PP is 0 or does
    not divide world (AICB stops there, on a ZeroDivisionError or its assertion)."""
    stages = tp * pp
    if stages == 0 or world % stages:
        return None
    return world // stages


def ga(global_batch: int, micro_batch: int, dp: int) -> int | None:
    """The `ga` AICB writes: global_batch // (micro_batch x DP), floored as the generator does;
    None where the divisor is 0 (AICB stops on a ZeroDivisionError)."""
    step = micro_batch * dp
    return global_batch // step if step else None


def moe_dispatch(act: int, topk: int, tp: int) -> int:
    """Bytes of a MoE layer's expert all-to-all: activation x top-k / TP."""
    return act * topk // tp


def topk_of(dispatch: int, act: int, tp: int) -> int | None:
    """The top-k an all-to-all of `dispatch` bytes was written with (`moe_dispatch` undone)."""
    return dispatch * tp // act if act and (dispatch * tp) % act == 0 else None


def moe_routing(ep: int, experts: int, tp: int) -> int:
    """Bytes of a MoE layer's router all-gather: 2 x EP x experts x TP."""
    return 2 * ep * experts * tp


def experts_of(gather: int, ep: int, tp: int) -> int | None:
    """The expert count a router all-gather of `gather` bytes was written with."""
    per_expert = moe_routing(ep, 1, tp)
    return gather // per_expert if per_expert and gather % per_expert == 0 else None


def is_inference(header: Header | None) -> bool:
    """Whether the header says `mode: 1`, as AICB's inference generator writes (read as SimAI
    would read a number there; SimAI itself never reads the key)."""
    return header_value(header, MODE_KEY) == INFERENCE_MODE
