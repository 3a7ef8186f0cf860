"""SimAI's tables: the policies it decodes, its collective types and its communication groups.

This is the one copy in wkparse: lint, explain and the reader model all take their policy and
collective names from here.
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache

#: every first token SimAI decodes into a parallelism policy (anything else: exit 1)
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
#: the policies whose header SimAI reads `key: value` pairs from (and SimAI-Analytical runs)
TRANSFORMER_POLICIES = frozenset({"HYBRID_TRANSFORMER", "HYBRID_TRANSFORMER_FWD_IN_BCKWD"})
#: the policy whose checkpoint lists are read and whose forward sizes below 4096 B are raised
FWD_IN_BCKWD = "HYBRID_TRANSFORMER_FWD_IN_BCKWD"
DLRM_POLICIES = frozenset({"HYBRID_DLRM", "HYBRID_DLRM_ENHANCED"})
#: the policy whose rows carry a 13th field, the row's own policy
CUSTOMIZED = "HYBRID_CUSTOMIZED"


class ComType(Enum):
    """The collective SimAI runs for a phase (its `ComType`)."""

    NONE = "NONE"
    ALLREDUCE = "ALLREDUCE"
    ALLGATHER = "ALLGATHER"
    REDUCESCATTER = "REDUCESCATTER"
    ALLTOALL = "ALLTOALL"


class GroupType(Enum):
    """The ranks a collective runs among (SimAI's `GroupType`)."""

    TP = "TP"
    DP = "DP"
    EP = "EP"
    DP_EP = "DP_EP"
    NONE = "NONE"


#: SimAI tests these prefixes in this order; `ALLREDUCEALLTOALL` is tested after `ALLREDUCE`,
#: so it can never match and such a token runs as an all-reduce without a group
PREFIXES: tuple[ComType, ...] = (
    ComType.ALLREDUCE,
    ComType.ALLTOALL,
    ComType.ALLGATHER,
    ComType.REDUCESCATTER,
)
#: the only suffixes that select a group; any other suffix leaves the group NONE
SUFFIXES: dict[str, GroupType] = {"_EP": GroupType.EP, "_DP_EP": GroupType.DP_EP}
#: every comm token that names a collective and a group SimAI simulates
COLLECTIVES: frozenset[str] = frozenset(t.value + s for t in PREFIXES for s in ("", *SUFFIXES))
#: every comm token SimAI reads as intended: the collectives and the explicit no-op
KNOWN_COMMS: frozenset[str] = COLLECTIVES | frozenset("NONE" + s for s in ("", *SUFFIXES))


def bare_group(phase: str) -> GroupType:
    """The group of an unsuffixed collective: TP in the forward and input-gradient columns,
    DP in the weight-gradient column."""
    return GroupType.DP if phase == "wg" else GroupType.TP


@lru_cache(maxsize=1024)
def decode_comm(token: str, phase: str) -> tuple[ComType, GroupType]:
    """What SimAI makes of a comm-type token in a phase's column (remembered: a file has a
    few tokens, asked for once per distinct collective and size).

    It matches the token's *prefix* against the collectives, then the whole token for the
    group: `ALLREDUCE_TP` and `ALLREDUCEALLTOALL` are all-reduces in no group, and any other
    word (`NONE`, `BROADCAST`, a misspelling) is no collective at all.
    """
    for com in PREFIXES:
        if token.startswith(com.value):
            rest = token[len(com.value) :]
            if rest == "":
                return com, bare_group(phase)
            return com, SUFFIXES.get(rest, GroupType.NONE)
    return ComType.NONE, GroupType.NONE
