"""Triage runs the SimAI the user most likely built: the commit the thread names, else the one
in force on the issue's date; lint, SimAI-Analytical and ns-3 at that version, and what the
current SimAI does otherwise, labelled as the fix "update SimAI"."""

from __future__ import annotations

from tests.conftest import TRIAGE, require
from wkparse import triage
from wkparse.models.simai.versions import DEFAULT
from wkparse.threads.phrases import say

#: a thread with an AICB command (triage rebuilds the file) and SimAI_analytical's command
#: line of the `-nv/-nic` era (26b4574b and later)
THREAD = (
    "---\ntitle: t\ncreated: {date}\nlanguage: en\n---\n\n"
    "sh ./scripts/megatron_workload_with_aiob.sh -m 7 --world_size 16 "
    "--tensor_model_parallel_size 4 --pipeline_model_parallel 1 --frame Megatron "
    "--global_batch 32 --micro_batch 1 --seq_length 2048\n\n"
    "./bin/SimAI_analytical -w ./results/workload/None-gpt_7B-world_size16-tp4-pp1-ep1-gbs32-"
    "mbs1-seq2048-MOE-False-GEMM-False-flash_attn-False.txt -g 16 -g_p_s 8 -nv 360 -nic 48.5 "
    "-n_p_s 8\n{more}It prints only the help and stops.\n"
)


def test_the_simai_in_force_on_the_date_is_run_and_said() -> None:
    """2025-03-25: SimAI 4e66932a, whose parser knows no `-nv` (recorded: exit 255); the
    current SimAI runs the same command: the fix "update SimAI", in the cause too."""
    result = triage(THREAD.format(date="2025-03-25", more=""))
    simai = result.versions["simai"]
    assert isinstance(simai, dict)
    assert (simai["commit"], simai["basis"], simai["model"]) == ("4e66932a", "date", "4e66932a")
    said = [a.answer for a in result.answers if a.question == "Which SimAI and AICB?"]
    assert said[0].startswith(
        "SimAI 4e66932a (2025-03-20), master on the issue's date, 2025-03-25; AICB ed1dee4"
    )
    assert [(p.simai, p.outcome, p.exit) for p in result.predictions] == [
        ("4e66932a", "refuse", 255),
        (DEFAULT.short, "finish", 0),
    ]
    assert result.cause.startswith("Likely cause: SimAI 4e66932a's option parser does not know")
    assert result.cause.endswith(
        f"The current SimAI, {DEFAULT.short}, does otherwise (finishes): update SimAI."
    )
    assert any(a.answer.startswith("Fix: update SimAI.") for a in result.answers)
    # still unknown: which commit the user built
    assert say("missing-commit", "en") in result.missing


def test_a_commit_the_thread_names_beats_the_date() -> None:
    result = triage(THREAD.format(date="2025-03-25", more="I built SimAI commit 26b4574b.\n"))
    simai = result.versions["simai"]
    assert isinstance(simai, dict)
    assert (simai["commit"], simai["basis"], simai["line"]) == ("26b4574b", "stated", 10)
    assert simai["why"] == "named in the thread (line 10)"
    # 26b4574b accepts -nv and does what cef83f9 does with this file: listed once
    assert [(p.simai, p.outcome) for p in result.predictions] == [("26b4574b", "finish")]
    assert say("missing-commit", "en") not in result.missing


def test_a_named_commit_wkparse_does_not_model_runs_the_modelled_one_before_it() -> None:
    """9ecad45f (2025-02-06) is a master commit wkparse does not model: the models run
    b83ea3d4, the newest modelled before it on master (not the one in force on the issue's
    date), and the answer says that nothing between them changes what SimAI does."""
    result = triage(THREAD.format(date="2025-03-25", more="SimAI commit 9ecad45f here.\n"))
    simai = result.versions["simai"]
    assert isinstance(simai, dict)
    assert (simai["commit"], simai["model"], simai["differs"]) == ("9ecad45f", "b83ea3d4", [])
    assert simai["model_why"] == "the newest modelled SimAI before 9ecad45f (2025-02-06)"
    assert result.predictions[0].simai == "b83ea3d4"
    assert say("models-stand-in-same", "en", model="b83ea3d4 (2025-01-13)") in result.markdown


