"""SimAI's rules for rows: which group a collective runs in, the file's dialect, layer kinds.

`route` restates how SimAI assigns a written collective to a communication group under each
policy; `dialect_of` classifies a file by its policy (and mode); `layer_kind` sorts a row
into the kinds the totals are grouped by.
"""

from __future__ import annotations

from wkparse.ast import Workload
from wkparse.body import MOE_NAMES
from wkparse.i18n import N_
from wkparse.models.aicb.formulas import is_inference
from wkparse.models.simai.tables import (
    POLICIES,
    PREFIXES,
    TRANSFORMER_POLICIES,
    ComType,
    GroupType,
    decode_comm,
)

COLLECTIVES = tuple(t.value for t in PREFIXES)
#: the policies whose rows explain groups as SimAI's transformer groups (TP, DP, EP, DP/EP)
TRANSFORMER_DIALECTS = TRANSFORMER_POLICIES | {"DISTRIBUTED_INFERENCE"}
#: group keys: SimAI's transformer groups, then ASTRA-sim 1.0's model-parallel and all GPUs
GROUPS = ("TP", "DP", "EP", "DP_EP", "PP", "MP", "ALL")
#: how prose names each group (translated where used: `_(GROUP_LABELS[g])`)
GROUP_LABELS = {
    "TP": "TP",
    "DP": "DP",
    "EP": "EP",
    "DP_EP": "DP/EP",
    "PP": "PP",
    "MP": N_("model-parallel"),
    "ALL": N_("all GPUs"),
}


def group_sizes(
    tp: int | None, dp: int | None, ep: int | None, pp: int | None, gpus: int | None
) -> dict[str, int | None]:
    """The ranks in each group of `GROUPS`: DP_EP is DP / EP (ASTRA-sim 1.0's MP has none a
    header gives)."""
    dp_ep = dp // ep if dp is not None and ep else None
    return {"TP": tp, "DP": dp, "EP": ep, "DP_EP": dp_ep, "PP": pp, "MP": None, "ALL": gpus}


PHASE_LABELS = {"fwd": "forward", "ig": "input-grad", "wg": "weight-grad"}


def dialect_of(workload: Workload, names: set[str | None]) -> str:
    header = workload.header
    if header is None or header.policy not in POLICIES:
        return "unknown"
    policy = header.policy
    if policy == "MICRO" or (names and names <= {"micro_test"}):
        return "micro"
    if policy in TRANSFORMER_DIALECTS:
        if policy == "DISTRIBUTED_INFERENCE" or is_inference(header):
            return "inference"
        return "transformer"
    return {
        "DATA": "data",
        "MODEL": "model",
        "HYBRID_DATA_MODEL": "hybrid_data_model",
        "HYBRID_MODEL_DATA": "hybrid_model_data",
        "HYBRID_DLRM": "dlrm",
        "HYBRID_DLRM_ENHANCED": "dlrm",
        "HYBRID_CUSTOMIZED": "customized",
    }[policy]


def route(policy: str | None, phase: str, comm: str | None) -> str | None:
    """The group a written collective runs in under `policy`; None when SimAI runs none.

    Transformer policies follow SimAI's reader (`wkparse.models.simai.tables.decode_comm`): in the
    fwd and ig columns a bare type runs in the TP group, in the wg column in the DP group;
    `_EP` picks the EP group, `_DP_EP` the DP/EP group. Why a written type runs in no group is
    lint's to say (WK403, WK404), so explain shows that finding rather than a second sentence.
    """
    if comm is None or comm == "NONE":
        return None
    com, group = decode_comm(comm, phase)
    if com is ComType.NONE or group is GroupType.NONE:
        return None
    if policy in TRANSFORMER_DIALECTS:
        return str(group.value)
    if policy in ("DATA", "MODEL", "MICRO"):
        return "ALL"
    if policy in ("HYBRID_DATA_MODEL", "HYBRID_MODEL_DATA", "HYBRID_DLRM", "HYBRID_DLRM_ENHANCED"):
        return "DP" if phase == "wg" else "MP"
    return None


def _without_index(name: str) -> str:
    """`name` without its trailing digits and underscores (`optimizer1` -> `optimizer`).

    A loop, not `re.sub(r"[_\\d]+$", ...)`: that search backtracks quadratically on a long
    run of digits that does not end the name (a hostile 60,000-character one takes minutes).
    """
    end = len(name)
    while end and (name[end - 1] == "_" or name[end - 1].isdecimal()):
        end -= 1
    return name[:end] or name


def layer_kind(name: str | None, transformer: bool) -> str:
    """The kind of layer a row belongs to, for the totals by kind."""
    if name is None or name == "":
        return "(unnamed)"
    if not transformer:
        return _without_index(name)
    if name in MOE_NAMES or (name.startswith("moe_") and not name.startswith("moe_grad")):
        return "moe"
    if name.startswith(("grad", "moe_grad", "layernorm", "embedding_grads")) or name == "norm":
        return "grad sync"
    for prefix, kind in (
        ("embedding", "embedding"),
        ("attention", "attention"),
        ("mlp", "mlp"),
        ("dense_mlp", "mlp"),
        ("final", "final"),
        ("cross_entropy", "loss"),
        ("optimizer", "optimizer"),
    ):
        if name.startswith(prefix):
            return kind
    return _without_index(name)
