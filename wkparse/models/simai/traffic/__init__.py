"""Who sends how many bytes to whom when SimAI_simulator (the ns-3 backend) runs a file: the
flows its mock NCCL layer makes, counted per node pair, exactly as the recorded build
(SimAI cef83f9 with SimAI 1.6's mock) makes them (`../shared/simai-traffic`).

- `topology`: the topology file's first line (GPUs, per server, NVSwitches, GPU type);
- `groups`: the communicators the mock builds; `rings`: their ring channels;
- `collectives`: one collective as per-pair flow counts and a flow size;
- `model`: the run walked in issue order, up to where it stops;
- `command_line`: SimAI_simulator's options and `AS_*` variables.
"""

from wkparse.models.simai.traffic.collectives import NotModelled
from wkparse.models.simai.traffic.model import (
    MODEL,
    LayerTraffic,
    Stop,
    TrafficError,
    TrafficRun,
    model_traffic,
)
from wkparse.models.simai.traffic.topology import Topology, TopologyError, read_topology, stated

__all__ = [
    "MODEL",
    "LayerTraffic",
    "NotModelled",
    "Stop",
    "Topology",
    "TopologyError",
    "TrafficError",
    "TrafficRun",
    "model_traffic",
    "read_topology",
    "stated",
]
