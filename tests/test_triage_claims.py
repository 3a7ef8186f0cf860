# ruff: noqa: RUF001, RUF002 - the Chinese sentences of threads, with their full-width commas
"""Triage states nothing about data the user did not show: a lint rule's title is a fact only
of a workload the thread really gives (a file, or pasted rows and line 1), at the SimAI the user
ran; a prediction the user's report contradicts is no explanation; an excerpt is no file."""

from __future__ import annotations

from wkparse import triage
from wkparse.threads.phrases import say

FRONT = "---\ntitle: {title}\ncreated: 2026-03-20\nlanguage: en\n---\n\n"
ROW = (
    "mlp_moelayer -1 1 ALLTOALL_EP 1048576 1 ALLTOALL_EP 1048576 1 NONE 0 100\n"
    "moe_grad_norm1 -1 1 NONE 0 1 NONE 0 1 ALLGATHER_DP_EP 0 100\n"
)


def _thread(title: str, body: str) -> str:
    return FRONT.format(title=title) + body


def test_an_ep_word_in_prose_or_a_csv_is_no_finding() -> None:
    """`_EP` in a question or a CSV's header is no workload row: no rule is stated of it."""
    body = (
        "What does ALLTOALL_EP mean, next to ALLTOALL in my run?\n\n"
        "```\nFile name, Expose DP comm, Expose DP_EP comm, Expose_EP_comm, Total time\n```\n"
    )
    md = triage(_thread("SimAI_simulator output is empty", body)).markdown
    assert "WK407" not in md and "WK801" not in md


def test_ep_rows_without_line_1_are_said_as_a_condition() -> None:
    """Rows whose `_EP` collective moves bytes, with no header shown: what they do hinges on
    `ep:`, which the answer says it does not know."""
    md = triage(_thread("empty output with these rows", "```\n" + ROW + "```\n")).markdown
    [said] = [line for line in md.splitlines() if "WK801" in line]
    assert "not known" in said and "If it says `ep: 1`" in said
    assert "`ALLTOALL_EP` of 1,048,576 B" in said and "WK407" in said


def test_ep_rows_of_a_thread_with_ep_above_1_need_no_rule() -> None:
    body = "DeepSeek with TP=1, EP>1 fails.\n\n```\n" + ROW + "```\n"
    md = triage(_thread("TP=1, EP>1 fails", body)).markdown
    assert "WK407" not in md and "WK801" not in md


def test_zero_byte_dp_ep_rows_need_no_rule() -> None:
    """A `_DP_EP` collective of 0 B moves nothing, whatever `ep:` says."""
    row = ROW.splitlines()[1] + "\n"
    md = triage(_thread("grad norm rows", "```\n" + row + "```\n")).markdown
    assert "WK407" not in md and "WK801" not in md


FILE = (
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 1 ep: 1 pp: 1 vpp: 1 ga: 1 "
    "all_gpus: 1 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0\n"
    "1\n"
    "embedding_layer -1 1000 NONE 0 1000 NONE 0 1000 NONE 0 100\n"
)


def _with_file(tmp_path: object, title: str, body: str) -> str:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    (tmp_path / "workload.txt").write_text(FILE)
    return triage(_thread(title, body), attachments=tmp_path).markdown


def test_a_finished_run_the_user_doubts_is_not_explained_by_finishing(tmp_path: object) -> None:
    """'identical results' is a run that finished; a model that predicts it finishes does not
    explain why its numbers are what they are."""
    body = "I run workload.txt with SimAI_analytical and get identical results every time.\n"
    md = _with_file(tmp_path, "are results identical?", body)
    assert "Does the file explain what you saw?" not in md


def test_a_prediction_the_report_contradicts_is_no_explanation(tmp_path: object) -> None:
    """The user saw a crash; the model predicts a finish: the answer says the prediction is
    not the explanation, and does not send the cause elsewhere unbacked."""
    body = "SimAI_analytical -w workload.txt ends in Segmentation fault (core dumped).\n"
    md = _with_file(tmp_path, "segfault", body)
    [said] = [line for line in md.splitlines() if "you report" in line]
    assert "no explanation" in said
    assert "outside the file" not in md


def test_an_excerpt_that_runs_to_the_end_is_not_the_file() -> None:
    """Rows pasted under a count line that says more: the model's finish, its total and what
    a newer SimAI does are of the rows shown, not of the file, and the answer says no more."""
    rows = "".join(
        f"layer{i} -1 1000 ALLREDUCE 1048576 1000 NONE 0 1000 NONE 0 100\n" for i in range(3)
    )
    body = (
        "SimAI_analytical gives odd numbers for my file (first rows below).\n\n```\n"
        + FILE.splitlines()[0].replace("all_gpus: 1", "all_gpus: 4").replace("group: 1", "group: 4")
        + "\n24\n"
        + rows
        + "```\n"
    )
    md = triage(
        FRONT.format(title="odd numbers").replace("2026-03-20", "2025-02-16") + body
    ).markdown
    assert "the rows left out are not known" in md
    assert "finishes (exit" not in md and "Total time " not in md and "does otherwise:" not in md