def test_master_on_the_date_is_named_and_where_its_stand_in_differs() -> None:
    """On 2025-07-13 master was da7cc783 (2025-07-11), not 26b4574b (2025-07-09), the newest
    modelled commit; between them SimAI changed its ns-3 frontend and MockNcclGroup, so
    each SimAI-Analytical statement says it may not hold where the collectives changed."""
    result = triage(THREAD.format(date="2025-07-13", more="I ran SimAI_simulator too.\n"))
    simai = result.versions["simai"]
    assert isinstance(simai, dict)
    assert (simai["label"], simai["model"]) == ("da7cc783 (2025-07-11)", "26b4574b")
    assert simai["differs"] == ["system", "ns3"] and simai["aicb_pin"] == "d9b4f5c"
    aicb = result.versions["aicb"]
    assert isinstance(aicb, dict) and aicb["commit"] == "9ac2f0e"
    caveat = "SimAI changed its collectives and groups between 26b4574b and da7cc783"
    runs = [a for a in result.answers if a.question == say("q-run", "en")]
    assert runs and all(caveat in a.evidence[2] for a in runs)


def _pasted(header: str, rows: str, date: str) -> str:
    return f"---\ntitle: t\ncreated: {date}\n---\n\nMy workload:\n```\n{header}\n{rows}```\n"


def test_lint_and_the_run_speak_for_the_users_simai() -> None:
    """SimAI 03613a7a (2024-12) aborts on a float `pp_comm` (recorded): lint raises it at that
    version (WK230), the run aborts; the current SimAI reads it, so neither says so there."""
    header = (
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 8 ep: 1 pp: 2 vpp: 4 ga: 1 "
        "all_gpus: 16 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 67108864.0"
    )
    rows = "1\nembedding_layer -1 556000 ALLREDUCE 13870912 1 NONE 0 1 NONE 0 100\n"
    older = triage(_pasted(header, rows, "2024-12-20"))
    later = triage(_pasted(header, rows, "2026-09-01"))
    assert ("WK230", "error", "03613a7a") in {(f.code, f.severity, f.simai) for f in older.findings}
    assert "WK230" not in {f.code for f in later.findings}
    assert [(p.simai, p.outcome, p.exit) for p in older.predictions] == [
        ("03613a7a", "abort", 134),
        (DEFAULT.short, "finish", 0),
    ]


def test_what_lint_says_for_the_current_simai_is_labelled() -> None:
    """SimAI#166's case: a TP group of one GPU costs nothing before 26b4574b (recorded) and is
    infinite from it: at 4e66932a lint is silent and the run finite; WK702 and the infinite
    time are the current SimAI's, and the answer says so."""
    header = (
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 1 ep: 1 pp: 1 vpp: 1 ga: 1 "
        "all_gpus: 8 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0"
    )
    rows = "1\nembedding_layer -1 556000 ALLREDUCE 13870912 1 NONE 0 1 NONE 0 100\n"
    result = triage(_pasted(header, rows, "2025-03-25"))
    assert {(f.code, f.simai) for f in result.findings} == {("WK702", DEFAULT.short)}
    assert [(p.simai, p.outcome) for p in result.predictions] == [
        ("4e66932a", "finish"),
        (DEFAULT.short, "infinite"),
    ]
    current = say("a-finding-current", "en", current=DEFAULT.short, finding="")
    lint = [a.answer for a in result.answers if a.question == say("q-findings", "en")]
    assert lint and all(a.startswith(current) and "WK702" in a for a in lint)
    assert f"SimAI {DEFAULT.short} does otherwise: SimAI_analytical: reports an infinite" in (
        result.markdown
    )


def test_before_the_first_modelled_simai_the_current_one_runs_and_says_so() -> None:
    """SimAI#8 (2024-11-05): older than v1.0, whose reader already differed (it wanted
    `vpp:`): the models run the current SimAI and say they may not hold."""
    case = require(TRIAGE / "aliyun-SimAI-8")
    result = triage((case / "issue.md").read_bytes())
    simai = result.versions["simai"]
    assert isinstance(simai, dict) and simai["older"] and simai["label"] == "16b21a57 (2024-11-01)"
    assert simai["model"] == DEFAULT.short
    assert say("models-run-older", "en", model=DEFAULT.label) in result.markdown
    assert {f.simai for f in result.findings} == {DEFAULT.short}


