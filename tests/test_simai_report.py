"""Replay both SimAI oracles through the backend model: every EndToEnd.csv byte for byte,
every hang as a hang, every refusal with SimAI's exit code and stderr.

`../shared/simai-oracle-2/` holds each case's options and raw CSV; `../shared/simai-oracle/`
holds each layer's CSV cells and the summary line, from which its CSV is rebuilt. Cases share
a few base files: each is read from disk once.
"""

from __future__ import annotations

import gzip
import json
import math
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SAMPLES, SIMAI_ORACLE, SIMAI_ORACLE_2, oracle_params, oracle_results
from wkparse.models.simai import simulate
from wkparse.models.simai.options import USAGE_LINE, Refusal, parse, result_name
from wkparse.models.simai.report import LAYER_HEADER, RUN_NAME, SUMMARY_KEYS
from wkparse.models.simai.run import SimaiRun

#: the option set of every ../shared/simai-oracle case (besides -w, -g and -r)
ORACLE_1_OPTIONS = ["-nv", "360", "-nic", "48.5", "-n_p_s", "8", "-g_p_s", "8"]


@cache
def _bytes(path: Path) -> bytes:
    return path.read_bytes()


def _run2(case: dict[str, Any]) -> SimaiRun:
    return simulate(_bytes(SIMAI_ORACLE_2 / case["workload"]), None, parse(case["options"]))


def _csv(run: SimaiRun) -> str | None:
    """The EndToEnd.csv the model says SimAI leaves (None: SimAI creates none)."""
    if run.report is not None:
        return run.report.csv()
    return "" if run.outcome.kind in ("hang", "no-result") else None


@pytest.mark.parametrize("case", oracle_params(SIMAI_ORACLE_2))
def test_oracle_2_case_is_predicted_byte_for_byte(case: dict[str, Any]) -> None:
    run = _run2(case)
    raw = case.get("raw_csv")
    want = gzip.decompress((SIMAI_ORACLE_2 / raw).read_bytes()).decode() if raw else None
    assert _csv(run) == want
    code = case["exit_codes"][0]
    if code == 124:
        assert run.outcome.kind == "hang"
    else:
        assert run.outcome.exit_code == code
    if case.get("raw_stderr"):
        stderr = gzip.decompress((SIMAI_ORACLE_2 / case["raw_stderr"]).read_bytes()).decode()
        if run.outcome.kind == "no-result" and run.report is not None:
            from wkparse.models.simai.outcome import CALLABLE_REMOVED

            assert stderr == CALLABLE_REMOVED + "\n"
        else:
            assert stderr == run.outcome.message + "\n"


def _oracle_1_csv(case: dict[str, Any]) -> str:
    rows = "".join(
        f"{layer['name']},{RUN_NAME}," + ",".join(str(x) for x in layer["csv"]) + "\n"
        for layer in case["layers"]
    )
    return f"{SUMMARY_KEYS}\n{case['totals_line']}\n{','.join(case['csv_header'])}\n{rows}"


ORACLE_1_WITH_CSV = [
    c for c in oracle_results(SIMAI_ORACLE) if c["deterministic"] and c.get("totals_line")
]


@pytest.mark.parametrize("case", oracle_params(SIMAI_ORACLE, ORACLE_1_WITH_CSV))
def test_oracle_1_case_is_predicted_byte_for_byte(case: dict[str, Any]) -> None:
    name = case["case"].removesuffix(".txt")
    argv = ["-w", case["case"], "-g", str(case["g"]), *ORACLE_1_OPTIONS, "-r", f"{name}-"]
    run = simulate(_bytes(SIMAI_ORACLE / "cases" / case["case"]), None, parse(argv))
    assert run.report is not None
    assert run.report.csv() == _oracle_1_csv(case)


def test_the_oracles_are_all_replayed() -> None:
    """70 cases in part 2, and the 30 of part 1 that wrote a summary (the other 17 end before
    one: the reader model's tests replay those)."""
    if not oracle_results(SIMAI_ORACLE_2):
        pytest.skip("../shared is absent")
    assert len(oracle_results(SIMAI_ORACLE_2)) == 70
    assert len(ORACLE_1_WITH_CSV) == 30


