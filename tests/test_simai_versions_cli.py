"""`--at REV`, `simai = "REV"` and `wkparse simai --versions`: the SimAI a user built, on the
command line, in the configuration, in every output, and in lint and explain."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import SIMAI_VERSIONS, needs
from wkparse.cli import app
from wkparse.models.simai.versions import SWITCHES, VERSIONS

runner = CliRunner()
needs_versions = needs(SIMAI_VERSIONS)

#: SimAI v1.0's own example header (no pp_comm) and AICB's of 2024-12 on (pp_comm)
MICRO = (
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 8 ep: 1 pp: 1 vpp: 8 ga: 1 "
    "all_gpus: 8 checkpoints: 0 checkpoint_initiates: 0{pp_comm}\n{count}\n{rows}"
)
ROW = "embedding_layer\t-1\t556000\tALLREDUCE\t{size}\t1\tNONE\t0\t1\tNONE\t0\t1\n"


def _file(tmp_path: Path, pp_comm: str = "", size: int = 16777216, rows: int = 1) -> Path:
    path = tmp_path / "micro.txt"
    text = MICRO.format(pp_comm=pp_comm, count=rows, rows=ROW.format(size=size) * rows)
    path.write_text(text)
    return path


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_at_takes_a_commit_a_date_or_a_release(tmp_path: Path) -> None:
    path = str(_file(tmp_path))
    for rev, short in (("03613a7a", "03613a7a"), ("2024-12-10", "03613a7a"), ("1.6", "f5efb5a9")):
        code, out, _ = _run("simai", path, "--at", rev, "-f", "json")
        assert code == 0
        assert json.loads(out)["simai"]["short"] == short, rev
    _code, out, _ = _run("simai", path, "-f", "json")
    assert json.loads(out)["simai"]["commit"].startswith("cef83f9")


def test_unknown_revision_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = _run("simai", str(_file(tmp_path)), "--at", "2023-01-01")
    assert code == 2
    assert "2023-01-01" in err


def test_text_names_the_simai_it_describes(tmp_path: Path) -> None:
    _code, out, _ = _run("simai", str(_file(tmp_path)), "--at", "b1c1eb66")
    assert out.splitlines()[1] == "SimAI: b1c1eb66 (2024-11-19, SimAI 1.0), SimAI_analytical"


def test_configuration_names_the_simai_and_at_beats_it(tmp_path: Path) -> None:
    path = str(_file(tmp_path, " pp_comm: 0"))
    (tmp_path / ".wkparse.toml").write_text('simai = "b1c1eb66"\n')
    code, out, _ = _run("simai", path, "-f", "json")
    doc = json.loads(out)
    # v1.0 reads the count from `pp_comm:`: 0 layers, index < SIZE
    assert (doc["simai"]["short"], doc["outcome"]["exit_code"], doc["lines"]) == (
        "b1c1eb66",
        134,
        0,
    )
    code, out, _ = _run("simai", path, "-f", "json", "--at", "cef83f9")
    assert json.loads(out)["outcome"]["exit_code"] == 0
    code, out, _ = _run("lint", path)
    assert "WK230" in out and code == 1
    assert _run("lint", path, "--at", "2025-01-13")[0] == 0


def test_bad_configured_simai_is_reported(tmp_path: Path) -> None:
    path = str(_file(tmp_path))
    (tmp_path / ".wkparse.toml").write_text('simai = "not-a-version"\n')
    code, _, err = _run("simai", path)
    assert code == 2
    assert "simai" in err and "not-a-version" in err


def test_versions_lists_every_revision_and_what_changed(tmp_path: Path) -> None:
    code, out, _ = _run("simai", "--versions")
    assert code == 0
    for v in VERSIONS:
        assert v.label in out
    for s in SWITCHES:
        assert f"from {s.commit}: {s.after}" in out
        # issue 41: in versions and programs, not the tests' switch and case names
        assert f"  {s.name} " not in out
    assert "__" not in out  # a recorded case's name
    assert "(default)" in out.splitlines()[-1] or "cef83f9d" in out


@pytest.mark.parametrize(
    ("at", "word", "said"),
    [
        ("cef83f9", "-busbw", "accepted until 26b4574b: SimAI b1c1eb66 … 4e66932a"),
        ("4e66932a", "-nv", "accepted from 26b4574b: SimAI 26b4574b … cef83f9d"),
        ("4e66932a", "-bogus", "no SimAI version accepts it"),
        ("cef83f9", "-bogus", "no SimAI version accepts it"),
        ("26b4574b", "-l", "accepted from f5efb5a9: SimAI f5efb5a9 … cef83f9d"),
    ],
)
def test_a_refused_option_is_named_with_the_versions_that_accept_it(
    tmp_path: Path, at: str, word: str, said: str
) -> None:
    path = str(_file(tmp_path))
    code, out, err = _run("simai", path, "--at", at, "--", "-g", "8", word, "3", "-g_p_s", "8")
    # wkparse's own exit says "problems found"; SimAI's 255 is in the verdict
    assert code == 1
    assert f"does not know `{word}` ({said})" in err
    assert "(exit 255)" in out.splitlines()[0]
    assert f"does not know `{word}`" in out.splitlines()[0]
    code, out, _ = _run("simai", path, "--at", at, "-f", "json", "--", "-g", "8", word, "3")
    assert said in json.loads(out)["outcome"]["reason"]


def test_old_parser_prints_its_own_refusal(tmp_path: Path) -> None:
    path = str(_file(tmp_path))
    code, _, err = _run("simai", path, "--at", "4e66932a", "--", "-g", "8", "-nv", "360")
    assert code == 1
    assert err.startswith(
        "Error: Unknown option '-nv'.\n-h,       --help                Help message\n"
    )


@needs_versions
def test_csv_is_each_versions_end_to_end_csv(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = json.loads((SIMAI_VERSIONS / "results.json").read_text())
    for short, case in (("b1c1eb66", "micro__default"), ("03613a7a", "micro__default")):
        got = next(
            r
            for r in runs
            if r["version"]["short"] == short and r["case"] == case and r["variant"] == "native"
        )
        monkeypatch.chdir(SIMAI_VERSIONS)  # -busbw busbw.yaml is read from the working folder
        _code, out, _ = _run(
            "simai", "cases/micro.txt", "--at", short, "-f", "csv", "--", *got["options"]
        )
        want = gzip.decompress((SIMAI_VERSIONS / got["raw"]["csv"]).read_bytes()).decode()
        assert out == want
    # b1c1eb66's totals line has 9 fields, 03613a7a's 10 (Expose_PP_comm)
    assert "Expose_PP_comm" in out


@needs_versions
def test_json_exit_code_of_a_hang_is_124(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(SIMAI_VERSIONS)
    options = ["-w", "x", "-g", "32", "-busbw", "busbw.yaml", "-g_p_s", "8", "-r", "x-"]
    _code, out, _ = _run(
        "simai",
        "cases/gpt22b__fwd_compute_2147483647.txt",
        "--at",
        "03613a7a",
        "-f",
        "json",
        "--",
        *options[2:],
    )
    doc = json.loads(out)
    assert (doc["outcome"]["exit_code"], doc["outcome"]["kind"]) == (124, "hang")


def test_lint_at_old_versions(tmp_path: Path) -> None:
    with_key = str(_file(tmp_path, " pp_comm: 0"))
    code, out, _ = _run("lint", with_key, "--at", "b1c1eb66")
    assert code == 1 and "error[WK230]" in out and "'pp_comm:'" in out
    assert _run("lint", with_key)[0] == 0
    assert _run("lint", with_key, "--at", "03613a7a")[0] == 0
    floated = tmp_path / "floated.txt"
    floated.write_text(
        MICRO.replace("pp: 1", "pp: 2").format(
            pp_comm=" pp_comm: 16777216.0", count=1, rows=ROW.format(size=16777216)
        )
    )
    code, out, _ = _run("lint", str(floated), "--at", "03613a7a", "--select", "WK230")
    assert code == 1 and "'.0'" in out
    assert _run("lint", str(floated), "--at", "b83ea3d4", "--select", "WK230")[0] == 0
    assert _run("lint", str(floated), "--at", "yesterday")[0] == 2


def test_lint_a_one_gpu_tp_group_warns_only_from_26b4574b(tmp_path: Path) -> None:
    path = tmp_path / "tp1.txt"
    path.write_text(
        MICRO.replace("model_parallel_NPU_group: 8", "model_parallel_NPU_group: 1").format(
            pp_comm=" pp_comm: 0", count=1, rows=ROW.format(size=67108864)
        )
    )
    assert "WK702" in _run("lint", str(path), "--select", "WK702")[1]
    assert "WK702" in _run("lint", str(path), "--select", "WK702", "--at", "26b4574b")[1]
    assert "WK702" not in _run("lint", str(path), "--select", "WK702", "--at", "4e66932a")[1]


def test_explain_names_the_simai(tmp_path: Path) -> None:
    path = str(_file(tmp_path, " pp_comm: 0"))
    _code, out, _ = _run("explain", path, "--at", "1.0", "-f", "json")
    doc = json.loads(out)
    assert doc["simai_report"]["simai"] == "b1c1eb66 (2024-11-19, SimAI 1.0)"
    assert doc["simai_report"]["outcome"]["exit_code"] == 134
    assert _run("explain", path, "--at", "0.1")[0] == 2


def test_ns3_before_the_small_message_fix_stops_silently(tmp_path: Path) -> None:
    """A 4-byte forward all-reduce at b83ea3d4: exit 0 within seconds, no finished pass, an
    empty EndToEnd.csv (recorded: ../shared/simai-ns3-versions micro__allreduce_4B_row0), not
    a hang."""
    path = str(_file(tmp_path, size=4))
    code, out, _ = _run("simai", path, "--backend", "ns3", "--at", "2025-01-16", "-f", "json")
    assert code == 1
    doc = json.loads(out)
    assert doc["simai"]["short"] == "b83ea3d4"
    assert (doc["outcome"]["exit_code"], doc["outcome"]["kind"]) == (0, "no-result")
    assert doc["halt"]["how"] == "small" and doc["issued"]["last"] == {"index": 0, "phase": "fwd"}
    message = doc["outcome"]["message"]
    assert "recorded at b83ea3d4" in message and "micro__allreduce_4B_row0" in message
    assert "not run" not in message and "124" not in message
    _code, out, _ = _run("simai", path, "--backend", "ns3", "-f", "json")
    assert json.loads(out)["outcome"]["kind"] == "ok"


def test_ns3_an_input_gradient_under_4_kib_is_not_raised(tmp_path: Path) -> None:
    """7f06c19c raises forward sizes only (Workload.cc): a 4-byte input-gradient all-reduce
    stops the run at cef83f9 too, from the source."""
    path = tmp_path / "ig.txt"
    row = "embedding_layer\t-1\t556000\tALLREDUCE\t16777216\t1\tALLREDUCE\t4\t1\tNONE\t0\t1\n"
    path.write_text(MICRO.format(pp_comm="", count=1, rows=row))
    code, out, _ = _run("simai", str(path), "--backend", "ns3", "-f", "json")
    doc = json.loads(out)
    assert (code, doc["outcome"]["exit_code"], doc["halt"]["phase"]) == (1, 0, "ig")
    assert "forward sizes only" in doc["outcome"]["message"]
    assert doc["outcome"]["message"].endswith("from the source, not run")


def test_ns3_before_02532997_has_no_alltoall(tmp_path: Path) -> None:
    path = tmp_path / "ata.txt"
    path.write_text(
        MICRO.format(pp_comm="", count=1, rows=ROW.format(size=16777216)).replace(
            "ALLREDUCE", "ALLTOALL"
        )
    )
    code, out, _ = _run("simai", str(path), "--backend", "ns3", "--at", "2024-12-19")
    assert code == 1
    assert "02532997" in out and "SimAI#44" in out and "not run" in out
    code, out, _ = _run("simai", str(path), "--backend", "ns3", "--at", "02532997")
    assert "SimAI#44" not in out


def test_ns3_before_a920cdc2_warns_of_32_bit_sizes(tmp_path: Path) -> None:
    path = str(_file(tmp_path, size=17 * 2**30))  # over the TP 8 group: ring steps past 2^31
    _code, out, _ = _run("simai", path, "--backend", "ns3", "--at", "26b4574b")
    assert "before a920cdc2" in out and "32-bit int" in out and "not run" in out
    assert "32-bit int" not in _run("simai", path, "--backend", "ns3", "--at", "1.6")[1]


def test_python_api_takes_at(tmp_path: Path) -> None:
    from wkparse import api
    from wkparse.models.simai.versions import UnknownVersion

    path = _file(tmp_path, " pp_comm: 0")
    assert api.simai(path, at="1.0").outcome.exit_code == 134
    assert api.simai(path).outcome.exit_code == 0
    with pytest.raises(UnknownVersion):
        api.simai(path, at="0.9")


def test_ns3_before_b83ea3d4_reads_by_position_and_says_how_that_is_known(tmp_path: Path) -> None:
    path = str(_file(tmp_path, " pp_comm: 0"))
    code, out, _ = _run("simai", path, "--backend", "ns3", "--at", "1.0", "-f", "json")
    doc = json.loads(out)
    assert (code, doc["outcome"]["exit_code"]) == (1, 134)
    assert any("by position" in n and "not run" in n for n in doc["notes"])
    code, out, _ = _run("simai", path, "--backend", "ns3", "-f", "json")
    assert not any("by position" in n for n in json.loads(out)["notes"])


def test_a_run_that_stops_before_dp_says_so(tmp_path: Path) -> None:
    """v1.0 reads its count from `pp_comm:` and asserts before it computes DP: TP and PP are
    set, so the text says DP was not reached, not that TP x PP is 0 (nor a Python None)."""
    path = str(_file(tmp_path, pp_comm=" pp_comm: 0"))
    _code, out, _ = _run("simai", path, "--at", "b1c1eb66")
    assert "DP not reached (the run stops before SimAI computes it)" in out
    assert "TP x PP is 0" not in out and "None" not in out
