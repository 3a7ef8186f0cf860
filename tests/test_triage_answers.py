"""What the triage answers say, and what they rest on: the refused option and its exit code,
the file name's numbers, where a pasted log stopped, a topology that disagrees with the file,
lint's finding with its rule page; each answer with its evidence; out-of-scope in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES, TRIAGE, require
from wkparse import aicb, triage
from wkparse.models.aicb import AicbError
from wkparse.threads.logs import read

REFUSED = (
    "---\ntitle: t\ncreated: 2026-01-12\nlanguage: en\n---\n\n"
    "sh ./scripts/inference_workload_with_aiob.sh -m qwen3-235B \\\n"
    "-c ./scripts/inference_configs/qwen3_moe_default.json \\\n"
    "-s 32768 -b 4 -w 12288 -e 32  -t 8 -l 16 -p prefill\n"
    "./bin/SimAI_analytical -w aicb/results/workload/Qwen3-Moe-235B-world_size12288-tp8-pp16-"
    "ep32-bs4-seq32768-prefill.txt -g 12288 -g_p_s 8 -r prefill- -busbw example/busbw.yaml\n"
    "The new build does not accept -busbw.\n"
)


def test_refusal_names_the_option_and_the_exit() -> None:
    result = triage(REFUSED)
    assert result.cause.startswith("Likely cause: SimAI 26b4574b's option parser")
    assert "does not know `-busbw`" in result.cause
    assert "255" in result.cause
    questions = [a.question for a in result.answers]
    assert "What file does the AICB command write?" in questions
    same = [a for a in result.answers if a.question == "Do the command and the file name agree?"]
    assert same and same[0].answer.startswith("Yes")
    for a in result.answers:
        assert a.evidence and all(e for e in a.evidence)


def test_log_reading() -> None:
    log = (
        "info: no input grad collective for layer: grad_param_comm\n"
        "chunk size is: 6488588288 , size is: 6488588288 , layer_num is: 1 , node: 0\n"
        "info: reduce-scatter weight grad collective issued for layer: grad_param_comm, "
        "involved dimensions:  0, 1, 1,\n"
        "info: no input grad collective for layer: grad_gather\n"
        "chunk size is: 3244294144 , size is: 3244294144 , layer_num is:\n"
    )
    r = read(7, log)
    assert r is not None and (r.collective, r.layer, r.size) == ("next", "grad_gather", 3244294144)
    assert read(1, "hello\nworld\n") is None
    crashed = read(1, 'assert failed. cond="false", msg="We assume at least one NIC is alive", x')
    assert crashed is not None and crashed.error == "We assume at least one NIC is alive"


def test_a_log_ends_on_any_crash_the_thread_reader_knows() -> None:
    """A log's error and the thread's crash lines come from one list (`logs.CRASH`)."""
    r = read(1, "pass: 0 finished at time: 10\nfree(): invalid pointer\nAborted (core dumped)\n")
    assert r is not None and r.error == "free(): invalid pointer"
    r = read(1, "Segmentation fault (core dumped)\n")
    assert r is not None and r.error == "Segmentation fault (core dumped)"


def test_ns3_log_and_file_name_numbers() -> None:
    case = require(TRIAGE / "aliyun-SimAI-101")
    result = triage((case / "issue.md").read_bytes())
    text = result.markdown
    assert "DP = 8 / (TP x PP) = 2" in text
    assert "grad_gather" in text and "3.24 GB" in text
    assert "ncclFlowModel_EndToEnd.csv" in text
    assert result.language == "zh" and "请附上 workload 文件" in text


def test_topology_against_all_gpus_and_the_rule_page(tmp_path: Path) -> None:
    case = require(TRIAGE / "aliyun-SimAI-8")
    result = triage((case / "issue.md").read_bytes(), attachments=case / "attachments")
    gpus = [a for a in result.answers if a.question == "Do the GPU counts agree?"]
    assert gpus and "128 GPUs" in gpus[0].answer and "all_gpus 8" in gpus[0].answer
    assert any("wkparse rule WK201" in e for a in result.answers for e in a.evidence)
    # the pasted copy of the attachment is not linted twice
    assert [f.code for f in result.findings].count("WK201") == 1


def test_micro_header_crash_is_stated_on_the_pasted_rows() -> None:
    case = require(TRIAGE / "aliyun-SimAI-245")
    result = triage((case / "issue.md").read_bytes())
    [p] = result.predictions
    assert (p.outcome, p.exit) == ("crash", 136)
    # stated in the run's answer, on the pasted rows; not the cause of anything: the thread
    # reports no crash, it asks how to simulate a bare collective
    run = [a for a in result.answers if "exit 136" in a.answer]
    assert run and any("粘贴" in e for e in run[0].evidence)
    assert "SIGFPE" not in result.cause


def test_out_of_scope_is_one_line_saying_what_was_checked() -> None:
    case = require(TRIAGE / "aliyun-SimAI-200")
    result = triage((case / "issue.md").read_bytes())
    assert result.scope == "out"
    assert result.markdown.count("\n") == 1
    assert "build" in result.markdown and "1 log" in result.markdown


def test_a_missing_option_is_the_cause_of_an_all_bubble_result() -> None:
    text = REFUSED.replace(" -busbw example/busbw.yaml", " -nv 380 -nic 50").replace(
        "The new build does not accept -busbw.", "The result is 100% bubble time, all bubble."
    )
    result = triage(text)
    [p] = result.predictions
    assert p.outcome == "finish" and p.option_warnings
    assert result.cause.startswith("Likely cause: the SimAI command line — no -n_p_s")
    said = [a for a in result.answers if a.question == "Does the file explain what you saw?"]
    assert said and said[0].answer.startswith("Through the command line")


def test_an_issue_past_the_limit_says_it_was_cut() -> None:
    result = triage("I ran SimAI_analytical and it hangs.\n" + "x" * 1_100_000)
    assert result.thread.cut and "only its start was read" in result.markdown
    assert "only its start was read" not in triage("short\n").markdown


def test_every_out_of_scope_topic_has_its_chinese_words() -> None:
    from wkparse.threads import scope
    from wkparse.threads.phrases import TOPIC_WORDS

    source = Path(scope.__file__).read_text(encoding="utf-8")
    named = {t for _w, t, _p in scope._OUT} | {
        "crash on SimAI's own example",
        "crash inside ns-3",
    }
    assert named <= set(TOPIC_WORDS)
    assert all(f'"{t}"' in source for t in named)


def test_pasted_line_1_and_an_attachment_against_the_command(tmp_path: Path) -> None:
    import wkparse

    cmd = (
        "sh scripts/megatron_workload_with_aiob.sh -m 7 --world_size 128 "
        "--pipeline_model_parallel 4 --global_batch 512 --swiglu --use_flash_attn"
    )
    made = wkparse.aicb(cmd, at="2026-01-01")
    lines = made.text().splitlines()
    issue = (
        f"---\ntitle: t\ncreated: 2026-01-01\nlanguage: en\n---\n\nI ran\n\n    {cmd}\n\n"
        "```\n" + "\n".join(lines[:6]) + "\n```\n"
    )
    q = "Is your file the one the AICB command writes?"
    said = [a.answer for a in triage(issue).answers if a.question == q]
    assert said and said[0].startswith("Line 1 you pasted is the one AICB writes")
    changed = issue.replace(" ga: 64 ", " ga: 32 ")
    said = [a.answer for a in triage(changed).answers if a.question == q]
    assert said and said[0].startswith("No: the line 1 you pasted differs") and "ga" in said[0]
    (tmp_path / made.filename).write_text(made.text(), encoding="utf-8")
    said = [
        a.answer
        for a in triage(f"{issue}\nfile: {made.filename}\n", attachments=tmp_path).answers
        if a.question == q
    ]
    assert any(s.startswith(f"Yes: `{made.filename}` is what AICB writes") for s in said)


def test_the_time_unit_of_an_analytical_result() -> None:
    """SimAI#93 pastes 16 of 21 rows: the unit is answered, and no total is stated of the
    excerpt, at the user's SimAI or the current one (which then do the same)."""
    case = require(TRIAGE / "aliyun-SimAI-93")
    result = triage((case / "issue.md").read_bytes())
    [p] = result.predictions
    assert p.simai == "b83ea3d4" and p.total_us is None
    assert any("microseconds" in a.answer for a in result.answers)
    assert "Total time 1" not in result.markdown


