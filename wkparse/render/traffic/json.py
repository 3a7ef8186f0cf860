"""`wkparse traffic --format json`: one object.

Keys (the contract): `gpus`, `gpus_per_server`, `nvswitches`, `finished`, `stop` {`layer`,
`phase`, `collective`, `why`} or null, `matrix` ([src, dst, bytes, flows], sorted, GPU pairs
only), `non_gpu` ([src, dst, src_kind, dst_kind, bytes, flows]: pairs with an NVSwitch),
`total_flows`, `total_bytes` (every flow), `intra_server_bytes`, `inter_server_bytes` (GPU
pairs), `sent_by_gpu`, `received_by_gpu` (bytes per node id, NVSwitches included: SimAI's
`All data sent from node` lines), `by_dimension` {TP|DP|EP|DP_EP: {`bytes`, `flows`}},
`by_layer` ([{`name`, `phase`, `collective`, `group`, `first_layer`, `collectives`, `bytes`,
`flows`}]: per layer name and phase, the collectives that made flows, in issue order),
`rings` {kind: [{`ranks`, `servers`, `channels`, `ring`}]}, `simai` (the model, the recorded
build, the topology, the environment, the algorithm per collective, notes).
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from wkparse.models.simai.traffic import TrafficRun
from wkparse.render.traffic.words import notes, simai_facts


def document(run: TrafficRun) -> dict[str, Any]:
    t = run.topology
    intra, _, inter, _ = run.server_split()
    stop = run.stop
    return {
        "gpus": t.gpus,
        "gpus_per_server": t.gpus_per_server,
        "nvswitches": t.nvswitches,
        "finished": run.finished,
        "stop": None
        if stop is None
        else {
            "layer": stop.layer,
            "phase": stop.phase,
            "collective": stop.collective,
            "why": stop.why,
        },
        "matrix": run.matrix(),
        "non_gpu": run.non_gpu(),
        "total_flows": run.total_flows,
        "total_bytes": run.total_bytes,
        "intra_server_bytes": intra,
        "inter_server_bytes": inter,
        "sent_by_gpu": {str(k): v for k, v in run.sent_by_node().items()},
        "received_by_gpu": {str(k): v for k, v in run.received_by_node().items()},
        "by_dimension": {
            k: {"bytes": b, "flows": f} for k, (b, f) in sorted(run.by_dimension.items())
        },
        "by_layer": [
            {
                "name": x.name,
                "phase": x.phase,
                "collective": x.collective,
                "group": x.group,
                "first_layer": x.first,
                "collectives": x.collectives,
                "bytes": x.bytes,
                "flows": x.flows,
            }
            for x in run.by_layer
        ],
        "rings": {
            kind: [
                {
                    "ranks": list(r.ranks),
                    "servers": r.servers,
                    "channels": r.channels,
                    "ring": list(r.order),
                }
                for r in listed
            ]
            for kind, listed in run.rings().items()
        },
        "simai": {**simai_facts(run), "notes": notes(run)},
    }


def write(run: TrafficRun, out: TextIO) -> None:
    json.dump(document(run), out, indent=1)
    out.write("\n")


def render(run: TrafficRun) -> str:
    return json.dumps(document(run), indent=1) + "\n"
