"""Replay every run of SimAI-Simulation (the ns-3 backend) recorded in
../shared/simai-ns3-oracle/ through `wkparse.models.simai.ns3`: the exit code, where the run ends
(the layer it crashes or stalls at), the files it leaves empty, the layers its reader built,
SimAI.log's group errors, the bytes it moved, and the run-time bound (every run finished in no
less than the bound; every run killed at 300 s has a bound past 300 s)."""

from __future__ import annotations

import gzip
import re
from typing import Any

import pytest

from tests.conftest import NS3_ORACLE, SAMPLES, ns3_cases
from wkparse.models.simai.ns3 import NO_GROUP, Ns3Run, simulate_ns3

CASES = ns3_cases()


def _predict(case: dict[str, Any]) -> Ns3Run:
    return simulate_ns3((NS3_ORACLE / case["workload_file"]).read_bytes())


def _recorded_runs(case: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in case["runs"] if r["exit_code"] is not None]


def _empty(run: dict[str, Any]) -> set[str]:
    return {o["name"] for o in run["output_files"] if o["empty"]}


def _written(run: dict[str, Any]) -> set[str]:
    return {o["name"] for o in run["output_files"]}


def _sent(case: str, tag: str) -> int:
    """The bytes all nodes sent, from SimAI's `All data sent from node N is B` lines."""
    with gzip.open(NS3_ORACLE / "raw" / f"{case}.{tag}.stdout.gz", "rt") as stream:
        text = stream.read()
    return sum(int(b) for b in re.findall(r"All data sent from node \d+ is (\d+)", text))


@pytest.mark.parametrize("case", CASES)
def test_exit_code_and_outputs(case: dict[str, Any]) -> None:
    model = _predict(case)
    assert model.reading.layer_count == case["runs"][0]["layers_read"]
    for run in _recorded_runs(case):
        killed = run["timed_out"]
        if killed:
            # killed by `timeout 300`: the model says it finishes, but not within 300 s
            assert model.finishes and model.too_long, run["tag"]
        else:
            assert model.outcome.exit_code == run["exit_code"], run["tag"]
            assert model.too_long is False
        outputs = model.outputs(killed=killed)
        assert {o.name for o in outputs} == _written(run)
        assert set(model.empty_outputs(killed=killed)) == _empty(run)


@pytest.mark.parametrize("case", CASES)
def test_where_the_run_ends(case: dict[str, Any]) -> None:
    model = _predict(case)
    runs = _recorded_runs(case)
    if any(r["exit_code"] == 139 for r in runs):
        # a crash can lose the last buffered stdout lines: the furthest run shows where
        assert model.halt is not None and model.halt.how == "crash"
        assert model.outcome.kind == "signal" and model.outcome.layer == model.halt.index
        assert model.halt.index == max(r["last_layer_num"] for r in runs)
        assert model.halt.phase == "fwd"
    elif any(r["exit_code"] == 0 and not r["pass_lines"] for r in runs):
        assert model.halt is not None and model.halt.how == "stop"
        assert model.outcome.kind == "no-result" and model.outcome.exit_code == 0
        for r in runs:
            assert not r["pass_lines"] and r["end_to_end"] is None
            # the forward passes it got through, one line each (tp 1: none moves bytes)
            assert model.halt.index == r["fwd_no_collective_lines"] + r["fwd_comm_finished"]
        assert model.halt.phase == "fwd"
    else:
        assert model.halt is None and model.outcome.kind == "ok"


@pytest.mark.parametrize("case", CASES)
def test_group_errors_in_the_log(case: dict[str, Any]) -> None:
    model = _predict(case)
    assert model.groups is not None
    for run in _recorded_runs(case):
        counts = dict(run["simai_log"]["distinct_messages_with_counts"])
        assert counts.get(f"[ERROR] {NO_GROUP}", 0) == model.groups.missing_group_logs


@pytest.mark.parametrize("case", CASES)
def test_bytes_on_the_wire_and_the_time_bound(case: dict[str, Any]) -> None:
    model = _predict(case)
    for run in case["runs"]:
        if run["wall_s"] is not None and not run["timed_out"]:
            # the bound is a bound: no run took less
            assert model.estimated_s <= run["wall_s"], run["tag"]
        if run["exit_code"] == 0 and run["pass_lines"]:
            assert model.wire_bytes == _sent(case["case"], run["tag"]), run["tag"]


@pytest.mark.parametrize("case", CASES)
def test_missing_vpp_makes_only_the_bubble_nan(case: dict[str, Any]) -> None:
    model = _predict(case)
    noted = any("bubble time is NaN" in n for n in model.notes)
    for run in _recorded_runs(case):
        summary = (run["end_to_end"] or {}).get("summary_line")
        if summary is None:
            continue
        fields = summary.split(", ")
        assert noted == ("NaN" in fields[6]), run["tag"]
        assert "NaN" not in fields[-1]


