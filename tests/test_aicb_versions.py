"""AICB's history: `wkparse aicb --at REV`, `--versions` and `--infer FILE`.

The corpus's generated files come from five AICB commits (its README names them); every one
must come back byte for byte from `--at` with the command of its MANIFEST row, and `--infer`
must find a command and revision range that regenerate it.
"""

from __future__ import annotations

import json
import shlex

import pytest
from typer.testing import CliRunner

from tests.conftest import CORPUS, manifest
from wkparse.cli import app
from wkparse.models.aicb import AicbError, generate
from wkparse.models.aicb.reading.infer import infer
from wkparse.models.aicb.revisions import LATEST, REVISIONS, resolve

#: the commit each corpus era was generated at (corpus README)
ERA_COMMIT = {
    "aicb-2024-10": "6a03ecd",
    "aicb-2024-12a": "cf516c0",
    "aicb-2025-01": "a076fdb",
    "aicb-2025-09": "475f32b",
    "aicb-2025-12": "23eec3c",
}


def _command(generator: str, arguments: str) -> tuple[str, str]:
    """(revision, command) for a MANIFEST row, with the module name of that revision."""
    rev = ERA_COMMIT[generator.split()[0].removesuffix("-edge")]
    if "inference" in generator:
        return rev, f"python -m workload_generator.SimAI_inference_workload_generator {arguments}"
    module = resolve(rev).era.module
    return rev, f"python -m workload_generator.{module} {arguments}"


ROWS = [
    pytest.param(r["file"], r["generator"], r["arguments"], id=r["file"]) for r in manifest()
] or [pytest.param("", "", "", marks=pytest.mark.skip(reason="../shared/corpus is absent"))]


@pytest.mark.parametrize(("file", "generator", "arguments"), ROWS)
def test_at_reproduces_every_generated_corpus_file(
    file: str, generator: str, arguments: str
) -> None:
    rev, command = _command(generator, arguments)
    made = generate(command, at=rev)
    path = CORPUS / "aicb-generated" / file
    assert made.text().encode() == path.read_bytes()
    # the corpus adds `aiob-` / `sp-` in front of AICB's own name
    assert path.name.endswith(made.filename)


@pytest.mark.parametrize(("file", "generator", "arguments"), ROWS)
def test_infer_recovers_a_reproducing_command(file: str, generator: str, arguments: str) -> None:
    path = CORPUS / "aicb-generated" / file
    text = path.read_text()
    found = infer(str(path), text)
    assert found.exact and found.span is not None and found.first_difference is None
    _regenerates(found.command, found.at, text)
    if found.earlier is not None:
        _regenerates(*found.earlier, text)
    rev, _ = _command(generator, arguments)
    order = [r.short for r in REVISIONS]
    first, last = (order.index(r) for r in found.span)
    assert first <= order.index(resolve(rev).short) <= last


def _regenerates(command: str, at: tuple[str, str] | None, text: str) -> None:
    """`command` names the module of every revision of `at`, and both ends write `text`."""
    assert at is not None
    order = [r.short for r in REVISIONS]
    for rev in REVISIONS[order.index(at[0]) : order.index(at[1]) + 1]:
        assert f"workload_generator.{rev.era.module} " in command or "inference" in command
    assert generate(command, at=at[0]).text() == text
    assert generate(command, at=at[1]).text() == text


def test_eras_the_corpus_shows_are_told_apart(corpus: object) -> None:
    """The same run, written at 2024-10 and 2025-01: the ranges do not overlap."""
    name = "gpt_13B-world_size8-tp2-pp1-ep1-gbs32-mbs1-seq4096-MOE-False-GEMM-False-flash_attn-True"
    old = CORPUS / "aicb-generated" / "aicb-2024-10" / f"aiob-sp-{name}.txt"
    new = CORPUS / "aicb-generated" / "aicb-2025-01" / f"aiob-sp-None-{name}.txt"
    assert infer(str(old), old.read_text()).at == ("b9d142e", "d9b4f5c")
    found = infer(str(new), new.read_text())
    assert found.span == ("f16eafb", LATEST.short)


