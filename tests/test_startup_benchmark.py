"""benchmarks/startup.py without installing anything: its pairing of rounds, its table and
the RESULTS.md section that benchmarks/run.py keeps. Never a time: the machines are shared."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmarks import run, startup


def _measured(times: dict[str, list[float]]) -> dict[str, run.Measurement]:
    out = {}
    for name, seconds in times.items():
        m = run.Measurement(name, "normal", [name])
        m.times_s, m.cpu_s = list(seconds), list(seconds)
        out[name] = m
    return out


def test_the_ratio_judged_pairs_each_round() -> None:
    runs = _measured(
        {
            "wkparse": [1.1, 2.2, 0.5],
            "floor": [1.0, 2.0, 0.5],
            "yamllint": [0.5, 1.0, 0.25],
            "python": [0.1, 0.1, 0.1],
        }
    )
    line = startup.summary(runs)
    # rounds: 1.1, 1.1, 1.0: the median of the pairs, where the medians' ratio is 1.1 / 1.0
    assert line["wkparse_over_floor"] == 1.1
    assert line["floor_over_yamllint"] == 2.0
    assert line["ratio_of_medians"] == 1.1
    runs["wkparse"].error = "exit code 2"
    assert startup.summary(runs)["wkparse_over_floor"] is None


def test_the_table_has_every_install_and_the_target() -> None:
    runs = _measured({n: [0.2, 0.3] for n in startup.CONTENDERS})
    doc = {
        "installs": {label: startup.summary(runs) for label in startup.INSTALLS},
        "machine": {
            "date": "today",
            "commit": "0123456789abcdef",
            "dirty": True,
            "usable_cpus": 2,
            "python": "3.11",
            "load_average_before": [1.0, 1.0, 1.0],
            "load_average_after": None,
        },
        "versions": {"typer": "0.29.2", "pydantic": "2", "yamllint": "1"},
        "config": {"repeat": 2},
        "tiny": {"rows": 85},
    }
    text = startup.table(doc)
    assert "| normal | 0.250 s | 0.250 s | 0.250 s | 0.250 s | 1.00x | 1.00x | 1.00x |" in text
    assert "| editable |" in text
    assert f"target <= {startup.FLOOR_LIMIT:g}x" in text
    assert "commit 0123456789ab with changes" in text and "load average 1.0 (" in text


def test_run_py_keeps_the_start_up_section(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    startup.write_section(results, "| first |\n")
    assert results.read_text(encoding="utf-8").startswith(startup.TITLE)
    results.write_text(run.with_startup_section(results, "| tables |\n"), encoding="utf-8")
    startup.write_section(results, "| second |\n")
    text = results.read_text(encoding="utf-8")
    assert text.startswith("| tables |\n")
    assert "| second |" in text and "| first |" not in text
    assert text.count(startup.TITLE) == 1 and text.count(run.STARTUP_BEGIN) == 1
    # run.py again: its tables replaced, the section kept as it is
    results.write_text(run.with_startup_section(results, "| new tables |\n"), encoding="utf-8")
    again = results.read_text(encoding="utf-8")
    assert again.startswith("| new tables |\n") and again.endswith(text[len("| tables |\n") :])
    bare = tmp_path / "bare.md"
    assert run.with_startup_section(bare, "| t |\n") == "| t |\n"


def test_the_tiny_file_is_written_by_this_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PYTHONPATH", raising=False)
    tiny = startup.tiny_file(tmp_path)
    assert tiny.rows > 0 and tiny.path.name.startswith("None-gpt_7B-world_size8-tp8-pp1")
    assert "PYTHONPATH" not in os.environ  # as it was
