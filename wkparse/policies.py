"""The parallelism policies SimAI's reader decodes from the first token of line 1."""

from __future__ import annotations

#: every first token SimAI's reader decodes into a parallelism policy
POLICIES: tuple[str, ...] = (
    "DATA",
    "HYBRID_TRANSFORMER",
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD",
    "HYBRID_DLRM",
    "HYBRID_DLRM_ENHANCED",
    "MODEL",
    "HYBRID_DATA_MODEL",
    "HYBRID_MODEL_DATA",
    "HYBRID_CUSTOMIZED",
    "MICRO",
    "DISTRIBUTED_INFERENCE",
)
TRANSFORMER_POLICIES = frozenset({"HYBRID_TRANSFORMER", "HYBRID_TRANSFORMER_FWD_IN_BCKWD"})
DLRM_POLICIES = frozenset({"HYBRID_DLRM", "HYBRID_DLRM_ENHANCED"})
