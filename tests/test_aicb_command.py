"""How wkparse.models.aicb reads a command: AICB's scripts, argparse's rules, and `wkparse aicb`."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from wkparse.cli import app
from wkparse.models.aicb import AicbError, generate
from wkparse.models.aicb.command import invocation
from wkparse.models.aicb.revisions import LATEST

MODULE = "workload_generator.SimAI_training_workload_generator"
SCRIPT_PATH = "scripts/megatron_workload_with_aiob.sh"
SCRIPT = f"sh {SCRIPT_PATH}"
PY = f"python -m {MODULE}"


def _header(command: str) -> str:
    return generate(command).text().splitlines()[0]


def test_script_preset_overrides_the_tp_the_user_gave() -> None:
    assert "model_parallel_NPU_group: 4 " in _header(f"{SCRIPT} -m 7 --tp 8 --world_size 32")
    assert "model_parallel_NPU_group: 2 " in _header(f"{SCRIPT} -m 13 --tp 2 --world_size 32")


def test_script_stops_at_the_first_unknown_word_and_says_so() -> None:
    made = generate(f"{SCRIPT} -m 7 --world_size=128 --global_batch 8")
    assert " all_gpus: 32 " in made.text().splitlines()[0]  # the script's default world size
    assert any("stops reading options at '--world_size=128'" in n for n in made.notes)
    assert any("--global_batch 8" in n for n in made.notes)


def test_script_defaults_and_fallback_preset() -> None:
    made = generate(f"{SCRIPT} -m 30")
    assert made.filename.startswith("None-gpt_13B-world_size32-tp8-pp1-ep1-gbs1024-")
    assert any("falls back to gpt_13B" in n for n in made.notes)


def test_script_option_without_value_and_help_write_nothing() -> None:
    with pytest.raises(AicbError, match="--world_size needs a value"):
        generate(f"{SCRIPT} --world_size")
    with pytest.raises(AicbError, match="prints the usage"):
        generate(f"{SCRIPT} -h")


def test_script_mixtral_preset_keeps_its_star_and_needs_sp() -> None:
    with pytest.raises(AicbError, match="moe must be enabled with sequence parallel"):
        generate(f"{SCRIPT} -m moe --world_size 8")
    made = generate(f"{SCRIPT} -m moe --world_size 8 --sp --experts 8 --ep 2 --global_batch 4")
    assert made.filename.startswith("None-Mixtral_8*7B-")
    assert made.filename.endswith("-MOE-True-GEMM-True-flash_attn-False.txt")


def test_script_deepseek_preset_passes_n_dense_layer_as_a_prefix() -> None:
    """The script passes --n_dense_layer=3; argparse takes it as --n_dense_layers."""
    made = generate(
        f"{SCRIPT} -m deepseek671 --world_size 488 --pp 61 --sp --ep 8 --global_batch 1 "
        "--aiob --comp_filepath workload/aiob_inputs/Example.txt"
    )
    body = [line.split("\t")[0] for line in made.text().splitlines()[2:]]
    assert "mlp_moelayer" not in body  # one layer per stage, and layer 0 is dense (3 dense)
    assert made.filename.startswith("None-DeepSeek_671B-world_size488-tp1-pp61-ep8-")


def test_inference_script_rejects_its_own_help_spelling() -> None:
    made = generate("sh scripts/inference_workload_with_aiob.sh -m qwen3-235B --seq-length 8")
    assert made.filename == "Qwen3-Moe-235B-world_size8-tp1-pp1-ep8-bs32-seq1024-decode.txt"
    assert any("stops reading options at '--seq-length'" in n for n in made.notes)
    with pytest.raises(AicbError, match="Invalid model size"):
        generate("sh scripts/inference_workload_with_aiob.sh -m qwen")
    with pytest.raises(AicbError, match="GPU"):
        generate("sh scripts/inference_workload_with_aiob.sh -m qwen3-235B -a")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ("--t 2", "ambiguous option: --t could match"),
        ("--world_size two", "argument --world_size: invalid int value: 'two'"),
        ("--swiglu=yes", "argument --swiglu: ignored explicit argument 'yes'"),
        ("--frame Torch", "argument --frame: invalid choice: 'Torch'"),
        ("--world_size", "argument --world_size: expected one argument"),
        ("--bogus 3 extra", "unrecognized arguments: --bogus 3 extra"),
        ("--world_size 6 --tensor_model_parallel_size 4", "world size: 6, tp: 4, pp: 1"),
        ("--aiob_enable", "--aiob_enable without --comp_filepath"),
        ("--aiob_enable --comp_filepath mine.txt", "no such file here"),
        ("--num_layers 2 --hidden_size 30 --num_attention_heads 1 --world_size 4 "
         "--tensor_model_parallel_size 4", "90 is not divisible by 4"),
        ("--expert_model_parallel_size 2 --num_experts 3 --world_size 2", "multiple of expert"),
        ("--moe_grouped_gemm --dtype float16", "GroupedGEMM for MoE only supports bf16"),
        ("--help", "prints the generator's help"),
    ],
)  # fmt: skip
def test_python_entry_point_errors_name_the_option(args: str, message: str) -> None:
    with pytest.raises(AicbError, match=None) as info:
        generate(f"{PY} {args}")
    assert message in str(info.value)


def test_python_entry_point_accepts_prefixes_equals_and_negative_numbers() -> None:
    made = generate(f"{PY} --world=8 --tensor 2 --global_batch -4")
    assert made.filename.startswith("None-None-world_size8-tp2-pp1-ep1-gbs-4-")
    assert " ga: -1 " in made.text().splitlines()[0]  # -4 // 4, and no group is written
    assert any("ga num < 1" in n for n in made.notes)


def test_options_without_effect_are_named_never_silent() -> None:
    made = generate(f"{PY} --world_size 2 --epoch_num 3 --stage 2 --overlap_version")
    joined = "\n".join(made.notes)
    for flag in ("--epoch_num", "--stage", "--overlap_version"):
        assert flag in joined
    script = generate(f"{SCRIPT} -m 7")  # the script's own --epoch_num is not the user's
    assert not any("--epoch_num" in n for n in script.notes)


def test_command_forms() -> None:
    assert invocation(f"CUDA_VISIBLE_DEVICES=0 bash /opt/aicb/{SCRIPT[3:]} -m 7").via_script
    assert invocation(
        "python3 workload_generator/SimAI_training_workload_generator.py --world_size 8"
    ).argv == ["--world_size", "8"]
    with pytest.raises(AicbError, match="not an AICB generator command"):
        invocation("python train.py")
    with pytest.raises(AicbError, match="not an AICB generator command"):
        invocation("uv run -m other.module --world_size 8")


@pytest.mark.parametrize(
    "command",
    [
        f"uv run -m {MODULE} --world_size 8",
        f"uv run --module {MODULE} --world_size 8",
        f"uv run python -m {MODULE} --world_size 8",
        f"uv run --with numpy -- python3 -u -m {MODULE} --world_size 8",
        "uv run workload_generator/SimAI_training_workload_generator.py --world_size 8",
        f"python -m {MODULE} --world_size 8",
        f"python3 -m {MODULE} --world_size 8",
        f"/usr/bin/python3.10 -X dev -m {MODULE} --world_size 8",
        f"cd aicb && python3 -m {MODULE} --world_size 8",
    ],
)
def test_every_python_command_form_runs_the_training_generator(command: str) -> None:
    run = invocation(command)
    assert (run.generator, run.via_script, run.argv) == ("training", False, ["--world_size", "8"])
    assert generate(command).text() == generate(f"{PY} --world_size 8").text()


@pytest.mark.parametrize(
    "command",
    [
        f"sh {SCRIPT_PATH} -m 7",
        f"bash {SCRIPT_PATH} -m 7",
        f"bash -x ./{SCRIPT_PATH} -m 7",
        f"./{SCRIPT_PATH} -m 7",
        f"{SCRIPT_PATH} -m 7",
        f"uv run sh {SCRIPT_PATH} -m 7",
        f"uv run bash ./{SCRIPT_PATH} -m 7",
        f"env AICB=1 sh {SCRIPT_PATH} -m 7",
    ],
)
def test_every_script_command_form_runs_the_script(command: str) -> None:
    run = invocation(command)
    assert run.via_script and run.generator == "training"
    assert generate(command).text() == generate(f"{SCRIPT} -m 7").text()


def test_uv_run_inference_forms() -> None:
    module = "workload_generator.SimAI_inference_workload_generator"
    for command in (f"uv run -m {module} x y", f"python3 -m {module} x y"):
        assert invocation(command).generator == "inference"
    assert invocation("uv run sh scripts/inference_workload_with_aiob.sh").via_script


def test_cli_accepts_uv_run_as_users_post_it() -> None:
    result = CliRunner().invoke(app, ["aicb", "--", "uv", "run", "-m", MODULE, "--world_size", "8"])
    assert result.exit_code == 0, result.output
    assert result.stdout == generate(f"{PY} --world_size 8").text()


def test_cli_prints_the_file_and_writes_it_under_aicbs_name(tmp_path: Path) -> None:
    runner = CliRunner()
    printed = runner.invoke(app, ["aicb", "--", *f"{SCRIPT} -m 7 --world_size 8".split()])
    assert printed.exit_code == 0
    assert printed.stdout == generate(f"{SCRIPT} -m 7 --world_size 8").text()
    written = runner.invoke(app, ["aicb", "-o", str(tmp_path), "--", f"{SCRIPT} -m 7"])
    assert written.exit_code == 0
    (path,) = tmp_path.iterdir()
    assert path.name == generate(f"{SCRIPT} -m 7").filename
    assert path.read_text(encoding="utf-8") == generate(f"{SCRIPT} -m 7").text()


def test_cli_refusal_exits_2_with_one_line() -> None:
    result = CliRunner().invoke(app, ["aicb", "--", PY, "--bogus"])
    assert result.exit_code == 2
    assert "unrecognized arguments: --bogus" in result.output
    assert "Traceback" not in result.output


def test_options_lists_every_option_of_every_entry_point() -> None:
    from wkparse.models.aicb.inference import args as inference_args
    from wkparse.models.aicb.training import args as training_args
    from wkparse.models.aicb.training import scripts

    listed = CliRunner().invoke(app, ["aicb", "--options"])
    assert listed.exit_code == 0
    out = listed.stdout
    for option in (*training_args.OPTIONS, *inference_args.OPTIONS):
        assert f"  {option.flag} " in out
    for word in (*scripts.TRAINING_VALUED, *scripts.TRAINING_FLAGS, *scripts.INFERENCE_VALUED):
        assert word in out
    assert "--epoch_num                     no effect on the file" in out
    assert "--aiob_enable                 refused: AICB measures" in out


def test_options_at_a_revision_lists_its_entry_points() -> None:
    """A user holding a v1.0 file sees v1.0's options; later ones are left out."""
    from wkparse.models.aicb.v1.args import V1_OPTIONS

    def listed(*args: str) -> str:
        result = CliRunner().invoke(app, ["aicb", "--options", *args])
        assert result.exit_code == 0
        return result.stdout

    v1 = listed("--at", "4f33c8e")
    assert v1.startswith("AICB at 4f33c8e (2024-07-31)")
    for option in V1_OPTIONS:
        assert f"  {option.flag} " in v1
    assert "python -m workload_generator.AIOB_simAI_workload_generator\n" in v1
    assert "  --tp_num " in v1 and "--tensor_model_parallel_size" not in v1
    assert "no inference generator yet" in v1
    before_gpu_type = listed("--at", "2024-10-01")
    assert "--gpu_type" not in before_gpu_type and "--workload_only" not in before_gpu_type
    assert "--gpu_type" in listed("--at", "e0dab52")
    first = listed("--at", "b866b12")
    assert "every setting comes from the JSON" in first and "--phase" not in first
    assert "-c, --config" in first and "--seq_length" not in first.split("inference")[-1]
    assert "--moe_routing_strategy" not in listed("--at", "05551a1")
    assert "--moe_routing_strategy" in listed("--at", "9d51993")
    # without --at: the latest revision's list, each option a later revision added marked
    latest = listed()
    assert "first part [AICB e0dab52 (2024-11-05) on]" in latest  # --gpu_type
    assert "[AICB 9d51993 (2025-12-19) on]" in latest  # --moe_routing_strategy, side branch
    assert latest.split("\n", 2)[2] == listed("--at", LATEST.short).split("\n", 2)[2]
    assert "] on]" not in v1 and " on]" not in listed("--at", "e0dab52")
    bad = CliRunner().invoke(app, ["aicb", "--options", "--at", "zz"])
    assert bad.exit_code == 2 and "give an AICB commit" in bad.output