def _cli(*args: str) -> tuple[int, str]:
    from typer.testing import CliRunner

    from wkparse.cli import app

    result = CliRunner().invoke(app, ["simai", "--backend", "ns3", *args])
    return result.exit_code, result.stdout


def test_a_gpu_count_past_a_c_int_is_a_usage_error() -> None:
    """The topology's GPU count is an int in SimAI: 2^31 GPUs is no topology it can read."""
    sample = str(next(SAMPLES.glob("*.txt")))
    code, out = _cli(sample, "-g", str(2**31))
    assert code == 2 and out == ""
    assert _cli(sample, "-g", str(2**31 - 1))[0] != 2


@pytest.mark.parametrize("case", CASES)
def test_cli_json_names_the_ending_row_and_the_empty_files(case: dict[str, Any]) -> None:
    import json

    code, out = _cli(str(NS3_ORACLE / case["workload_file"]), "--format", "json")
    doc = json.loads(out)
    model = _predict(case)
    assert list(doc["outcome"]) == ["exit_code", "kind", "message"]
    assert doc["outcome"]["exit_code"] == model.outcome.exit_code
    clean = model.finishes and not model.warnings and not model.outcome.undefined
    assert code == (0 if clean else 1)
    if model.halt is None:
        assert doc["halt"] is None
    else:
        assert doc["halt"]["index"] == model.halt.index
        assert doc["halt"]["source_line"] == model.halt.index + 3
    empty = {o["name"] for o in doc["outputs"] if o["empty"]}
    assert ("ncclFlowModel_EndToEnd.csv" in empty) == (not model.finishes)


def test_cli_text_verdicts() -> None:
    if not NS3_ORACLE.is_dir():
        pytest.skip("no ../shared/simai-ns3-oracle")
    code, out = _cli(str(NS3_ORACLE / "cases" / "mixtral_ep1.txt"))
    assert code == 1
    assert "will crash at line 8, layer 5 (mlp_moelayer), forward pass (SIGSEGV, exit 139)" in out
    code, out = _cli(str(NS3_ORACLE / "cases" / "small__fwd_compute_3e9_row150.txt"))
    assert code == 1 and "will stop silently at line 153, layer 150 (mlp_layer)" in out
    code, out = _cli(str(NS3_ORACLE / "cases" / "small.txt"))
    assert (
        code == 1
        and "830 s of packet-level simulation at the fastest rate a recorded run reached" in out
    )
    code, out = _cli(str(NS3_ORACLE / "cases" / "micro.txt"))
    assert code == 0 and "will finish (exit 0)" in out
    code, out = _cli(str(NS3_ORACLE / "cases" / "micro.txt"), "--backend", "ns4")
    assert code == 2


HEAD = (
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: 1 vpp: 1 ga: 1 "
    "all_gpus: 4 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0\n"
)
ROW = "layer -1 100 ALLREDUCE 8192 100 ALLREDUCE 8192 {wg} NONE 0 100\n"


def test_a_weight_gradient_stop_is_met_on_the_way_back() -> None:
    rows = [ROW.format(wg=100), ROW.format(wg=3000000000), ROW.format(wg=100)]
    model = simulate_ns3((HEAD + "3\n" + "".join(rows)).encode())
    assert model.halt is not None
    assert (model.halt.index, model.halt.phase, model.halt.how) == (1, "wg", "stop")
    # all three forward and the last two input-gradient all-reduces ran: 5 of 8192 B on TP 2
    assert model.wire_bytes == 5 * 2 * 4096 * 4


def test_a_billion_layer_count_line_is_walked_at_once() -> None:
    model = simulate_ns3((HEAD + "1000000000\n" + ROW.format(wg=100)).encode())
    assert model.reading.layer_count == 1_000_000_000
    assert model.halt is None and model.outcome.undefined
    assert model.wire_bytes == 2 * 2 * 4096 * 4


def test_the_stop_threshold_is_where_the_float_scale_reaches_2_to_the_31() -> None:
    from wkparse.cpp import scaled
    from wkparse.models.simai.ns3 import STOP_COMPUTE_NS, STOP_FROM, stops

    assert scaled(STOP_FROM) == STOP_COMPUTE_NS and scaled(STOP_FROM - 1) < STOP_COMPUTE_NS
    # the recorded edges: 2147000000 ran to the end, 2147483647 stopped
    assert not stops(2147000000) and stops(2147483647) and stops(STOP_FROM)
    assert not stops(STOP_FROM - 1) and not stops(None)
