"""`wkparse parse`: the JSON contract and the exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from tests.conftest import SAMPLES
from wkparse.cli import app

SEED = SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"
runner = CliRunner()


def parse_json(path: Path) -> tuple[int, dict[str, object]]:
    result = runner.invoke(app, ["parse", str(path), "--format", "json"])
    return result.exit_code, json.loads(result.stdout)


def test_json_ast_of_a_clean_file() -> None:
    code, doc = parse_json(SEED)
    assert code == 0
    assert set(doc) >= {"header", "count", "rows", "errors"}
    rows = doc["rows"]
    assert isinstance(rows, list) and len(rows) == 1230
    assert rows[7] == {
        "line": 10,
        "name": "embedding_layer",
        "reserved": -1,
        "fwd": {"compute": 799000, "comm": "ALLREDUCE", "size": 33554432},
        "ig": {"compute": 1, "comm": "NONE", "size": 0},
        "wg": {"compute": 17374000, "comm": "NONE", "size": 0},
        "update_time": 100,
    }
    assert doc["count"] == {"text": "1230", "value": 1230}
    assert doc["errors"] == []


def test_whitespace_only_differences_give_equal_rows(tmp_path: Path) -> None:
    spaced = tmp_path / "spaced.txt"
    spaced.write_text(SEED.read_text().replace("\t", "   "))
    assert parse_json(SEED)[1]["rows"] == parse_json(spaced)[1]["rows"]
    assert parse_json(SEED)[1]["positions"] != parse_json(spaced)[1]["positions"]


def test_syntax_errors_give_exit_1_and_still_print_json(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    row = "micro_test -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 4096.5 1"
    bad.write_text(f"MICRO\n1\n{row}\n")
    code, doc = parse_json(bad)
    assert code == 1
    errors = doc["errors"]
    assert isinstance(errors, list)
    column = row.index("4096.5") + 1
    assert [(e["code"], e["line"], e["column"]) for e in errors] == [("WK113", 3, column)]


def test_unreadable_path_gives_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["parse", str(tmp_path / "missing.txt")])
    assert result.exit_code == 2
    assert "missing.txt" in result.stderr


def test_python_dash_m_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "wkparse", "parse", str(SEED)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert "1,230 rows" in done.stdout


def test_dash_reads_standard_input() -> None:
    """`-` is stdin for parse as for every other command: same tree as the file itself."""
    data = SEED.read_bytes()
    piped = runner.invoke(app, ["parse", "-", "--format", "json"], input=data)
    assert piped.exit_code == 0
    assert json.loads(piped.stdout) == parse_json(SEED)[1]
    broken = runner.invoke(app, ["parse", "-"], input=data.replace(b"\t", b"\tx", 1))
    assert (
        broken.exit_code == 1 and broken.stdout.startswith("<stdin>: ") and "WK1" in broken.stdout
    )
