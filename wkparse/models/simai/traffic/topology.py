"""The topology file's first line, the only part that decides flows: SimAI_simulator reads
`<nodes> <gpus per server> <nvswitches> <switches> <links> <gpu type>` with `>>`
(common.h lines 699-716) and counts GPUs as nodes - NVSwitches - switches
(AstraSimNetwork.cc line 274). GPUs are nodes 0..G-1, the NVSwitch of server s is node G + s."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

#: the GPU types common.h knows; any other word is GPUType::NONE
GPU_TYPES = ("A100", "A800", "H100", "H800")
#: the types whose TP all-reduce may take NVLS (MockNcclGroup.cc lines 2075-2083)
NVLS_TYPES = ("H100", "H800")
#: gen_Topo_Template.py's defaults when a topology is stated by counts
DEFAULT_PER_SERVER = 8
DEFAULT_GPU_TYPE = "H100"
_NUMBER = re.compile(r"\s*([+-]?\d+)")


class TopologyError(ValueError):
    """A topology that cannot be read, said in one line (path:line:col: why)."""


@dataclass(frozen=True, slots=True)
class Topology:
    """What the flows depend on: GPUs, GPUs per server, NVSwitches and the GPU type."""

    gpus: int
    gpus_per_server: int
    nvswitches: int
    gpu_type: str
    #: the file read, or how it was stated (`-g 16 --gpus-per-server 8`)
    source: str

    def server(self, gpu: int) -> int:
        return gpu // self.gpus_per_server

    def nvswitch(self, server: int) -> int:
        """The node id of a server's NVSwitch (AstraSimNetwork.cc lines 278-284)."""
        return self.gpus + server

    def kind(self, node: int) -> str:
        return "gpu" if node < self.gpus else "nvswitch"

    @property
    def nvls_capable(self) -> bool:
        return self.gpu_type in NVLS_TYPES

    @property
    def servers(self) -> int:
        return self.gpus // self.gpus_per_server if self.gpus_per_server > 0 else 0


def stated(
    gpus: int, per_server: int = DEFAULT_PER_SERVER, gpu_type: str = DEFAULT_GPU_TYPE
) -> Topology:
    """A topology given by counts, as SimAI's generator makes it: one NVSwitch per server."""
    if gpus < 1:
        raise TopologyError(f"-g {gpus}: a topology needs at least one GPU")
    if per_server < 1:
        raise TopologyError(f"--gpus-per-server {per_server}: at least one GPU per server")
    source = f"-g {gpus} --gpus-per-server {per_server} --gpu-type {gpu_type}"
    return Topology(gpus, per_server, -(-gpus // per_server), gpu_type, source)


def read_topology(path: Path) -> Topology:
    """Line 1 of a topology file, read as SimAI reads it. Raises TopologyError."""
    try:
        with path.open("rb") as handle:
            first = handle.readline(4096).decode("utf-8", "replace")
    except OSError as exc:
        raise TopologyError(f"{path}: cannot read the topology: {exc.strerror or exc}") from exc
    return parse_first_line(first, str(path))


def parse_first_line(text: str, source: str) -> Topology:
    values: list[int] = []
    at = 0
    for _ in range(5):
        m = _NUMBER.match(text, at)
        if m is None:
            raise TopologyError(
                f"{source}:1:{at + 1}: the topology's first line needs five numbers (nodes, "
                "GPUs per server, NVSwitches, switches, links) and a GPU type"
            )
        values.append(int(m.group(1)))
        at = m.end()
    gpu_type = text[at:].split()[0] if text[at:].split() else ""
    nodes, per_server, nvswitches, switches, _links = values
    gpus = nodes - nvswitches - switches
    if gpus < 1:
        raise TopologyError(
            f"{source}:1:1: {nodes} nodes - {nvswitches} NVSwitches - {switches} switches "
            f"leaves {gpus} GPUs"
        )
    if per_server < 1:
        raise TopologyError(f"{source}:1:1: {per_server} GPUs per server")
    return Topology(gpus, per_server, nvswitches, gpu_type, source)