def test_ns3_at_an_older_simai_says_what_was_run() -> None:
    """SimAI#89 (2025-02-10): at b83ea3d4 the ns-3 backend stops silently at a collective under
    4 KiB (exit 0, recorded at b83ea3d4: ../shared/simai-ns3-versions), no hang; the current
    SimAI finishes: the fix "update SimAI"."""
    from wkparse.models.simai.ns3_endings import RUN_AT

    case = require(TRIAGE / "aliyun-SimAI-89")
    result = triage((case / "issue.md").read_bytes())
    lang = result.language
    user, now = result.predictions
    assert (user.simai, user.outcome, user.exit, now.simai, now.outcome) == (
        "b83ea3d4",
        "silent-stop",
        0,
        DEFAULT.short,
        "finish",
    )
    assert "recorded at b83ea3d4" in user.message and "124" not in result.markdown
    ran = [a for a in result.answers if a.question == say("q-run", lang)]
    # the ns-3 model at b83ea3d4: recorded runs there; the later source-only commits named
    source = say(
        "evidence-ns3-version", lang, model="b83ea3d4", recorded=", ".join(RUN_AT), commits="\0"
    )
    before, after = source.split("\0")
    said = [e for a in ran for e in a.evidence if e.startswith(before) and e.endswith(after)]
    assert said and "a920cdc2" in said[0] and "7f06c19c (" not in said[0]
    fix = say("q-update", lang, current=DEFAULT.label)
    assert [a for a in result.answers if a.question == fix]


def test_the_current_simai_is_listed_only_where_it_differs() -> None:
    """SimAI#209 (2026-01): 26b4574b and cef83f9 refuse `-busbw` alike, so one prediction is
    listed; SimAI#93 pastes 16 of 21 rows: what the shown rows do says nothing of the file, so
    neither a total nor a difference or sameness of versions is said of it."""
    later = triage((require(TRIAGE / "aliyun-SimAI-209") / "issue.md").read_bytes())
    assert [p.simai for p in later.predictions] == ["26b4574b"]
    same = say("a-update-same", later.language, current=DEFAULT.short, simai="26b4574b")
    assert same in later.markdown
    older = triage((require(TRIAGE / "aliyun-SimAI-93") / "issue.md").read_bytes())
    assert [p.simai for p in older.predictions] == ["b83ea3d4"]
    assert "does otherwise:" not in older.markdown and "Fix: update SimAI" not in older.markdown


def test_versions_in_json_say_why() -> None:
    public = triage(THREAD.format(date="2025-01-16", more="")).public()
    simai = public["versions"]["simai"]  # type: ignore[index]
    aicb = public["versions"]["aicb"]  # type: ignore[index]
    assert simai["why"] == "master on 2025-01-16, the issue's date"
    assert simai["label"] == "ed5c490e (2025-01-16)" and simai["current"] == DEFAULT.short
    assert simai["model"] == "b83ea3d4"
    assert aicb["basis"] == "date" and aicb["revision"] and "2025-01-16" in aicb["why"]
    predictions = public["predictions"]
    assert isinstance(predictions, list)
    assert {p["simai"] for p in predictions} <= {"b83ea3d4", DEFAULT.short}


def test_the_master_tables_are_the_recorded_histories() -> None:
    """wkparse's SimAI master (commit, date in its own time zone, aicb pin) and AICB master
    (commit, date) are the recorded ones, commit by commit."""
    from tests.conftest import HISTORY
    from wkparse.models.aicb.revisions import _MASTER as AICB_MASTER
    from wkparse.models.simai.master import MASTER

    rows = require(HISTORY / "simai-master.tsv").read_text(encoding="utf-8").splitlines()[1:]
    recorded = [r.split("\t") for r in reversed(rows) if r.strip()]
    assert [(m.commit, m.date, m.aicb) for m in MASTER] == [
        (r[0], r[1][:10], r[4][:7] if r[4] != "-" else "") for r in recorded
    ]
    rows = require(HISTORY / "aicb-master.tsv").read_text(encoding="utf-8").splitlines()[1:]
    assert list(AICB_MASTER) == [(r.split("\t")[0], r.split("\t")[1][:10]) for r in reversed(rows)]


def test_a_month_only_date_gives_the_masters_of_that_month() -> None:
    """A thread dated only by its month may have run any master of it: the answer names the
    range (the master in force when the month began to the last of it), says where SimAI
    changed within it (b83ea3d4, 2025-01-13, its reader), and names no single commit."""
    result = triage(THREAD.format(date="2025-01", more=""))
    simai, aicb = result.versions["simai"], result.versions["aicb"]
    assert isinstance(simai, dict) and isinstance(aicb, dict)
    assert (simai["basis"], simai["commit"]) == ("period", None)
    assert simai["period"][0] == "52e19115" and simai["period"][-1] == "8c2f1743"
    assert "cc580451" in simai["period"] and "ed5c490e" in simai["period"]
    assert simai["within"] == [{"commit": "b83ea3d4 (2025-01-13)", "areas": ["workload"]}]
    assert "workload" in simai["differs"] and simai["model"] == "b83ea3d4"
    assert aicb["basis"] == "period" and aicb["period"] == ["f16eafb", "a076fdb", "ed1dee4"]
    said = next(a.answer for a in result.answers if a.question == "Which SimAI and AICB?")
    assert said.startswith("SimAI 52e19115 (2024-12-30) \u2026 8c2f1743 (2025-01-27), any master")
    assert "its workload reader at b83ea3d4" in said and "master on the issue's date" not in said


