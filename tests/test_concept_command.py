"""`wkparse concepts` and `wkparse concept` (issue 39): every name the issue asks about answers
in both languages, an unknown one gets the nearest names, and with a FILE the page's numbers
are the models' (the formulas recomputed here from the model's own parts, and against SimAI's
recorded EndToEnd.csv where a run exists)."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.conftest import SAMPLES, SIMAI_ORACLE_2, oracle_results
from tests.test_concepts import ASKED
from wkparse import concepts
from wkparse.cli import app
from wkparse.explanation.concept_numbers import file_run, numbers
from wkparse.models.simai.ns3 import make_groups
from wkparse.models.simai.tables import ComType

runner = CliRunner()
PIPELINED = SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"
MOE = SAMPLES / "mixtral-world32-tp2-pp2-ep8-sp-moe.txt"


def _run(args: list[str]) -> Any:
    return runner.invoke(app, args)


@pytest.mark.parametrize("name", ASKED)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_name_the_issue_asks_about_answers(name: str, lang: str) -> None:
    page = concepts.find(name)
    assert page is not None
    out = _run(["concept", name, "--lang", lang, "--format", "markdown"])
    assert out.exit_code == 0, out.output
    assert out.stdout.startswith(f"# {page.title(lang)}\n")
    assert page.definition(lang).splitlines()[0] in out.stdout


def test_a_name_that_starts_with_a_dash_is_a_name() -> None:
    out = _run(["concept", "-n_p_s", "--format", "json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["id"] == "n_p_s"


def test_text_output_renders_the_page() -> None:
    out = _run(["concept", "AS_LOG_LEVEL"])
    assert out.exit_code == 0
    assert "atoi" in out.stdout and "# " not in out.stdout


def test_an_unknown_name_exits_2_with_the_nearest_names() -> None:
    out = _run(["concept", "AS_LOG_LEVLE"])
    assert out.exit_code == 2
    assert "did you mean AS_LOG_LEVEL" in out.stderr
    assert out.stdout == ""


def test_concepts_lists_one_kind() -> None:
    out = _run(["concepts", "--kind", "formula", "--format", "json"])
    listed = json.loads(out.stdout)
    assert {p["kind"] for p in listed} == {"formula"}
    assert len(listed) == len(concepts.concepts("formula"))
    assert _run(["concepts", "--kind", "nonsense"]).exit_code == 2


def test_concepts_lists_every_page_in_chinese() -> None:
    out = _run(["concepts", "--lang", "zh"])
    assert out.exit_code == 0
    assert "流水线气泡" in out.stdout


def test_json_holds_both_languages_and_the_sources() -> None:
    page = json.loads(_run(["concept", "FCT_OUTPUT_FILE", "--format", "json"]).stdout)
    assert page["definition"]["en"] and page["definition"]["zh"]
    assert page["sources"][0]["repo"] == "aliyun/SimAI"


def test_an_unreadable_file_exits_2(tmp_path: Path) -> None:
    out = _run(["concept", "bubble", str(tmp_path / "absent.txt")])
    assert out.exit_code == 2
    assert "absent.txt" in out.stderr


def test_options_simai_refuses_exit_2() -> None:
    out = _run(["concept", "bubble", str(PIPELINED), "--", "-busbw", "x.yaml"])
    assert out.exit_code == 2
    assert "-busbw" in out.stderr


def test_with_a_file_the_page_gives_its_numbers() -> None:
    out = _run(["concept", "bubble", str(PIPELINED), "--format", "json"])
    got = {n["label"]["en"]: n["value"]["en"] for n in json.loads(out.stdout)["numbers"]}
    run = file_run(PIPELINED.read_bytes(), str(PIPELINED), [])
    assert run.report is not None
    assert got["bubble time"] == f"{run.report.totals['bubble_time_us']:.0f} us"
    zh = _run(["concept", "气泡", str(PIPELINED), "--lang", "zh", "--format", "markdown"])
    assert "气泡时间" in zh.stdout


def _value(page_id: str, run: Any, label: str) -> str:
    return next(n.value.en for n in numbers(page_id, run) if n.label.en == label)


def test_the_bubble_is_the_base_scaled_by_pp_over_ga_vpp() -> None:
    run = file_run(PIPELINED.read_bytes(), str(PIPELINED), [])
    assert run.report is not None
    h = run.header
    # every layer but one named embedding_layer, as the page says
    rows = [layer for _, layer in run.report.rows()]
    base_ns = sum(layer.bubble_ns for layer in rows if layer.name != "embedding_layer")
    expected = base_ns / 1000 * (h.held("pp") - 1) / (h.held("ga") * h.held("vpp"))
    assert h.held("pp") > 1
    assert math.isclose(run.report.totals["bubble_time_us"], expected, rel_tol=1e-9)
    assert _value("bubble", run, "bubble time") == f"{expected:.0f} us"


def test_busbw_and_algbw_follow_their_formulas_for_every_collective() -> None:
    run = file_run(MOE.read_bytes(), str(MOE), [])
    assert run.report is not None
    checked = 0
    for _, layer in run.report.distinct():
        for phase in ("fwd", "wg", "ig"):
            p = layer.phase(phase)
            if p.com is ComType.NONE or p.total.ns == 0:
                continue
            algbw = p.size / (p.total.ns / 1000) * 1e6 / 2**30
            assert math.isclose(p.algbw, algbw, rel_tol=1e-6)
            n = p.ranks
            factor = 2 * (n - 1) / n if p.com is ComType.ALLREDUCE else (n - 1) / n
            assert math.isclose(p.busbw, p.algbw * factor, rel_tol=1e-6)
            checked += 1
    assert checked > 5
    listed = numbers("busbw", run)
    assert listed and all("busbw" in n.value.en for n in listed)


def test_each_collective_is_named_by_its_line_as_lint_names_rows(tmp_path: Path) -> None:
    """A collective's row is its line of the file (lint and explain name rows so), not
    SimAI's layer number from 0, which the Chinese page called a line ('第 0 行')."""
    path = tmp_path / "two.txt"
    path.write_text(
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: 1 vpp: 1 ga: 1 "
        "all_gpus: 8 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0\n2\n"
        "grad_gather -1 1 NONE 0 1 NONE 0 1 ALLGATHER 1048576 100\n"
        "attention_layer -1 1000 ALLREDUCE 1048576 1000 NONE 0 1000 NONE 0 100\n"
    )
    run = file_run(path.read_bytes(), str(path), [])
    labels = [(n.label.en, n.label.zh) for n in numbers("busbw", run)]
    assert labels[0][0].startswith("line 3 grad_gather wg: ALLGATHER")
    assert labels[0][1].startswith("第 3 行 grad_gather wg")
    assert labels[1][0].startswith("line 4 attention_layer fwd: ALLREDUCE")


