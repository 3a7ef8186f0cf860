"""`wkparse traffic`'s model replayed on every run of ../shared/simai-traffic: the GPU matrix
pair by pair (bytes and flows), the NVSwitch pairs, the totals, the flow sizes, the per-node
sums SimAI prints, whether the run finished, and for a stopped run where it stops (the flows
completed before it are in the matrix)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import SIMAI_TRAFFIC, traffic_runs
from wkparse.models.simai.traffic import TrafficRun, model_traffic, read_topology

RUNS = traffic_runs()


def modelled(run: dict[str, Any]) -> TrafficRun:
    topology = read_topology(SIMAI_TRAFFIC / "topo" / run["topology"])
    data = (SIMAI_TRAFFIC / run["workload_file"]).read_bytes()
    return model_traffic(data, topology, run["env"])


def _pairs(matrix: list[list[Any]]) -> dict[tuple[int, int], tuple[int, int]]:
    return {(row[0], row[1]): (row[-2], row[-1]) for row in matrix}


@pytest.mark.parametrize("run", RUNS)
def test_topology_and_finished(run: dict[str, Any]) -> None:
    result = modelled(run)
    t = result.topology
    assert (t.gpus, t.gpus_per_server, t.nvswitches, t.gpu_type) == (
        run["gpus"],
        run["gpus_per_server"],
        run["nvswitches"],
        run["gpu_type"],
    )
    assert result.finished == run["finished"]
    assert (result.stop is None) == run["finished"]


@pytest.mark.parametrize("run", RUNS)
def test_matrix_pair_by_pair(run: dict[str, Any]) -> None:
    result = modelled(run)
    assert _pairs(result.matrix()) == _pairs(run["matrix"])
    assert result.matrix() == run["matrix"]


@pytest.mark.parametrize("run", RUNS)
def test_non_gpu_pairs(run: dict[str, Any]) -> None:
    assert modelled(run).non_gpu() == run["non_gpu_flows"]["by_pair"]


@pytest.mark.parametrize("run", RUNS)
def test_totals_flow_sizes_and_node_sums(run: dict[str, Any]) -> None:
    result = modelled(run)
    intra, intra_flows, inter, inter_flows = result.server_split()
    assert (result.total_flows, result.total_bytes) == (run["total_flows"], run["total_bytes"])
    assert (intra, intra_flows) == (run["intra_server_bytes"], run["intra_server_flows"])
    assert (inter, inter_flows) == (run["inter_server_bytes"], run["inter_server_flows"])
    assert result.flow_sizes() == run["flow_sizes"]
    sent = {str(k): v for k, v in result.sent_by_node().items()}
    received = {str(k): v for k, v in result.received_by_node().items()}
    assert sent == run["fct_bytes_sent_by_node"]
    assert received == run["fct_bytes_received_by_node"]
    if run["finished"]:
        assert sent == run["stdout_all_data_sent_by_node"]
        assert received == run["stdout_all_data_received_by_node"]


def _stopped() -> list[object]:
    runs = [p for p in RUNS if p.values[0] is None or not p.values[0]["finished"]]  # type: ignore[attr-defined]
    return runs or [pytest.param(None, marks=pytest.mark.skip(reason="no stopped run recorded"))]


@pytest.mark.parametrize("run", _stopped())
def test_a_stopped_run_stops_before_the_last_collective_it_issued(run: dict[str, Any]) -> None:
    """SimAI issues a weight-gradient collective without waiting for it and runs one
    collective at a time: the recording's last issued collective comes after the stop in the
    backward pass (a lower layer), and the stopping collective is the last with flows."""
    result = modelled(run)
    stop = result.stop
    assert stop is not None and stop.phase in ("ig", "wg")
    stopping = [x for x in result.by_layer if x.name == stop.name and x.phase == stop.phase]
    assert len(stopping) == 1 and stopping[0].flows >= result.stop_flows > 0
    issued = run["last_layer_event_line"]
    assert "collective issued for layer: " in issued
    name = issued.split("collective issued for layer: ")[1].split(",")[0].strip()
    rows = (SIMAI_TRAFFIC / run["workload_file"]).read_text().splitlines()[2:]
    assert name in [r.split()[0] for r in rows[: stop.layer]]
