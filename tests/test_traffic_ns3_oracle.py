"""The traffic model against the older recording of SimAI_simulator (../shared/simai-ns3-oracle,
same build recipe): on every run that finished, each node's bytes equal SimAI's own `All data
sent from node N is B` and `received by` lines; a run that crashed or stopped silently is a
stop, with SimAI's exit code. Runs killed by their timeout say nothing about flows: left out."""

from __future__ import annotations

import gzip
import json
import re
from typing import Any

import pytest

from tests.conftest import NS3_ORACLE, absent
from wkparse.models.simai.traffic import model_traffic, read_topology

SENT = re.compile(r"All data sent from node (\d+) is (\d+)")
RECEIVED = re.compile(r"All data received by node (\d+) is (\d+)")


def _runs() -> list[object]:
    if not (NS3_ORACLE / "results.json").is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason=absent(NS3_ORACLE)))]
    cases = {c["case"]: c for c in json.loads((NS3_ORACLE / "cases.json").read_text())}
    out = []
    for result in json.loads((NS3_ORACLE / "results.json").read_text()):
        runs = result["runs"] if isinstance(result["runs"], list) else result["runs"].values()
        for run in runs:
            if run["exit_code"] in (0, 139):
                case = cases[result["case"]]
                out.append(pytest.param((case, run), id=f"{result['case']}.{run['tag']}"))
    return out


def _stdout(case: dict[str, Any], run: dict[str, Any]) -> str:
    path = NS3_ORACLE / "raw" / f"{case['case']}.{run['tag']}.stdout.gz"
    return gzip.open(path, "rt").read()  # type: ignore[no-any-return]


@pytest.mark.parametrize("recorded", _runs())
def test_node_sums_and_endings(recorded: tuple[dict[str, Any], dict[str, Any]]) -> None:
    case, run = recorded
    topology = read_topology(NS3_ORACLE / "topo" / case["topology"])
    result = model_traffic((NS3_ORACLE / case["workload_file"]).read_bytes(), topology)
    stdout = _stdout(case, run)
    finished = run["exit_code"] == 0 and "all passes finished" in stdout
    assert result.finished == finished
    if finished:
        sent = {int(n): int(b) for n, b in SENT.findall(stdout) if int(b)}
        received = {int(n): int(b) for n, b in RECEIVED.findall(stdout) if int(b)}
        assert result.sent_by_node() == sent
        assert result.received_by_node() == received
    else:
        assert result.stop is not None and result.stop.exit_code == run["exit_code"]