def test_infer_names_the_module_of_its_range(corpus: object) -> None:
    """A range across the 2025-09-25 rename is told as two commands, each with its module."""
    name = "gpt_13B-world_size8-tp2-pp1-ep1-gbs32-mbs1-seq4096-MOE-False-GEMM-False-flash_attn-True"
    path = CORPUS / "aicb-generated" / "aicb-2025-01" / f"aiob-sp-None-{name}.txt"
    found = infer(str(path), path.read_text())
    assert found.at == ("b866b12", LATEST.short) and NEW.split()[-1] in found.command
    assert found.earlier is not None and found.earlier[1] == ("f16eafb", "92a99f8")
    assert OLD.split()[-1] in found.earlier[0]
    assert found.as_json()["earlier"] == {"command": found.earlier[0], "at": ["f16eafb", "92a99f8"]}
    result = runner.invoke(app, ["aicb", "--infer", str(path)])
    assert (
        "and AICB f16eafb (2024-12-04) .. 92a99f8 (2025-09-24), before the module's rename, for:"
        in result.output
    )


GPT7 = (
    "--model_name gpt_7B --num_layers 36 --hidden_size 4096 --num_attention_heads 32 "
    "--world_size 64 --tensor_model_parallel_size 4 --pipeline_model_parallel 4 "
    "--global_batch 32 --micro_batch 1 --seq_length 4096 --swiglu --use_flash_attn "
    "--vocab_size 50257"
)
AIOB = "--aiob_enable --comp_filepath workload/aiob_inputs/Example.txt"
OLD = "python -m workload_generator.AIOB_simAI_workload_generator"
NEW = "python -m workload_generator.SimAI_training_workload_generator"


def _header(rev: str, extra: str = "") -> str:
    module = OLD if resolve(rev).era.module.startswith("AIOB") else NEW
    return generate(f"{module} {GPT7} {AIOB} {extra}", at=rev).text().split("\n", 1)[0]


def test_header_keys_by_revision() -> None:
    assert "vpp" not in _header("d9b4f5c") and "pp_comm" not in _header("d9b4f5c")
    assert " vpp: 9 " in _header("e0dab52") and "pp_comm" not in _header("af5cf2b")
    assert _header("cf516c0").endswith(" pp_comm: 33554432")
    sp = "--enable_sequence_parallel"
    assert _header("f16eafb", sp).endswith(" pp_comm: 33554432")
    assert _header("a076fdb", sp).endswith(" pp_comm: 8388608.0")


def test_pp_comm_at_pp_1_before_and_after_2024_12_04() -> None:
    one = GPT7.replace("--pipeline_model_parallel 4", "--pipeline_model_parallel 1")
    assert (
        generate(f"{OLD} {one} {AIOB}", at="cf516c0")
        .text()
        .split("\n")[0]
        .endswith("pp_comm: 33554432")
    )
    assert (
        generate(f"{OLD} {one} {AIOB}", at="f16eafb").text().split("\n")[0].endswith("pp_comm: 0")
    )


def test_file_name_gains_the_gpu_type_on_2024_11_05() -> None:
    assert generate(f"{OLD} {GPT7} {AIOB}", at="d9b4f5c").filename.startswith("gpt_7B-")
    assert generate(f"{OLD} {GPT7} {AIOB}", at="e0dab52").filename.startswith("None-gpt_7B-")


def test_script_passes_an_empty_gpu_type_until_2025_01_02() -> None:
    script = "sh scripts/megatron_workload_with_aiob.sh -m 7 --world_size 64 " + AIOB
    assert generate(script, at="e0dab52").filename.startswith("-gpt_7B-")
    assert generate(script, at="ed1dee4").filename.startswith("None-gpt_7B-")
    assert generate(script, at="d9b4f5c").filename.startswith("gpt_7B-")


def test_script_before_2024_11_05_stops_at_gpu_type() -> None:
    script = f"sh scripts/megatron_workload_with_aiob.sh -m 7 --world_size 64 {AIOB} --gpu_type H"
    made = generate(script, at="d9b4f5c")
    assert any("--gpu_type" in note for note in made.notes)
    assert generate(script, at="e0dab52").filename.startswith("H-gpt_7B-")


def test_options_that_came_later_are_refused() -> None:
    with pytest.raises(AicbError, match="unrecognized arguments: --gpu_type"):
        generate(f"{OLD} --gpu_type H100 {GPT7} {AIOB}", at="2024-10-01")
    with pytest.raises(AicbError, match="invalid choice"):
        generate(f"{OLD} --frame DeepSeek {GPT7} {AIOB}", at="ed1dee4")


def test_module_name_of_the_revision() -> None:
    with pytest.raises(AicbError, match="AIOB_simAI_workload_generator"):
        generate(f"{NEW} {GPT7} {AIOB}", at="475f32b")
    with pytest.raises(AicbError, match="SimAI_training_workload_generator"):
        generate(f"{OLD} {GPT7} {AIOB}", at="b866b12")