def test_dp_is_gpus_over_tp_pp_and_ns3_groups_ignore_pp() -> None:
    run = file_run(MOE.read_bytes(), str(MOE), ["-g", "32", "-g_p_s", "8", "-n_p_s", "8"])
    tp, pp, ep = (run.header.held(k) for k in ("tp", "pp", "ep"))
    assert run.dp == 32 // (tp * pp) and pp > 1
    assert _value("dp", run, "DP = -g / (TP x PP)") == str(32 // (tp * pp))
    assert _value("ns3-dp", run, "DP = GPUs / TP") == str(32 // tp)
    assert make_groups(tp, ep, 32).dp_ep == 32 // tp // ep


def test_grad_rows_carry_2_and_4_bytes_per_parameter() -> None:
    """The AICB model writes grad_gather = 2 x and grad_param_comm = 4 x the same count."""
    from wkparse.api import aicb

    command = (
        "python -m workload_generator.SimAI_training_workload_generator"
        " --comp_filepath workload/aiob_inputs/Example.txt --frame Megatron --world_size 8"
        " --tensor_model_parallel_size 2 --pipeline_model_parallel 1"
        " --global_batch 16 --micro_batch 1 --seq_length 2048 --model_name gpt_7B"
        " --num_layers 2 --hidden_size 1024 --num_attention_heads 8 --aiob_enable"
    )
    text = aicb(command).text()
    sizes = {f[0]: int(f[10]) for f in (line.split() for line in text.splitlines()) if len(f) >= 12}
    assert sizes["grad_param_comm"] == 2 * sizes["grad_gather"] > 0
    data = text.encode()
    run = file_run(data, "workload.txt", [])
    params = _value("grad-gather", run, "parameters other than MoE = size / 2")
    assert int(params) * 2 == sizes["grad_gather"]
    assert _value("grad-param-comm", run, "parameters other than MoE = size / 4") == params


def _recorded_totals(case: dict[str, Any]) -> dict[str, float]:
    text = gzip.decompress((SIMAI_ORACLE_2 / case["raw_csv"]).read_bytes()).decode()
    keys, values = text.splitlines()[:2]
    cells = [v.split(" (")[0] for v in values.split(", ")[1:]]
    names = [k.strip() for k in keys.split(",")[1:]]
    return {k: float(v) for k, v in zip(names, cells)}


def _case(name: str) -> dict[str, Any]:
    found = [c for c in oracle_results(SIMAI_ORACLE_2) if c["case"] == name]
    if not found:
        pytest.skip(f"{SIMAI_ORACLE_2} is absent")
    return found[0]


@pytest.mark.parametrize("name", ["seed7b__default", "seed7b__pp_o-0.5", "mixtral-ep8__default"])
def test_the_pages_numbers_are_simais_recorded_ones(name: str) -> None:
    case = _case(name)
    path = SIMAI_ORACLE_2 / case["workload"]
    words = [w for w in case["options"]]
    run = file_run(path.read_bytes(), str(path), words)
    recorded = _recorded_totals(case)
    assert _value("bubble", run, "bubble time") == f"{recorded['bubble time']:.0f} us"
    pp = _value("expose-pp-comm", run, "Expose_PP_comm")
    assert pp == f"{recorded['Expose_PP_comm']:.0f} us"
    assert _value("total-time", run, "total time") == f"{recorded['Total time']:.0f} us"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_run_that_ends_is_said_before_the_numbers(tmp_path: Path, lang: str) -> None:
    """A file SimAI stops on at line 1 (blank) gives its ending, not the zeros SimAI holds
    nor a DP of Python's None; one that stops later (a count stoi throws on) gives its ending
    first, then the numbers it read, DP not reached."""
    rows = PIPELINED.read_text().split("\n", 2)
    blank = tmp_path / "blank.txt"
    blank.write_text("\n" + "\n".join(rows[1:]))
    out = _run(["concept", "dp", str(blank), "--lang", lang]).stdout
    assert "139" in out and "None" not in out and "TP: 0" not in out
    count = tmp_path / "count.txt"
    count.write_text("\n".join([rows[0], "abc", rows[2]]))
    out = _run(["concept", "dp", str(count), "--format", "json", "--lang", lang]).stdout
    got = [(n["label"]["en"], n["value"]["en"]) for n in json.loads(out)["numbers"]]
    assert got[0][0] == "how SimAI's run ends" and got[0][1].startswith("exit 134: ")
    assert ("TP", "4") in got
    assert got[-1] == ("DP = -g / (TP x PP)", "not reached (the run ends before SimAI computes it)")


def test_a_total_that_is_not_finite_reads_as_simai_prints_it(tmp_path: Path) -> None:
    """No `vpp:`: the bubble divides by zero; the page says `NaN or Inf`, as EndToEnd.csv,
    simai and explain say it, not Python's `nan`."""
    path = tmp_path / "novpp.txt"
    path.write_text(PIPELINED.read_text().replace(" vpp: 9", "", 1))
    out = _run(["concept", "bubble", str(path), "--format", "json"]).stdout
    got = {n["label"]["en"]: n["value"]["en"] for n in json.loads(out)["numbers"]}
    assert got["bubble time"] == "NaN or Inf us"
