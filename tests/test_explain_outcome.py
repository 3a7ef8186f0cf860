"""explain's 'What SimAI-Analytical will report' names the run's real outcome: a Total time SimAI
prints as NaN or Inf is the outcome (as in `wkparse simai`), not "finishes (exit 0)"; a header
value the file leaves out reads "absent", never Python's None."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tests.conftest import SAMPLES
from wkparse.cli import app

SAMPLE = SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"


def _without_vpp(tmp_path: Path) -> Path:
    data = SAMPLE.read_bytes()
    first, rest = data.split(b"\n", 1)
    head = first.split()
    at = head.index(b"vpp:")
    path = tmp_path / "no-vpp.txt"
    path.write_bytes(b" ".join(head[:at] + head[at + 2 :]) + b"\n" + rest)
    return path


def test_a_nan_total_is_the_outcome_and_no_value_reads_none(tmp_path: Path) -> None:
    done = CliRunner().invoke(app, ["explain", str(_without_vpp(tmp_path))])
    assert "exits 0 with Total time NaN or Inf" in done.stdout
    assert "finishes (exit 0)" not in done.stdout
    assert "vpp absent" in done.stdout
    assert "None" not in done.stdout


def test_the_json_outcome_kind_is_nan(tmp_path: Path) -> None:
    done = CliRunner().invoke(app, ["explain", str(_without_vpp(tmp_path)), "--format", "json"])
    assert json.loads(done.stdout)["simai_report"]["outcome"]["kind"] == "nan"


def test_a_finite_total_still_finishes() -> None:
    done = CliRunner().invoke(app, ["explain", str(SAMPLE), "--format", "json"])
    assert json.loads(done.stdout)["simai_report"]["outcome"]["kind"] == "ok"
