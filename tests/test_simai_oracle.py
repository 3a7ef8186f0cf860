"""Replay every case the real SimAI_analytical ran (../shared/simai-oracle/) through the model.

Each deterministic case must be predicted exactly: exit code, SimAI's messages, the header
values it prints, how many layers it creates, each layer's name, wg compute as printed, the
compute it reports per phase, the collectives it schedules (type, group, group size, bytes)
and `total comp`. A case whose runs differed is checked up to its first undefined layer.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import SIMAI_ORACLE, needs, oracle_results
from wkparse.models.simai import simulate
from wkparse.models.simai.outcome import FORMAT_MISMATCH
from wkparse.models.simai.run import SimaiRun

ORACLE = SIMAI_ORACLE
RESULTS = oracle_results(ORACLE)


def _varies(value: Any) -> bool:
    return isinstance(value, dict) and "varies" in value


def _layer_disagreements(run: SimaiRun, case: dict[str, Any], upto: int) -> list[str]:
    found: list[str] = []
    assert run.rows is not None
    for want in case["layers"]:
        i = want["index"]
        if i >= upto:
            break
        layer = run.rows.layers[i]
        plan = run.plan(layer)
        got: dict[str, Any] = {
            "name": layer.name,
            "depen": layer.reserved,
            "wg_comp_time": layer.wg.compute,
        }
        if "comm" in want:
            got["comm"] = [
                (p.type.value.lower(), p.group.value, p.group_size, p.size)
                for _, p in plan.scheduled()
            ]
            got["csv"] = [plan.fwd.compute_us, plan.wg.compute_us, plan.ig.compute_us]
        expected = {
            "name": want["name"],
            "depen": want["depen"],
            "wg_comp_time": want["wg_comp_time"],
            "comm": [
                (c["type"], c["group"], c["group_size"], c["data_size"])
                for c in want.get("comm", [])
            ],
            "csv": want.get("csv", [None] * 3)[:3],
        }
        for key, value in got.items():
            if not _varies(expected[key]) and value != expected[key]:
                found.append(f"layer {i} {key}: model {value!r}, SimAI {expected[key]!r}")
    return found


def disagreements(case: dict[str, Any]) -> list[str]:
    """Every way the model's prediction differs from what SimAI did on this case."""
    data = (ORACLE / "cases" / case["case"]).read_bytes()
    run = simulate(data, case["g"])
    found: list[str] = []

    def check(what: str, model: object, simai: object) -> None:
        if model != simai:
            found.append(f"{what}: model {model!r}, SimAI {simai!r}")

    codes = set(case["exit_codes"])
    if len(codes) == 1:
        check("exit code", run.outcome.exit_code, case["exit_codes"][0])
    hv = case["header_values"]
    check("format-mismatch warning", FORMAT_MISMATCH in run.warnings, hv["format_mismatch_warning"])
    tail = case["stderr_tail"]
    if run.outcome.kind in ("exception", "exit"):
        lines = run.outcome.message.split("\n")
        check("message", lines, tail[-len(lines) :])
    if "model_parallel_NPU_group_prints" in hv:
        check("TP prints", list(run.header.tp_prints), hv["model_parallel_NPU_group_prints"])
    for key, model in (
        ("checkpoints", run.header.checkpoints),
        ("checkpoint_initiates", run.header.checkpoint_initiates),
    ):
        if key in hv:
            check(key, list(model), hv[key])
    if "pp_commsize" in hv:
        check("pp_comm", run.header.held("pp_comm"), hv["pp_commsize"])
    if "lines" in hv:
        check("lines", run.lines, hv["lines"])
    if "type" in hv:
        check("policy", run.header.policy, hv["type"])
    if case["deterministic"]:
        check("layers created", run.layer_count, case["layers_read"][0])
    upto = len(case["layers"])
    if not case["deterministic"]:
        upto = run.first_undefined if run.first_undefined is not None else upto
    if run.rows is not None:
        found += _layer_disagreements(run, case, upto)
    if case["deterministic"]:
        total = (case.get("totals") or {}).get("total_comp")
        check("total comp", run.total_compute_us, total)
    return found


@needs(ORACLE)
@pytest.mark.parametrize("case", RESULTS, ids=[c["case"] for c in RESULTS])
def test_oracle_case_is_predicted(case: dict[str, Any]) -> None:
    assert disagreements(case) == []


@needs(ORACLE)
def test_every_oracle_case_is_replayed() -> None:
    """The oracle ships 47 cases; none may be skipped silently."""
    assert len(RESULTS) == 47


@needs(ORACLE)
@pytest.mark.parametrize("name", ["aicbex-v1-llama7b-tp2__clean.txt", "micro__clean.txt"])
def test_lint_says_what_the_model_predicts_for_a_missing_pp(name: str) -> None:
    """Lint reads the model: where SimAI dies of SIGFPE for a missing PP, WK201 says so."""
    from wkparse.engine import lint
    from wkparse.parse import parse_file

    path = ORACLE / "cases" / name
    run = simulate(path.read_bytes())
    found = [d for d in lint(parse_file(path), str(path)) if d.code == "WK201"]
    sigfpe = [d for d in found if "`pp:`" in d.message and "SIGFPE" in d.message]
    assert (run.outcome.exit_code == 136) == bool(sigfpe)
