"""`wkparse aicb --infer` reads a file's content; its name is a hint, never a requirement.

Every file `wkparse aicb` writes, at any revision it models, comes back `exact` under its own
name and under any other; a real AICB file renamed (`workload.txt`, `run3.txt`) comes back too;
`exact` never names a model the file name contradicts; a nearest command is plausible or not
offered.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.conftest import CORPUS, GENERATED, RECORDINGS, manifest, needs, recordings
from wkparse.cli import app
from wkparse.models.aicb import AicbError, generate
from wkparse.models.aicb.inference.args import BUILT_IN_CONFIGS
from wkparse.models.aicb.reading.infer import infer
from wkparse.models.aicb.revisions import REVISIONS, Revision
from wkparse.models.aicb.training.presets import SCRIPT_PRESETS

runner = CliRunner()
TRAINING = "python -m workload_generator.SimAI_training_workload_generator"
INFERENCE = "python -m workload_generator.SimAI_inference_workload_generator"
#: the training revisions since v1.1 (option names of today's generator)
TRAINING_REVISIONS = [r for r in REVISIONS if not r.era.first_generator]
INFERENCE_REVISIONS = [r for r in REVISIONS if r.era.inference == "current"]
PRESETS = {p.model_name.replace("*", "x"): dict(p.settings) for p in SCRIPT_PRESETS.values()}
#: the presets drawn (DeepSeek's big two cost seconds a file; their family is drawn as 16B)
DRAWN = ("gpt_7B", "gpt_13B", "gpt_22B", "gpt_175B", "llama_405B", "Mixtral_8x7B", "DeepSeek_16B")
_DEEPSEEK = ("q_lora_rank", "kv_lora_rank", "qk_nope_dim", "qk_rope_dim", "v_head_dim")


def _regenerates(path: str, text: str) -> str:
    """The command --infer finds for `text` at `path`, checked to write `text` exactly."""
    found = infer(path, text)
    assert found.exact, (path, found.command, found.first_difference)
    assert found.at is not None
    assert generate(found.command, at=found.at[0]).text() == text
    return found.command


def _model_words(model: str, layers: int | None, hidden: int | None) -> list[str]:
    """A preset's shape as the Python entry point takes it, or a shape of the user's own
    (AICB's default heads: the layers)."""
    if model == "own":
        return ["--num_layers", str(layers), "--hidden_size", str(hidden)]
    s = PRESETS[model]
    words = ["--frame", s.get("frame", "Megatron"), "--model_name", model]
    words += ["--num_layers", s["num_layers"], "--hidden_size", s["hidden_size"]]
    words += ["--num_attention_heads", s["num_attention_heads"]]
    words += ["--ffn_hidden_size", s["ffn_hidden_size"]] if "ffn_hidden_size" in s else []
    for key in _DEEPSEEK:
        words += [f"--{key}", s[key]] if key in s else []
    if "n_shared_expert" in s:
        words += ["--n_shared_expert", s["n_shared_expert"], "--n_dense_layers", s["n_dense_layer"]]
    return words


@st.composite
def training_runs(draw: st.DrawFn) -> tuple[str, Revision]:
    """A training command and a revision that writes a file for it."""
    rev = draw(st.sampled_from(TRAINING_REVISIONS))
    model = draw(st.sampled_from([*DRAWN, "own"]))
    preset = PRESETS.get(model, {})
    deepseek = preset.get("frame") == "DeepSeek"
    assume(rev.era.deepseek or not deepseek)
    layers = draw(st.integers(1, 6)) if model == "own" else None
    hidden = draw(st.sampled_from([512, 1024, 2048, 3072])) if model == "own" else None
    tp = 1 if deepseek else draw(st.sampled_from([1, 2, 4, 8]))
    pp, dp = draw(st.sampled_from([1, 2, 4])), draw(st.sampled_from([1, 2, 4]))
    mbs, seq = draw(st.sampled_from([1, 2])), draw(st.sampled_from([1024, 2048, 4096]))
    ga = draw(st.integers(1, 3))
    words = _model_words(model, layers, hidden)
    words += ["--world_size", str(tp * pp * dp), "--tensor_model_parallel_size", str(tp)]
    words += ["--pipeline_model_parallel", str(pp), "--global_batch", str(ga * mbs * dp)]
    words += ["--micro_batch", str(mbs), "--seq_length", str(seq)]
    words += ["--swiglu"] if draw(st.booleans()) else []
    words += ["--use_flash_attn", "--vocab_size", str(draw(st.sampled_from([50257, 32000])))]
    moe = "moe_enable" in preset or (model == "own" and draw(st.booleans()))
    sp = moe or draw(st.booleans())
    if moe:
        experts = int(preset.get("num_experts", 8))
        ep = draw(st.sampled_from([e for e in (1, 2, 4, 8) if experts % e == 0]))
        words += ["--moe_enable", "--moe_grouped_gemm", "--num_experts", str(experts)]
        words += ["--moe_router_topk", str(draw(st.sampled_from([1, 2])))]
        words += ["--expert_model_parallel_size", str(ep)]
    words += ["--enable_sequence_parallel"] if sp else []
    if draw(st.booleans()):
        words += ["--aiob_enable", "--comp_filepath", "workload/aiob_inputs/Example.txt"]
    words += ["--recompute_activations"] if draw(st.booleans()) else []
    return f"python -m workload_generator.{rev.era.module} {' '.join(words)}", rev


OTHER_NAMES = st.sampled_from(["workload.txt", "run3.txt", "a.txt"]) | st.from_regex(
    r"[a-z][a-z0-9_]{0,12}\.txt", fullmatch=True
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(run=training_runs(), other=OTHER_NAMES)
def test_every_training_file_aicb_writes_is_found_under_any_name(
    run: tuple[str, Revision], other: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    command, rev = run
    try:
        made = generate(command, at=rev)
    except AicbError:
        assume(False)  # AICB writes no file for this draw
        raise
    text = made.text()
    folder = tmp_path_factory.mktemp("infer")
    for name in (made.filename, other):
        path = folder / name
        path.write_text(text)
        _regenerates(str(path), text)


V1_REVISIONS = [r for r in REVISIONS if r.era.first_generator]


@st.composite
def v1_runs(draw: st.DrawFn) -> tuple[str, Revision]:
    """A command of AICB v1.0 (its option names; 4f33c8e runs only MoE with SP)."""
    rev = draw(st.sampled_from(V1_REVISIONS))
    model = draw(st.sampled_from(["gpt_7B", "gpt_13B", "Mixtral_8x7B", "own"]))
    if model == "own":
        words = ["--num_layers", str(draw(st.integers(1, 6)))]
        words += ["--hidden_size", str(draw(st.sampled_from([1024, 2048])))]
    else:
        words = _model_words(model, None, None)[2:]  # v1.0 has no --frame
    tp, pp, dp = (draw(st.sampled_from([1, 2, 4])) for _ in range(3))
    words += ["--world_size", str(tp * pp * dp), "--tp_num", str(tp), "--pp_num", str(pp)]
    mbs = draw(st.sampled_from([1, 2]))
    words += ["--global_batch", str(draw(st.integers(1, 2)) * dp * mbs)]
    words += ["--micro_batch", str(mbs)]
    words += ["--seq_length", str(draw(st.sampled_from([1024, 2048])))]
    words += ["--swiglu", "--use_flash_attn", "--vocab_size", "50257"]
    moe = rev.era.moe_only or draw(st.booleans())
    if moe:
        words += ["--moe_enabled", "--num_moe_experts", "8", "--moe_router_topk", "2"]
        words += ["--expert_parallel_size", str(draw(st.sampled_from([1, 2, 4])))]
        words += ["--moe_grouped_gemm"] if draw(st.booleans()) else []
    words += ["--enable_sequence_parallel"] if moe or draw(st.booleans()) else []
    if draw(st.booleans()):
        words += ["--aiob_enable", "--comp_filepath", "workload/aiob_inputs/Example.txt"]
    return f"python -m workload_generator.{rev.era.module} {' '.join(words)}", rev


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(run=v1_runs(), other=OTHER_NAMES)
def test_every_v1_file_aicb_writes_is_found_under_any_name(
    run: tuple[str, Revision], other: str
) -> None:
    _found_under_both_names(run, other)


@st.composite
def inference_runs(draw: st.DrawFn) -> tuple[str, Revision]:
    rev = draw(st.sampled_from(INFERENCE_REVISIONS))
    config = draw(st.sampled_from(sorted(BUILT_IN_CONFIGS)))
    model = {"qwen3_moe": "Qwen3-Moe-235B", "qwen3_next": "Qwen3-Next-80B"}.get(
        Path(config).stem.rsplit("_", 1)[0], "DeepSeek-671B"
    )
    tp, ep, pp = (draw(st.sampled_from([1, 2, 4])) for _ in range(3))
    phase = draw(st.sampled_from(["prefill", "decode"]))
    seq, mbs = draw(st.sampled_from([128, 1024, 4096])), draw(st.sampled_from([1, 4, 64]))
    return (
        f"{INFERENCE} {model} {config} --phase {phase} --seq_length {seq} --micro_batch {mbs} "
        f"--world_size {tp * ep * pp} --tensor_model_parallel_size {tp} "
        f"--expert_model_parallel_size {ep} --pipeline_model_parallel {pp}",
        rev,
    )


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(run=inference_runs(), other=OTHER_NAMES)
def test_every_inference_file_aicb_writes_is_found_under_any_name(
    run: tuple[str, Revision], other: str
) -> None:
    _found_under_both_names(run, other)


def _found_under_both_names(run: tuple[str, Revision], other: str) -> None:
    """The file AICB writes for `run` is found again, under AICB's own name and `other`
    (a command AICB refuses is no example)."""
    command, rev = run
    try:
        made = generate(command, at=rev)
    except AicbError:
        assume(False)
        raise
    text = made.text()
    for name in (made.filename, other):
        _regenerates(f"/elsewhere/{name}", text)


GENERATED_FILES = [GENERATED / row["file"] for row in manifest()]


@needs(GENERATED)
def test_every_corpus_generator_file_renamed_is_regenerated() -> None:
    """All of the corpus's real AICB output (every era), each as `workload.txt`."""
    assert len(GENERATED_FILES) == 40
    found = 0
    for path in GENERATED_FILES:
        text = path.read_text()
        _regenerates(str(path.with_name("workload.txt")), text)
        found += 1
    assert found == len(GENERATED_FILES)


def _shipped_shape(run: dict[str, str]) -> bool:
    """Runs whose file shows what made it: no inference configuration of the user's own (a
    JSON beside the command, which no command without it can name)."""
    command = run["command"]
    return not (".json" in command and "inference_configs/" not in command)


RECORDED = [
    pytest.param(r, id=r["file"]) for r in recordings() if r["file"] != "-" and _shipped_shape(r)
]


def test_every_recording_but_an_own_configuration_is_tried() -> None:
    """26 of the 29 recorded files (the three left name a JSON of the user's own)."""
    assert len(RECORDED) == 26


@pytest.mark.parametrize("run", RECORDED)
@pytest.mark.parametrize("name", ["workload.txt", "run3.txt"])
def test_a_recorded_file_renamed_is_regenerated(
    run: dict[str, str], name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(RECORDINGS / "inputs")
    path = RECORDINGS / run["file"]
    _regenerates(str(path.with_name(name)), path.read_text())


# the three runs the issue names, under their own names and renamed


def _written(command: str, folder: Path) -> Path:
    made = generate(command)
    path = folder / made.filename
    path.write_text(made.text())
    return path


@pytest.mark.parametrize(
    ("command", "model"),
    [
        (
            f"{TRAINING} --model_name gpt_7B --world_size 64 --tensor_model_parallel_size 4 "
            "--pipeline_model_parallel 4 --global_batch 32",
            "gpt_7B",
        ),
        (
            f"{TRAINING} --model_name gpt_13B --make_vocab_size_divisible_by=128 --world_size 64 "
            "--tensor_model_parallel_size 4 --pipeline_model_parallel 2 --global_batch 32",
            "gpt_13B",
        ),
        (
            "sh scripts/megatron_workload_with_aiob.sh -m deepseek16 --world_size 8 "
            "--global_batch 8 --sp --aiob_enable --comp_filepath workload/aiob_inputs/Example.txt",
            "DeepSeek_16B",
        ),
    ],
)
def test_the_runs_the_issue_names_are_found(command: str, model: str, tmp_path: Path) -> None:
    path = _written(command, tmp_path)
    own = _regenerates(str(path), path.read_text())
    assert f"--model_name {model} " in own
    result = runner.invoke(app, ["aicb", "--infer", str(path)])
    assert result.exit_code == 0 and result.stdout.startswith("exact: AICB")
    renamed = tmp_path / "run3.txt"
    renamed.write_text(path.read_text())
    result = runner.invoke(app, ["aicb", "--infer", str(renamed)])
    assert result.exit_code == 0 and result.stdout.startswith("exact: AICB")


def test_exact_names_the_model_the_file_name_gives(tmp_path: Path) -> None:
    """gpt_7B's name on a file of AICB's default shape: the name decides, never `None`;
    renamed, no model is named and the answer says the file does not show it."""
    path = _written(
        f"{TRAINING} --model_name gpt_7B --world_size 8 --tensor_model_parallel_size 2 "
        "--global_batch 8",
        tmp_path,
    )
    assert "--model_name gpt_7B " in _regenerates(str(path), path.read_text())
    found = infer(str(tmp_path / "workload.txt"), path.read_text())
    assert found.exact and "--model_name" not in found.command
    assert found.not_in_file == ("model name", "GPU type", "flash attention")
    renamed = tmp_path / "workload.txt"
    renamed.write_text(path.read_text())
    result = runner.invoke(app, ["aicb", "--infer", str(renamed)])
    assert "the file does not show its model name, GPU type or flash attention" in result.stdout
    assert "None" not in result.stdout


def test_a_preset_shape_is_named_by_the_content_or_a_loose_name(tmp_path: Path) -> None:
    """Renamed, a file of gpt_13B's shape is gpt_13B's (the content tells); a name that
    spells another preset loosely decides between shapes the content cannot tell apart."""
    path = _written(
        "sh scripts/megatron_workload_with_aiob.sh -m 13 --world_size 16 --global_batch 4",
        tmp_path,
    )
    text = path.read_text()
    assert "--model_name gpt_13B " in _regenerates(str(tmp_path / "workload.txt"), text)
    mine = _regenerates(str(tmp_path / "my-gpt22b-try.txt"), text)
    assert "--model_name gpt_22B " in mine
    assert "--model_name gpt_13B" not in _regenerates(str(tmp_path / "gpt22b.txt"), text)


LLAMA_65B = (
    CORPUS
    / "aicb-examples"
    / "model_workload"
    / "L65B-M1-C05_Llama65B_megatron_tp8_pp1_mbs1_A100.txt"
)


@needs(LLAMA_65B)
def test_no_implausible_nearest_command_for_the_llama_65b_example() -> None:
    result = runner.invoke(app, ["aicb", "--infer", str(LLAMA_65B)])
    assert result.exit_code == 1
    for option, least in (("num_layers", 1), ("global_batch", 1), ("seq_length", 2)):
        for value in re.findall(rf"--{option} (\d+)", result.stdout):
            assert int(value) >= least, result.stdout
    assert "--num_layers 0" not in result.stdout


def test_a_nearest_command_is_still_offered_for_an_edited_file(tmp_path: Path) -> None:
    """One compute time changed: the command that writes all the rest is offered."""
    made = generate(
        f"{TRAINING} --model_name gpt_7B --num_layers 4 --hidden_size 4096 "
        "--num_attention_heads 32 --world_size 8 --tensor_model_parallel_size 4 --global_batch 2 "
        "--aiob_enable --comp_filepath workload/aiob_inputs/Example.txt"
    )
    lines = made.text().split("\n")
    fields = lines[12].split("\t")
    fields[2] = str(int(fields[2]) + 1)
    lines[12] = "\t".join(fields)
    path = tmp_path / "edited.txt"
    path.write_text("\n".join(lines))
    result = runner.invoke(app, ["aicb", "--infer", str(path)])
    assert result.exit_code == 1
    assert "--num_layers 4 --hidden_size 4096" in result.stdout
    assert "first difference, line 13" in result.stdout


# AICB v1.0 files written by its training script, renamed (issue 41, item 11): the header
# gives TP only and v1.0 writes every layer, so the world size, stages and global batch are
# said to be a guess; micro-batch x sequence is read from the loss rows and the parameter
# total (the position embedding counts the sequence), never assumed to be 1 x tokens

V1_SCRIPT = "sh scripts/megatron_workload_with_aiob.sh -m 13 --comp_filepath {}".format(
    "workload/aiob_inputs/Example.txt"
)


@pytest.mark.parametrize(
    "options",
    [
        # (a) AIOB, tuples, TP 4 PP 2 with sequence parallelism
        "--world_size 32 --tp_num 4 --pp_num 2 --global_batch 64 --micro_batch 2 --sp "
        "--moe_enabled --aiob_enable",
        # (b) 13B under AIOB, a global batch the data-parallel batches do not divide
        "--world_size 32 --tp_num 8 --global_batch 20 --micro_batch 2 --seq_length 2048 --sp "
        "--moe_enabled --aiob_enable",
        # (c) 13B, sequence parallel with --moe_enabled (no AIOB)
        "--world_size 16 --tp_num 2 --global_batch 40 --micro_batch 2 --seq_length 2048 --sp "
        "--moe_enabled",
        # (b') a global batch below micro-batch x data-parallel: ga 0, no group to read the
        # layers from (only the parameter total has them)
        "--world_size 32 --tp_num 2 --global_batch 10 --micro_batch 2 --sp --moe_enabled "
        "--aiob_enable",
    ],
    ids=[
        "a-aiob-tuples-tp4-pp2-sp",
        "b-13b-aiob-batch-not-divided",
        "c-13b-sp-moe-enabled",
        "b-13b-aiob-no-group",
    ],
)
def test_a_v1_script_file_renamed_is_found_with_its_batch_and_vocabulary(
    options: str, tmp_path: Path
) -> None:
    made = generate(f"{V1_SCRIPT} {options}", at="4f33c8e")
    text = made.text()
    command = _regenerates(str(tmp_path / "workload.txt"), text)
    assert "--micro_batch 2 " in command and "--vocab_size 50257 " in command
    found = infer(str(tmp_path / "workload.txt"), text)
    assert {"world size", "pipeline stages", "global batch"} <= set(found.not_in_file)
    assert "GPU type" not in found.not_in_file  # v1.0 had no --gpu_type
    # under its own name nothing is a guess: the name gives world size, stages and batch
    own = infer(str(tmp_path / made.filename), text)
    assert own.exact and own.not_in_file == ()
    world = re.search(r"--world_size (\d+)", options)
    assert world is not None and f"--world_size {world[1]} " in own.command


def test_the_cli_says_a_v1_file_does_not_show_its_world_size(tmp_path: Path) -> None:
    made = generate(f"{V1_SCRIPT} --world_size 32 --tp_num 4 --sp --moe_enabled", at="4f33c8e")
    path = tmp_path / "run3.txt"
    path.write_text(made.text())
    result = runner.invoke(app, ["aicb", "--infer", str(path)])
    assert result.exit_code == 0 and result.stdout.startswith("exact: AICB 4f33c8e")
    assert "does not show its model name, world size, pipeline stages, global batch" in (
        result.stdout
    )


@pytest.mark.parametrize(
    ("first_line", "rows"),
    [
        (
            "comm_type,comm_group,comm_group_size,msg_size,stage,dst,src,additional,"
            "_elapsed_time,algbw,busbw,count",
            "CommType.computation,CommGroup.all_nodes,None,((4096, 1, 5120), (5120, 3840)),"
            "forward.MegatronColumnLinear.attention_column,None,None,,None,None,None,1",
        ),
    ],
)
def test_the_training_path_csv_is_named_never_matched(
    first_line: str, rows: str, tmp_path: Path
) -> None:
    """aicb.py (scripts/megatron_gpt.sh) writes its workload as a CSV of LogItems, never a
    SimAI file: --infer says so and offers no command."""
    path = tmp_path / "megatron_gpt_13B_8n_workload.csv"
    path.write_text(f"{first_line}\n{rows}\n")
    found = infer(str(path), path.read_text())
    assert found.training_output and not found.command and not found.exact
    result = runner.invoke(app, ["aicb", "--infer", str(path)])
    assert result.exit_code == 1
    assert result.stdout.startswith("cannot reproduce: this is the CSV of AICB's training")
    assert "--world_size" not in result.stdout
    data = json.loads(runner.invoke(app, ["aicb", "--infer", str(path), "-f", "json"]).stdout)
    assert data["training_output"] is True and data["command"] == ""


def test_a_nearest_command_keeps_the_header_world_size(tmp_path: Path) -> None:
    """A file since v1.1 with one size edited: the nearest command's world size is the
    header's all_gpus, never TP x PP."""
    made = generate(
        f"{TRAINING} --model_name gpt_13B --world_size 32 --tensor_model_parallel_size 4 "
        "--pipeline_model_parallel 2 --global_batch 16 --micro_batch 2 --enable_sequence_parallel "
        "--aiob_enable --comp_filepath workload/aiob_inputs/Example.txt"
    )
    lines = made.text().split("\n")
    fields = lines[-3].split("\t")
    fields[4] = str(int(fields[4]) + 2)
    lines[-3] = "\t".join(fields)
    found = infer(str(tmp_path / "workload.txt"), "\n".join(lines))
    assert not found.exact and found.command
    assert "all_gpus: 32 " in lines[0] and "--world_size 32 " in found.command


def test_explain_says_a_renamed_v1_file_s_world_size_is_a_guess(tmp_path: Path) -> None:
    """explain names the command, and says what of it the v1.0 file could not show; under
    AICB's own name, nothing is a guess."""
    made = generate(f"{V1_SCRIPT} --world_size 32 --tp_num 4 --sp --moe_enabled", at="4f33c8e")
    caveat = "world size, pipeline stages and global batch are a guess: an AICB v1.0 file"
    for name, guessed in (("run3.txt", True), (made.filename, False)):
        path = tmp_path / name
        path.write_text(made.text())
        result = runner.invoke(app, ["explain", str(path), "--format", "json"])
        command = json.loads(result.stdout)["generation"]["aicb_command"]
        assert command.startswith("python -m workload_generator.AIOB_simAI_workload_generator")
        assert (caveat in command) == guessed
        assert ("--world_size 32 " in command) != guessed


def test_a_file_without_a_model_name_infers_no_model_name_none(tmp_path: Path) -> None:
    """A file whose name and header name no model (line 1 blank): the nearest command leaves
    --model_name out (AICB's default), not `--model_name None`, Python's None as a name."""
    text = (
        Path(__file__).resolve().parents[1] / "samples" / "gpt13b-world8-tp2-pp1-sp.txt"
    ).read_text()
    path = tmp_path / "blank.txt"
    path.write_text("\n" + text.split("\n", 1)[1])
    result = CliRunner().invoke(app, ["aicb", "--infer", str(path)])
    assert "--frame Megatron --num_layers" in result.stdout, result.stdout
    assert "--model_name None" not in result.stdout


def test_a_utf16_file_is_named_so_not_quoted_as_noise(tmp_path: Path) -> None:
    """--infer on a UTF-16 file quoted its bytes read as UTF-8 ('��H\\x00Y\\x00...') as line 1;
    it says what the file is and how to convert it, as explain does."""
    text = (
        Path(__file__).resolve().parents[1] / "samples" / "gpt13b-world8-tp2-pp1-sp.txt"
    ).read_text()
    path = tmp_path / "wide.txt"
    path.write_bytes(text.encode("utf-16"))
    result = CliRunner().invoke(app, ["aicb", "--infer", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    assert f"{path}: the file is UTF-16 LE text: convert it to UTF-8 first" in result.stderr
