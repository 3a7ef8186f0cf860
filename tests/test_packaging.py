"""The built wheel carries the grammar and the rule catalog, and works without the tree."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"building the wheel failed:\n{done.stderr}")
    return next(out.glob("wkparse-*.whl"))


def test_wheel_contains_grammar_and_catalog(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "wkparse/_data/grammar/workload.lark" in names
    assert "wkparse/_data/rules/WK105.toml" in names
    assert "wkparse/_data/concepts/n_p_s.toml" in names
    pages = {n for n in names if n.startswith("wkparse/_data/rules/WK")}
    assert len(pages) == len(list((ROOT / "rules").glob("WK*.toml")))
    # the Chinese pages (`wkparse rule CODE --lang zh`), one per English page
    assert {n.replace("rules/zh/", "rules/") for n in names if "/_data/rules/zh/" in n} == pages


def test_unpacked_wheel_parses_from_its_own_data(wheel: Path, tmp_path: Path) -> None:
    zipfile.ZipFile(wheel).extractall(tmp_path)
    code = (
        "import wkparse.resources as r, wkparse;"
        "print(r.grammar_file());"
        "print(wkparse.parse_text('MICRO\\n0\\n').ok)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    grammar, ok = done.stdout.split()
    assert Path(grammar).is_relative_to(tmp_path) and ok == "True"
