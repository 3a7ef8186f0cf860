"""benchmarks/distinct_kinds.py: the issue's file (rows that never repeat, a kind of layer per
row) and the ratios it judges, on a few groups and made-up times (never a time measured here:
the machines are shared)."""

from __future__ import annotations

from pathlib import Path

from benchmarks import distinct_kinds
from benchmarks.run import Measurement


def test_the_file_is_the_issues_shape_and_its_rows_never_repeat(tmp_path: Path) -> None:
    path = distinct_kinds.make_file(3, tmp_path)
    lines = path.read_text().splitlines()
    assert "ga: 3 " in lines[0] and "model_parallel_NPU_group: 8 " in lines[0]
    rows = lines[2:]
    assert int(lines[1]) == len(rows) == 3 * 97 + 12  # ga 10,400: 1,008,812 rows
    assert len(set(rows)) == len(rows)


def test_ratios_are_each_commands_best_over_the_split_loops() -> None:
    def ran(name: str, cpu: list[float], wall: list[float]) -> Measurement:
        return Measurement(name, "f", [], times_s=wall, cpu_s=cpu)

    runs = {
        "split": ran("split", [0.4, 0.3], [0.5, 0.6]),
        "explain": ran("explain", [1.5, 1.2], [2.0, 3.0]),
        "simai": ran("simai", [], []),
    }
    found = distinct_kinds.ratios(runs)
    assert found["explain"] == {"cpu": 4.0, "wall": 4.0}
    assert found["simai"] == {"cpu": None, "wall": None}
