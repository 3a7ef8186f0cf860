"""benchmarks/scaling.py's judgement: which runs pass and which fail, from given times.

No timing here (the machines are shared and noisy): the times are made up, and what is
checked is the ratio logic `.ci/run` relies on to fail a quadratic path.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def scaling() -> ModuleType:
    spec = importlib.util.spec_from_file_location("scaling", ROOT / "benchmarks" / "scaling.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("scaling", module)
    spec.loader.exec_module(module)
    return module


ROWS = (50_000, 200_000)


def verdicts(scaling: ModuleType, times: dict[str, tuple[float | None, float | None]]) -> dict:
    return {v.measure: v for v in scaling.judge(times, ROWS)}


def test_linear_commands_and_a_cheap_lint_pass(scaling: ModuleType) -> None:
    times = {"split loop": (0.05, 0.2), "lint": (0.1, 0.4), "explain": (1.0, 4.4)}
    found = verdicts(scaling, times)
    assert set(found) == {
        "lint: time per row, large / small",
        "explain: time per row, large / small",
        "lint / split loop, large file",
    }
    assert all(v.met for v in found.values())
    assert found["explain: time per row, large / small"].value == pytest.approx(1.1)
    assert found["lint / split loop, large file"].value == pytest.approx(2.0)


def test_time_per_row_growing_past_the_limit_fails(scaling: ModuleType) -> None:
    # 4x the rows: 6.0x the time is 1.5x per row (met), 6.1x is past it, 16x is quadratic
    times = {"a": (1.0, 6.0), "b": (1.0, 6.1), "c": (1.0, 16.0)}
    found = verdicts(scaling, times)
    assert found["a: time per row, large / small"].met
    assert not found["b: time per row, large / small"].met
    quadratic = found["c: time per row, large / small"]
    assert not quadratic.met and quadratic.value == pytest.approx(4.0)


def test_growth_is_per_row_not_per_file(scaling: ModuleType) -> None:
    # files of other sizes: the same times are linear at 4x the rows, quadratic at 2x
    times = {"x": (1.0, 4.0)}
    assert scaling.judge(times, (1000, 4000))[0].met
    assert not scaling.judge(times, (1000, 2000))[0].met


def test_lint_past_five_split_loops_fails(scaling: ModuleType) -> None:
    at_limit = verdicts(scaling, {"split loop": (0.05, 0.2), "lint": (0.25, 1.0)})
    assert at_limit["lint / split loop, large file"].met
    past = verdicts(scaling, {"split loop": (0.05, 0.2), "lint": (0.26, 1.02)})
    assert past["lint: time per row, large / small"].met  # linear, yet too slow
    assert not past["lint / split loop, large file"].met


def test_a_stopped_or_failed_run_fails(scaling: ModuleType) -> None:
    found = verdicts(scaling, {"split loop": (0.05, 0.2), "lint": (0.1, None), "d": (None, 1.0)})
    assert not found["lint: time per row, large / small"].met
    assert not found["lint / split loop, large file"].met
    assert not found["d: time per row, large / small"].met
    assert found["d: time per row, large / small"].note


def test_the_split_loop_is_the_baseline_not_a_contender(scaling: ModuleType) -> None:
    found = verdicts(scaling, {"split loop": (0.01, 1.0)})  # its own growth is not judged
    assert found == {}


def test_the_table_names_every_failure(scaling: ModuleType) -> None:
    times = {"split loop": (0.05, 0.2), "lint": (0.1, 0.4), "simai": (1.0, 16.0)}
    text = scaling.table(times, ROWS, scaling.judge(times, ROWS))
    assert "| simai: time per row, large / small | 4.00x | <= 1.5x | NO |" in text
    assert "| lint / split loop, large file | 2.00x | <= 5x | yes |" in text
    assert "| simai | 1.000 s | 16.000 s | 20.00 | 80.00 |" in text


def test_run_py_keeps_the_notes_of_results_md(tmp_path: Path) -> None:
    """RESULTS.md's hand-kept notes (the scaling figures) survive run.py's rewrite."""
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "benchmarks" / "run.py")
    assert spec is not None and spec.loader is not None
    run = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_run", run)  # its dataclasses look their module up
    spec.loader.exec_module(run)
    results = tmp_path / "RESULTS.md"
    assert run.kept_notes(results) == ""
    results.write_text("| old table |\n")
    assert run.kept_notes(results) == ""
    results.write_text(f"| old table |\n{run.KEPT}\n## Scaling\nfigures\n")
    assert run.kept_notes(results) == f"\n{run.KEPT}\n## Scaling\nfigures\n"
    assert run.KEPT in (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")


def test_a_run_over_its_cpu_budget_is_stopped(scaling: ModuleType) -> None:
    """A hopeless run is stopped by CPU time (the guard fails in minutes, never hangs); the
    timer is the one the fuzzing watchdog uses, on the process's CPU clock."""
    with pytest.raises(scaling.OverBudget), scaling.budget(0.2):
        while True:
            pass
    with scaling.budget(None):
        pass


def test_simai_json_or_text_past_its_limit_against_the_csv_fails(scaling: ModuleType) -> None:
    times = {
        "simai --format csv": (0.5, 2.0),
        "simai --format json": (1.0, 4.5),
        "simai": (1.0, 4.6),
    }
    found = verdicts(scaling, times)
    assert scaling.FORMAT_LIMIT == 2.25
    assert found["simai --format json / simai --format csv, large file"].met
    text = found["simai / simai --format csv, large file"]
    assert not text.met and text.value == pytest.approx(2.3)
    assert "simai / simai --format csv, large file" not in verdicts(scaling, {"simai": (1, 4)})
