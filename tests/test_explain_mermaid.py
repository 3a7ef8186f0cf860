"""`explain --format markdown`: the Mermaid Gantt chart of the pipeline schedule.

Checked twice: by the rules of Mermaid's Gantt grammar that the chart relies on (always), and
by Mermaid's own parser run in Node (`tests/mermaid/check.mjs`; `npm install` there, as
`.ci/run` does on CI; outside CI the test skips when it is not installed).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wkparse.cli import app

from .test_explain_html import FILES

CHECKER = Path(__file__).parent / "mermaid"
TASK = re.compile(
    r"^    (?P<name>[^:#;]+?) :(?P<tag>done, |active, )?"
    r"(?P<id>s\d+t\d+), (?P<start>\d+), (?P<end>\d+)$"
)


def markdown(path: Path) -> str:
    result = CliRunner().invoke(app, ["explain", "--format", "markdown", str(path)])
    assert result.exit_code == 0, result.output
    return result.output


def chart(text: str) -> str:
    found = re.search(r"^```mermaid\n(.*?)\n```$", text, re.S | re.M)
    assert found is not None, "no mermaid block"
    return found.group(1)


def sections(source: str) -> dict[str, list[re.Match[str]]]:
    """The chart read by the Gantt grammar's rules: each section's task lines, parsed."""
    lines = source.splitlines()
    assert lines[:4] == ["---", "displayMode: compact", "---", "gantt"]
    assert lines[4].startswith("    title ") and not set(lines[4][10:]) & set(":#;")
    assert lines[5:8] == ["    dateFormat x", lines[6], "    todayMarker off"]
    assert lines[6].startswith("    axisFormat ")
    out: dict[str, list[re.Match[str]]] = {}
    current: list[re.Match[str]] | None = None
    for line in lines[8:]:
        if line.startswith("    section "):
            current = out.setdefault(line[12:], [])
            continue
        task = TASK.match(line)
        assert task is not None and current is not None, line
        assert int(task["end"]) > int(task["start"])
        current.append(task)
    ids = [t["id"] for tasks in out.values() for t in tasks]
    assert len(ids) == len(set(ids))
    return out


@pytest.mark.parametrize("name", sorted(FILES))
def test_markdown_keeps_the_text_picture_and_adds_the_chart(name: str) -> None:
    text = markdown(FILES[name])
    assert "```text" in text and "■" in text  # the GPU grid is still there
    assert text.index("#### Parallel layout") < text.index("```mermaid")


def test_seed_chart_follows_the_gantt_rules_and_the_schedule() -> None:
    source = chart(markdown(FILES["seed"]))
    assert "3/(64*9) = 0.52% of the layer time" in source
    stages = sections(source)
    assert list(stages) == ["stage 0", "stage 1", "stage 2", "stage 3"]
    for tasks in stages.values():
        # one line per stage: each task starts where the one before ended
        for before, after in itertools.pairwise(tasks):
            assert abs(int(after["start"]) - int(before["end"])) <= 1
        names = [t["name"] for t in tasks]
        assert names[names.index("F1") : names.index("F1") + 2] == ["F1", "B1"]
        assert "… 53 …" in names and names[-3:-1] == ["F64", "B64"]
        assert {t["tag"] for t in tasks if t["name"].startswith("B")} == {"active, "}
        assert names[-1] == "bubble" and tasks[-1]["tag"] == "done, "
    ends = {int(tasks[-1]["end"]) for tasks in stages.values()}
    assert max(ends) - min(ends) <= 1  # every stage idles the same bubble


def test_pp1_chart_has_one_section_and_no_bubble() -> None:
    stages = sections(chart(markdown(FILES["pp1"])))
    assert list(stages) == ["the whole model"]
    assert all(t["tag"] != "done, " for t in stages["the whole model"])


@pytest.mark.parametrize("ga", ["-1", "0"])
def test_a_file_without_micro_batches_has_no_chart(ga: str, tmp_path: Path) -> None:
    """`ga: -1` (found by the long fuzz run: the chart divided by a zero time line) or 0
    lays out no micro-batch: no chart, no picture, and no traceback."""
    text = FILES["pp1"].read_text(encoding="utf-8")
    path = tmp_path / "w.txt"
    path.write_text(re.sub(r"ga: \d+", f"ga: {ga}", text, count=1), encoding="utf-8")
    assert "```mermaid" not in markdown(path)
    html = CliRunner().invoke(app, ["explain", "--format", "html", str(path)])
    assert html.exit_code == 0 and "Traceback" not in html.output


def _mermaid(source: str) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    if node is None or not (CHECKER / "node_modules" / "mermaid").is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail("Mermaid is not installed on CI: .ci/run runs npm install in tests/mermaid")
        pytest.skip("Mermaid not installed: npm install --no-package-lock in tests/mermaid")
    return subprocess.run(
        [node, str(CHECKER / "check.mjs")],
        input=source,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("name", sorted(FILES))
def test_mermaid_parses_the_chart(name: str) -> None:
    source = chart(markdown(FILES[name]))
    result = _mermaid(source)
    assert result.returncode == 0, result.stderr
    read = json.loads(result.stdout)
    assert read["type"] == "gantt"
    assert read["sections"] == list(sections(source))
    assert len(read["tasks"]) == sum(len(t) for t in sections(source).values())


def test_mermaid_check_rejects_a_broken_chart() -> None:
    """The harness itself: a task ending before it starts is refused, so a pass means valid."""
    result = _mermaid("gantt\n    dateFormat x\n    section s\n    F1 :a, 40, 20\n")
    assert result.returncode == 1 and "no valid start and end" in result.stderr