def test_without_aiob_no_file_before_2024_10_30() -> None:
    with pytest.raises(AicbError, match="expert_parallel_size"):
        generate(f"{OLD} {GPT7}", at="2678a94")
    assert generate(f"{OLD} {GPT7}", at="d9b4f5c").workload.row_count > 0


def test_gradient_sizes_grow_with_the_embedding_on_2024_11_06() -> None:
    def grad(rev: str) -> int:
        row = generate(f"{OLD} {GPT7} {AIOB}", at=rev).workload.prologue[0]
        return row.wg_size

    assert grad("e0dab52") < grad("af5cf2b")


MOE = (
    "--model_name Mixtral_8x7B --num_layers 32 --hidden_size 4096 --num_attention_heads 32 "
    "--world_size 32 --tensor_model_parallel_size 2 --pipeline_model_parallel 2 "
    "--global_batch 256 --micro_batch 2 --seq_length 8192 --swiglu --use_flash_attn "
    "--vocab_size 50257 --ffn_hidden_size 14336 --moe_enable --num_experts 8 "
    "--moe_router_topk 2 --expert_model_parallel_size 8 --enable_sequence_parallel"
)


def _moe_rows(rev: str, extra: str) -> list[str]:
    module = OLD if resolve(rev).era.module.startswith("AIOB") else NEW
    made = generate(f"{module} {MOE} {extra}", at=rev)
    group = made.workload.groups[0]
    first = next(i for i, r in enumerate(group) if r.name == "mlp_moelayer")
    return [r.fwd_comm for r in group[first : first + 7]]


def test_moe_blocks_seven_rows_then_five() -> None:
    gemm = f"--moe_grouped_gemm {AIOB}"
    old = _moe_rows("475f32b", gemm)
    seven = ["ALLGATHER", "ALLTOALL", "ALLTOALL_EP", "ALLGATHER", "REDUCESCATTER"]
    assert old == [*seven, "ALLTOALL_EP", "ALLTOALL"]
    assert _moe_rows("92a99f8", gemm)[:5] == [
        "ALLGATHER",
        "ALLTOALL_EP",
        "ALLGATHER",
        "REDUCESCATTER",
        "ALLTOALL_EP",
    ]


def test_moe_needs_grouped_gemm_before_2025_01_02() -> None:
    made = generate(f"{OLD} {MOE} {AIOB}", at="a076fdb")
    assert {r.name for r in made.workload.groups[0]} >= {"mlp_column", "mlp_row"}
    assert "ALLTOALL_EP" in _moe_rows("ed1dee4", AIOB)


def test_none_sizes_zeroed_from_2025_09_15() -> None:
    def embedding_grads(rev: str) -> str:
        tp1 = GPT7.replace("--tensor_model_parallel_size 4", "--tensor_model_parallel_size 1")
        text = generate(f"{OLD} {tp1} {AIOB}", at=rev).text()
        return next(line for line in text.split("\n") if line.startswith("embedding_grads"))

    assert embedding_grads("741fbe8").split("\t")[6:8] == ["NONE", "33554432"]
    assert embedding_grads("475f32b").split("\t")[6:8] == ["NONE", "0"]


def test_resolve_commits_and_dates() -> None:
    assert resolve("6a03ecd").short == "2678a94"  # merged from a side branch
    assert resolve("2025-01-02").short == "ed1dee4"  # the later of the day's two
    assert resolve("2024-12-31").short == "f16eafb"
    assert resolve("23eec3c48ca2d2d93dd888a4c7b22ab4421e782f") is LATEST
    assert resolve("2030-01-01") is LATEST
    for bad in ("zzz", "2020-01-01", "0000000"):
        with pytest.raises(AicbError):
            resolve(bad)


V1 = "python -m workload_generator.AIOB_simAI_workload_generator"
V1_GPT = (
    "--model_name gpt_7B --num_layers 4 --hidden_size 4096 --num_attention_heads 32 "
    "--world_size 16 --tp_num 4 --pp_num 2 --global_batch 6 --micro_batch 1 --seq_length 2048"
)
V1_MOE = "--moe_enabled --enable_sequence_parallel"


