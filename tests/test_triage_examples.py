"""A thread that runs SimAI's own example file, without showing it: the answer says what the
file holds from its catalog page (and asks for no file); not where the user changed it or
ran a file of their own."""

from __future__ import annotations

from wkparse import triage

FRONT = '---\ntitle: "results"\ncreated: 2024-12-24\nlanguage: en\n---\n\n'


def _said(path: str, more: str = "") -> str:
    body = (
        f"I ran AS_SEND_LAT=3 ./bin/SimAI_simulator -t 16 -w {path} -n ./HPN_7_0_128_gpus_8_in_"
        f"one_server_with_100Gbps_A100 -c SimAI.conf\n\nIt completed.{more} How do I read the "
        "results?\n"
    )
    result = triage(FRONT + body)
    return "\n".join(a.answer for a in result.answers)


def test_simai_s_example_is_described_from_its_page() -> None:
    said = _said("./example/microAllReduce.txt")
    assert "16,777,216 B (16 MiB) and 67,108,864 B (64 MiB)" in said
    assert "no DP, PP or inter-server traffic" in said


def test_a_changed_example_is_not_described() -> None:
    said = _said("./example/microAllReduce.txt", " I modified the sizes in it.")
    assert "16,777,216 B" not in said


def test_a_users_own_file_is_not_described() -> None:
    assert "16,777,216 B" not in _said("./example/my_allreduce.txt")


INFERENCE = (
    "---\ntitle: t\ncreated: 2026-01-12\nlanguage: en\n---\n\n"
    "sh ./scripts/inference_workload_with_aiob.sh -m qwen3-235B \\\n"
    "-c ./scripts/inference_configs/qwen3_moe_default.json \\\n"
    "-s 32768 -b 4 -w 12288 -e 32  -t 8 -l 16 -p prefill\n\n"
    "The result of SimAI_analytical on it looks wrong. Why?\n"
)


def test_an_inference_file_points_to_the_inference_simulator() -> None:
    """SimAI runs an inference file as a training iteration: the answer names vidur."""
    said = "\n".join(a.answer for a in triage(INFERENCE).answers)
    assert "holds vidur-alibabacloud from b5ff47c9" in said


def test_a_training_file_does_not() -> None:
    text = INFERENCE.replace(
        "sh ./scripts/inference_workload_with_aiob.sh -m qwen3-235B \\\n"
        "-c ./scripts/inference_configs/qwen3_moe_default.json \\\n"
        "-s 32768 -b 4 -w 12288 -e 32  -t 8 -l 16 -p prefill",
        "sh ./scripts/megatron_workload_with_aiob.sh -m 7 --world_size 16",
    )
    result = triage(text)
    assert any(a.question == "What does the file describe?" for a in result.answers)
    assert "vidur" not in "\n".join(a.answer for a in result.answers)


def _pasted(mlp: int) -> str:
    rows = (
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4 ep: 1 pp: 1 vpp: 1 ga: 1 "
        "all_gpus: 4 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0\n2\n"
        "attention_layer\t-1\t1820000\tALLREDUCE\t402653184\t1820000\tNONE\t0\t1820000\tNONE\t0\t100\n"
        f"mlp_layer\t-1\t{mlp}\tALLREDUCE\t402653184\t{mlp}\tNONE\t0\t{mlp}\tNONE\t0\t100\n"
    )
    text = FRONT.replace("results", "unit") + "What is the unit of these times?\n\n" + rows
    return "\n".join(a.answer for a in triage(text).answers)


def test_compute_times_of_aicbs_shipped_aiob_file_are_named() -> None:
    said = _pasted(2478000)
    assert "are the ones AICB writes from its shipped `workload/aiob_inputs/Example.txt`" in said


def test_other_compute_times_are_not_called_shipped() -> None:
    assert "Example.txt" not in _pasted(2500000)


def test_what_the_file_describes_is_one_section() -> None:
    rows = (
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4 ep: 1 pp: 1 vpp: 1 ga: 1 "
        "all_gpus: 4 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0\n2\n"
        "grad_gather\t-1\t1\tNONE\t0\t1\tNONE\t0\t1\tALLGATHER\t4919918592\t100\n"
        "attention_layer\t-1\t1820000\tALLREDUCE\t402653184\t1820000\tNONE\t0\t1820000\tNONE\t0\t100\n"
        "mlp_layer\t-1\t2478000\tALLREDUCE\t402653184\t2478000\tNONE\t0\t2478000\tNONE\t0\t100\n"
    )
    text = FRONT.replace("results", "unit") + "What does grad_gather mean?\n\n" + rows
    markdown = triage(text).markdown
    assert markdown.count("**What does the file describe?**") == 1