def test_findings_at_a_stand_in_simai_say_whose_they_are(tmp_path: object) -> None:
    """A thread older than any modelled SimAI: lint speaks for the SimAI that stands in, whose
    reader is not the user's, and each finding says so (a header without `vpp:` was what the
    SimAI of 2024-11 expected)."""
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    header = FILE.splitlines()[0].replace(" vpp: 1", "").replace(" pp_comm: 0", "")
    (tmp_path / "old.txt").write_text(header + "\n" + "\n".join(FILE.splitlines()[1:]) + "\n")
    text = FRONT.format(title="stops").replace("2026-03-20", "2024-11-05")
    md = triage(text + "SimAI_simulator -w old.txt stops.\n", attachments=tmp_path).markdown
    [said] = [line for line in md.splitlines() if "WK201" in line]
    assert "in place of yours" in said  # and it is no cause of what the user's SimAI did


def test_findings_past_six_are_counted_as_findings(tmp_path: object) -> None:
    """Findings cut past the sixth are said to be more findings, not notes."""
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    rows = [f"moe{i} -1 1 ALLTOALL_EP 1048576 1 ALLTOALL_EP 1048576 1 NONE 0 100" for i in range(9)]
    head = (
        FILE.splitlines()[0].replace("group: 1", "group: 2").replace("all_gpus: 1", "all_gpus: 2")
    )
    (tmp_path / "moe.txt").write_text("\n".join([head, str(len(rows)), *rows]) + "\n")
    md = triage(_thread("moe", "SimAI_analytical -w moe.txt\n"), attachments=tmp_path).markdown
    assert "more findings of lint are listed" in md or "1 more finding of lint" in md


def test_findings_of_a_rebuild_the_thread_names_otherwise_are_not_stated() -> None:
    """The AICB command's file is not the one the thread ran when the thread names another
    that no AICB writes for the command (`H100-` without `--gpu_type`): nothing is said of
    it, neither findings nor a run."""
    body = (
        "python -m workload_generator.AIOB_simAI_workload_generator --world_size=1 "
        "--global_batch=8 --micro_batch=1 --num_layers=2 --num_attention_heads=16 "
        "--hidden_size=768 --tensor_model_parallel_size=1 --seq_length=2048\n\n"
        "./bin/SimAI_analytical -w results/workload/H100-None-world_size1-tp1-pp1-ep1-gbs8-"
        "mbs1-seq2048-MOE-False-GEMM-False-flash_attn-False.txt gives a strange time.\n"
    )
    result = triage(FRONT.format(title="strange time").replace("2026-03-20", "2025-08-13") + body)
    assert not result.findings and not result.predictions
    not_yours = say("a-rebuild-not-yours", "en", name="\0").split("\0")[0]
    assert any(a.answer.startswith(not_yours) for a in result.answers)


def test_the_presets_are_those_of_the_aicb_the_thread_ran() -> None:
    """`-m` presets of the training script at the AICB in force on the thread's date: no
    DeepSeek preset before AICB had one, and the one of today after."""
    body = "Which -m values does scripts/megatron_workload_with_aiob.sh accept?\n"

    def said(date: str) -> str:
        md = triage(FRONT.format(title="presets").replace("2026-03-20", date) + body).markdown
        lines = [x for x in md.splitlines() if "knows these `-m` presets" in x]
        assert lines
        return "\n".join(lines)

    early = said("2024-12-20")
    assert "`moe`" in early and "deepseek" not in early and "At AICB f16eafb" in early
    assert "`deepseek671`" in said("2025-12-01")


def test_a_command_inside_a_chinese_sentence_ends_at_its_comma() -> None:
    """`... --aiob_enable，得到文件 X`: the full-width comma ends the command, it is no part of
    its last option (AICB's model refused `--aiob_enable,` as an unknown argument)."""
    from wkparse.threads.commands import find

    line = "我用 python -m workload_generator.SimAI_training_workload_generator --world_size=8 "
    [cmd] = find([(1, line + "--aiob_enable，得到文件 a.txt。")])
    assert cmd.words[-1] == "--aiob_enable"


def test_the_opening_is_not_repeated_as_evidence() -> None:
    """A paragraph that answers a question at the top is not said again under the evidence;
    the JSON keeps every answer for bots."""
    title = "Question about the unit of time in evaluation results of the analytical model"
    result = triage(_thread(title, "SimAI_analytical gives me a Total time.\n"))
    md = result.markdown
    unit = next(a.answer for a in result.answers if "microseconds" in a.answer)
    assert md.count(unit) == 1


