"""One verdict per file (issue 32): lint, explain and simai read a file through the same
models and never disagree about whether SimAI finishes or crashes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from wkparse.cli import app

runner = CliRunner()

ROW = "layer_{i}\t-1\t100\tNONE\t0\t100\tNONE\t0\t100\tALLREDUCE\t1048576\t100"
MICRO = "MICRO\n2\n" + "\n".join(ROW.format(i=i) for i in range(2)) + "\n"


def test_a_micro_file_is_one_verdict(tmp_path: Path) -> None:
    """lint said "All checks passed", explain "SimAI runs each one over all GPUs", and simai
    predicted SIGFPE (exit 136)."""
    path = tmp_path / "micro.txt"
    path.write_text(MICRO)
    simai = json.loads(runner.invoke(app, ["simai", str(path), "-f", "json"]).stdout)
    assert simai["outcome"]["exit_code"] == 136
    lint = runner.invoke(app, ["lint", "-f", "json", str(path)])
    assert lint.exit_code == 1
    errors = [d for d in json.loads(lint.stdout) if d["severity"] == "error"]
    assert [d["code"] for d in errors] == ["WK704"] and "SIGFPE" in errors[0]["message"]
    explain = " ".join(runner.invoke(app, ["explain", str(path)]).stdout.split())
    assert "SIGFPE" in explain and "WK704" in explain
    assert "SimAI runs each one over all GPUs" not in explain
    # ASTRA-sim 1.0 runs it: for that target the file is clean
    astra = runner.invoke(app, ["lint", "--target", "astra-sim-1.0", str(path)])
    assert astra.exit_code == 0
