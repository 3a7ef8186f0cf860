"""The rows AICB's inference generator writes (one forward pass, compute times of 1).

Without AIOB every compute time is AICB's default 1. Each mocked model lists its blocks per
layer: Qwen3-Moe `attention_norm, attention_layer, moe_norm, moe_route, moe_expert`; Qwen3-Next
the same with a gated-delta-net `attention_gdn` in three of every four layers; DeepSeek an
`attention_layer`, then a `dense_mlp` (first layers) or its shared experts and an expert block
(written as a `moe_route` and a `moe_expert` row). The whole model is written whatever the
pipeline size, and the sizes use the sequence (prefill) or the batch (decode) as token count.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from wkparse.models.aicb.dump import NONE, Row, Workload
from wkparse.models.aicb.errors import AicbError
from wkparse.models.aicb.formulas import activation
from wkparse.models.aicb.inference.args import InferenceArgs
from wkparse.models.aicb.training.rows import FP8_FACTOR, POLICY


def header(a: InferenceArgs) -> str:
    # the inference generator writes the whole activation, whatever TP, and 0 without PP
    pp_comm = activation(a.micro_batch, a.seq_length, a.number("hidden_size")) if a.pp > 1 else 0
    return (
        f"{POLICY} model_parallel_NPU_group: {a.tp} ep: {a.ep} pp: {a.pp} "
        f"all_gpus: {a.world_size} mode: 1 vpp: 1 ga: 1 checkpoints: 0 "
        f"checkpoint_initiates: 0 pp_comm: {pp_comm}"
    )


def _check_split(a: InferenceArgs, numerator: int, what: str) -> None:
    if numerator % a.tp:
        raise AicbError(
            f"AICB stops: AssertionError: {numerator} is not divisible by {a.tp} ({what})"
        )


def _deepseek_names(a: InferenceArgs) -> Iterator[str]:
    heads, d_kv = a.number("num_attention_heads"), a.number("d_kv")
    _check_split(a, heads * (a.number("d_q") + a.number("d_r")), "query heads")
    _check_split(a, heads * 2 * d_kv, "key-value heads")
    _check_split(a, heads * d_kv, "attention output")
    dense, expert_dim = a.number("dense_layer"), a.number("expert_dim")
    shared = a.number("shared_experts")
    for i in range(a.number("num_layers")):
        yield "attention_layer"
        if i < dense:
            _check_split(a, expert_dim * 2, "dense MLP")
            _check_split(a, expert_dim, "dense MLP")
            yield "dense_mlp"
        else:
            yield from ["shared_experts"] * shared
            yield "moe_expert"
    _check_split(a, a.number("vocab_size"), "vocabulary")


def _names(a: InferenceArgs) -> Iterator[str]:
    if a.family == "DeepSeek":
        yield from _deepseek_names(a)
        return
    interval = a.number("full_attention_interval") if a.family == "Qwen3-Next" else 0
    a.number("moe_intermediate_size")  # read by the model: AICB fails without it
    for i in range(a.number("num_hidden_layers")):
        yield "attention_norm"
        if interval and (i + 1) % interval:
            yield "attention_gdn"
        else:
            if interval == 0 and a.family == "Qwen3-Next":
                raise AicbError("AICB stops: ZeroDivisionError: full_attention_interval is 0")
            yield "attention_layer"
        yield from ("moe_norm", "moe_route", "moe_expert")


@dataclass(frozen=True, slots=True)
class Style:
    """What differs between the inference generators' rows."""

    #: tokens: the batch (decode) or the sequence (prefill); else micro_batch x seq_length
    tokens_by_phase: bool = True
    #: the compute time of the named rows without AIOB
    time: int = 1
    #: FP8 dispatch for any frame naming DeepSeek or Qwen3 (else exactly those two frames)
    fp8_any: bool = True


#: the current generator (2025-12-27; on its side branch from 2025-11-04)
CURRENT = Style()
#: the first one (2025-09-25): its table of measured times held zeros
FIRST = Style(tokens_by_phase=False, time=0, fp8_any=False)
#: the first one with Qwen3-Next, on the side branch (2025-10-29): zeros dropped, times 1
NEXT = Style(tokens_by_phase=False)


def workload(a: InferenceArgs, style: Style = CURRENT) -> Workload:
    """The file the inference generator writes, in the style of its revision."""
    if style.tokens_by_phase:
        tokens = a.micro_batch if a.phase == "decode" else a.seq_length
    else:
        tokens = a.micro_batch * a.seq_length
    if style.fp8_any:
        fp8 = "DeepSeek" in a.frame or "Qwen3" in a.frame
    else:
        fp8 = a.frame in ("DeepSeek", "Qwen3-Moe")
    t = style.time
    act = 2 * tokens * a.number("hidden_size")
    combine = act * a.topk // a.tp
    dispatch = int(combine * FP8_FACTOR) if fp8 else combine
    comm = NONE if a.tp == 1 else "ALLREDUCE"
    rows: list[Row] = []
    for name in _names(a):
        if "norm" in name or "shared_expert" in name:
            rows.append(Row(name, t, NONE, 0, 0, NONE, 0, 0, NONE, 0))
        elif "attention" in name or "dense_mlp" in name:
            size = act if comm != NONE else 0
            rows.append(Row(name, t, comm, size, 0, NONE, 0, 0, NONE, 0))
        elif name == "moe_route":
            rows.append(Row(name, t, "ALLTOALL_EP", dispatch, 1, NONE, 0, 1, NONE, 0))
        else:
            if a.frame == "DeepSeek":
                rows.append(Row("moe_route", 1, "ALLTOALL_EP", dispatch, 1, NONE, 0, 1, NONE, 0))
            rows.append(Row(name, t, "ALLTOALL_EP", combine, 1, NONE, 0, 1, NONE, 0))
    return Workload(header(a), [], [rows], [])