def test_a_month_with_one_master_reads_as_that_day() -> None:
    """A month in which master did not move (2025-06: 2bdecddb of 2025-04-30 throughout) is
    one commit, said as before; a full date is never a period."""
    month = triage(THREAD.format(date="2025-06", more="")).versions["simai"]
    day = triage(THREAD.format(date="2025-01-16", more="")).versions["simai"]
    assert isinstance(month, dict) and isinstance(day, dict)
    assert (month["basis"], month["commit"]) == ("date", "2bdecddb")
    assert (day["basis"], day["commit"]) == ("date", "ed5c490e")


def test_a_switch_that_changed_within_the_month_is_not_stated() -> None:
    """2024-12 holds 03613a7a, where the pipeline bubble's PP term changed: some masters of
    that month divide the bubble otherwise, so `depends` says so (the bubble factor is not
    stated), and a month without the change does not."""
    from wkparse.threads.versions import depends

    dec = triage(THREAD.format(date="2024-12", more="")).versions["simai"]
    jun = triage(THREAD.format(date="2025-06", more="")).versions["simai"]
    assert depends(dec, "pp_term") and depends(dec, "pp_comm_key")
    assert not depends(jun, "pp_term")


def test_a_change_within_the_month_is_said_to_depend() -> None:
    """2025-02 holds 7f06c19c (2025-02-28), where SimAI_simulator took SimAI_analytical's CSV
    layout: a thread of that month is told its SimAI may be older (not that it is), one of a
    day before it that it is, one after it neither."""
    thread = (
        "---\ntitle: How to analyze results of SimAI-Simulation\ncreated: {date}\n"
        "language: en\n---\n\nI ran ./bin/SimAI_simulator -t 16 -w ./example/microAllReduce.txt"
        " and it completed. How do I analyze the results?\n"
    )
    maybe = say("m-maybe-older", "en", since="7f06c19c")
    older = say("m-older", "en", since="7f06c19c")
    month = triage(thread.format(date="2025-02")).markdown
    before = triage(thread.format(date="2025-02-10")).markdown
    after = triage(thread.format(date="2025-03-25")).markdown
    assert maybe in month and f"{older}:" not in month
    assert f"{older}:" in before and maybe not in before
    assert maybe not in after and f"{older}:" not in after


def test_a_page_of_a_switch_within_the_month_may_not_hold() -> None:
    """A catalog page about what b83ea3d4 (2025-01-13) changed (`header_by_name`), asked in
    a thread dated only 2025-01, says the user's SimAI may be older than that commit; a day
    before it says it is, a day after says neither."""
    thread = "---\ntitle: t\ncreated: {date}\nlanguage: en\n---\n\nWhat does all_gpus mean?\n"
    month = triage(thread.format(date="2025-01")).markdown
    before = triage(thread.format(date="2025-01-05")).markdown
    after = triage(thread.format(date="2025-01-20")).markdown
    maybe = "your SimAI may be older than b83ea3d4"
    assert maybe in month and "is older than b83ea3d4" not in month
    assert "is older than b83ea3d4" in before and maybe not in before
    assert maybe not in after and "older than b83ea3d4" not in after


def test_a_commit_is_listed_by_what_it_changes_not_by_its_folders() -> None:
    """13696181 touches system/ and workload/ only to add SimAI_analytical's `-l` option and
    the chart's labels: a user of a SimAI after it is not told the reader or the groups
    changed (the 2025-10 to 2026-04 masters against the 26b4574b stand-in)."""
    from wkparse.models.simai.master import MASTER

    [commit] = [m for m in MASTER if m.commit.startswith("13696181")]
    assert commit.areas == frozenset({"analytical"})
    t = triage(
        "---\ntitle: t\ncreated: 2026-01-15\nlanguage: en\n---\n\n"
        "`./bin/SimAI_simulator -w a.txt -t 8 -n topo -c SimAI.conf` finishes; the time is odd.\n"
    )
    said = " ".join(a.answer for a in t.answers)
    assert "its workload reader" not in said
