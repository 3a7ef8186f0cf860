"""The pre-commit hooks: the manifest, and the real `pre-commit try-repo` on a workload repo.

try-repo installs the hook repository from git, so the test snapshots this working tree
(uncommitted files included) into a throwaway repository first: it tests the code as it
is on disk, and never touches this checkout's git state.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT, SAMPLES
from wkparse.catalog import page

HOOKS = ROOT / ".pre-commit-hooks.yaml"
COUNT_PAGE = page("WK105")
assert COUNT_PAGE is not None
BAD = COUNT_PAGE.fail[0].text.lstrip("\n")
GOOD_SAMPLE = SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"


def manifest() -> list[dict[str, object]]:
    import yaml  # type: ignore[import-untyped]  # pre-commit's dependency

    loaded = yaml.safe_load(HOOKS.read_text())
    assert isinstance(loaded, list)
    return loaded


def test_manifest_declares_a_lint_and_a_fmt_hook() -> None:
    pytest.importorskip("yaml")
    hooks = {h["id"]: h for h in manifest()}
    assert set(hooks) == {"wkparse-lint", "wkparse-fmt"}
    assert str(hooks["wkparse-lint"]["entry"]).startswith("wkparse lint")
    assert hooks["wkparse-fmt"]["entry"] == "wkparse fmt --skip-non-workloads"
    for hook in hooks.values():
        assert hook["language"] == "python"
        files = re.compile(str(hook["files"]))
        assert files.search("workloads/gpt7b-tp4.txt")
        assert not files.search("src/tool.py") and not files.search("notes.txt.bak")
        exclude = re.compile(str(hook["exclude"]))
        assert exclude.search("requirements-dev.txt") and exclude.search("docs/README.txt")
        assert not exclude.search("workloads/gpt7b-tp4.txt")


def test_manifest_is_valid_for_pre_commit() -> None:
    clientlib = pytest.importorskip("pre_commit.clientlib")
    clientlib.load_manifest(str(HOOKS))


def _git(*args: str, cwd: Path) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "test",
        "GIT_AUTHOR_EMAIL": "test@example.invalid",
        "GIT_COMMITTER_NAME": "test",
        "GIT_COMMITTER_EMAIL": "test@example.invalid",
    }
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def _snapshot(target: Path) -> Path:
    """This tree as git sees it (tracked and untracked, minus .gitignore) in a new repo."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted on disk is left out
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    _git("init", "-q", cwd=target)
    _git("add", "-A", cwd=target)
    _git("commit", "-q", "-m", "snapshot", cwd=target)
    return target


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout: nothing to snapshot")
@pytest.mark.skipif(shutil.which("pre-commit") is None, reason="pre-commit is not installed")
def test_try_repo_lint_hook_fails_on_the_bad_workload(tmp_path: Path) -> None:
    hooks_repo = _snapshot(tmp_path / "wkparse")
    work = tmp_path / "workloads"
    work.mkdir()
    shutil.copy(GOOD_SAMPLE, work / GOOD_SAMPLE.name)
    (work / "bad.txt").write_text(BAD)
    (work / "notes.txt").write_text("Workloads for the March runs.\n")
    _git("init", "-q", cwd=work)
    _git("add", "-A", cwd=work)
    done = subprocess.run(
        ["pre-commit", "try-repo", str(hooks_repo), "wkparse-lint", "--all-files", "--color=never"],
        cwd=work,
        env={**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "wkparse lint" in out and "Failed" in out
    assert "bad.txt:2:1: error[WK105]: line 2 declares 3 rows but the file has 2" in out
    # The sample is real AICB-layout output: no error; notes.txt is not a workload.
    errors = [line for line in out.splitlines() if "error[" in line]
    assert not [line for line in errors if line.startswith(GOOD_SAMPLE.name)], out
    # skipped files are one summary line (`--verbose` lists them)
    assert "Skipped 1 non-workload file." in out and "notes.txt" not in out