def test_topology_against_the_world_size_in_the_file_name() -> None:
    text = (
        "AS_SEND_LAT=3 ./bin/SimAI_simulator -t 8 -w ./results/None-gpt_7B-world_size16-tp4-"
        "pp1-ep1-gbs8-mbs1-seq2048-MOE-False-GEMM-False-flash_attn-True.txt "
        "-n ./Spectrum-X_32g_8gps_400Gbps_H100 -c SimAI.conf\nIt hangs.\n"
    )
    gpus = [a for a in triage(text).answers if a.question == "Do the GPU counts agree?"]
    assert gpus and gpus[0].answer.startswith("No:") and "world_size 16" in gpus[0].answer


def test_the_seed_thread(seed_report: Path) -> None:
    """The report this project started from: an AICB command pasted without its backslashes,
    the file name, and the question what the file means (one pipeline stage of one GPU)."""
    result = triage(seed_report.read_bytes())
    assert result.language == "zh" and result.scope == "in"
    first = result.found.of("aicb-command")[0]
    assert first.command is not None and first.command.option("--pipeline_model_parallel") == "4"
    from wkparse.threads.phrases import say

    rebuilt = [a for a in result.answers if a.question == say("q-rebuild", "zh")]
    assert len(rebuilt) == 1  # the command quoted again in a reply is rebuilt once
    assert "None-gpt_7B-world_size128-tp4-pp4" in rebuilt[0].answer
    meaning = [a for a in result.answers if a.question == say("q-meaning", "zh")]
    assert meaning and "DP 8" in meaning[0].answer and "ga 64" in meaning[0].answer