def test_layer_header_names_the_run() -> None:
    assert LAYER_HEADER.format(run=RUN_NAME).startswith("layer_name,Analytical_test,fwd compute")


@pytest.mark.parametrize(
    ("words", "code"),
    [
        (["-w", "f.txt", "-g", "8", "-g_p_s", "8", "-busbw", "busbw.yaml"], 255),
        (["-w", "f.txt", "-g", "8", "-h"], 255),
        (["-w", "f.txt", "-g", "8", "-l", "fr", "-g_p_s", "8"], 255),
        (["-w", "f.txt", "-g", "8"], 136),
        (["-w", "f.txt", "-g", "x8", "-g_p_s", "8"], 134),
    ],
)
def test_option_parser_refuses_as_simai_does(words: list[str], code: int) -> None:
    got = parse(words)
    assert isinstance(got, Refusal)
    assert got.exit_code == code
    if code == 255:
        assert got.stderr.endswith(USAGE_LINE)


def test_pasted_command_line_is_read() -> None:
    got = parse("./bin/SimAI_analytical -w a.txt -g 128 -g_p_s 8 -nv 360 -nic 48.5 -r name-")
    assert not isinstance(got, Refusal)
    assert (got.gpus, got.gpus_per_server, got.nvlink, got.nic) == (128, 8, 360.0, 48.5)
    assert result_name(got) == "name-"


def test_default_result_name_comes_from_the_file_name() -> None:
    """No -r: SimAI names the result from the world_size/tp/pp/... numbers in the file name,
    with the NIC bandwidth x 8 and the DP overlap."""
    got = parse(["-w", "dir/gpt_7B-world_size128-tp4-pp4-ep1-gbs1024-mbs1-seq4096.txt"])
    assert not isinstance(got, Refusal)
    assert result_name(got) == "gpt_7B-tp4-pp4-dp8-ga128-ep1-NVL0--8.0G-DP0.0-"


def test_a_one_gpu_tp_group_costs_two_to_the_63_ns() -> None:
    """Group of one GPU: busbw 0, the time's (n-1)/n is 0 x inf = NaN, a Tick of 2**63."""
    from wkparse.models.simai.comm import Network
    from wkparse.models.simai.tables import ComType, GroupType

    opts = parse(["-g", "16", "-g_p_s", "8", "-n_p_s", "8", "-nv", "360", "-r", "x-"])
    assert not isinstance(opts, Refusal)
    got = Network(opts, 1, 1).time(ComType.ALLREDUCE, GroupType.TP, 1, 1 << 26)
    assert got.ns == 2**63 and got.retcode == 1
    assert not math.isfinite(0 * float("inf"))


def _cli(*args: str) -> tuple[int, str]:
    from typer.testing import CliRunner

    from wkparse.cli import app

    result = CliRunner().invoke(app, ["simai", *args])
    return result.exit_code, result.stdout


def _case2(name: str) -> dict[str, Any]:
    found = [c for c in oracle_results(SIMAI_ORACLE_2) if c["case"] == name]
    if not found:
        pytest.skip("../shared/simai-oracle-2 is absent")
    return found[0]


@pytest.mark.parametrize("name", ["micro__default", "seed7b__nps4", "gpt7b-tp1pp1__overlap"])
def test_cli_csv_is_simais_csv_whether_pasted_or_after_dashes(name: str) -> None:
    case = _case2(name)
    path = str(SIMAI_ORACLE_2 / case["workload"])
    options = [path if w == Path(case["workload"]).name else w for w in case["options"]]
    want = gzip.decompress((SIMAI_ORACLE_2 / case["raw_csv"]).read_bytes()).decode()
    code, out = _cli(path, "--format", "csv", "--", *options)
    assert out == want
    pasted = " ".join(["./bin/SimAI_analytical", *options])
    assert _cli("--format", "csv", "--", pasted)[1] == want
    assert _cli("--format", "csv", "--", "./bin/SimAI_analytical", *options)[1] == want
    assert code == (1 if name.startswith("gpt7b-tp1pp1") else 0)


