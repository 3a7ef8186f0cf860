"""benchmarks/traffic.py end to end in its quick form: it times the command and the model and
writes its report. Only the report's shape is checked, never a time (shared machines)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def test_traffic_benchmark_writes_its_report(tmp_path: Path) -> None:
    out = tmp_path / "traffic.json"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "traffic.py"),
            *("--quick", "--repeat", "1", "--out", str(out), "--work", str(tmp_path / "w")),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    doc = json.loads(out.read_text())
    assert {"cli", "by_gpus", "by_rows", "time_growth", "memory_growth", "met"} <= set(doc)
    assert [x["gpus"] for x in doc["by_gpus"]] == [128, 256]
    rows = [x["collectives"] for x in doc["by_rows"]]
    assert rows[1] == 2 * rows[0] > 0
    assert doc["cli"]["exit_codes"] == [0]