def test_v1_generator_from_2024_07_31() -> None:
    made = generate(f"{V1} {V1_GPT} {V1_MOE}", at="2024-08-01")
    assert made.revision.short == "4f33c8e"
    assert made.filename == "gpt_7B-world_size16-tp4-pp2-gbs6-mbs1-seq2048-flash_attn-False.txt"
    head, count, *_ = made.text().split("\n")
    assert head == (
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD\tmodel_parallel_NPU_group: 4 checkpoints: 0 "
        "checkpoint_initiates: 0"
    )
    assert int(count) == made.workload.row_count
    group = [r.name for r in made.workload.groups[0]]
    assert group.count("attention_row") == 4  # every layer: v1.0 does not divide by pp
    assert group.count("attention_column") == 8  # an all-gather row, then an empty one
    assert len(made.workload.groups) == 6 // (1 * 16 // (4 * 2))


def test_v1_runs_without_moe_from_2024_08_23() -> None:
    with pytest.raises(AicbError, match="moe must be enabled with sequence parallel"):
        generate(f"{V1} {V1_GPT}", at="4f33c8e")
    assert generate(f"{V1} {V1_GPT}", at="2024-08-23").revision.short == "d570898"
    assert resolve("35e43b9").short == "d570898"  # the fix, on its side branch
    with pytest.raises(AicbError, match="moe must be enabled with sequence parallel"):
        generate(f"{V1} {V1_GPT} --moe_enabled", at="d570898")


def test_v1_aiob_gradient_sizes_are_tuples_and_missing_times_none() -> None:
    made = generate(f"{V1} {V1_GPT} {V1_MOE} {AIOB}", at="4f33c8e")
    total, moe = (r for r in made.workload.prologue[:2])
    assert isinstance(total.wg_size, str) and total.wg_size.startswith("(")
    sizes = [int(x) for x in total.wg_size.strip("()").split(", ")]
    assert len(sizes) == 4 and sizes[:2] == sizes[2:] and sizes[1] == 0  # (all, moe) twice
    assert str(moe.wg_size).count(",") == 7
    fused = next(r for r in made.workload.groups[0] if r.name == "fused")
    assert (fused.fwd_time, fused.ig_time) == ("None", "None")


def test_v1_options_and_script_are_its_own() -> None:
    with pytest.raises(AicbError, match="unrecognized arguments: --tensor_model_parallel_size"):
        generate(f"{OLD} {GPT7} {AIOB}", at="4f33c8e")
    script = (
        "sh scripts/megatron_workload_with_aiob.sh -m moe --world_size 16 --global_batch 16 "
        "--moe_enabled --sp --num_moe_experts 8 --moe_router_topk 2 --expert_parallel_size 2 "
        "--grouped_gemm"
    )
    made = generate(script, at="4f33c8e")
    # the v1.0 preset: Mixtral's shape at tp 2, flash attention not passed
    assert made.filename == (
        "Mixtral_8*7B-world_size16-tp2-pp1-gbs16-mbs1-seq4096-flash_attn-False.txt"
    )
    assert made.args.ffn_hidden_size == 14336 and made.args.num_layers == 32
    assert "moelayer" in {r.name for r in made.workload.groups[0]}
    stopped = generate(f"{script} --gpu_type H100", at="4f33c8e")
    assert any("stops reading options at '--gpu_type'" in n for n in stopped.notes)


def test_nothing_before_the_first_generator() -> None:
    with pytest.raises(AicbError, match="no SimAI generator yet"):
        resolve("2024-07-30")
    with pytest.raises(AicbError, match="no SimAI generator yet"):
        resolve("67e18a7")


INFERENCE = "python -m workload_generator.SimAI_inference_workload_generator"


def test_inference_generators_by_revision() -> None:
    current = (
        f"{INFERENCE} Qwen3-Moe-235B scripts/inference_configs/qwen3_moe_default.json "
        "--world_size 8 --tensor_model_parallel_size 4 --expert_model_parallel_size 2"
    )
    latest = generate(current, at=LATEST.short)
    assert latest.filename.endswith("-decode.txt")
    # the AICB2.0_Pre branch had today's generator from 2025-11-04 on
    assert generate(current, at="05551a1").text() == latest.text()
    # on 2025-10-29 the branch still ran the first generator (with Qwen3-Next, times of 1)
    side = generate(current, at="6584080")
    assert side.filename == "Qwen3-Moe-235B-world_size32-tp1-pp1-ep32-bs64-seq1.txt"
    assert {r.fwd_time for r in side.workload.rows()} == {1}
    with pytest.raises(AicbError, match="no inference generator"):
        generate(current, at="92a99f8")


