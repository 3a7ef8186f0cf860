"""`wkparse simai`: the JSON contract, the text verdict and the exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.fuzzing import watchdog
from tests.conftest import SAMPLES, SIMAI_ORACLE, needs
from wkparse.cli import app

ORACLE = SIMAI_ORACLE
CASES = ORACLE / "cases"
runner = CliRunner()
needs_oracle = needs(ORACLE)


def simai(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["simai", *args])
    return result.exit_code, result.stdout


def simai_json(*args: str) -> tuple[int, dict[str, Any]]:
    code, out = simai(*args, "--format", "json")
    return code, json.loads(out)


@needs_oracle
def test_json_contract_of_a_clean_file() -> None:
    code, doc = simai_json(str(CASES / "micro__clean.txt"))
    assert code == 0
    assert list(doc) == [
        "simai", "outcome", "warnings", "header", "lines", "dp", "unread_rows", "layers",
        "layers_not_listed", "first_undefined", "totals", "options", "option_warnings", "result",
    ]  # fmt: skip
    assert doc["layers_not_listed"] == 0
    assert doc["simai"]["short"] == "cef83f9d"
    assert doc["outcome"] == {
        "exit_code": 0,
        "kind": "ok",
        "message": "SimAI-Analytical finished.",
        "layer": None,
        "line": None,
    }
    assert list(doc["header"]) == [
        "policy", "tp", "ep", "pp", "vpp", "ga", "all_gpus", "pp_comm", "checkpoints",
        "checkpoint_initiates",
    ]  # fmt: skip
    assert (doc["lines"], doc["dp"], doc["first_undefined"]) == (2, 1, None)
    assert doc["totals"] == {"compute_us": 1112}
    first = doc["layers"][0]
    assert list(first) == [
        "index", "source_line", "name", "defined", "fwd", "ig", "wg", "update_ns",
    ]  # fmt: skip
    assert first["fwd"] == {
        "compute_ns": 556000,
        "compute_us": 556,
        "type": "ALLREDUCE",
        "group": "TP",
        "group_size": 8,
        "size": 16777216,
        "scheduled": True,
    }
    assert (first["index"], first["source_line"], first["name"]) == (0, 3, "embedding_layer")


@needs_oracle
def test_g_overrides_all_gpus_for_dp_and_group_sizes() -> None:
    path = str(CASES / "gpt22b__clean.txt")
    _, default = simai_json(path)
    _, wide = simai_json(path, "-g", "64")
    assert (default["dp"], wide["dp"]) == (2, 4)
    assert wide["layers"][0]["wg"]["group_size"] == 4


@needs_oracle
def test_text_gives_the_verdict_first() -> None:
    code, out = simai(str(CASES / "gpt22b__extra_token_middle.txt"))
    first = out.splitlines()[0]
    assert code == 1
    assert first.endswith(
        "SimAI will read 31 real layers, then 32 layers with undefined values, then finish "
        "(exit 0); the total it prints is wrong"
    )
    assert "the stream failed at line 34, column 1" in out


@needs_oracle
def test_text_names_the_float_rounding_of_a_size() -> None:
    code, out = simai(str(CASES / "gpt22b__size_not_float_exact.txt"))
    assert code == 0
    assert "size 201326593 simulated as 201326592 (through a 32-bit float)" in out


@needs_oracle
def test_a_clean_file_shows_no_departures() -> None:
    code, out = simai(str(CASES / "gpt22b__clean.txt"))
    assert code == 0 and "departs" not in out


@needs_oracle
@pytest.mark.parametrize(
    ("case", "exit_code", "kind"),
    [
        ("micro__bom.txt", 1, "exit"),
        ("gpt22b__count_empty.txt", 134, "exception"),
        ("astra10-DATA__clean.txt", 136, "signal"),
        ("gpt22b__key_no_value_last.txt", 139, "signal"),
    ],
)
def test_simai_endings_are_reported_and_fail_the_command(
    case: str, exit_code: int, kind: str
) -> None:
    code, doc = simai_json(str(CASES / case))
    assert code == 1
    assert (doc["outcome"]["exit_code"], doc["outcome"]["kind"]) == (exit_code, kind)


def test_unreadable_path_and_bad_g_are_usage_errors(tmp_path: Path) -> None:
    assert simai(str(tmp_path / "missing.txt"))[0] == 2
    assert simai(str(tmp_path))[0] == 2
    (tmp_path / "w.txt").write_text("MICRO\n1\n")
    assert simai(str(tmp_path / "w.txt"), "-g", "0")[0] == 2


SAMPLE = SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt"


@pytest.mark.parametrize("options", [["-nv", "360"], ["-g"], ["-g_type", "H100"]])
def test_options_without_g_or_g_p_s_predict_sigfpe_not_a_traceback(options: list[str]) -> None:
    """No -g: the parser never divides by -g_p_s (absent, read as 0); the first
    collective's placement does, and SimAI dies of SIGFPE (undefined without -g)."""
    result = runner.invoke(app, ["simai", str(SAMPLE), "-f", "json", "--", *options])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    outcome = json.loads(result.stdout)["outcome"]
    assert result.exit_code == 1 and outcome["exit_code"] == 136
    assert "-g_p_s 0" in outcome["message"]


