"""`--target simai-ns3` (WK8xx): the crash and the silent stop SimAI-Simulation meets, flagged
at their rows on real AICB files and on every recorded case, and silence under the default
(analytical) target."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import NS3_ORACLE, ns3_cases
from wkparse.cli import app
from wkparse.config import Config
from wkparse.diagnostics import Diagnostic
from wkparse.engine import lint
from wkparse.models.aicb import generate
from wkparse.models.simai.ns3 import simulate_ns3
from wkparse.parse import parse_bytes

NS3 = Config().with_target("simai-ns3")
#: AICB's script for Mixtral 8x7B with expert parallelism 1 (tp 4, pp 2, 16 GPUs): the
#: non-AIOB MoE path writes ALLTOALL_EP rows all the same
MIXTRAL_EP1 = (
    "python -m workload_generator.SimAI_training_workload_generator --frame Megatron "
    "--model_name Mixtral_8x7B --world_size 16 --tensor_model_parallel_size 4 "
    "--pipeline_model_parallel 2 --expert_model_parallel_size 1 --moe_enable --num_experts 8 "
    "--moe_router_topk 2 --global_batch 32 --micro_batch 1 --seq_length 8192 "
    "--enable_sequence_parallel --use_flash_attn"
)
GPT7B = (
    "aicb-generated/aicb-2025-12/aiob-None-gpt_7B-world_size16-tp1-pp1-ep1-gbs64-mbs1-seq2048-"
    "MOE-False-GEMM-False-flash_attn-True.txt"
)


def _ns3_findings(data: bytes, config: Config = NS3) -> list[Diagnostic]:
    return [d for d in lint(parse_bytes(data), "workload.txt", config) if d.code.startswith("WK8")]


def test_aicb_mixtral_with_ep_1_crashes_at_its_first_expert_all_to_all() -> None:
    data = generate(MIXTRAL_EP1).text().encode()
    found = _ns3_findings(data)
    assert [(d.code, d.span.line) for d in found] == [("WK801", 10)]
    assert found[0].message == "ALLTOALL_EP with ep: 1: SimAI-Simulation crashes here (SIGSEGV)"
    lines = data.decode().splitlines()
    assert lines[9].split()[0] == "mlp_moelayer" and "ALLTOALL_EP" in lines[9]
    assert not any("ALLTOALL_EP" in line for line in lines[2:9])
    # the same row as `wkparse simai --backend ns3`, and nothing under the default target
    model = simulate_ns3(data)
    assert model.halt is not None and model.halt.index + 3 == 10
    assert _ns3_findings(data, Config()) == []
    # with ep 2 the groups exist: nothing to say
    two = data.replace(b" ep: 1 ", b" ep: 2 ", 1)
    assert _ns3_findings(two) == []


def test_aicb_gpt_file_with_a_huge_compute_stops_at_that_row(corpus: Path) -> None:
    data = (corpus / GPT7B).read_bytes()
    assert _ns3_findings(data) == []
    lines = data.split(b"\n")
    fields = lines[152].split(b"\t")
    assert fields[0] == b"mlp_layer"
    fields[2] = b"3000000000"
    lines[152] = b"\t".join(fields)
    found = _ns3_findings(b"\n".join(lines))
    assert [(d.code, d.span.line, d.span.column) for d in found] == [
        ("WK802", 153, len(b"\t".join(fields[:2])) + 2)
    ]
    assert "stops here silently (exit 0, empty results)" in found[0].message
    assert _ns3_findings(b"\n".join(lines), Config()) == []


@pytest.mark.parametrize("case", ns3_cases())
def test_every_recorded_crash_and_stop_is_flagged_at_its_row(case: dict[str, object]) -> None:
    data = (NS3_ORACLE / str(case["workload_file"])).read_bytes()
    model = simulate_ns3(data)
    found = {(d.code, d.span.line) for d in _ns3_findings(data) if d.code != "WK803"}
    exits = {r["exit_code"] for r in case["runs"]}  # type: ignore[attr-defined]
    if 139 in exits:
        assert model.halt is not None
        assert found == {("WK801", model.halt.index + 3)}
    elif model.halt is not None:
        assert exits == {0}
        assert found == {("WK802", model.halt.index + 3)}
    else:
        assert found == set()
    assert _ns3_findings(data, Config()) == []


def test_long_run_is_opt_in() -> None:
    if not NS3_ORACLE.is_dir():
        pytest.skip("no ../shared/simai-ns3-oracle")
    data = (NS3_ORACLE / "cases" / "small.txt").read_bytes()
    assert _ns3_findings(data) == []
    selected = NS3.with_command_line(("WK803",), None)
    found = _ns3_findings(data, selected)
    assert [d.code for d in found] == ["WK803"]
    assert found[0].message.startswith("581.1 GB on the wire: 830 s of SimAI-Simulation at")
    micro = (NS3_ORACLE / "cases" / "micro.txt").read_bytes()
    assert _ns3_findings(micro, selected) == []


def test_target_from_the_configuration_and_in_explain(tmp_path: Path) -> None:
    data = generate(MIXTRAL_EP1).text().encode()
    path = tmp_path / "workload.txt"
    path.write_bytes(data)
    runner = CliRunner()
    plain = runner.invoke(app, ["lint", "--select", "WK8", str(path)])
    assert plain.exit_code == 0, plain.output
    (tmp_path / ".wkparse.toml").write_text('target = "simai-ns3"\n')
    configured = runner.invoke(app, ["lint", "--select", "WK8", str(path)])
    assert configured.exit_code == 1 and "WK801" in configured.output
    explained = runner.invoke(app, ["explain", "--format", "json", str(path)])
    assert explained.exit_code == 0
    (tmp_path / ".wkparse.toml").unlink()
    doc = json.loads(runner.invoke(app, ["explain", "--format", "json", str(path)]).output)
    assert "WK801" not in json.dumps(doc)
    doc = json.loads(
        runner.invoke(
            app, ["explain", "--target", "simai-ns3", "--format", "json", str(path)]
        ).output
    )
    assert "WK801" in json.dumps(doc)
    # and the ns-3 verdict heads explain's notes
    assert doc["notes"][0].startswith("SimAI-Simulation will crash at line 10, layer 7")
    bad = runner.invoke(app, ["explain", "--target", "ns-3", str(path)])
    assert bad.exit_code == 2