def test_inference_reads_a_configuration_file_from_disk(tmp_path: Path) -> None:
    config = tmp_path / "tiny.json"
    config.write_text(
        '{"hidden_size": 8, "num_hidden_layers": 4, "full_attention_interval": 2, '
        '"num_experts_per_tok": 2, "moe_intermediate_size": 4, "model_name": "Tiny-Next"}',
        encoding="utf-8",
    )
    made = generate(
        "python -m workload_generator.SimAI_inference_workload_generator Qwen3-Next-x "
        f"{config} --phase prefill --seq_length 4 --world_size 2 --tensor_model_parallel_size 2"
    )
    names = [line.split("\t")[0] for line in made.text().splitlines()[2:]]
    block = ["moe_norm", "moe_route", "moe_expert"]
    gdn, full = ["attention_norm", "attention_gdn", *block], ["attention_norm", "attention_layer"]
    assert names == [*gdn, *full, *block, *gdn, *full, *block]
    assert made.filename == "Tiny-Next-world_size2-tp2-pp1-ep1-bs1-seq4-prefill.txt"
    config.write_text("{", encoding="utf-8")
    with pytest.raises(AicbError, match="is not valid JSON"):
        generate(f"sh scripts/inference_workload_with_aiob.sh -m qwen3-next-80B -c {config}")


