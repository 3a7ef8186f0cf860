"""Deleted rows that held every DP collective: the answer says that SimAI reaches them last
(the gradient passes run from the last row back), with the ns-3 model's cost of the unedited
file on SimAI_simulator; a run whose output is only a picture is asked for its text's end and
exit status."""

from __future__ import annotations

from wkparse import triage

FRONT = "---\ntitle: {title}\ncreated: 2025-03-01\nlanguage: en\n---\n\n"
COMMAND = (
    "python -m workload_generator.AIOB_simAI_workload_generator --world_size=16 "
    "--tensor_model_parallel_size=4 --global_batch=16 --micro_batch=1 --num_layers=2 "
    "--hidden_size=1024 --num_attention_heads=16 --seq_length=1024 --aiob_enable "
    "--comp_filepath workload/aiob_inputs/Example.txt\n\n"
)
PICTURE = '<img width="992" alt="Image" src="https://github.com/user-attachments/assets/x" />\n'


def _deleted(answers: list[str]) -> str:
    [said] = [a for a in answers if "which you deleted" in a]
    return said


def test_deleted_dp_rows_cost_nothing_said_off_ns3() -> None:
    """Not a SimAI_simulator thread: the rows' place in the run, no packet-level cost."""
    body = COMMAND + "I deleted the first 7 rows of the file and ran SimAI_analytical on it.\n"
    result = triage(FRONT.format(title="no DP") + body)
    said = _deleted([a.answer for a in result.answers])
    assert "from the last row back to row 0" in said
    assert "packet-level" not in said


def test_deleted_dp_rows_on_ns3_say_what_the_unedited_file_costs() -> None:
    big = COMMAND.replace("--world_size=16", "--world_size=64").replace(
        "--num_layers=2 --hidden_size=1024", "--num_layers=8 --hidden_size=4096"
    )
    body = (
        big + "I deleted the first 7 rows of the file and ran it:\n\n"
        "    ./bin/SimAI_simulator -t 16 -w run.txt -n topo -c SimAI.conf\n"
    )
    result = triage(FRONT.format(title="no DP") + body)
    said = _deleted([a.answer for a in result.answers])
    assert "from the last row back to row 0" in said
    assert "On SimAI_simulator the unedited file's traffic is" in said
    assert "s of packet-level simulation" in said


def test_output_only_as_a_picture_asks_for_its_text_and_exit_status() -> None:
    body = (
        "It exits without an error:\n\n" + PICTURE + "\n"
        "    ./bin/SimAI_simulator -t 16 -w run.txt -n topo -c SimAI.conf\n\n"
        "Why does it exit?\n"
    )
    result = triage(FRONT.format(title="exits") + body)
    assert any("shown only as a picture" in m for m in result.missing)
    text = triage(FRONT.format(title="exits") + body.replace(PICTURE, "")).missing
    assert not any("shown only as a picture" in m for m in text)
