"""The AICB the user ran, from the evidence the thread holds: a file name the user quotes picks
the AICB that writes it over a linked commit or the date's guess; a rebuild no AICB names so,
or whose run the models give no result where the user got one, is not the user's file and
nothing is said of it; a timed training run against its AICB command gets the options that
give the same batch, and where the compute times come from."""

from __future__ import annotations

from wkparse import triage
from wkparse.threads.phrases import say

#: an AICB command (with a link to AICB d9b4f5c), the file name the user ran, and a result
THREAD = (
    "---\ntitle: t\ncreated: 2025-08-13\nlanguage: en\n---\n\n"
    "I generated the workload with\n"
    "python -m workload_generator.AIOB_simAI_workload_generator --world_size=16 "
    "--global_batch=32 --micro_batch=1 --num_layers=4 --num_attention_heads=16 "
    "--hidden_size=1024 --tensor_model_parallel_size=2 --seq_length=1024\n"
    "https://github.com/aliyun/aicb/tree/d9b4f5cd7d9d34a80cfbb0389831a16c7fe3ed7b\n\n"
    "and ran\n./bin/SimAI_analytical -w results/workload/{name}\n{more}"
)
#: what AICB d9b4f5c (before e0dab52 added the GPU type) and later AICBs name that file
OLD_NAME = "None-world_size16-tp2-pp1-ep1-gbs32-mbs1-seq1024"
NEW_NAME = "None-None-world_size16-tp2-pp1-ep1-gbs32-mbs1-seq1024"


def _aicb(result: object) -> dict[str, object]:
    aicb = result.versions["aicb"]  # type: ignore[attr-defined]
    assert isinstance(aicb, dict)
    return aicb


def test_a_quoted_file_name_picks_the_aicb_that_writes_it() -> None:
    """The link says d9b4f5c, but only AICB from e0dab52 on writes `None-None-...`: the
    AICB master of the thread's date, which does, is the user's, and the answer says why."""
    result = triage(THREAD.format(name=NEW_NAME, more=""))
    aicb = _aicb(result)
    assert (aicb["basis"], aicb["commit"], aicb["instead"]) == ("name", "9ac2f0e", "d9b4f5c")
    assert aicb["line"] == 12 and str(aicb["instead_writes"]).startswith(OLD_NAME)
    said = next(a.answer for a in result.answers if a.question == say("q-versions", "en"))
    assert "AICB 9ac2f0e (2025-05-30), the one that writes the file name on line 12" in said
    assert say("a-names-same", "en", line=12) in result.markdown


def test_a_name_the_linked_aicb_writes_keeps_it() -> None:
    result = triage(THREAD.format(name=OLD_NAME, more=""))
    aicb = _aicb(result)
    assert (aicb["basis"], aicb["commit"]) == (
        "stated",
        "d9b4f5cd7d9d34a80cfbb0389831a16c7fe3ed7b"[:7],
    )
    assert "instead" not in aicb


def test_a_name_no_aicb_writes_is_not_the_users_file() -> None:
    """A name of the user's own (a changed script): no AICB up to the date writes it for the
    command, so the rebuild is not read: no findings, no meaning, no run of it."""
    result = triage(THREAD.format(name="mine-world_size16-tp2-pp1-ep1-gbs32.txt", more=""))
    assert _aicb(result)["basis"] == "stated"
    not_yours = say("a-rebuild-not-yours", "en", name="\0").split("\0")[0]
    assert not_yours in result.markdown
    asked = {a.question for a in result.answers}
    for q in ("q-run", "q-meaning", "q-findings"):
        assert say(q, "en") not in asked
    assert not result.predictions


def test_a_run_the_models_give_no_result_for_is_not_the_users() -> None:
    """World size 1 with TP 1: SimAI (from 26b4574b) gives the layernorm ALLREDUCE in a
    one-GPU group an infinite time; a user who got a result (an order of magnitude off) did
    not run that file on that SimAI, so nothing is said of it. Without a reported result the
    model's run is said."""
    command = (
        "python -m workload_generator.AIOB_simAI_workload_generator --world_size=1 "
        "--global_batch=8 --micro_batch=1 --num_layers=2 --num_attention_heads=8 "
        "--hidden_size=512 --tensor_model_parallel_size=1 --seq_length=512"
    )
    thread = "---\ntitle: t\ncreated: 2025-08-13\nlanguage: en\n---\n\n{cmd}\n\n{said}\n"
    got = triage(
        thread.format(cmd=command, said="The simulated time is an order of magnitude off.")
    )
    quiet = triage(thread.format(cmd=command, said="What does the file hold?"))
    assert not got.predictions and [p.outcome for p in quiet.predictions] == ["infinite"]
    head = say("a-rebuild-contradicted", "en", name="\0", outcome="\0", simai="\0")
    assert head.split("\0")[1] in got.markdown and head.split("\0")[1] not in quiet.markdown