def test_moe_routing_strategy_from_2025_12_19_on_the_side_branch() -> None:
    """9d51993 added the option; argparse before it refuses it and reads `--moe` as
    --moe_enable, after it finds `--moe` ambiguous (recorded refusal: test_aicb_recordings)."""
    base = f"{INFERENCE} Qwen3-Moe-235B scripts/inference_configs/qwen3_moe_default.json"
    routed = f"{base} --moe_routing_strategy UniformRandom"
    for before in ("05551a1", "508cd8f"):
        with pytest.raises(AicbError, match="unrecognized arguments: --moe_routing_strategy"):
            generate(routed, at=before)
        assert generate(f"{base} --moe", at=before).text() == generate(base, at=before).text()
    for since in ("9d51993", "3a9e8b1", LATEST.short):
        assert generate(routed, at=since).text() == generate(base, at=since).text()
        with pytest.raises(AicbError, match="ambiguous option: --moe could match"):
            generate(f"{base} --moe", at=since)


def test_first_inference_generator_reads_only_its_configuration() -> None:
    first = f"{INFERENCE} Qwen3-Moe-235B scripts/inference_configs/qwen3_default.json"
    made = generate(f"{first} --world_size 8 --phase prefill", at="2025-10-01")
    assert made.revision.short == "b866b12"
    assert made.filename == "Qwen3-Moe-235B-world_size32-tp1-pp1-ep32-bs64-seq1.txt"
    assert any("ignores: --world_size 8 --phase prefill" in n for n in made.notes)
    times = {r.fwd_time for r in made.workload.rows()}
    assert times == {0}  # its table of measured times held zeros
    with pytest.raises(AicbError, match="GPU"):  # this configuration is not shipped yet
        generate(f"{INFERENCE} Qwen3-Moe-235B qwen3_moe_default.json", at="b866b12")
    with pytest.raises(AicbError, match="Invalid model name"):
        generate(f"{INFERENCE} Qwen3-Next-80B x.json", at="b866b12")


runner = CliRunner()


def test_cli_versions_lists_every_revision() -> None:
    result = runner.invoke(app, ["aicb", "--versions"])
    assert result.exit_code == 0
    for rev in REVISIONS:
        assert rev.short in result.output


