"""`wkparse aicb --at` and `--infer` against files the real AICB wrote at old revisions.

`benchmarks/aicb_record.py` ran aliyun/aicb's own generator (CPU only, no torch) at the
commits the corpus does not cover and kept what it wrote in `tests/recordings/`; each run
must come back byte for byte, file name included, and a run AICB refused must be refused with
AICB's reason. `--infer` must find a command and revision range that regenerate each file
(where the file shows what made it: `_inferable`).
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import RECORDINGS, recordings
from wkparse.models.aicb import AicbError, generate
from wkparse.models.aicb.reading.infer import infer
from wkparse.models.aicb.revisions import REVISIONS, resolve, side_branch

WRITTEN = [pytest.param(r, id=r["file"]) for r in recordings() if r["file"] != "-"]


def _inferable(run: dict[str, str]) -> bool:
    """Whether --infer can name the run: a file that shows what made it: not an inference
    configuration of one's own (the first inference generator took every setting from it)."""
    command = run["command"]
    return not (".json" in command and "inference_configs/" not in command)


INFERABLE = [
    pytest.param(r, id=r["file"]) for r in recordings() if r["file"] != "-" and _inferable(r)
]
REFUSED = [pytest.param(r, id=r["command"][-60:]) for r in recordings() if r["file"] == "-"]


@pytest.fixture(autouse=True)
def beside_the_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands name the configurations of `inputs/` as AICB saw them: in its folder."""
    monkeypatch.chdir(RECORDINGS / "inputs")


@pytest.mark.parametrize("run", WRITTEN)
def test_at_writes_what_aicb_wrote(run: dict[str, str]) -> None:
    made = generate(run["command"], at=run["commit"])
    path = RECORDINGS / run["file"]
    assert made.text().encode() == path.read_bytes()
    # the recording puts the case number in front of AICB's own name
    assert path.name.split("-", 1)[1] == made.filename


@pytest.mark.parametrize("run", REFUSED)
def test_at_refuses_what_aicb_refused(run: dict[str, str]) -> None:
    # AICB's last line: `AssertionError: why`, or argparse's `generator.py: error: why`
    reason = re.sub(r"^[^:]*: (error: )?", "", run["stderr"])
    with pytest.raises(AicbError, match=re.escape(reason)):
        generate(run["command"], at=run["commit"])


@pytest.mark.parametrize("run", INFERABLE)
def test_infer_finds_a_command_that_rewrites_it(run: dict[str, str]) -> None:
    path = RECORDINGS / run["file"]
    text = path.read_text()
    found = infer(str(path), text)
    assert found.exact and found.at is not None and found.span is not None
    assert generate(found.command, at=found.at[0]).text() == text
    # the run's commit is in the range found, or among the side-branch commits named
    order = [r.short for r in REVISIONS]
    sides = [r.short for r in side_branch()]
    commit = resolve(run["commit"])
    if commit in REVISIONS and found.span[0] in order:
        first, last = order.index(found.span[0]), order.index(found.span[1])
        assert first <= order.index(commit.short) <= last
    else:
        named = [
            sides.index(a) <= sides.index(commit.short) <= sides.index(b) for a, b in found.side
        ]
        assert any(named)


def test_infer_names_the_side_branch_commits_that_write_a_file() -> None:
    """A run of the side branch's Qwen3-Next first generator (6584080) only it writes; a
    run of today's inference generator is the side branch's from 2025-11-04 on too."""
    from typer.testing import CliRunner

    from wkparse.cli import app

    def inferred(name: str, *options: str) -> str:
        path = next(RECORDINGS.glob(f"aicb-*/{name}-*.txt"))
        result = CliRunner().invoke(app, ["aicb", "--infer", str(path), *options])
        assert result.exit_code == 0
        return result.stdout

    only = inferred("30")
    assert only.startswith(
        "exact: only AICB's side-branch commits 6584080 (2025-10-29) write this file"
    )
    assert '"side_branch": [\n    [\n      "6584080",' in inferred("30", "--format", "json")
    assert (
        "and AICB's side-branch commits 05551a1 (2025-11-04) .. 3a9e8b1 (2025-12-26)"
        in inferred("34")
    )
    assert "side-branch commits c602a73" in inferred("26")