def test_a_timed_run_gets_the_aicb_options_of_its_batch() -> None:
    """A Megatron-LM run of one micro-batch of 8 against an AICB workload of 8 micro-batches
    of 1: the answer gives the AICB options of the timed batch, and says the AIOB times are
    measured where AICB ran, for its model (not the training run's)."""
    thread = (
        "---\ntitle: t\ncreated: 2025-08-13\nlanguage: en\n---\n\n"
        "torchrun --nproc_per_node=1 pretrain_gpt.py --tensor-model-parallel-size 1 "
        "--num-layers 4 --hidden-size 512 --num-attention-heads 8 --seq-length 512 "
        "--micro-batch-size 8 --bf16\n\n"
        "python -m workload_generator.AIOB_simAI_workload_generator --world_size=1 "
        "--global_batch=8 --micro_batch=1 --num_layers=4 --num_attention_heads=8 "
        "--hidden_size=512 --tensor_model_parallel_size=1 --seq_length=512 {aiob}\n\n"
        "Why is the simulated time ten times the real one?\n"
    )
    measured = triage(thread.format(aiob="--aiob_enable")).markdown
    given = triage(thread.format(aiob="--comp_filepath times.txt")).markdown
    batch = say("train-same-batch", "en", mbs=8, gbs=8, ga=1)
    assert batch.strip() in measured and batch.strip() in given
    aiob = say("train-aiob-measured", "en", mbs=1, dtype="bfloat16").strip()
    assert aiob in measured and aiob not in given


def test_a_rebuild_that_is_not_the_users_asks_for_the_file_that_ran() -> None:
    """The command is in the thread, but its rebuild is not what ran: the ask is for the file
    the user ran, not for "the file or the AICB command"."""
    result = triage(
        THREAD.format(
            name="mine-world_size16-tp2-pp1-ep1-gbs32.txt", more="It crashes with a segfault.\n"
        )
    )
    assert say("missing-file-ran", "en") in result.missing
    assert say("missing-file", "en") not in result.missing


def test_a_name_another_command_writes_is_not_against_this_one() -> None:
    """Two AICB commands and the name of the first one's file: the second command's rebuild is
    not set aside for a name that is the first one's."""
    two = THREAD.format(name=NEW_NAME, more="").replace(
        "and ran",
        "python -m workload_generator.AIOB_simAI_workload_generator --world_size=16 "
        "--global_batch=32 --micro_batch=1 --num_layers=4 --num_attention_heads=16 "
        "--hidden_size=1024 --tensor_model_parallel_size=4 --seq_length=1024\n\nand ran",
    )
    result = triage(two)
    assert _aicb(result)["basis"] == "name"
    not_yours = say("a-rebuild-not-yours", "en", name="\0").split("\0")[0]
    assert not_yours not in result.markdown


def test_a_thread_that_reports_the_nan_itself_keeps_the_run() -> None:
    """The user got NaN and says it is an order of magnitude off: the model's no-result run is
    what they saw, so it is said."""
    command = (
        "python -m workload_generator.AIOB_simAI_workload_generator --world_size=1 "
        "--global_batch=8 --micro_batch=1 --num_layers=2 --num_attention_heads=8 "
        "--hidden_size=512 --tensor_model_parallel_size=1 --seq_length=512"
    )
    said = "The result is inf, NaN, an order of magnitude off."
    result = triage(
        f"---\ntitle: t\ncreated: 2025-08-13\nlanguage: en\n---\n\n{command}\n\n{said}\n"
    )
    assert [p.outcome for p in result.predictions] == ["infinite"]


def test_a_month_only_thread_with_an_older_name_is_the_pinned_aicb() -> None:
    """Dated 2025-01 only (AICB f16eafb ... ed1dee4, all writing `None-None-`), the user's file
    is named as AICB d9b4f5c, SimAI's pinned submodule, names it: that AICB is the user's, and
    the answer names the month's masters it is chosen over."""
    thread = THREAD.format(name=OLD_NAME, more="").replace(
        "created: 2025-08-13", "created: 2025-01"
    )
    thread = thread.replace(
        "https://github.com/aliyun/aicb/tree/d9b4f5cd7d9d34a80cfbb0389831a16c7fe3ed7b\n", ""
    )
    aicb = _aicb(triage(thread))
    assert (aicb["basis"], aicb["commit"]) == ("name", "d9b4f5c")
    assert aicb["instead"] == "f16eafb (2024-12-04) \u2026 ed1dee4 (2025-01-02)"
    assert "period" not in aicb and "label" not in aicb
