"""benchmarks/run.py end to end on tiny files: it runs every command and writes its report.

Only the shape of the report is checked, never a time: the machines are shared and noisy.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CORPUS, ROOT, SAMPLES

RUN = ROOT / "benchmarks" / "run.py"
FLOOR = ROOT / "benchmarks" / "typer_floor.py"
COMMANDS = ("split", "parse", "lint", "explain", "fmt")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], str, str]:
    tmp = tmp_path_factory.mktemp("bench")
    # The real corpus when it is there; our own samples keep the corpus run covered otherwise.
    corpus = CORPUS if CORPUS.is_dir() else SAMPLES
    done = subprocess.run(
        [
            sys.executable,
            str(RUN),
            "--quick",
            *("--rows", "2000", "--repeat", "1"),
            *("--out", str(tmp / "out.json"), "--markdown", str(tmp / "out.md")),
            *("--work", str(tmp / "work"), "--corpus", str(corpus)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    # 1 only says a target was missed, which tiny files always do.
    assert done.returncode in (0, 1), done.stderr
    doc = json.loads((tmp / "out.json").read_text(encoding="utf-8"))
    return doc, (tmp / "out.md").read_text(encoding="utf-8"), done.stdout


def test_report_has_the_machine_and_the_settings(
    report: tuple[dict[str, object], str, str],
) -> None:
    doc = report[0]
    assert doc["schema"] == 1
    machine = doc["machine"]
    assert isinstance(machine, dict)
    assert {"date", "cpu_count", "python", "platform", "rss_source"} <= set(machine)
    assert machine["python"] == ".".join(map(str, sys.version_info[:3]))
    config = doc["config"]
    assert isinstance(config, dict)
    assert (config["rows"], config["repeat"], config["quick"]) == (2000, 1, True)
    assert config["corpus_files"] > 0


def test_every_command_ran_on_every_file(report: tuple[dict[str, object], str, str]) -> None:
    doc = report[0]
    inputs = doc["inputs"]
    runs = doc["runs"]
    assert isinstance(inputs, list) and isinstance(runs, dict)
    # tiny, then a quarter, half and all of --rows
    labels = [i["label"] for i in inputs]
    assert labels == ["tiny", "500", "1k", "2k"]
    rows = [i["rows"] for i in inputs]
    assert rows == sorted(rows) and rows[-1] > 1500
    expected = {f"{c}@{label}" for c in COMMANDS for label in labels}
    # the same sizes with rows that never repeat, and the JSON dump of a fifth of them
    distinct = [i["label"] for i in doc["distinct_inputs"]]
    assert distinct == ["distinct-500", "distinct-1k", "distinct-2k", "distinct-400"]
    expected |= {f"{c}@{label}" for c in COMMANDS for label in distinct[:3]}
    expected |= {"split@distinct-400", "parse-json@distinct-400"}
    if importlib.util.find_spec("yamllint") is not None:
        expected.add("yamllint@tiny")
    expected |= {"lint@small", "lint@corpus", "python@start-up", "typer-floor@tiny"}
    expected |= {f"lint@header-{n}" for n in ("2k", "4k", "8k")}
    expected |= {"diff@2k", "lint-both@2k", "lint-aicb@2k"}
    # SimAI-Analytical's EndToEnd.csv of the largest repeating and distinct files
    expected |= {"simai@2k", "simai@distinct-2k"}
    assert set(runs) == expected
    for name, run in runs.items():
        assert run["error"] is None, f"{name}: {run['error']}"
        assert len(run["times_s"]) == 1 and run["times_s"][0] > 0
        assert run["median_s"] == run["times_s"][0]
        assert len(run["cpu_s"]) == 1 and run["cpu_s"][0] > 0
        assert run["max_peak_rss_kb"] > 0
        assert run["exit_codes"][0] in (0, 1)


def test_targets_and_linearity_are_reported(report: tuple[dict[str, object], str, str]) -> None:
    doc = report[0]
    targets = doc["targets"]
    assert isinstance(targets, list)
    names = [t["name"] for t in targets]
    for wanted in ("parse / split loop", "lint / split loop", "explain / split loop"):
        assert wanted in names
    assert "fmt --check / split loop" in names
    for command in COMMANDS[1:]:
        assert f"{command} peak RSS / file size" in names
        assert f"distinct 2k: {command} peak RSS / file size" in names
    assert "distinct 2k: fmt --check / split loop" in names
    assert "lint whole corpus / one small file" in names
    assert "diff of two 2k-row files / lint of both" in names
    assert "lint --aicb-command / lint" in names
    # every wkparse command, not the split loop (the yardstick), on both kinds of file
    assert sum("time ratio / rows ratio" in n for n in names) == 2 * (len(COMMANDS) - 1)
    assert "lint: time ratio / repeats ratio, header repeating a key 2k -> 4k -> 8k times" in names
    for t in targets:
        assert isinstance(t["measured"], float)
        assert t["met"] is (t["measured"] <= t["limit"])
    assert doc["all_met"] is all(t["met"] is True for t in targets)
    linearity = doc["linearity"]
    distinct = {f"distinct-{c}" for c in COMMANDS[1:]}
    assert isinstance(linearity, dict) and set(linearity) == {*COMMANDS, "lint-header", *distinct}
    for entry in linearity.values():
        assert len(entry["time_ratios"]) == len(entry["us_per_row"]) == 2


def test_table_is_printed_and_written(report: tuple[dict[str, object], str, str]) -> None:
    doc, table, stdout = report
    if "yamllint@tiny" in doc["runs"]:  # type: ignore[operator]
        assert "the typer floor (`benchmarks/typer_floor.py`, typer " in table
    assert table in stdout
    assert "| lint / split loop |" in table
    assert "| wkparse explain |" in table
    assert "| distinct rows (jittered) |" in table and "| repeating rows (AICB) |" in table
    assert "wkparse parse --format json" in table


def test_generated_files_are_aicb_shaped(report: tuple[dict[str, object], str, str]) -> None:
    doc = report[0]
    inputs = doc["inputs"]
    assert isinstance(inputs, list)
    for i in inputs:
        name = Path(i["path"]).name
        assert name.startswith("None-gpt_7B-world_size8-tp8-pp1-ep1-gbs")
        assert i["bytes"] > 0


def test_distinct_files_have_rows_that_do_not_repeat(
    report: tuple[dict[str, object], str, str], tmp_path: Path
) -> None:
    doc = report[0]
    inputs = doc["distinct_inputs"]
    assert isinstance(inputs, list)
    work = Path(doc["config"]["work"])  # type: ignore[index]
    for i in inputs:
        path = next(work.glob(f"distinct-*/{i['path']}"))
        rows = path.read_text(encoding="utf-8").splitlines()[2:]
        assert len(set(rows)) > 0.9 * len(rows)


def test_readme_tables_are_written_between_the_markers(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("wkparse_bench_run", RUN)
    assert spec is not None and spec.loader is not None
    run = importlib.util.module_from_spec(spec)
    sys.modules["wkparse_bench_run"] = run
    spec.loader.exec_module(run)
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n{run.README_BEGIN}\nold\n{run.README_END}\nafter\n")
    assert run.write_readme(readme, "| new |\n")
    assert readme.read_text() == f"# x\n{run.README_BEGIN}\n| new |\n{run.README_END}\nafter\n"
    readme.write_text("no markers\n")
    assert not run.write_readme(readme, "| new |\n")
    assert readme.read_text() == "no markers\n"
    assert run.SPEED_PAGE == ROOT / "docs" / "speed.md"
    project = run.SPEED_PAGE.read_text(encoding="utf-8")
    assert run.README_BEGIN in project and run.README_END in project


def test_the_typer_floor_takes_the_options_wkparse_lint_takes() -> None:
    """The floor stands for wkparse lint's interface only while it has the same parameters."""
    import typer.main

    from wkparse.cli import app

    spec = importlib.util.spec_from_file_location("wkparse_bench_floor", FLOOR)
    assert spec is not None and spec.loader is not None
    floor = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(floor)

    def lint_options(group: object) -> list[tuple[str, ...]]:
        command = typer.main.get_command(group).commands["lint"]  # type: ignore[attr-defined]
        return sorted(tuple(sorted(p.opts)) for p in command.params)

    assert lint_options(floor.app) == lint_options(app)
    done = subprocess.run(
        [
            sys.executable,
            str(FLOOR),
            "lint",
            "--select",
            "WK",
            str(SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt"),
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert done.stdout == "All checks passed (1 file).\n"


def test_the_startup_run_times_only_the_start_up_contenders(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            *(sys.executable, str(RUN), "--startup", "--repeat", "1"),
            *("--out", str(tmp_path / "startup.json"), "--work", str(tmp_path / "work")),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    doc = json.loads((tmp_path / "startup.json").read_text(encoding="utf-8"))
    expected = {"lint@tiny", "typer-floor@tiny", "python@start-up"}
    if importlib.util.find_spec("yamllint") is not None:
        expected.add("yamllint@tiny")
        assert done.stdout.startswith("Start-up: `wkparse lint` of a 85-row file ")
        assert [t["name"] for t in doc["targets"]] == [
            "start-up: lint of a tiny file / yamllint of a tiny YAML file"
        ]
    assert set(doc["runs"]) == expected
    assert all(run["error"] is None and len(run["times_s"]) == 1 for run in doc["runs"].values())
    assert not (tmp_path / "work" / "rows-1000000").exists()  # no large file was written
