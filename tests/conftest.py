"""Shared fixtures: where the third-party corpus is, and its manifest.

The corpus lives beside the checkout (`../shared/corpus`); tests that need it skip cleanly
when it is absent on a developer's machine, but in CI (`CI=true`) the run stops at once:
there a missing corpus would silently skip two fifths of the suite.
"""

from __future__ import annotations

import csv
import os
import shlex
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
SCHEMAS = ROOT.parent / "shared" / "schemas"
SAMPLES = ROOT / "samples"
#: the recordings of SimAI-Simulation (the ns-3 backend): cases.json, results.json, cases/, raw/
NS3_ORACLE = ROOT.parent / "shared" / "simai-ns3-oracle"


def missing_shared(env: Mapping[str, str], corpus: Path) -> str | None:
    """Why this run must stop before testing anything, or None."""
    if env.get("CI", "").lower() == "true" and not corpus.is_dir():
        return f"CI=true but {corpus} is missing: the tests read the shared corpus there"
    return None


def pytest_sessionstart(session: pytest.Session) -> None:
    reason = missing_shared(os.environ, CORPUS)
    if reason is not None:
        pytest.exit(reason, returncode=3)


def ns3_cases() -> list[object]:
    """Each recorded ns-3 case joined with its results, as pytest params (one skipped param
    when ../shared/simai-ns3-oracle is absent)."""
    if not (NS3_ORACLE / "results.json").is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason="no ../shared/simai-ns3-oracle"))]
    import json

    cases = json.loads((NS3_ORACLE / "cases.json").read_text())
    results = {r["case"]: r for r in json.loads((NS3_ORACLE / "results.json").read_text())}
    return [pytest.param({**c, **results[c["case"]]}, id=c["case"]) for c in cases]


def corpus_files() -> list[Path]:
    """Every workload file of the corpus (empty when the corpus is absent)."""
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*.txt"))


def manifest(*, refused: bool = False) -> list[dict[str, str]]:
    """MANIFEST.tsv rows that name a generated file (with `refused`, also the runs AICB
    refused, whose file is `-`)."""
    path = CORPUS / "aicb-generated" / "MANIFEST.tsv"
    if not path.is_file():
        return []
    with path.open(newline="") as f:
        rows = csv.DictReader(f, delimiter="\t")
        return [row for row in rows if refused or row["file"] != "-"]


def generator_arguments(arguments: str) -> dict[str, str]:
    """A MANIFEST row's AICB arguments by option name, without the dashes (a flag: "")."""
    words = shlex.split(arguments)
    out: dict[str, str] = {}
    for i, word in enumerate(words):
        if word.startswith("--"):
            nxt = words[i + 1] if i + 1 < len(words) else ""
            out[word[2:]] = "" if nxt.startswith("--") else nxt
    return out


def corpus_params() -> list[object]:
    """`corpus_files()` as pytest params, or one skipped param when the corpus is absent."""
    files = corpus_files()
    if not files:
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared/corpus is absent"))]
    return [pytest.param(p, id=str(p.relative_to(CORPUS))) for p in files]


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is absent")
    return CORPUS


def on_a_terminal(args: list[str], env: dict[str, str]) -> bytes:
    """What a command writes to a pseudo-terminal (stdout and stderr), as a person sees it."""
    import pty

    leader, follower = pty.openpty()
    subprocess.run(args, stdout=follower, stderr=follower, env=env, check=False, timeout=120)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # Linux: the other side is closed and everything was read
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return b"".join(chunks)


#: the seed: a user's report (a note, not a workload) and the AICB file it asks about
SEED_REPORTS = ROOT.parent / "shared" / "seed"
SEED_WORKLOAD = (
    CORPUS / "aicb-generated" / "seed" / "None-gpt_7B-world_size128-tp4-pp4-ep1-gbs512-mbs1-"
    "seq4096-MOE-False-GEMM-False-flash_attn-True.txt"
)


@pytest.fixture
def seed_workload() -> Path:
    if not SEED_WORKLOAD.is_file():
        pytest.skip("../shared/corpus is absent")
    return SEED_WORKLOAD


@pytest.fixture
def seed_report() -> Path:
    reports = sorted(SEED_REPORTS.glob("*.txt")) if SEED_REPORTS.is_dir() else []
    if not reports:
        pytest.skip("../shared/seed is absent")
    return reports[0]