def test_an_attachment_link_matches_its_file(tmp_path: Path) -> None:
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "run.txt").write_text(
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 8 ep: 1 pp: 1 ga: 1 "
        "all_gpus: 8 checkpoints: 0 checkpoint_initiates: 0\n1\n"
        "embedding_layer -1 556000 ALLREDUCE 13870912 1 NONE 0 1 NONE 0 100\n",
        encoding="utf-8",
    )
    text = "It gives NaN: [run.txt](https://github.com/user-attachments/files/123/run.txt)\n"
    result = triage(text, attachments=folder)
    [f] = [f for f in result.findings if f.code == "WK201"]
    assert f.kind == "attachment" and f.source == "run.txt"


def _out_of_scope_threads() -> list[str]:
    text = '---\ntitle: "{title}"\ncreated: 2025-05-01\nlanguage: en\n---\n\n{body}\n'
    return [
        text.format(
            title="Duplicated groups", body="In `MockNcclGroup` the loop index j is unused."
        ),
        text.format(
            title="SEGV", body="After `sudo mkdir -p /etc/astra-sim/simulation/` it works."
        ),
        text.format(title="pcie", body="Can SimAI simulate PCIe between GPUs of one server?"),
        text.format(title="stuck", body="After setting an errorrate on one link it stalls."),
    ]


def test_out_of_scope_by_what_the_thread_asks_with_a_pointer() -> None:
    """Threads about the collective library, the environment, intra-server links or link
    errors are declined in one line that names where to look."""
    for text in _out_of_scope_threads():
        result = triage(text)
        assert result.scope == "out", text
        assert result.markdown.count("\n") == 1
        assert "`astra-sim-alibabacloud/" in result.markdown or "/etc/astra-sim" in result.markdown