def test_cli_refusal_tells_simais_exit_code_and_exits_1() -> None:
    """SimAI's 255 is in the JSON; wkparse's own exit code is 1 (issue 32)."""
    case = _case2("micro__busbw")
    path = str(SIMAI_ORACLE_2 / case["workload"])
    code, out = _cli(path, "-f", "csv", "--", "-g", "8", "-g_p_s", "8", "-busbw", "busbw.yaml")
    assert (code, out) == (1, "")
    code, out = _cli(path, "-f", "json", "--", "-g", "8", "-g_p_s", "8", "-busbw", "busbw.yaml")
    assert code == 1 and json.loads(out)["outcome"]["exit_code"] == case["exit_codes"][0] == 255


def test_cli_json_names_the_row_that_hangs() -> None:
    import json

    case = _case2("gpt22b__fwd_compute_2147483647")
    code, out = _cli(str(SIMAI_ORACLE_2 / case["workload"]), "-f", "json")
    doc = json.loads(out)
    assert code == 1
    assert doc["outcome"]["kind"] == "hang"
    assert (doc["outcome"]["layer"], doc["outcome"]["line"]) == (30, 33)
    assert doc["result"] is None


def test_cli_json_total_is_null_when_simai_prints_nan_or_inf() -> None:
    import json

    found = [c for c in ORACLE_1_WITH_CSV if c["case"].startswith("aicb2410")]
    if not found:
        pytest.skip("../shared/simai-oracle is absent")
    code, out = _cli(str(SIMAI_ORACLE / "cases" / found[0]["case"]), "-f", "json")
    totals = json.loads(out)["result"]["totals"]
    assert code == 1
    assert totals["total_time_us"] is None and totals["bubble_time_us"] is None


def test_cli_warns_where_options_and_file_do_not_fit() -> None:
    case = _case2("gpt22b__g8")
    path = str(SIMAI_ORACLE_2 / case["workload"])
    code, out = _cli(path, "--", "-g", "8", "-g_p_s", "64", "-n_p_s", "4", "-r", "x-")
    assert code == 1
    assert "warning: -g 8 differs from all_gpus 32" in out
    assert "DP is 0 and SimAI costs every DP collective 0" in out
    assert "-n_p_s 4 is below TP 8" in out
    assert "-g_p_s 64 exceeds -g 8" in out


def test_cli_json_layers_keep_numbers_apart_from_flags(tmp_path: Path) -> None:
    """Layers' JSON is made from remembered pieces; an update time of 1 or 0 is a number,
    never the `true` or `false` of the flag beside it (1 == True to a dict)."""
    head = (
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: 1 vpp: 1 ga: 1 "
        "all_gpus: 2 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0"
    )
    rows = [
        f"layer{i}\t-1\t10\tALLREDUCE\t4096\t10\tNONE\t0\t10\tNONE\t0\t{i % 2}" for i in range(4)
    ]
    path = tmp_path / "w.txt"
    path.write_text("\n".join([head, "4", *rows]) + "\n")
    code, out = _cli(str(path), "-f", "json", "--", "-g", "2")
    layers = json.loads(out)["layers"]
    assert code == 0
    assert [(x["defined"], x["update_ns"]) for x in layers] == [(True, i % 2) for i in range(4)]
    assert all(type(x["update_ns"]) is int for x in layers)


def test_cli_a_gpu_count_of_5000_digits_is_refused_as_simai_refuses_it(tmp_path: Path) -> None:
    """`-g` alone takes wkparse's stated options with that -g: a number past an int (here
    past Python's 4,300-digit conversion limit too) is what SimAI's stoi refuses."""
    code, out = _cli(str(SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt"), "--", "-g", "9" * 5000)
    assert code == 1
    assert "SimAI will refuse the command line (exit 134)" in out and "Traceback" not in out
