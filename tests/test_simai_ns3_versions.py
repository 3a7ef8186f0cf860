"""Replay every run of SimAI-Simulation (the ns-3 backend) recorded at older SimAI commits in
../shared/simai-ns3-versions/ (b83ea3d4, 02532997, 7f06c19c, and cef83f9 for the cases the
oracle lacks) through `wkparse.models.simai.ns3` at that commit: the exit code, whether it
finishes, the collectives it issues (how many, and the last: layer, pass and kind, read from
node 0's stdout), where it stops, and the EndToEnd.csv it leaves (empty, or written in that
version's format)."""

from __future__ import annotations

import gzip
import json
import re
from functools import cache
from typing import Any

import pytest

from tests.conftest import NS3_VERSIONS, oracle_params, oracle_results, require
from wkparse.models.simai.ns3 import END_TO_END, NO_GROUP, Ns3Run, simulate_ns3
from wkparse.models.simai.versions import resolve


def _params() -> list[object]:
    """One param per recorded run, named version-case-run (one skipped param without them)."""
    runs = oracle_results(NS3_VERSIONS)
    if not runs:
        return oracle_params(NS3_VERSIONS)
    return [pytest.param(r, id=f"{r['version']}-{r['case']}-{r['run']}") for r in runs]


RUNS = _params()
_CHUNK = re.compile(r"^chunk size is: \d+ , size is: (\d+) , layer_num is: (\d+) , node: 0$")
_ISSUED = re.compile(r"^info: ([a-z-]+) (forward pass|input grad|weight grad) collective issued")
_KINDS = {
    "all-reduce": "ALLREDUCE",
    "all-gather": "ALLGATHER",
    "reduce-scatter": "REDUCESCATTER",
    "all-to-all": "ALLTOALL",
}
_PHASES = {"forward pass": "fwd", "input grad": "ig", "weight grad": "wg"}


@cache
def _cases() -> dict[str, dict[str, Any]]:
    return {c["case"]: c for c in json.loads((NS3_VERSIONS / "cases.json").read_text())}


def _model(run: dict[str, Any]) -> Ns3Run:
    data = (NS3_VERSIONS / _cases()[run["case"]]["workload_file"]).read_bytes()
    return simulate_ns3(data, version=resolve(run["version"]))


def _raw(run: dict[str, Any], what: str) -> str:
    path = NS3_VERSIONS / "raw" / run["version"] / f"{run['case']}.{run['run']}.{what}.gz"
    return gzip.decompress(path.read_bytes()).decode()


def _issued(run: dict[str, Any]) -> list[tuple[int, str, str, int]]:
    """Node 0's `collective issued` lines, each as (layer, phase, kind, size) of the
    `chunk size is:` line before it."""
    out = []
    chunk: tuple[int, int] | None = None
    for line in _raw(run, "stdout").splitlines():
        found = _CHUNK.match(line)
        if found:
            chunk = (int(found[2]), int(found[1]))
            continue
        issued = _ISSUED.match(line)
        if issued:
            assert chunk is not None
            out.append((chunk[0], _PHASES[issued[2]], _KINDS[issued[1]], chunk[1]))
    return out


@pytest.mark.parametrize("run", RUNS)
def test_exit_code_and_whether_it_finishes(run: dict[str, Any]) -> None:
    model = _model(run)
    assert model.outcome.exit_code == run["exit_code"]
    assert model.finishes == run["all_passes_finished"]
    if run["exit_code"] == 0 and not run["all_passes_finished"]:
        # the silent stop: no hang, no timeout
        assert not run["timed_out"] and model.outcome.kind == "no-result"
        assert model.halt is not None and model.halt.how == "small"
    if run["exit_code"] == 134:
        assert model.halt is not None and model.halt.how == "abort"
        assert any("We assume at least one NIC is alive" in x for x in run["stderr_tail"])
        assert "We assume at least one NIC is alive" in model.outcome.message


@pytest.mark.parametrize("run", RUNS)
def test_the_collectives_issued_and_the_last(run: dict[str, Any]) -> None:
    model = _model(run)
    issued = _issued(run)
    assert len(issued) == run["collectives_issued"] == model.issued
    layer, phase, kind, size = issued[-1]
    assert model.last_issued == (layer, phase)
    step = model.step_at(layer, phase)
    assert step.type.value == kind and step.size == size
    name = run["last_collective_issued"].split("for layer: ")[1].split(",")[0]
    assert model.reading.rows is not None and model.reading.rows.layers[layer].name == name


@pytest.mark.parametrize("run", RUNS)
def test_where_a_run_that_does_not_finish_stops(run: dict[str, Any]) -> None:
    model = _model(run)
    if run["all_passes_finished"]:
        assert model.halt is None
        return
    # it ends with the collective it has just issued: the last line of its stdout
    assert model.halt is not None and model.last_issued == (model.halt.index, model.halt.phase)
    assert model.outcome.layer == model.halt.index
    assert _ISSUED.match(_raw(run, "stdout").splitlines()[-1])
    if model.halt.how == "small":
        assert 0 < (model.step_at(model.halt.index, model.halt.phase).size or 0) < 4096


@pytest.mark.parametrize("run", RUNS)
def test_the_files_it_leaves_and_the_group_errors_it_logs(run: dict[str, Any]) -> None:
    model = _model(run)
    assert {(o.name, o.empty) for o in model.outputs()} == {
        (o["name"], o["empty"]) for o in run["output_files"]
    }
    counts = dict(run["simai_log"]["distinct_messages_with_counts"])
    assert model.groups is not None
    assert counts.get(f"[ERROR] {NO_GROUP}", 0) == model.groups.missing_group_logs


