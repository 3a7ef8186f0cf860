"""`wkparse diff` predicts SimAI-Analytical's Total time change under explain's stated option
set, and names the layers that cause it (samples/ files: they run without ../shared)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import CORPUS, SAMPLES, require
from wkparse.cli import app
from wkparse.explanation.simai_report import simai_report

runner = CliRunner()
SAMPLE = SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"
OTHER = SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt"


def wkdiff(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["diff", *args])
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout


def _edited(tmp_path: Path, compute: int | None) -> Path:
    """The sample with the first attention_layer's fwd compute doubled (or set to `compute`)."""
    lines = SAMPLE.read_text().split("\n")
    i = next(i for i, line in enumerate(lines) if line.startswith("attention_layer"))
    fields = lines[i].split("\t")
    fields[2] = str(compute if compute is not None else int(fields[2]) * 2)
    lines[i] = "\t".join(fields)
    path = tmp_path / "edited.txt"
    path.write_text("\n".join(lines))
    return path


def _total(path: Path) -> float:
    return simai_report(path.read_bytes(), str(path)).totals["total_time_us"]


def test_doubled_attention_compute_in_text(tmp_path: Path) -> None:
    b = _edited(tmp_path, None)
    code, out = wkdiff(str(SAMPLE), str(b))
    assert code == 1
    title = "SimAI-Analytical Total time (-g 128 -g_p_s 8 -n_p_s 8, SimAI's default bandwidths)"
    assert title in out
    assert "[-7,999,170.65 µs-]{+8,001,000.13 µs+} (+1,829.48 µs, +0.02%)" in out
    line = "layer 9 attention_layer (line 11): [-5,655.31 µs-]{+7,475.31 µs+} (+1,820.00 µs)"
    assert line in out


def test_json_has_totals_as_explain_predicts_them(tmp_path: Path) -> None:
    b = _edited(tmp_path, None)
    doc = json.loads(wkdiff(str(SAMPLE), str(b), "--format", "json")[1])
    s = doc["simai_total_time"]
    assert s["options"] == {"a": "-g 128 -g_p_s 8 -n_p_s 8", "b": "-g 128 -g_p_s 8 -n_p_s 8"}
    assert s["a"]["total_time_us"] == _total(SAMPLE)
    assert s["b"]["total_time_us"] == _total(b)
    assert math.isclose(s["change_us"], _total(b) - _total(SAMPLE))
    assert s["layers"] == [
        {
            "index": 8,
            "name_a": "attention_layer",
            "line_a": 11,
            "name_b": "attention_layer",
            "line_b": 11,
            "a_us": 5655.312,
            "b_us": 7475.312,
            "change_us": 1820.0,
        }
    ]


def test_markdown_shows_the_change_and_its_layer(tmp_path: Path) -> None:
    out = wkdiff(str(SAMPLE), str(_edited(tmp_path, None)), "--format", "markdown")[1]
    assert "7,999,170.65 µs -> 8,001,000.13 µs (+1,829.48 µs, +0.02%)" in out
    assert "| 9: attention_layer (line 11) | 5,655.31 µs | 7,475.31 µs | +1,820.00 µs |" in out


def test_a_hang_is_said_not_numbered(tmp_path: Path) -> None:
    """2**31 ns wraps SimAI's int time argument: no total on that side."""
    b = _edited(tmp_path, 2**31)
    out = wkdiff(str(SAMPLE), str(b))[1]
    assert "[-7,999,170.65 µs-]{+never finishes (hangs at line 11)+}" in out
    assert "(no change in µs: one side has no total)" in out
    s = json.loads(wkdiff(str(SAMPLE), str(b), "--format", "json")[1])["simai_total_time"]
    assert s["b"] == {
        "total_time_us": None,
        "kind": "hang",
        "why": "never finishes (hangs at line 11)",
    }
    assert s["change_us"] is None and s["change_percent"] is None


def test_each_side_runs_under_its_own_all_gpus() -> None:
    out = wkdiff(str(SAMPLE), str(OTHER))[1]
    assert "(a: -g 128 -g_p_s 8 -n_p_s 8; b: -g 8 -g_p_s 8 -n_p_s 8; SimAI's" in out


def test_equal_files_have_no_simai_change(tmp_path: Path) -> None:
    copy = tmp_path / "copy.txt"
    copy.write_bytes(SAMPLE.read_bytes())
    code, out = wkdiff(str(SAMPLE), str(copy), "--format", "json")
    assert code == 0 and json.loads(out)["simai_total_time"] is None


