"""Triage states of the user's run only what the models back: a total that rests on an
uninitialised NIC count is not quoted, and SimAI_simulator's DP group is set against the
file's DP where the pipeline makes them differ."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SAMPLES
from wkparse import triage

FILE = "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"


def _answers(tmp_path: Path, sample: str, thread: str) -> str:
    """The answers to `thread` with `sample` attached to it as run.txt."""
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "run.txt").write_bytes((SAMPLES / sample).read_bytes())
    link = "[run.txt](https://github.com/user-attachments/files/123/run.txt)\n"
    result = triage(thread + link, attachments=folder)
    return "\n".join(a.answer for a in result.answers)


def _analytical(tmp_path: Path, options: str) -> str:
    return _answers(
        tmp_path,
        FILE,
        "The run gives a strange result.\n\n    ./bin/SimAI_analytical -w run.txt -g 128 "
        f"-g_p_s 8 {options} -r out-\n\n",
    )


def test_no_total_quoted_without_the_nic_count(tmp_path: Path) -> None:
    """Without -n_p_s SimAI's NIC count is uninitialised: its Total time is no number."""
    said = _analytical(tmp_path, "-nv 360 -nic 48.5")
    assert "no -n_p_s" in said
    assert "Total time" not in said


def test_total_quoted_with_the_nic_count(tmp_path: Path) -> None:
    said = _analytical(tmp_path, "-nv 360 -nic 48.5 -n_p_s 8")
    assert "Total time" in said and "no -n_p_s" not in said


def _ns3(tmp_path: Path, sample: str) -> str:
    return _answers(
        tmp_path,
        sample,
        "The run makes no progress.\n\n    AS_SEND_LAT=3 ./bin/SimAI_simulator -t 16 -w run.txt "
        "-n ./Spectrum-X_32g_8gps_400Gbps_H100 -c SimAI.conf\n\n",
    )


def test_ns3_dp_group_set_against_the_files_dp(tmp_path: Path) -> None:
    """TP 2, PP 2 on 32 GPUs: SimAI_simulator's DP group is 32 / 2 = 16, the file's DP 8."""
    said = _ns3(tmp_path, "mixtral-world32-tp2-pp2-ep8-sp-moe.txt")
    assert "the DP groups have 32 / 2 = 16 GPUs" in said
    assert "PP taken as 1, so with the file's PP 2 this DP group is 2 times the file's DP 8" in said


def test_ns3_dp_group_alone_without_a_pipeline(tmp_path: Path) -> None:
    said = _ns3(tmp_path, "gpt13b-world8-tp2-pp1-sp.txt")
    assert "the DP groups have 32 / 2 = 16 GPUs" in said
    assert "PP taken as 1" not in said


def _deleted(rows: int) -> str:
    command = (
        "python -m workload_generator.AIOB_simAI_workload_generator --world_size=16 "
        "--tensor_model_parallel_size=4 --global_batch=16 --micro_batch=1 --num_layers=2 "
        "--hidden_size=1024 --num_attention_heads=16 --seq_length=1024 --aiob_enable "
        "--comp_filepath workload/aiob_inputs/Example.txt\n\n"
    )
    body = f"I deleted the first {rows} rows of the file and ran SimAI_analytical on it.\n"
    front = '---\ntitle: "no DP"\ncreated: 2025-03-01\nlanguage: en\n---\n\n'
    result = triage(front + command + body)
    return next(a.answer for a in result.answers if "which you deleted" in a.answer)


def test_deleting_every_dp_row_is_no_fix() -> None:
    """The rows deleted held every DP collective: the answer says deleting them is no fix."""
    said = _deleted(2)
    assert "deleting them is no valid fix" in said
    assert "SimAI issues them last" in said


def test_deleting_rows_that_leave_dp_is_not_called_a_fix_either_way() -> None:
    said = _deleted(1)
    assert "still hold 1 data-parallel" in said and "no valid fix" not in said
    assert "SimAI issues them last" in said  # the deleted grad_gather would have run last


def test_the_refused_busbw_names_the_options_that_replace_it() -> None:
    """A SimAI without `-busbw`: the answer names the automatic bandwidth options, the GPUs
    per server beside them, and the GPU and NIC models they fall back on."""
    text = (
        '---\ntitle: "Is -busbw no longer supported?"\ncreated: 2026-03-25\nlanguage: en\n---\n\n'
        "Does the latest code no longer support the -busbw option?\n"
    )
    said = "\n".join(a.answer for a in triage(text).answers)
    assert "automatic bandwidth options are `-nv`, `-nic`, `-n_p_s`" in said
    assert "`-g_p_s` (GPUs per server) goes with them" in said
    assert "from the GPU model `-g_type` and the NIC model `-nic_t`" in said
