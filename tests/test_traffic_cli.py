"""`wkparse traffic`: the JSON keys, CSV, text, the topology given either way, exit codes and
one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tests.conftest import SAMPLES, SIMAI_TRAFFIC, needs
from wkparse.cli import app

runner = CliRunner()
TOPO16 = SIMAI_TRAFFIC / "topo" / "Rail_Opti_SingleToR_16g_8gps_400Gbps_H100"
DENSE = SIMAI_TRAFFIC / "cases" / "dense_tp1_16g.txt"
SAMPLE = SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt"


def traffic(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["traffic", *args])
    return result.exit_code, result.stdout, result.stderr


def as_json(*args: str) -> tuple[int, dict[str, Any]]:
    """`args` with `--format json` before SimAI_simulator's options (which follow `--`)."""
    words = list(args)
    at = words.index("--") if "--" in words else len(words)
    code, out, _ = traffic(*words[:at], "--format", "json", *words[at:])
    return code, json.loads(out)


def test_json_keys_are_the_contract() -> None:
    code, doc = as_json(str(SAMPLE), "-g", "8")
    assert code == 0
    assert list(doc) == [
        "gpus", "gpus_per_server", "nvswitches", "finished", "stop", "matrix", "non_gpu",
        "total_flows", "total_bytes", "intra_server_bytes", "inter_server_bytes", "sent_by_gpu",
        "received_by_gpu", "by_dimension", "by_layer", "rings", "simai",
    ]  # fmt: skip
    assert doc["finished"] is True and doc["stop"] is None
    assert "cef83f9" in doc["simai"]["model"] and "1.6" in doc["simai"]["model"]
    assert sum(x["flows"] for x in doc["by_layer"]) == doc["total_flows"]
    assert sum(d["bytes"] for d in doc["by_dimension"].values()) == doc["total_bytes"]
    assert doc["intra_server_bytes"] + doc["inter_server_bytes"] == doc["total_bytes"]
    assert doc["rings"]["TP"][0] == {"ranks": [0, 1], "servers": 1, "channels": 2, "ring": [0, 1]}


@needs(SIMAI_TRAFFIC)
def test_a_topology_file_and_counts_give_the_same_matrix() -> None:
    _, by_file = as_json(str(DENSE), "--", "-n", str(TOPO16))
    _, by_counts = as_json(str(DENSE), "-g", "16", "--gpus-per-server", "8")
    assert by_file["matrix"] == by_counts["matrix"] and by_file["matrix"]


@needs(SIMAI_TRAFFIC)
def test_a_pasted_command_line_with_its_variables(tmp_path: Path) -> None:
    line = f"AS_PXN_ENABLE=1 ./SimAI_simulator -t 1 -w {DENSE} -n {TOPO16} -c SimAI.conf"
    code, out, err = traffic(line, "--format", "json")
    doc = json.loads(out)
    assert code == 1 and doc["finished"] is False
    assert doc["stop"]["collective"] == "REDUCESCATTER" and doc["stop"]["phase"] == "wg"
    assert doc["simai"]["env"] == {"AS_PXN_ENABLE": "1"}
    assert "PXN" in err and len(err.strip().splitlines()) == 1
    # the text's first line states the outcome, as simai's does
    code, text, _ = traffic(line)
    stop = doc["stop"]
    assert text.startswith(f"{DENSE}: stops at layer {stop['layer']} (")
    # the collective is named once: "weight-gradient REDUCESCATTER of ... B in DP groups"
    first = text.splitlines()[0]
    assert first.count("weight-gradient REDUCESCATTER") == 1, first


def test_csv_and_text() -> None:
    code, out, _ = traffic(str(SAMPLE), "-g", "8", "--format", "csv")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "src,dst,bytes,flows" and len(lines) > 1
    assert all(len(x.split(",")) == 4 for x in lines[1:])
    code, out, _ = traffic(str(SAMPLE), "-g", "8")
    assert code == 0
    assert out.startswith(f"{SAMPLE}: finished: every pass completes (GPU traffic in ")
    for words in (
        "cef83f9",
        "busiest pairs",
        "rings",
        "finished",
        "most bytes by layer",
        "by phase",
    ):
        assert words in out


def test_output_file(tmp_path: Path) -> None:
    target = tmp_path / "m.csv"
    code, out, _ = traffic(str(SAMPLE), "-g", "8", "-f", "csv", "-o", str(target))
    assert code == 0 and out == "" and target.read_text().startswith("src,dst,bytes,flows\n")
    page = tmp_path / "m.html"
    code, out, _ = traffic(str(SAMPLE), "-g", "8", "-f", "html", "-o", str(page))
    assert code == 0 and out == "" and page.read_text().startswith("<!DOCTYPE html>")


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    cases = [
        ([str(SAMPLE)], "no topology"),
        ([str(SAMPLE), "--", "-g", "8"], "-g"),
        ([str(SAMPLE), "--", "-q"], "-q"),
        ([str(SAMPLE), "-g", "12"], "not a multiple"),
        ([str(SAMPLE), "--", "-n", str(tmp_path / "none")], "cannot read the topology"),
        ([str(tmp_path / "missing.txt"), "-g", "8"], "missing.txt"),
        ([str(SAMPLE), "--gpu-type", "H100"], "go with -g"),
    ]
    for args, named in cases:
        code, _, err = traffic(*args)
        assert code == 2, args
        assert named in err and len(err.strip().splitlines()) == 1, err
        assert "Traceback" not in err


def test_a_bad_topology_line_names_its_place(tmp_path: Path) -> None:
    topo = tmp_path / "topo"
    topo.write_text("90 8 x\n")
    code, _, err = traffic(str(SAMPLE), "--", "-n", str(topo))
    assert code == 2 and f"{topo}:1:" in err


def test_zero_gpus_per_server_is_refused_not_defaulted() -> None:
    code, out, err = traffic(str(SAMPLE), "-g", "8", "--gpus-per-server", "0")
    assert code == 2 and out == "" and "--gpus-per-server 0" in err


def test_one_nvswitch_is_said_in_the_singular() -> None:
    _, out, _ = traffic(str(SAMPLE), "-g", "8")
    assert "1 NVSwitch," in out


def test_standard_input_is_named_as_the_other_commands_name_it() -> None:
    result = runner.invoke(app, ["traffic", "-", "-g", "8"], input=SAMPLE.read_bytes())
    assert result.exit_code == 0
    assert result.stdout.startswith("<stdin>: finished: every pass completes")