def test_a_corpus_pair_matches_explain(seed_workload: Path) -> None:
    """The seed against the same model at tp 1 (a real AICB pair): each side's total is the
    one explain's "What SimAI-Analytical will report" predicts."""
    other = require(
        CORPUS
        / "aicb-generated"
        / "aicb-2025-12"
        / "aiob-None-gpt_7B-world_size16-tp1-pp1-ep1-gbs64-mbs1-seq2048-MOE-False-GEMM-False-"
        "flash_attn-True.txt"
    )
    doc = json.loads(wkdiff(str(seed_workload), str(other), "--format", "json")[1])
    s = doc["simai_total_time"]
    for side, path in (("a", seed_workload), ("b", other)):
        want = simai_report(path.read_bytes(), str(path)).totals.get("total_time_us")
        got = s[side]["total_time_us"]
        assert got == want or (got is None and (want is None or not math.isfinite(want)))
    assert s["layers"] and abs(s["layers"][0]["change_us"]) >= abs(s["layers"][-1]["change_us"])


def test_an_absurd_total_says_why(seed_workload: Path) -> None:
    """A tp 1 file's TP collective runs in a one-GPU group: SimAI prints 9.2e15 us."""
    other = require(
        CORPUS
        / "aicb-generated"
        / "aicb-2025-12"
        / "aiob-None-gpt_7B-world_size16-tp1-pp1-ep1-gbs64-mbs1-seq2048-MOE-False-GEMM-False-"
        "flash_attn-True.txt"
    )
    out = wkdiff(str(seed_workload), str(other))[1]
    assert "  b: layer 3's input-gradient collective runs in a group of one GPU (TP 1)" in out


def _long(groups: int, compute: int, count_extra: int = 0) -> bytes:
    """A file of `groups` groups of three rows, its attention compute `compute`, its count
    line `count_extra` past its rows (SimAI then repeats a phantom last layer)."""
    rows = []
    for g in range(groups):
        rows += [
            "embedding_layer\t-1\t5\tALLREDUCE\t8192\t5\tNONE\t0\t5\tNONE\t0\t100",
            f"attention_layer\t-1\t{compute + g % 3}\tALLREDUCE\t8192\t5\tALLREDUCE\t8192\t5\t"
            "NONE\t0\t100",
            "mlp_layer\t-1\t9\tALLREDUCE\t8192\t9\tALLREDUCE\t8192\t9\tNONE\t0\t100",
        ]
    header = (
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: 1 vpp: 1 "
        f"ga: {groups} all_gpus: 4 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0"
    )
    return "\n".join([header, str(len(rows) + count_extra), *rows, ""]).encode()


def test_biggest_layer_changes_are_the_same_found_in_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """On files past NUMPY_FROM rows the rows whose cost changed are found by numpy; the
    changes shown are the ones the row-by-row loop finds (sides of unequal length, a
    phantom tail, costs that tie)."""
    from wkparse.difference import simai as difference_simai
    from wkparse.difference.simai import simai_change

    pairs = [
        (_long(1500, 40), _long(1500, 41)),
        (_long(1500, 40), _long(1600, 40)),
        (_long(1500, 40, count_extra=7), _long(1500, 40)),
    ]
    for a, b in pairs:
        assert len(a.splitlines()) > difference_simai.NUMPY_FROM
        in_c = simai_change(a, "a.txt", b, "b.txt").layers
        monkeypatch.setattr(difference_simai, "NUMPY_FROM", 10**9)
        assert simai_change(a, "a.txt", b, "b.txt").layers == in_c and in_c
        monkeypatch.undo()


def test_each_side_runs_at_the_simai_its_configuration_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`simai = "REV"` in the configuration: diff predicts each side at that SimAI, as lint
    and explain of the file do (4e66932a's bandwidth model gives another total)."""
    from wkparse.models.simai.versions import resolve

    a = tmp_path / "a.txt"
    a.write_bytes(SAMPLE.read_bytes())
    b = _edited(tmp_path, None)
    default = json.loads(wkdiff(str(a), str(b), "--format", "json")[1])["simai_total_time"]
    (tmp_path / ".wkparse.toml").write_text('simai = "4e66932a"\n')
    monkeypatch.chdir(tmp_path)
    older = json.loads(wkdiff(str(a), str(b), "--format", "json")[1])["simai_total_time"]
    at = resolve("4e66932a")
    expected = simai_report(a.read_bytes(), str(a), None, at).totals["total_time_us"]
    assert older["a"]["total_time_us"] == expected != default["a"]["total_time_us"]
