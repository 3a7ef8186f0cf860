"""`wkparse lint --aicb-command`: originals stay silent; consistent edits show where they start."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import absent
from wkparse.cli import app
from wkparse.config import Config
from wkparse.diagnostics import Diagnostic
from wkparse.engine import lint
from wkparse.parse import parse_bytes

from .test_aicb_generate import CORPUS, SCRIPTED, WRITTEN, _python_command

SEED = (
    "seed/None-gpt_7B-world_size128-tp4-pp4-ep1-gbs512-mbs1-seq4096-MOE-False-GEMM-False-"
    "flash_attn-True.txt"
)
SEED_COMMAND = (
    "sh scripts/megatron_workload_with_aiob.sh -m 7 --world_size 128 --pipeline_model_parallel 4 "
    "--global_batch 512 --swiglu --use_flash_attn --aiob_enable "
    "--comp_filepath workload/aiob_inputs/Example.txt"
)


def _aicb_findings(text: str, command: str, name: str = "workload.txt") -> list[Diagnostic]:
    found = lint(parse_bytes(text.encode()), name, Config().with_aicb_command(command))
    return [d for d in found if d.code.startswith("WK6")]


def _seed() -> list[str]:
    path = CORPUS / SEED
    if not path.is_file():
        pytest.skip(absent(CORPUS))
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


@pytest.mark.skipif(not WRITTEN, reason=absent(CORPUS))
@pytest.mark.parametrize(("file", "era", "args"), WRITTEN, ids=[Path(w[0]).name for w in WRITTEN])
def test_original_gets_no_finding(file: str, era: str, args: str) -> None:
    text = (CORPUS / file).read_text(encoding="utf-8")
    assert _aicb_findings(text, _python_command(era, args), Path(file).name) == []


@pytest.mark.skipif(not SCRIPTED, reason=absent(CORPUS))
@pytest.mark.parametrize(("file", "command"), SCRIPTED, ids=[Path(s[0]).name for s in SCRIPTED])
def test_original_gets_no_finding_against_its_script_command(file: str, command: str) -> None:
    text = (CORPUS / file).read_text(encoding="utf-8")
    assert _aicb_findings(text, command, Path(file).name) == []


def test_changed_compute_time_is_one_finding_at_its_first_line() -> None:
    lines = _seed()
    edited = [
        line.replace("\t1820000\t", "\t2332000\t", 1)
        if line.startswith("attention_layer")
        else line
        for line in lines
    ]
    (finding,) = _aicb_findings("".join(edited), SEED_COMMAND)
    first = next(i for i, line in enumerate(lines, 1) if line.startswith("attention_layer"))
    assert (finding.code, finding.span.line) == ("WK603", first)
    assert finding.message == (
        f"fwd compute of attention_layer differs in 64 groups (576 rows, first at line {first}): "
        "2332000 here, AICB writes 1820000"
    )


def test_doubled_size_in_one_group() -> None:
    lines = _seed()
    target = 11 + 19 * 4  # an attention_layer of group 5
    assert lines[target - 1].startswith("attention_layer")
    lines[target - 1] = lines[target - 1].replace("\t33554432\t", "\t67108864\t", 1)
    (finding,) = _aicb_findings("".join(lines), SEED_COMMAND)
    assert (finding.code, finding.span.line) == ("WK603", target)
    assert "fwd size of attention_layer differs in group 5 of 64" in finding.message


def test_swapped_rows_are_found_where_they_stand() -> None:
    lines = _seed()
    lines[10], lines[11] = lines[11], lines[10]  # attention_layer and mlp_layer, group 1
    found = _aicb_findings("".join(lines), SEED_COMMAND)
    assert [(d.code, d.span.line) for d in found] == [("WK604", 11), ("WK604", 12)]


def test_dropped_group_with_ga_and_count_adjusted_is_found_at_the_header() -> None:
    lines = _seed()
    lines[0] = lines[0].replace(" ga: 64 ", " ga: 63 ")
    lines[1] = "1211\n"
    del lines[9 + 19 * 10 : 9 + 19 * 11]  # group 11
    found = _aicb_findings("".join(lines), SEED_COMMAND)
    assert [(d.code, d.span.line) for d in found] == [
        ("WK602", 1), ("WK602", 2), ("WK604", 9 + 19 * 63 + 1),
    ]  # fmt: skip
    # groups 2 to 64 are alike, so the rows run out of step only where the epilogue starts
    assert found[0].message == "header ga: 63 here, AICB writes 64"
    assert "AICB writes embedding_layer (group 64 of 64)" in found[2].message


def test_cli_flag_and_config_glob(tmp_path: Path) -> None:
    lines = _seed()
    name = Path(SEED).name
    (tmp_path / name).write_text("".join(lines), encoding="utf-8")
    runner = CliRunner()
    clean = runner.invoke(app, ["lint", str(tmp_path / name), "--aicb-command", SEED_COMMAND])
    assert clean.exit_code == 0 and "WK6" not in clean.output
    wrong = SEED_COMMAND.replace("--global_batch 512", "--global_batch 256")
    bad = runner.invoke(app, ["lint", str(tmp_path / name), "--aicb-command", wrong])
    assert bad.exit_code == 1
    assert "WK602" in bad.output and "WK605" in bad.output
    (tmp_path / ".wkparse.toml").write_text(
        f'[aicb-command]\n"None-gpt_7B-*.txt" = "{wrong}"\n', encoding="utf-8"
    )
    by_config = runner.invoke(app, ["lint", str(tmp_path / name)])
    assert by_config.exit_code == 1 and "header ga: 64 here, AICB writes 32" in by_config.output
    refused = runner.invoke(app, ["lint", str(tmp_path / name), "--aicb-command", "python x.py"])
    assert refused.exit_code == 1 and "WK601" in refused.output


def test_config_rejects_a_command_that_is_not_a_string(tmp_path: Path) -> None:
    (tmp_path / ".wkparse.toml").write_text('[aicb-command]\n"*.txt" = 3\n', encoding="utf-8")
    (tmp_path / "w.txt").write_text("MICRO\n0\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["lint", str(tmp_path / "w.txt")])
    assert result.exit_code == 2
    assert "must map to a command line" in result.output


def test_a_file_of_another_kind_gets_few_findings_not_one_per_field() -> None:
    """Missing header keys are one finding, a partial row is one finding, then out of step."""
    command = (
        "python -m workload_generator.SimAI_training_workload_generator --world_size 2 "
        "--tensor_model_parallel_size 2 --num_layers 1 --global_batch 2"
    )
    text = "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2\n3\ngrad_norm\t-1\n"
    found = [(d.code, d.span.line, d.message) for d in _aicb_findings(text, command)]
    assert found[0] == (
        "WK602", 1, "the header lacks what AICB writes as ep: 1, pp: 1, vpp: 1, ga: 2, "
        "all_gpus: 2, checkpoints: 0, checkpoint_initiates: 0, pp_comm: 0",
    )  # fmt: skip
    assert found[1] == ("WK602", 2, "row count 3 here, AICB writes 17")
    assert ("WK604", 3, "the file ends after 1 rows; AICB writes 17") in found
    assert (
        "WK603", 3, "grad_norm differs in the prologue in fwd compute (nothing here, AICB "
        "writes 1) and 9 more fields",
    ) in found  # fmt: skip
    assert len(found) == 4


def test_uv_run_command_is_accepted_by_lint_and_explain() -> None:
    """`uv run -m ...` as users post it compares like the `python -m` form (no WK601)."""
    text = "".join(_seed())
    words = SEED_COMMAND.split()
    assert _aicb_findings(text, f"uv run {' '.join(words[1:])}") == []
    assert _aicb_findings(text, f"uv run bash ./{' '.join(words[1:])}") == []
    result = CliRunner().invoke(
        app, ["explain", "--aicb-command", f"uv run {' '.join(words[1:])}", "--format", "json"]
    )
    assert result.exit_code == 0 and "not an AICB generator command" not in result.output
