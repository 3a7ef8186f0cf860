# ruff: noqa: RUF001 - the answers' Chinese words, with their full-width punctuation
"""A failure a later SimAI fixed: the user's SimAI older than the change, the thread reporting
what the earlier behaviour does, and showing what sets it off (a plain ALLTOALL in the log, a
forward collective under 4096 B in a row, or AICB's training file where none is shown). Said
as a probable cause, from the change's behaviour page; silent for a newer SimAI, another
symptom, or nothing that sets it off."""

from __future__ import annotations

from wkparse import triage
from wkparse.threads.logs import read


def _thread(body: str, created: str = "2024-12-19", language: str = "en") -> str:
    return f"---\ntitle: t\ncreated: {created}\nlanguage: {language}\n---\n\n{body}\n"


ALLTOALL_LOG = (
    "I replaced ALLREDUCE with ALLTOALL in my workload file and got:\n\n```\n"
    "id: embedding_layer , depen: -1 , wg_comp_time: 1\n"
    "id:  , depen: -1 , wg_comp_time: 1\n"
    "type: HYBRID_TRANSFORMER_FWD_IN_BCKWD ,num passes: 1 ,lines: 2 compute scale: 1\n"
    "chunk size is: 1048576 , size is: 1048576 , layer_num is: 0 , node: 0\n"
    "info: all-to-all forward pass collective issued for layer: embedding_layer, "
    "involved dimensions:  1, 0, 0,\n"
    'assert failed. cond="false", msg="We assume at least one NIC is alive", '
    "file=/root/SimAI/astra-sim-alibabacloud/extern/network_backend/ns3-interface/rdma-hw.cc\n"
    "Aborted (core dumped)\n```\nWhat else should I change?"
)


def test_an_alltoall_abort_on_an_older_simai_is_the_known_change() -> None:
    t = triage(_thread(ALLTOALL_LOG))
    assert "older than 02532997" in t.cause
    assert "Updating SimAI to 02532997 or later is the fix" in t.cause
    assert "layer `embedding_layer`" in t.cause
    # the question nothing else answers gets it, cited to the behaviour page
    asked = [a for a in t.asked if "else" in a.question.text]
    assert asked and asked[0].answer == t.cause
    assert any("behaviour-ns3-alltoall" in e for e in asked[0].evidence)


def test_a_newer_simai_has_no_such_known_cause() -> None:
    t = triage(_thread(ALLTOALL_LOG, created="2025-06-01"))
    assert "02532997" not in t.cause
    assert not any(a.question == "Is it a known problem of your SimAI?" for a in t.answers)


def test_a_small_forward_row_and_a_stop_name_the_small_message_change() -> None:
    body = (
        "The SimAI_simulator run stops unexpectedly on a layer like "
        "`optimizer1  -1  0  ALLREDUCE  4  0  NONE  0  0  NONE  0  100`."
    )
    t = triage(_thread(body, created="2025-01-20"))
    assert "older than 7f06c19c" in t.cause
    assert "Your row `optimizer1` has a forward ALLREDUCE of 4 B" in t.cause


def test_only_gradient_sizes_under_4096_b_are_not_fixed_by_updating() -> None:
    body = (
        "The SimAI_simulator run stops unexpectedly on a layer like "
        "`layer1  -1  0  NONE  0  0  ALLREDUCE  4  0  NONE  0  100`."
    )
    t = triage(_thread(body, created="2025-01-20"))
    assert "7f06c19c" not in t.cause


def test_a_generated_workload_with_an_empty_csv_reads_aicb_s_small_rows() -> None:
    body = "用生成的 workload 直接仿真时，ncclFlowModel_EndToEnd.csv 是空的。大家遇到过吗？"
    t = triage(_thread(body, created="2025-02-12", language="zh"))
    known = [a for a in t.answers if a.question == "这是你的 SimAI 版本的已知问题吗？"]
    assert known, [a.question for a in t.answers]
    assert "`optimizer1 … optimizer4`（4 行），每行是 4 B 的前向 ALLREDUCE" in known[0].answer
    assert any("训练生成器的默认选项" in e for e in known[0].evidence)


def test_a_finished_run_the_user_doubts_is_no_known_failure() -> None:
    body = "My generated workload on SimAI_simulator gives identical results for 32 and 64 GPUs."
    t = triage(_thread(body, created="2025-02-12"))
    assert not any(a.question == "Is it a known problem of your SimAI?" for a in t.answers)


def test_unnamed_layers_in_the_log_are_counted() -> None:
    r = read(3, ALLTOALL_LOG)
    assert r is not None and (r.layers, r.unnamed) == (2, 1)
    t = triage(_thread(ALLTOALL_LOG))
    said = [a.answer for a in t.answers if "have no name" in a.answer]
    assert said and said[0].startswith("1 of the 2 layers SimAI built (`lines: 2`)")


