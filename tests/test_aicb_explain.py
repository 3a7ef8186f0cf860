"""`wkparse explain --aicb-command`: the command's file alone, or a file against its command."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from wkparse.cli import app

from .test_aicb_lint import SEED, SEED_COMMAND, _seed


def _explain(*args: str) -> tuple[int, dict[str, object] | str]:
    result = CliRunner().invoke(app, ["explain", *args, "--format", "json"])
    if result.exit_code != 0:
        return result.exit_code, result.output
    return 0, json.loads(result.stdout)


def test_command_alone_explains_the_file_aicb_writes() -> None:
    code, e = _explain("--aicb-command", SEED_COMMAND)
    assert code == 0 and isinstance(e, dict)
    assert e["path"] == Path(SEED).name
    assert (e["ga"], e["vpp"], e["rows"]) == (64, 9, 1230)
    notes = e["notes"]
    assert isinstance(notes, list)
    assert notes[0].startswith(f"This is the file AICB writes for `{SEED_COMMAND}`")
    assert "1,230 rows" in notes[0]


def test_file_that_matches_its_command(tmp_path: Path) -> None:
    path = tmp_path / Path(SEED).name
    path.write_text("".join(_seed()), encoding="utf-8")
    code, e = _explain(str(path), "--aicb-command", SEED_COMMAND)
    assert code == 0 and isinstance(e, dict)
    assert e["notes"][0] == f"It matches what AICB writes for `{SEED_COMMAND}`."  # type: ignore[index]


def test_file_that_departs_says_where(tmp_path: Path) -> None:
    lines = _seed()
    lines[10] = lines[10].replace("\t1820000\t", "\t2332000\t", 1)
    path = tmp_path / "edited.txt"
    path.write_text("".join(lines), encoding="utf-8")
    code, e = _explain(str(path), "--aicb-command", SEED_COMMAND)
    assert code == 0 and isinstance(e, dict)
    note = e["notes"][0]  # type: ignore[index]
    assert note.startswith(f"It departs from what AICB writes for `{SEED_COMMAND}`: 1 difference")
    assert "first at line 11: fwd compute of attention_layer differs in group 1 of 64" in note
    assert any(f["code"] == "WK603" for f in e["findings"])  # type: ignore[union-attr]


def test_aicb_name_alone_says_what_it_records(tmp_path: Path) -> None:
    path = tmp_path / Path(SEED).name
    path.write_text("".join(_seed()), encoding="utf-8")
    code, e = _explain(str(path))
    assert code == 0 and isinstance(e, dict)
    notes = e["notes"]
    assert isinstance(notes, list)
    assert notes[0].startswith("The AICB file name records model gpt_7B, world size 128, tp 4")
    assert "does not say whether sequence parallelism" in notes[0]


def test_no_file_and_no_command_or_a_refused_command() -> None:
    assert _explain()[0] == 2
    code, output = _explain("--aicb-command", "python -m x")
    assert code == 2 and "not an AICB generator command" in str(output)


def test_explain_names_the_options_a_preset_replaced() -> None:
    code, e = _explain("--aicb-command", "sh scripts/megatron_workload_with_aiob.sh -m 7 --tp 8")
    assert code == 0 and isinstance(e, dict)
    assert "AICB run: `-m 7` sets tp 4: your `--tp 8` was dropped" in e["notes"]  # type: ignore[operator]
