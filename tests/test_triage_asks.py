"""What triage asks for: only what the answer lacks. A thread that asks only what something
means, how to do something or which version does what is not asked for its workload file or
its run's output; a run of SimAI's own example file is not asked for the file."""

from __future__ import annotations

from wkparse import triage

FRONT = '---\ntitle: "{title}"\ncreated: 2025-03-01\nlanguage: en\n---\n\n'
ROWS = (
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4 ep: 1 pp: 1 vpp: 4 ga: 1 "
    "all_gpus: 4 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0\n21\n"
    "grad_gather\t-1\t1\tNONE\t0\t1\tNONE\t0\t1\tALLGATHER\t4919918592\t100\n"
    "attention_layer\t-1\t1820000\tALLREDUCE\t402653184\t1820000\tNONE\t0\t1820000\tNONE\t0\t100\n"
)
FILE_ASK = "attach the workload file"


def _asks(title: str, body: str) -> list[str]:
    return triage(FRONT.format(title=title) + body).missing


def test_a_meaning_question_on_an_excerpt_asks_no_file() -> None:
    asks = _asks("What is the unit of time in the results?", "My file:\n\n" + ROWS)
    assert not any(FILE_ASK in a for a in asks)


def test_a_cause_question_on_an_excerpt_asks_the_file() -> None:
    asks = _asks("Why does the run crash?", "My file:\n\n" + ROWS)
    assert any(FILE_ASK in a for a in asks)


def _run_of(path: str) -> list[str]:
    body = (
        f"AS_SEND_LAT=3 ./bin/SimAI_simulator -t 16 -w {path} "
        "-n ./Spectrum-X_32g_8gps_400Gbps_H100 -c SimAI.conf\n\n"
        "Each layer's fwd total comm is different. Why?\n"
    )
    return _asks("different times per layer", body)


def test_simai_s_own_example_is_not_asked_for() -> None:
    assert not any(FILE_ASK in a for a in _run_of("./example/microAllReduce.txt"))


def test_a_users_file_in_the_example_folder_is_asked_for() -> None:
    assert any(FILE_ASK in a for a in _run_of("./example/my_tp_24.txt"))


def test_a_version_question_asks_no_run_output() -> None:
    asks = _asks("Was -busbw removed?", "Does the latest SimAI no longer support -busbw?\n")
    assert not any("output" in a or "command line" in a or FILE_ASK in a for a in asks)


RESULT_ASK = "the lines of the result you read the value from"


def test_a_doubted_result_value_asks_for_its_result_line() -> None:
    """The cause of a value SimAI reported (busbw, total time ...) needs the line it is on."""
    asks = _asks("busbw exceeds the NIC bandwidth", "In my run the busbw is higher than the NIC.\n")
    assert any(RESULT_ASK in a for a in asks)


def test_what_a_result_value_means_asks_no_result_line() -> None:
    asks = _asks("What does busbw mean?", "What does busbw mean in EndToEnd.csv?\n")
    assert not any(RESULT_ASK in a for a in asks)


def test_what_would_settle_a_cause_ends_once() -> None:
    """The last ask is a question: its mark closes the sentence, no period after it."""
    body = (
        "The simulation of my AICB workload stops unexpectedly after grad_param_comm.\n\n"
        "    AS_SEND_LAT=3 ./bin/SimAI_simulator -t 16 -w run.txt -n topo -c SimAI.conf\n\n"
        "    info: weight grad collective issued for layer: grad_gather, involved dimensions:  1\n"
    )
    asks = triage(FRONT.format(title="Simulation stops unexpectedly") + body).asked
    said = [a.answer for a in asks if not a.answered]
    assert said and all(s.endswith("Was it still running or did it exit?") for s in said)


END_ASK = "shown only as a picture, so why it exited cannot be read"


def _pictured(picture: str) -> list[str]:
    body = (
        "My run of the workload gives no DP communication. Why?\n\n"
        "    ./bin/SimAI_simulator -t 16 -w run.txt -n topo -c SimAI.conf\n\n"
        f"The log:\n\n{picture}\n"
    )
    return _asks("no DP communication", body)


def test_a_run_shown_only_as_a_picture_asks_its_output() -> None:
    """The output is a screenshot: its text and the exit status are asked."""
    asks = _pictured('<img width="992" alt="Image" src="https://example.invalid/a.png" />')
    assert any(END_ASK in a for a in asks)


def test_a_run_without_a_picture_is_not_asked_its_end() -> None:
    assert not any(END_ASK in a for a in _pictured("(no output)"))
