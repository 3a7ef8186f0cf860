"""A SimAI_analytical command without -n_p_s is run again with it: the answer ties the
unset NIC count to the bubble-only result the user saw and gives the command with the
count and the shares the model then predicts."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SAMPLES
from wkparse import triage
from wkparse.threads.result import Triage

FILE = "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"
QUESTION = "What does the missing -n_p_s do, and what does the command give with it?"


def _run(tmp_path: Path, options: str, said: str) -> Triage:
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "run.txt").write_bytes((SAMPLES / FILE).read_bytes())
    text = (
        f"{said} Why, and how do I fix it?\n\n    ./bin/SimAI_analytical -w run.txt -g 128 "
        f"-g_p_s 8 {options} -r out-\n\n"
        "[run.txt](https://github.com/user-attachments/files/123/run.txt)\n"
    )
    return triage(text, attachments=folder)


def test_missing_nic_count_is_tied_to_the_bubble_and_fixed(tmp_path: Path) -> None:
    result = _run(tmp_path, "-nv 360 -nic 48.5", "The result is 100% bubble time.")
    said = [a.answer for a in result.answers if a.question == QUESTION]
    assert len(said) == 2
    assert "reads the unset NIC count as 0" in said[0]
    assert "the all-bubble result you report" in said[0]
    fixed = "`./bin/SimAI_analytical -w run.txt -g 128 -g_p_s 8 -nv 360 -nic 48.5 -r out- -n_p_s 8`"
    assert fixed in said[1] and fixed in result.cause
    assert "the all-bubble result you report" in result.cause
    # the shares come from the model run with the count: numbers, not words
    assert "% bubble and" in said[1]
    # a training file: no word about inference
    assert "inference" not in result.cause


def test_no_tie_to_a_bubble_the_thread_does_not_report(tmp_path: Path) -> None:
    result = _run(tmp_path, "-nv 360 -nic 48.5", "The result looks strange.")
    said = [a.answer for a in result.answers if a.question == QUESTION]
    assert said and "you report" not in " ".join(said)
    assert "you report" not in result.cause


def test_quiet_when_the_nic_count_is_given(tmp_path: Path) -> None:
    result = _run(tmp_path, "-nv 360 -nic 48.5 -n_p_s 8", "The result is 100% bubble time.")
    assert all(a.question != QUESTION for a in result.answers)
    assert "The fix: " not in result.cause