def test_other_frames_build_megatrons_model_and_deepseek_preset_uses_defaults() -> None:
    base = f"{PY} --world_size 8 --tensor_model_parallel_size 2 --num_layers 2"
    megatron = generate(base).text()
    assert generate(f"{base} --frame DeepSpeed").text() == megatron
    assert generate(f"{base} --frame collective_test").text() == megatron
    made = generate(
        f"{SCRIPT} -m deepseek --sp --aiob --comp_filepath workload/aiob_inputs/Example.txt"
    )
    assert made.filename.startswith("None-DeepSeek-world_size32-tp8-pp1-")  # the script's tp 8
    assert "attention_linear_q_lora" in made.text()


def test_preset_overrides_are_named() -> None:
    """`-m 7` forces tp 4; the note names the user's dropped option as typed."""
    made = generate(f"{SCRIPT} -m 7 --tensor_model_parallel_size 8 --world_size 32")
    assert "`-m 7` sets tp 4: your `--tensor_model_parallel_size 8` was dropped" in made.notes
    assert made.invocation.via_script and "-tp4-" in made.filename


def test_deepseek_presets_force_tp_1_and_name_each_dropped_option() -> None:
    made = generate(
        f"{SCRIPT} -m deepseek16 --tp 4 --frame Megatron --sp --world_size 64 --ep 8 "
        "--aiob --comp_filepath workload/aiob_inputs/Example.txt"
    )
    assert "`-m deepseek16` sets tp 1: your `--tp 4` was dropped" in made.notes
    assert "`-m deepseek16` sets frame DeepSeek: your `--frame Megatron` was dropped" in made.notes
    assert "-tp1-" in made.filename


