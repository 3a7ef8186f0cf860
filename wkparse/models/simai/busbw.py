"""SimAI's bus-bandwidth model of one collective (`cal_busbw` in `system/calbusbw.cc`).

Given how a group sits on servers (nodes, GPUs per node, NICs per node), the NVLink and NIC
bandwidths and the collective, it gives a bandwidth in GB/s as a `float`:
- one node: the NVLink bandwidth (all-to-all too);
- several nodes, one GPU each: NIC x NICs;
- several nodes of several GPUs: NIC x NICs, but when that exceeds NVLink it is capped at
  NVLink x g / (g - 1) (and the NVLink is then the bottleneck);
- all-to-all across nodes: NIC x NICs / g x (n - 1) / ((nodes - 1) x g);
- a group of one GPU (or no node): `retcode 1`, bandwidth 0 (an infinite time follows);
- a bandwidth, GPU count or NIC count below 1 (or an unknown GPU/NIC type): -1.
SimAI always starts from the ring algorithm, so an all-reduce gets the all-gather bandwidth:
the tree and NVLS figures it also computes are never used.
"""

from __future__ import annotations

from dataclasses import dataclass

from wkparse.models.simai.ieee import f32

#: GB/s per NVLink and links per GPU type (GPUType enum: A100 0, A800 1, H100 2, H800 3, H20 5)
_NVLINK = {0: (20.0, 12), 1: (20.0, 8), 2: (20.6, 18), 3: (20.6, 8), 5: (20.6, 18)}
#: GB/s per NIC by type, as SimAI spells the names
_NIC = {"CX6": 23.5, "cx6": 23.5, "CX7": 48.5, "cx7": 48.5, "BF3": 48.5, "bf3": 48.5}


def nvlink_of(gpu_type: int) -> float:
    """NVLink GB/s for a GPU type; -1 for an unknown type."""
    per, links = _NVLINK.get(gpu_type, (0.0, 0))
    return f32(per * links) if links else -1.0


def nic_of(nic_type: str) -> float:
    return _NIC.get(nic_type, -1.0)


@dataclass(frozen=True, slots=True)
class BusBw:
    busbw: float
    #: whether SimAI says the NVLink is the bottleneck (it picks the ratio table by this)
    nvlink: bool
    #: 1 where SimAI prints `retcode 1` (a one-GPU group, no node, unknown type)
    retcode: int


def cal_busbw(
    gpu_type: int,
    nvlink_bw: float,
    nic_bw_given: float,
    nics: float,
    nodes: int,
    collective: str,
    gpus: int,
    nic_type: str = "cx7",
) -> BusBw:
    """The bus bandwidth SimAI computes; `nics` is already the `float` SimAI passes."""
    if nodes < 1 or gpus * nodes == 1:
        return BusBw(0.0, False, 1)
    retcode = 0
    nv = nvlink_bw if nvlink_bw > 0.0 else nvlink_of(gpu_type)
    if nv == -1.0 and nvlink_bw <= 0.0:
        retcode = 1
    nic = nic_bw_given if nic_bw_given > 0.0 else nic_of(nic_type)
    if nic == -1.0 and nic_bw_given <= 0.0:
        retcode = 1
    if nv <= 0 or nic <= 0 or gpus < 1 or int(nics) < 1 or nodes < 1:
        return BusBw(-1.0, False, retcode)
    via_nic = f32(nics * nic)
    nvlink_limited = False
    if nodes == 1:
        gather = nv
    elif gpus == 1:
        gather = via_nic
    elif via_nic > nv:
        capped = f32(f32(nv * gpus) / (gpus - 1))
        if capped < via_nic:
            gather, nvlink_limited = capped, True
        else:
            gather = via_nic
    else:
        gather = via_nic
    if collective == "alltoall":
        if nodes == 1:
            return BusBw(nv, True, retcode)
        ranks = nodes * gpus
        x = f32(f32(via_nic / gpus) * (ranks - 1))
        return BusBw(f32(x / ((nodes - 1) * gpus)), False, retcode)
    return BusBw(gather, nvlink_limited, retcode)