@pytest.mark.parametrize("where", ["option", "after --"])
def test_a_g_out_of_int_range_is_stois_refusal(where: str) -> None:
    big = str(2**64)
    args = ["-g", big, str(SAMPLE)] if where == "option" else [str(SAMPLE), "--", "-g", big]
    result = runner.invoke(app, ["simai", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    # SimAI's 134 is told in the output; wkparse's own exit is 1 (issue 32)
    assert result.exit_code == 1 and "std::out_of_range" in result.stdout
    assert "(exit 134)" in result.stdout and "std::out_of_range" in result.stderr


def test_an_unclosed_quote_in_a_pasted_command_line_is_a_usage_error() -> None:
    result = runner.invoke(app, ["simai", f"./bin/SimAI_analytical -w {SAMPLE} -g 'x"])
    assert result.exit_code == 2 and "No closing quotation" in result.stderr
    result = runner.invoke(app, ["explain", str(SAMPLE), "--simai-options", "-g '8"])
    assert result.exit_code == 2 and "--simai-options" in result.stderr


def test_a_refusal_by_signal_says_why_though_simai_prints_nothing() -> None:
    code, out = simai(str(SAMPLE), "--", "-g", "8", "-g_p_s", "0")
    assert code == 1 and "(exit 136): -g / -g_p_s with -g_p_s 0: SIGFPE" in out


def test_stdin_is_read(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simai", "-", "-f", "json"], input=b"NOPE\n1\n")
    assert json.loads(result.stdout)["outcome"]["exit_code"] == 1


def test_parse_json_simai_view_is_the_models_reading(tmp_path: Path) -> None:
    """`pp_comm: 8388608.0` reads 8388608, as WK216 and `wkparse simai` say; the last `pp:`
    wins; `mode:` is read nowhere; a value stoi throws on is null."""
    path = tmp_path / "w.txt"
    path.write_text(
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: x pp: 2 pp: 4 vpp: 1 "
        "ga: 1 all_gpus: 8 mode: 1 pp_comm: 8388608.0\n0\n"
    )
    result = runner.invoke(app, ["parse", str(path), "--format", "json"])
    simai_view = json.loads(result.stdout)["header"]["simai"]
    assert simai_view == {
        "model_parallel_NPU_group": 2,
        "ep": None,
        "pp": 4,
        "vpp": 1,
        "ga": 1,
        "all_gpus": 8,
        "pp_comm": 8388608,
    }
    lint = runner.invoke(app, ["lint", str(path), "--format", "json", "--select", "WK216"])
    assert "8388608" in json.loads(lint.stdout)[0]["message"]


def test_json_of_many_layers_is_written_in_chunks_and_stays_valid(tmp_path: Path) -> None:
    row = "attention_layer -1 1000 ALLREDUCE 2097152 1000 NONE 0 1000 NONE 0 100"
    path = tmp_path / "w.txt"
    path.write_text(
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: 1 vpp: 1 ga: 1 "
        f"all_gpus: 2 pp_comm: 0\n25000\n{row}\n"
    )
    code, doc = simai_json(str(path))
    layers = doc["layers"]
    assert code == 1 and doc["first_undefined"] == 1
    assert [x["index"] for x in layers] == list(range(25000))
    assert (layers[0]["source_line"], layers[20000]["source_line"]) == (3, None)
    assert layers[24999]["name"] == "" and not layers[24999]["defined"]


def test_json_of_two_billion_made_up_layers_lists_a_bounded_number(tmp_path: Path) -> None:
    """A count line of 2,147,483,647 over one row: SimAI makes that many layers; the JSON lists
    the first `TAIL_LISTED` of the identical ones and counts the rest (listing all of them
    wrote for hours: found by the long fuzz run)."""
    from wkparse.render.simai.json import TAIL_LISTED

    row = "attention_layer -1 1000 ALLREDUCE 2097152 1000 NONE 0 1000 NONE 0 100"
    path = tmp_path / "w.txt"
    path.write_text(
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: 1 vpp: 1 ga: 1 "
        f"all_gpus: 2 pp_comm: 0\n2147483647\n{row}\n"
    )
    with watchdog(120):
        code, doc = simai_json(str(path))
    assert code == 1 and doc["lines"] == 2**31 - 1
    assert len(doc["layers"]) == 1 + TAIL_LISTED
    assert doc["layers_not_listed"] == 2**31 - 2 - TAIL_LISTED
    assert doc["layers"][-1]["index"] == TAIL_LISTED
    if doc["result"] is not None:  # the EndToEnd.csv of as many rows, the same way
        assert len(doc["result"]["layers"]) == 1 + TAIL_LISTED
        assert doc["result"]["layers_not_listed"] == doc["layers_not_listed"]


def test_rows_past_the_count_line_are_named(tmp_path: Path) -> None:
    """Issue 32: line 2 says 1200 where 1230 rows follow; simai said "will read all 1200
    layers" and never mentioned the 30 rows SimAI ignores."""
    sample = SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"
    path = tmp_path / "short.txt"
    path.write_text(sample.read_text().replace("\n1230\n", "\n1200\n", 1) + "\n\n")
    code, out = simai(str(path))
    assert code == 1  # as lint's WK105 error
    first = out.splitlines()[0]
    assert "30 rows after them, never read" in first and "1,200" in first, first
    code, doc = simai_json(str(path))
    assert doc["unread_rows"] == 30 and doc["lines"] == 1200
    _, whole = simai_json(str(sample))
    assert whole["unread_rows"] == 0


def test_a_refusal_in_csv_says_why_and_exits_1(tmp_path: Path) -> None:
    """Issue 32: on a file whose name holds no tp/pp, csv printed nothing and exited 136."""
    path = tmp_path / "good.txt"
    path.write_bytes((SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt").read_bytes())
    options = ["-g", "128", "-g_p_s", "8", "-n_p_s", "8", "-nv", "360", "-nic", "48.5"]
    result = runner.invoke(app, ["simai", str(path), "--format", "csv", "--", *options])
    assert result.exit_code == 1
    assert "exit 136" in result.stderr and "tp/pp" in result.stderr


MICRO = "MICRO\n2\n" + "layer\t-1\t100\tNONE\t0\t100\tNONE\t0\t100\tALLREDUCE\t1048576\t100\n" * 2


@pytest.mark.parametrize(
    "args",
    [
        ["--format", "text"],
        ["--format", "json"],
        ["--format", "csv"],
        ["--backend", "ns3"],
        ["--backend", "ns3", "--format", "json"],
        ["--format", "csv", "--", "-g", "8", "-bogus", "3"],
        ["--format", "json", "--", "-g", "8", "-g_p_s", "0"],
    ],
    ids=" ".join,
)
def test_every_exit_is_0_1_or_2_and_a_1_says_why_on_stderr(args: list[str], tmp_path: Path) -> None:
    """wkparse's own exit codes in every format; SimAI's code is in the output, not the exit."""
    short = SAMPLE.read_text().split("\n")
    short[1] = str(int(short[1]) - 3)
    files = {"micro.txt": MICRO, "short.txt": "\n".join(short), "sample.txt": SAMPLE.read_text()}
    for name, text in files.items():
        path = tmp_path / name
        path.write_text(text)
        result = runner.invoke(app, ["simai", str(path), *args])
        assert result.exit_code in (0, 1), (name, result.exit_code)
        if result.exit_code:
            assert result.stderr.strip(), (name, args)


def test_what_no_recorded_run_shows_is_said_to_come_from_source() -> None:
    """Issue 32: "no -n_p_s: SimAI reads 0 NICs per server" rested on no recorded run (SimAI's
    source leaves the value uninitialised): it must say "from SimAI's source, not run"."""
    results = SIMAI_ORACLE.parent / "simai-oracle-2" / "results.json"
    if results.is_file():  # every recorded run without -n_p_s or -g stopped in the parser
        for case in json.loads(results.read_text()):
            if "-n_p_s" not in case["options"] or "-g" not in case["options"]:
                assert set(case["exit_codes"]) == {255}, case["case"]
    result = runner.invoke(app, ["simai", str(SAMPLE), "-f", "json", "--", "-g_p_s", "8"])
    warnings = json.loads(result.stdout)["option_warnings"]
    assert any(w.startswith("no -n_p_s") for w in warnings)
    assert any(w.startswith("no -g") for w in warnings)
    for w in warnings:
        if w.startswith(("no -n_p_s", "no -g")):
            assert "from SimAI's source, not run" in w, w
            assert "reads 0 NICs" not in w


@pytest.mark.parametrize("quoted", [True, False])
def test_variables_before_a_pasted_command_are_its_environment(quoted: bool) -> None:
    """Issue 41: `AS_SEND_LAT=3 ./bin/SimAI_analytical ...` pasted (quoted or not) is SimAI's
    run with those variables, which SimAI_analytical never reads: the same run, said so."""
    line = ["AS_SEND_LAT=3", "AS_NVLS_ENABLE=1", "./bin/SimAI_analytical", "-w", str(SAMPLE)]
    line += ["-g", "8", "-g_p_s", "8", "-n_p_s", "8", "-r", "x-"]
    result = runner.invoke(app, ["simai", " ".join(line)] if quoted else ["simai", *line])
    bare = runner.invoke(app, ["simai", " ".join(line[2:])])
    assert result.exit_code == bare.exit_code == 0, result.output
    assert "SimAI's options: AS_SEND_LAT=3 AS_NVLS_ENABLE=1 SimAI_analytical -w" in result.stdout
    assert "note: AS_SEND_LAT, AS_NVLS_ENABLE: SimAI_analytical reads no environment" in (
        result.stdout
    )
    total = [x for x in result.stdout.splitlines() if x.startswith("EndToEnd.csv")]
    assert total == [x for x in bare.stdout.splitlines() if x.startswith("EndToEnd.csv")]


def test_simai_options_before_the_double_dash_say_where_they_go() -> None:
    """Issue 41: `FILE -g 128 -g_p_s 8` read `-g_p_s` as `-g _p_s` ("Invalid value for
    '-g'"); one line says to put SimAI's options after `--`."""
    result = runner.invoke(app, ["simai", str(SAMPLE), "-g", "128", "-g_p_s", "8", "-n_p_s", "8"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: -g_p_s is an option of SimAI's, not of wkparse: put SimAI's options after "
        f"`--` (wkparse simai {SAMPLE} -- -g 128 -g_p_s 8 -n_p_s 8)"
    ]


def _without_vpp(tmp_path: Path) -> Path:
    """A PP 4 file without `vpp:`: SimAI reads vpp 0, its bubble divides by zero."""
    text = (SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt").read_text()
    path = tmp_path / "novpp.txt"
    path.write_text(text.replace(" vpp: 9", "", 1))
    assert "vpp" not in path.read_text().split("\n", 1)[0]
    return path


def test_a_nan_total_is_the_outcome_in_the_first_line(tmp_path: Path) -> None:
    """Issue 41: a run that finishes with Total time NaN opened "then finish (exit 0)", its
    exit-1 reason was the format warning and its JSON outcome "ok"."""
    path = _without_vpp(tmp_path)
    result = runner.invoke(app, ["simai", str(path)])
    assert result.exit_code == 1
    first = result.stdout.splitlines()[0]
    assert "then finish (exit 0), but Total time is NaN or Inf: the bubble" in first
    assert "with ga 64 and vpp 0" in first
    assert result.stderr.startswith(f"exit 1: {path}: {first.split(': ', 1)[1]}")
    code, doc = simai_json(str(path))
    assert code == 1
    assert (doc["outcome"]["exit_code"], doc["outcome"]["kind"]) == (0, "nan")
    assert doc["outcome"]["message"].startswith("Total time is NaN or Inf: the bubble")


def test_a_sigfpe_in_the_option_parser_is_said_once_per_stream() -> None:
    """Issue 41: the SIGFPE was said three times (the verdict, a note, the exit-1 line)."""
    result = runner.invoke(app, ["simai", str(SAMPLE), "--", "-g", "8", "-n_p_s", "8"])
    assert result.exit_code == 1
    assert result.stdout.count("SIGFPE") == 1
    assert result.stderr.count("SIGFPE") == 1 and result.stderr.startswith("exit 1: ")


def test_simai_options_after_the_file_name_keep_the_file_in_the_example() -> None:
    """`-g_p_s 8 -n_p_s 8 FILE`: the example puts FILE before `--`, not after SimAI's
    options with `FILE` as a placeholder."""
    result = runner.invoke(app, ["simai", "-g_p_s", "8", "-n_p_s", "8", str(SAMPLE)])
    assert result.exit_code == 2
    assert result.stderr.strip().endswith(f"(wkparse simai {SAMPLE} -- -g_p_s 8 -n_p_s 8)")


def test_lang_says_simai_writes_english() -> None:
    """`--lang zh`, as lint and explain take it: simai's output is English, and SimAI's
    own --lang (en or ja) is no Chinese."""
    result = runner.invoke(app, ["simai", "--lang", "zh", str(SAMPLE)])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: --lang: wkparse simai writes English only (`wkparse explain --lang zh` "
        "explains in Chinese); SimAI's own -l/--lang (en or ja) goes after `--`"
    ]