@pytest.mark.parametrize("run", RUNS)
def test_the_end_to_end_csv(run: dict[str, Any]) -> None:
    model = _model(run)
    empty = {o.name: o.empty for o in model.outputs()}
    recorded = run["end_to_end"]
    assert empty[END_TO_END] == recorded["empty"]
    if recorded["empty"]:
        assert model.end_to_end_lines is None
        return
    text = _raw(run, f"{END_TO_END}").splitlines()
    assert len(text) == recorded["lines"] == model.end_to_end_lines
    summary = run["version"] not in ("b83ea3d4", "02532997")
    assert recorded["has_summary_header"] == summary
    assert text[0].startswith("File name, ") == summary
    assert text[-1].startswith("total exposed comm,")
    older = [n for n in model.notes if "older format" in n]
    assert bool(older) == (not summary)


def test_every_recorded_version_and_case_is_replayed() -> None:
    """The four commits, and every case at each of them as results.json lists it."""
    runs = oracle_results(NS3_VERSIONS)
    if not runs:
        pytest.skip("../shared/simai-ns3-versions is absent")
    seen = {(r["version"], r["case"]) for r in runs}
    assert {v for v, _ in seen} == {"b83ea3d4", "02532997", "7f06c19c", "cef83f9d"}
    assert {c for _, c in seen} == set(_cases())


@pytest.mark.parametrize("run", RUNS)
def test_lint_for_the_ns3_target_flags_where_the_run_ends(run: dict[str, Any]) -> None:
    """`lint --target simai-ns3 --at V`: WK804 at the row of the small collective the run
    stops at, WK805 at the all-to-all it aborts at, nothing where it finishes."""
    from wkparse.config import Config
    from wkparse.engine import lint
    from wkparse.parse import parse_bytes

    model = _model(run)
    data = (NS3_VERSIONS / _cases()[run["case"]]["workload_file"]).read_bytes()
    config = Config().with_target("simai-ns3").with_simai(run["version"])
    found = {
        (d.code, d.span.line)
        for d in lint(parse_bytes(data), "workload.txt", config)
        if d.code.startswith("WK8")
    }
    expected: set[str] = set()
    if run["exit_code"] == 134:
        expected = {"WK805"}
    elif not run["all_passes_finished"]:
        expected = {"WK804"}
    assert {code for code, _ in found} == expected
    if expected:
        assert model.halt is not None and found == {(expected.pop(), model.halt.index + 3)}


def test_explain_under_the_ns3_target_heads_with_the_verdict_at_its_simai() -> None:
    from typer.testing import CliRunner

    from wkparse.cli import app

    path = str(require(NS3_VERSIONS / "cases" / "micro__allreduce_4B_row0.txt"))
    args = ["explain", "--target", "simai-ns3", "--format", "json", path]
    old = json.loads(CliRunner().invoke(app, [*args, "--at", "b83ea3d4"]).output)
    assert old["notes"][0].startswith("SimAI-Simulation will stop silently at line 3, layer 0")
    assert "exit 0 once the traffic before it is simulated" in old["notes"][0]
    now = json.loads(CliRunner().invoke(app, args).output)
    assert now["notes"][0].startswith("SimAI-Simulation will finish (exit 0)")


def test_a_small_weight_gradient_collective_is_waited_for_at_the_end() -> None:
    """From the source (not run): a weight-gradient collective is issued without waiting, so
    one that never completes lets the backward pass go on; the run waits for its stream at
    the end and exits 0 without `all passes finished`."""
    from wkparse.config import Config
    from wkparse.engine import lint
    from wkparse.parse import parse_bytes

    head = (
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: 1 vpp: 1 ga: 1 "
        "all_gpus: 4 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0\n3\n"
    )
    rows = [
        "embedding_layer\t-1\t100\tALLREDUCE\t8192\t100\tNONE\t0\t100\tNONE\t0\t100\n",
        "attention_layer\t-1\t100\tALLREDUCE\t8192\t100\tALLREDUCE\t8192\t100\tALLREDUCE\t64\t100\n",
        "mlp_layer\t-1\t100\tALLREDUCE\t8192\t100\tALLREDUCE\t8192\t100\tNONE\t0\t100\n",
    ]
    data = (head + "".join(rows)).encode()
    model = simulate_ns3(data)
    assert not model.finishes and model.outcome.exit_code == 0
    assert model.halt is not None and (model.halt.index, model.halt.phase) == (1, "wg")
    # every collective is issued: 3 forward, 2 input-gradient, the stuck weight-gradient one
    assert model.issued == 6 and model.last_issued == (1, "wg")
    assert "pass: 0 finished" in model.outcome.message
    config = Config().with_target("simai-ns3")
    found = [d for d in lint(parse_bytes(data), "workload.txt", config) if d.code == "WK804"]
    assert [(d.span.line, d.span.column) for d in found] == [
        (4, len("\t".join(rows[1].split("\t")[:10])) + 2)
    ]


@pytest.mark.parametrize(("tp", "said"), [(2, True), (4, False)])
def test_a_32_bit_count_is_of_one_message_not_the_collective(tp: int, said: bool) -> None:
    """Before a920cdc2 the ns-3 frontend counts one message between two GPUs in 32 bits: a
    5 GiB all-reduce over 2 GPUs has ring steps past 2^31, over 4 it has none."""
    from wkparse.models.simai.ns3 import simulate_ns3
    from wkparse.models.simai.versions import resolve

    head = (
        f"HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: {tp} ep: 1 pp: 1 vpp: 1 "
        "ga: 1 all_gpus: 8 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0\n1\n"
    )
    data = (head + "big -1 1 ALLREDUCE 5368709120 1 NONE 0 1 NONE 0 100\n").encode()
    run = simulate_ns3(data, 8, resolve("b83ea3d4"))
    assert any("32-bit int" in w for w in run.warnings) is said
