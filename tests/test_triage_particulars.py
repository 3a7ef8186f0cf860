# ruff: noqa: RUF001 - Chinese questions, with their full-width punctuation
"""Pages written to answer a kind of question (their `asks`) answer it before a topic one of
its words raises, with the user's own numbers where the models give them
(`threads.particulars`); a question that only points back ("Is that correct?") is read with
the sentences before it."""

from __future__ import annotations

from wkparse import triage
from wkparse.models.aicb import generate
from wkparse.parse import parse_bytes
from wkparse.threads.questions import read
from wkparse.threads.result import Triage


def _thread(body: str, title: str = "t", lang: str = "en", created: str = "2025-07-13") -> Triage:
    text = f"---\ntitle: {title}\ncreated: {created}\nlanguage: {lang}\n---\n\n{body}\n"
    return triage(text)


def _first(t: Triage) -> str:
    return t.asked[0].answer


def _header(pp: int, ga: int) -> str:
    pp_comm = 0 if pp == 1 else 8388608
    return (
        f"HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: {pp} vpp: 2 "
        f"ga: {ga} all_gpus: 8 checkpoints: 0 checkpoint_initiates: 0 pp_comm: {pp_comm}\n"
        "3\n"
        "grad_gather -1 1 NONE 0 1 NONE 0 1 ALLGATHER 1000000 100\n"
        "grad_param_comm -1 1 NONE 0 1 NONE 0 1 REDUCESCATTER 2000000 100\n"
        "embedding_layer -1 10 ALLREDUCE 4096 1 NONE 0 1 NONE 0 100\n"
    )


def test_a_question_whether_the_file_can_express_overlap_gets_the_overlap_page() -> None:
    t = _thread("Can the workload file express the overlap of computation and communication?")
    assert _first(t).startswith("**Overlap of computation and communication")
    assert "default to 0" in _first(t) and "non-blocking" in _first(t)
    zh = _thread("AICB 生成的 workload 能否表达计算和通信的重叠？", lang="zh")
    assert "workload 文件无法表达重叠" in _first(zh)
    # a question about an overlap ratio's value is the option's, not this page's
    other = read("t", [(3, "What does -dp_o mean?")])
    assert "behaviour-overlap" not in other[0].concepts


def test_how_simai_runs_ga_is_answered_with_what_ga_does_in_the_users_file() -> None:
    body = "How does SimAI handle ga, is it a 1F1B schedule?\n\n```\n" + _header(1, 4) + "```"
    answer = _first(_thread(body))
    assert "runs the rows once, in file order" in answer
    assert "`ga` changes nothing in SimAI's result" in answer
    assert "`grad_param_comm` REDUCESCATTER 2,000,000 B" in answer
    assert "DP group of 4 GPUs" in answer  # 8 / (TP 2 x PP 1)
    piped = _first(_thread(body.replace(_header(1, 4), _header(2, 4))))
    assert "changes nothing in SimAI's result" not in piped and "DP group of 2 GPUs" in piped
    zh = _thread("SimAI 如何处理 ga？是 1F1B 调度吗？\n\n```\n" + _header(1, 4) + "```", lang="zh")
    assert "改变任何结果。你的文件是 `ga: 4`" in _first(zh)  # no blank between Chinese sentences
    bare = _first(_thread("How does SimAI handle ga, is it a 1F1B schedule?"))
    assert "runs the rows once" in bare and "In your file" not in bare


def test_why_ga_changes_nothing_is_answered_by_the_ga_page_with_the_users_header() -> None:
    body = "Why does changing ga not change the result?\n\n```\n" + _header(1, 8) + "```"
    assert "`ga` changes nothing in SimAI's result" in _first(_thread(body))
    zh = read("t", [(3, "为什么修改 ga 之后结果不变？")])
    assert zh[0].concepts[0] == "behaviour-ga-schedule"
    # a result unchanged by another setting is not ga's
    assert "behaviour-ga-schedule" not in read("t", [(3, "Why does TP not change it?")])[0].concepts


def test_a_question_on_run_time_with_many_micro_batches_gets_the_cost_page() -> None:
    t = _thread("Is the slow, linear scaling with global_batch 1048576 intended?")
    assert "linear in the number of micro-batches by construction" in _first(t)
    assert "behaviour-ga-cost" not in read("t", [(3, "What does ga mean?")])[0].concepts


def test_a_dp_size_question_naming_a_preset_gets_the_presets_numbers_from_the_aicb_model() -> None:
    t = _thread(
        "How is dp_comm_size computed? For gpt-7B I expect 4 * 7e9 but the file has less.",
        created="2025-09-30",
    )
    made = generate("sh scripts/megatron_workload_with_aiob.sh -m 7", at="2025-09-30")
    rows = parse_bytes(made.text().encode()).workload.rows
    row = next(r for r in rows if r.fields.wg.comm == "REDUCESCATTER")
    answer = _first(t)
    assert "ONE GPU holds" in answer and "with_aiob.sh -m 7`" in answer
    assert f"REDUCESCATTER {row.fields.wg.size:,} B" in answer
    # and the whole model's count, the same command through the generator at TP 1 and PP 1
    assert "the whole model, at TP 1 and PP 1" in answer
    # a thread with its own command: its file speaks, not the preset's defaults
    cmd = _thread(
        "How is dp_comm_size computed?\n\n```\nsh scripts/megatron_workload_with_aiob.sh "
        "-m 7 --world_size 8\n```",
        created="2025-09-30",
    )
    assert "The thread shows no command" not in _first(cmd)


def test_is_that_correct_of_what_a_page_answers_is_answered_from_that_page() -> None:
    said = "I ran the sample: there is no traffic between hosts, only inside each host."
    asked = read("t", [(3, f"{said} Is that correct?")])
    assert asked[0].refers_to[:1] == ("behaviour-intra-host-traffic",)
    t = _thread(f"{said} Is that correct?")
    assert _first(t).startswith(
        "**Why a run shows traffic only inside each server**: Expected"
    ) and "`example/microAllReduce.txt`" in _first(t)
    zh = _thread("跑了示例，只有机内流量，没有机间流量。这是正常的吗？", lang="zh")
    assert "只有服务器内部的流量是预期行为" in _first(zh)
    # pointing back at prose no page answers gets no page
    plain = read("t", [(3, "I ran the sample and it finished. Is that correct?")])
    assert plain[0].refers_to == ()
    # "my calculation" points back at the size the user computed
    said = "dp_comm_size is smaller than 4 x params."
    mine = read("t", [(3, f"{said} What is wrong with my calculation?")])
    assert "behaviour-dp-size" in mine[0].refers_to


def test_a_collective_time_varying_across_servers_gets_the_packet_level_page() -> None:
    t = _thread("为什么 TP=16（跨机）时每一层的 fwd total comm 都不一样？", lang="zh")
    assert "按数据包仿真" in _first(t) and "前向集合通信以阻塞方式发出" in _first(t)
    same = read("t", [(3, "为什么每一层的 fwd total comm 都不一样？")])
    assert "behaviour-ns3-cross-server-time" not in same[0].concepts