def test_cli_at_writes_the_old_name(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    args = ["aicb", "--at", "2024-10-23", "-o", str(tmp_path), "--", *shlex.split(OLD)]
    result = runner.invoke(app, [*args, *shlex.split(f"{GPT7} {AIOB}")])
    assert result.exit_code == 0, result.output
    (written,) = tmp_path.iterdir()
    assert written.name.startswith("gpt_7B-world_size64")
    assert written.read_text().startswith(
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4 ep: 1 pp: 4 ga: 8 "
    )


def test_cli_infer_json_for_a_file_aicb_did_not_write(corpus: object) -> None:
    path = CORPUS / "simai-examples" / "workload_analytical.txt"
    result = runner.invoke(app, ["aicb", "--infer", str(path), "--format", "json"])
    assert result.exit_code == 1
    data = json.loads(result.output)
    keys = {"exact", "command", "at", "earlier", "side_branch", "first_difference", "not_in_file"}
    keys.add("training_output")
    assert set(data) == keys
    assert data["exact"] is False and data["first_difference"]["line"] >= 1


def test_cli_infer_text_for_a_generated_file(corpus: object) -> None:
    path = next((CORPUS / "aicb-generated" / "aicb-2024-10").glob("*.txt"))
    result = runner.invoke(app, ["aicb", "--infer", str(path)])
    assert result.exit_code == 0
    assert "exact: AICB b9d142e (2024-09-11) .. d9b4f5c (2024-10-30)" in result.output


def test_other_aiob_measurement_is_named_not_exact(tmp_path: object) -> None:
    """A real AIOB run measures its own times: the command is found, the times are not."""
    from pathlib import Path

    from wkparse.explanation import explain
    from wkparse.models.aicb.training import aiob
    from wkparse.parse import parse_file

    assert isinstance(tmp_path, Path)
    measured = "".join(aiob._example_lines()).replace("time_gpu_avg: 889", "time_gpu_avg: 950")
    (tmp_path / "mine.txt").write_text(measured)
    made = generate(f"{NEW} {GPT7} --aiob_enable --comp_filepath {tmp_path / 'mine.txt'}")
    path = tmp_path / made.filename
    path.write_text(made.text())
    found = infer(str(path), made.text())
    assert not found.exact and found.other_compute_times and found.span == ("cf516c0", "23eec3c")
    assert found.first_difference is not None and found.first_difference.line > 2
    g = explain(parse_file(path), str(path)).generation
    assert g.aicb and g.era is not None and g.aicb_command is not None
    assert "another AIOB measurement" in g.aicb_command


def test_cli_infer_text_quotes_a_hostile_line_escaped_and_bounded(tmp_path: object) -> None:
    """The first difference of binary junk or a huge line is escaped and elided, and an
    empty file has no line 1 (not Python's `None`)."""
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    junk = tmp_path / "junk.txt"
    junk.write_bytes(b"\x1b[31mred\x00" + b"x" * 100_000)
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    result = runner.invoke(app, ["aicb", "--infer", str(junk)])
    found = result.output.split("found:", 1)[1]
    assert result.exit_code == 1 and "\x1b" not in found and "\x00" not in found
    assert "\\x1b[31mred\\x00" in found and "(100,009 characters)" in found
    assert len(found) < 400
    result = runner.invoke(app, ["aicb", "--infer", str(empty)])
    assert result.exit_code == 1 and "None" not in result.output.split("found:", 1)[1]


def test_header_keys_are_read_in_one_pass_over_a_huge_word() -> None:
    """`--infer` reads the header's `key: value` pairs: the same pairs as written, and a
    line of one word of a million characters is no million-squared search."""
    from benchmarks import fuzzing
    from wkparse.models.aicb.reading.infer_text import settings

    head = "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4 ep:1 x pp_comm:  0"
    assert settings(head + "\n6\n")[1] == {
        "model_parallel_NPU_group": "4",
        "ep": "1",
        "pp_comm": "0",
    }
    with fuzzing.watchdog(30):
        assert settings("x" * 1_000_000 + "\n")[1] == {}
        assert settings("x" * 1_000_000 + ": 7\n")[1] == {"x" * 1_000_000: "7"}


def test_v1_script_reads_its_own_words_only() -> None:
    """v1.0's script tables are the later script's renamed, less what came later: a word the
    later script gains never reaches v1.0 (its loop stopped at `--gpu_type`, `--tp`, ...)."""
    from wkparse.models.aicb.v1.script import V1_TRAINING

    assert set(V1_TRAINING.valued) == {
        "--comm_frame", "--world_size", "--tp_num", "--pp_num", "--global_batch",
        "--micro_batch", "--num_layers", "--seq_length", "--hidden_size", "--epoch_num",
        "--num_attention_heads", "--ffn_hidden_size", "--comp_filepath", "-m", "--model_size",
        "--max_position_embeddings", "--moe_router_topk", "--num_moe_experts",
        "--expert_parallel_size",
    }  # fmt: skip
    assert set(V1_TRAINING.flags) == {
        "--aiob_enable", "--use_flash_attn", "--swiglu", "--sp", "--sp-enable", "--moe_enabled",
        "--grouped_gemm",
    }  # fmt: skip
    assert V1_TRAINING.flags["--moe_enabled"] == ("moe_enabled", "--moe_enabled")
    assert V1_TRAINING.defaults["hidden_size"] == "5140" and "gpu_type" not in V1_TRAINING.defaults
    assert V1_TRAINING.passed[:4] == ("comm_frame", "world_size", "tp_num", "pp_num")


def test_v1_options_are_derived_as_the_later_generator_derives_them() -> None:
    """v1.0 kept every layer (no division by pp) and asserted MoE with sequence parallelism;
    otherwise its settings are the later generator's for the same options, renamed."""
    from wkparse.models.aicb.training.args import training_args
    from wkparse.models.aicb.v1.args import v1_args

    words = "--world_size 16 --global_batch 64 --num_layers 32 --hidden_size 4096 --swiglu"
    old, _ = v1_args([*words.split(), "--tp_num", "4", "--pp_num", "2"], moe_only=False)
    new, _ = training_args([*words.split(), "--tensor_model_parallel_size", "4",
                            "--pipeline_model_parallel", "2"])  # fmt: skip
    assert (old.tp, old.pp, old.dp, old.ga, old.ffn_hidden_size) == (4, 2, 2, 32, 10880)
    assert (old.num_layers, new.num_layers) == (32, 16)
    with pytest.raises(AicbError, match="moe must be enabled with sequence parallel"):
        v1_args(words.split(), moe_only=True)