def test_default_preset_and_same_values_and_python_entry_point() -> None:
    made = generate(f"{SCRIPT} --num_layers 24 --hidden_size 5120")
    assert made.notes == [
        "`-m 13` (the script's default preset) sets num_layers 40: your `--num_layers 24` was "
        "dropped"
    ]  # --hidden_size 5120 is the preset's own value: nothing dropped
    assert not any("dropped" in n for n in generate(f"{SCRIPT} -m 7 --tp 4").notes)
    assert not any(
        "dropped" in n
        for n in generate(f"{PY} --world_size 8 --tensor_model_parallel_size 8").notes
    )


def test_cli_names_the_override_on_stderr() -> None:
    result = CliRunner().invoke(app, ["aicb", "--", *f"{SCRIPT} -m 7 --tp 8".split()])
    assert result.exit_code == 0
    assert "note: `-m 7` sets tp 4: your `--tp 8` was dropped" in result.stderr
    assert "dropped" not in result.stdout


@pytest.mark.parametrize("at", [None, "b866b12"])  # the current and the first generator
def test_a_model_configuration_nested_too_deeply_stops_aicb(at: str | None, tmp_path: Path) -> None:
    """A configuration JSON nested past Python's recursion limit stops AICB (its json gives
    up as ours does), said as AICB's error, not a traceback."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    command = f"python -m workload_generator.SimAI_inference_workload_generator Qwen3-Moe {deep}"
    with pytest.raises(AicbError, match="RecursionError"):
        generate(command, at=at)


def test_handed_is_what_the_script_gives_its_generator_before_the_generator_runs() -> None:
    """`--ep 16` without experts: the generator refuses the run, but the script's hand-off
    (the option loop, at the revision asked) is still seen."""
    from wkparse.models.aicb.generation import handed

    words = ["sh", "scripts/megatron_workload_with_aiob.sh", "--ep", "16"]
    run, rev = handed(words, "2024-11-05")
    assert "--expert_model_parallel_size=16" in run.argv and rev.short == "d9b4f5c"
    with pytest.raises(AicbError, match="multiple of expert"):
        generate(words, at="2024-11-05")