def test_out_of_scope_counts_agree_with_their_nouns() -> None:
    import re

    for case in sorted(require(TRIAGE).iterdir()):
        if not (case / "issue.md").is_file():
            continue
        result = triage((case / "issue.md").read_bytes())
        if result.scope == "out" and result.language == "en":
            assert not re.search(r"\b1 [\w ]+s\b(?!\w)", result.markdown.split(";")[1]), case
            assert not re.search(
                r"\b([2-9]|\d\d+) (log|attachment|file.name)\b(?!s)", result.markdown
            )


def test_variables_before_an_analytical_command_are_no_options(tmp_path: Path) -> None:
    """Issue 41: `AS_SEND_LAT=3 AS_NVLS_ENABLE=1 ./bin/SimAI_analytical ...` was read as an
    option SimAI refuses (exit 255); they are the environment, which SimAI_analytical never
    reads, and the answer says so."""
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "run.txt").write_bytes((SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt").read_bytes())
    text = (
        "The run finished.\n\n    AS_SEND_LAT=3 AS_NVLS_ENABLE=1 ./bin/SimAI_analytical -w "
        "run.txt -g 8 -g_p_s 8 -n_p_s 8 -r out-\n\n"
        "[run.txt](https://github.com/user-attachments/files/123/run.txt)\n"
    )
    result = triage(text, attachments=folder)
    [p] = result.predictions
    assert (p.outcome, p.exit) == ("finish", 0)
    assert "does not know" not in result.cause
    said = [a.answer for a in result.answers if a.question == "What does SimAI do with it?"]
    assert any(
        s.startswith("`AS_SEND_LAT`, `AS_NVLS_ENABLE`: SimAI_analytical reads no environment")
        for s in said
    )


def test_a_nan_total_is_the_likely_cause(tmp_path: Path) -> None:
    """Issue 41: on a file without `vpp:` whose run gives NaN, triage opened "Likely cause:
    SimAI-Analytical finished."."""
    folder = tmp_path / "files"
    folder.mkdir()
    text = (SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt").read_text()
    (folder / "nan.txt").write_text(text.replace(" vpp: 9", "", 1))
    thread = (
        "The run finished but the total is NaN.\n\n    ./bin/SimAI_analytical -w nan.txt -g 128 "
        "-g_p_s 8 -n_p_s 8 -r out-\n\n"
        "[nan.txt](https://github.com/user-attachments/files/123/nan.txt)\n"
    )
    result = triage(thread, attachments=folder)
    assert result.cause.startswith("Likely cause: Total time is NaN or Inf: the bubble"), (
        result.cause
    )
    assert [p.outcome for p in result.predictions] == ["nan"]


def test_an_excerpt_is_not_linted_as_the_whole_file() -> None:
    """A header, its count line and the first rows of a longer file: no count, ga-against-
    groups or layer findings, no total time, no structure read from the rows shown; the notes
    lint has are listed for bots and counted in the words."""
    rows = [
        "grad_gather -1 1 NONE 0 1 NONE 0 1 ALLGATHER 158859264 100",
        "moe_grad_norm1 -1 1 NONE 0 1 NONE 0 1 ALLGATHER_DP_EP 0 100",
        "embedding_layer -1 799000 ALLREDUCE 8388608 1 NONE 0 17374000 NONE 0 100",
        "attention_layer -1 1820000 ALLREDUCE 8388608 1820000 NONE 0 1820000 NONE 0 100",
        "mlp_layer -1 2478000 ALLREDUCE 8388608 2478000 NONE 0 2478000 NONE 0 100",
    ]
    text = (
        "---\ntitle: ga\ncreated: 2025-07-13\nlanguage: en\n---\n\nMy workload:\n```\n"
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: 1 vpp: 2 ga: 2 "
        "all_gpus: 4 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0\n24\n"
        + "\n".join(rows)
        + "\nattention_laye\n```\nHow does SimAI handle ga?\n"
    )
    result = triage(text)
    codes = {f.code for f in result.findings}
    assert not codes & {"WK105", "WK307", "WK308"}
    assert "WK405" in codes
    assert "micro-batch group" not in result.markdown and "Total time" not in result.markdown
    assert "not worded here" in result.markdown


def test_an_aiob_command_without_times_gets_the_refusal_aicb_gives() -> None:
    """Issue 41: `aicb -- ... --aiob_enable` without `--comp_filepath` is refused (WK601 in
    lint) while triage took it with Example.txt's times: one verdict for one command. Triage
    gives the same refusal, then reads the layout (which the times do not change), and states
    no total made of the stand-in times."""
    command = (
        "sh scripts/megatron_workload_with_aiob.sh -m 7 --world_size 8 --frame Megatron "
        "--global_batch 16 --micro_batch 1 --seq_length 2048 --swiglu --aiob_enable"
    )
    with pytest.raises(AicbError) as refused:
        aicb(command)
    result = triage(f"I generated it with\n\n    {command}\n\nWhat does it mean?\n")
    [rebuilt] = [
        a for a in result.answers if a.question == "What file does the AICB command write?"
    ]
    assert rebuilt.answer.startswith(
        f"wkparse's AICB model writes no file for it: {refused.value}."
    )
    assert "Example.txt standing in" in rebuilt.answer
    said = [a.answer for a in result.answers if a.question == "What does SimAI do with it?"]
    assert said and not any("Total time" in s and "EndToEnd.csv gives" in s for s in said)


@pytest.mark.parametrize(
    "name",
    [
        "aliyun-SimAI-121",
        "aliyun-SimAI-166",
        "aliyun-SimAI-209",
        "aliyun-SimAI-245",
        "aliyun-SimAI-253",
        "aliyun-SimAI-270",
        "aliyun-SimAI-89",
    ],
)
def test_a_chinese_answer_holds_no_english_sentence_of_wkparse(name: str) -> None:
    """Issue 41: English sentences inside Chinese answers ("另外: its traffic is ..."): the
    models' notes, refusals and crashes are worded in the answer's language (SimAI's own
    printed lines are quoted as SimAI's)."""
    case = require(TRIAGE / name)
    said = triage((case / "issue.md").read_bytes(), lang="zh").markdown
    for english in (
        "its traffic",
        "option parser does not know",
        "measures compute times",
        "compute times of",
        "never set for",
        "frontend counts sent bytes",
        "SimAI-Analytical finished.",
        "SimAI-Simulation finished.",
    ):
        assert english not in said, english


def test_each_evidence_question_is_one_section_and_each_answer_said_once() -> None:
    """The same check made of two lines is one section, its answer once with both lines'
    evidence; a question asked again after another stays in its first place."""
    from wkparse.render.triage.answer import markdown
    from wkparse.threads.result import Answer

    t = triage("---\ntitle: t\ncreated: 2026-03-01\nlanguage: en\n---\n\nWhat is ga?\n")
    t.answers = [
        Answer("Do the GPU counts agree?", "Yes: 32 GPUs.", ["your line 8"]),
        Answer("What does the file describe?", "One stage.", ["the file"]),
        Answer("Do the GPU counts agree?", "Yes: 32 GPUs.", ["your line 13"]),
        Answer("Do the GPU counts agree?", "No: 16 GPUs.", ["your line 20"]),
    ]
    md = markdown(t)
    assert md.count("- **Do the GPU counts agree?**") == 1
    assert md.count("Yes: 32 GPUs.") == 1 and "_(your line 8; your line 13)_" in md
    assert md.index("Do the GPU counts agree?") < md.index("What does the file describe?")
    assert md.index("No: 16 GPUs.") < md.index("What does the file describe?")