def test_rows_the_user_deleted_from_the_rebuild_are_named_and_deleted() -> None:
    """'I deleted the first N rows' of the file the AICB command writes: the answer says what
    those rows were (their collectives and groups), and the models read the file without them."""
    command = (
        "python -m workload_generator.AIOB_simAI_workload_generator --world_size=16 "
        "--tensor_model_parallel_size=4 --global_batch=16 --micro_batch=1 --num_layers=2 "
        "--hidden_size=1024 --num_attention_heads=16 --seq_length=1024 --aiob_enable "
        "--comp_filepath workload/aiob_inputs/Example.txt\n\n"
    )
    body = command + "I deleted the first 2 rows of the file and ran SimAI_analytical on it.\n"
    result = triage(FRONT.format(title="no DP").replace("2026-03-20", "2025-03-01") + body)
    [said] = [a.answer for a in result.answers if "which you deleted" in a.answer]
    assert "`grad_gather` (wg ALLGATHER" in said and "(DP)" in said
    assert any("its first 2 rows deleted" in e for a in result.answers for e in a.evidence)


def test_the_csv_layout_is_that_of_the_simai_the_thread_ran() -> None:
    """SimAI_simulator took SimAI_analytical's EndToEnd.csv layout at 7f06c19c: a thread of
    2024-12 is told its own SimAI's layout differs; one of 2026 is not."""
    body = "How do I read the results of SimAI_simulator in ncclFlowModel_EndToEnd.csv?\n"

    def said(date: str) -> str:
        return triage(FRONT.format(title="results").replace("2026-03-20", date) + body).markdown

    assert "Your SimAI is older than 7f06c19c" in said("2024-12-20")
    assert "older than 7f06c19c" not in said("2026-03-20")


def test_warnings_that_do_not_bear_on_a_meaning_question_are_counted(tmp_path: object) -> None:
    """A thread that only asks what its file's rows mean, and runs nothing: lint's warnings
    are counted, not worded; the same file with a run the user reports gets them."""
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    lines = FILE.splitlines()
    (tmp_path / "w.txt").write_text("\n".join([lines[0], "1 rows", *lines[2:]]) + "\n")
    asked = "What does the embedding_layer row of w.txt mean?\n"
    md = triage(_thread("embedding_layer", asked), attachments=tmp_path).markdown
    assert "WK104 (line 2)" not in md and "1 warning of lint does not bear" in md
    ran = "SimAI_analytical -w w.txt ends with Segmentation fault.\n"
    assert "WK104 (line 2)" in triage(_thread("segfault", ran), attachments=tmp_path).markdown


def test_a_finding_of_an_ns3_run_states_the_ns3_consequence(tmp_path: object) -> None:
    """A header without `vpp:` run through SimAI_simulator: only its bubble time is NaN (the
    ns-3 EndToEnd summary keeps Total time a number), not SimAI-Analytical's NaN total; a run
    through SimAI_analytical keeps the analytical consequence."""
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    header = FILE.splitlines()[0].replace(" vpp: 1", "")
    (tmp_path / "w.txt").write_text(header + "\n" + "\n".join(FILE.splitlines()[1:]) + "\n")

    def said(program: str) -> str:
        md = triage(_thread("odd time", f"{program} -w w.txt\n"), attachments=tmp_path).markdown
        [line] = [x for x in md.splitlines() if x.lstrip().startswith("- WK201")]
        return line

    ns3 = said("./bin/SimAI_simulator -t 8 -n topo")
    assert "bubble time of NaN or Inf; its Total time stays a number" in ns3
    assert "Total time NaN or Inf" not in ns3
    assert "bubble and Total time NaN or Inf" in said("./bin/SimAI_analytical -g 1")


def test_a_concept_page_says_when_the_users_simai_lacks_its_switch() -> None:
    """A catalog page speaks for the current SimAI: to a user whose SimAI predates a switch
    the page names (ns-3 EP groups came with 02532997), it says so; not to a later user."""
    body = "How does SimAI_simulator build the ns-3 groups? What is the ns-3 DP?\n"

    def said(date: str) -> str:
        md = triage(FRONT.format(title="groups").replace("2026-03-20", date) + body).markdown
        [line] = [x for x in md.splitlines() if "carved out of the TP groups" in x]
        return line

    early = said("2025-01-06")
    assert "is older than 02532997" in early and "may not hold for yours" in early
    assert "older than" not in said("2026-03-20")


def test_the_stock_presets_are_not_said_of_a_script_the_user_changed() -> None:
    """A user who says he added his own preset to AICB's training script ran his script, not
    the stock one: its `-m` presets (and the fallback) are not stated; without the edit they are."""
    asked = "Which -m values does scripts/megatron_workload_with_aiob.sh accept?\n"
    edited = (
        "I edited megatron_workload_with_aiob.sh to add my own preset:\n\n"
        "```\nmodel_name=gpt_1B\nnum_layers=12\n;;\n```\n\n" + asked
    )

    def said(body: str, lang: str = "en") -> str:
        front = FRONT.format(title="presets").replace("language: en", f"language: {lang}")
        return triage(front + body).markdown

    assert "knows these `-m` presets" in said(asked)
    assert "knows these `-m` presets" not in said(edited) and "gpt_13B" not in said(edited)
    zh = "我改了 megatron_workload_with_aiob.sh，在里面加了一个模型的配置，然后用 -m 生成。\n"
    assert "gpt_13B" not in said(zh, "zh")
    assert "gpt_13B" in said("我用 megatron_workload_with_aiob.sh 加 -m 生成。\n", "zh")