def _scale_thread(words: str) -> str:
    runs = "\n".join(
        f"python3 ./astra-sim-alibabacloud/inputs/topo/gen_Topo_Template.py --ro -g {g} -gt H100 "
        f"-bw 400Gbps -nvbw 1440Gbps\nAS_SEND_LAT=2 ./bin/SimAI_simulator -t 8 -w ./my.txt "
        f"-n ./Rail_Opti_SingleToR_{g}g_8gps_400Gbps_H100 -c ./SimAI.conf\n"
        for g in (16, 128)
    )
    return _thread(
        f"I ran my all-reduce workload on two topologies:\n\n{runs}\n{words}", "2025-09-01"
    )


def test_a_result_unchanged_on_a_larger_topology_is_what_the_groups_explain() -> None:
    t = triage(_scale_thread("The results are identical. Why?"))
    assert t.cause.startswith("In SimAI_simulator the GPU count is the topology's")
    assert "`model_parallel_NPU_group` equal to the GPU count" in t.cause
    assert any("behaviour-ns3-scale" in e for a in t.asked for e in a.evidence)


def test_a_changed_result_or_one_topology_gets_no_such_answer() -> None:
    t = triage(_scale_thread("The run on 128 GPUs is 10x slower. Why?"))
    assert "behaviour-ns3-scale" not in t.markdown


def _training_thread(
    aicb: str, words: str = "The simulated iteration is 10x slower than the real one."
) -> str:
    megatron = (
        "torchrun --nproc_per_node=2 pretrain_gpt.py --tensor-model-parallel-size 2 "
        "--num-layers 12 --hidden-size 1024 --num-attention-heads 16 --seq-length 2048 "
        "--micro-batch-size 4 --bf16"
    )
    return _thread(
        f"I trained with:\n\n{megatron}\n\nand made the workload with:\n\n{aicb}\n\n{words}",
        "2025-08-13",
    )


GENERATOR = (
    "python -m workload_generator.AIOB_simAI_workload_generator --world_size=2 "
    "--tensor_model_parallel_size=2"
)


def test_a_training_run_against_another_run_s_workload_names_the_differences() -> None:
    aicb = (
        f"{GENERATOR} --global_batch=8 --micro_batch=1 --num_layers=12 --hidden_size=1024 "
        "--num_attention_heads=8 --seq_length=2048 --swiglu"
    )
    t = triage(_training_thread(aicb))
    said = [a.answer for a in t.answers if a.question.startswith("Does the AICB command")]
    assert said, [a.question for a in t.answers]
    assert "attention heads 16 in your training command, 8 in AICB's" in said[0]
    assert "AICB's iteration is 8 micro-batches (ga) of size 1, yours 1 of size 4" in said[0]
    assert "SwiGLU in AICB's only" in said[0]
    assert "dtype" not in said[0]  # bf16 on both sides
    assert t.cause == said[0]  # the result the user doubts: the first thing to fix


def test_the_same_run_on_both_sides_says_nothing() -> None:
    aicb = (
        f"{GENERATOR} --global_batch=4 --micro_batch=4 --num_layers=12 --hidden_size=1024 "
        "--num_attention_heads=16 --seq_length=2048"
    )
    t = triage(_training_thread(aicb))
    assert not any(a.question.startswith("Does the AICB command") for a in t.answers)


def test_an_option_aicb_s_script_does_not_know_is_said_to_drop_the_rest() -> None:
    body = "In the AICB README's MoE example, it seems this should be `--ep 16`, not `--ep_num 16`."
    t = triage(_thread(body, created="2024-11-05"))
    said = [a.answer for a in t.answers if a.question == "Does AICB's script know `--ep_num`?"]
    assert said and said[0].startswith(
        "`--ep_num` is no option of `scripts/megatron_workload_with_aiob.sh`"
    )
    assert "ignores that word and every word after it" in said[0]
    assert not any("`--ep`?" in a.question for a in t.answers)  # the script knows --ep


def test_options_named_outside_aicb_are_left_alone() -> None:
    body = "SimAI_analytical prints an error for `--foo_bar 3`. Why?"
    t = triage(_thread(body, created="2025-03-01"))
    assert not any(a.question.startswith("Does AICB's script") for a in t.answers)


def test_a_megatron_launch_s_options_raise_no_aicb_topic() -> None:
    launch = "torchrun pretrain_gpt.py --num-layers 12 --recompute-activations --fp16"
    quiet = triage(_thread(f"My AICB workload is slow. I trained with:\n\n{launch}\n"))
    assert "atten_flash" not in quiet.markdown
    asked = triage(_thread("What does AICB's --recompute_activations change in the workload?"))
    assert "atten_flash" in asked.markdown


def test_an_analytical_run_gets_no_ns3_known_cause() -> None:
    body = ALLTOALL_LOG + (
        "\n\n./bin/SimAI_analytical -w my.txt -g 8 -g_p_s 8 -r test- -busbw example/busbw.yaml\n"
    )
    t = triage(_thread(body))
    assert not any(a.question == "Is it a known problem of your SimAI?" for a in t.answers)
