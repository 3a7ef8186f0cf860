"""Shared fixtures: where the third-party corpus is, and its manifest.

The corpus lives beside the checkout (`../shared/corpus`); tests that need it skip cleanly
when it is absent on a developer's machine, but in CI (`CI=true`) the run stops at once:
there a missing corpus would silently skip two fifths of the suite.
"""

from __future__ import annotations

import csv
import functools
import json
import os
import re
import shlex
import subprocess
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from wkparse.threads.result import Triage

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
SCHEMAS = ROOT.parent / "shared" / "schemas"
SAMPLES = ROOT / "samples"
#: what the real AICB generator wrote at old revisions (`benchmarks/aicb_record.py`)
RECORDINGS = ROOT / "tests" / "recordings"
#: runs of the real SimAI_analytical (cef83f9): per-layer values, totals, raw output
SIMAI_ORACLE = ROOT.parent / "shared" / "simai-oracle"
SIMAI_ORACLE_2 = ROOT.parent / "shared" / "simai-oracle-2"
#: the recordings of SimAI-Simulation (the ns-3 backend): cases.json, results.json, cases/, raw/
NS3_ORACLE = ROOT.parent / "shared" / "simai-ns3-oracle"
#: SimAI_simulator's completed flows summed per GPU pair (cases.json, results.json, topo/, raw/)
SIMAI_TRAFFIC = ROOT.parent / "shared" / "simai-traffic"
#: the ns-3 backend built and run at b83ea3d4, 02532997 and 7f06c19c (and cef83f9 for the cases
#: the oracle lacks): cases.json, results.json (one object per run), cases/, raw/<version>/
NS3_VERSIONS = ROOT.parent / "shared" / "simai-ns3-versions"
#: runs of SimAI_analytical at ten commits on the same cases (versions.json, results.json, raw/)
SIMAI_VERSIONS = ROOT.parent / "shared" / "simai-versions"
#: real SimAI / AICB threads rebuilt as triage cases (issue.md, expected.json, attachments/)
TRIAGE = ROOT.parent / "shared" / "triage"
#: SimAI's and AICB's masters, commit by commit
HISTORY = ROOT.parent / "shared" / "history"


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


def traffic_runs() -> list[object]:
    """Each recorded run of ../shared/simai-traffic joined with its case, as pytest params
    (one skipped param when the folder is absent)."""
    if not (SIMAI_TRAFFIC / "results.json").is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason=absent(SIMAI_TRAFFIC)))]
    cases = {c["case"]: c for c in _loaded(SIMAI_TRAFFIC / "cases.json")}
    return [
        pytest.param({**cases[r["case"]], **r}, id=f"{r['case']}.{r['run']}")
        for r in _loaded(SIMAI_TRAFFIC / "results.json")
    ]


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


def recordings() -> list[dict[str, str]]:
    """Every run of `tests/recordings/MANIFEST.tsv`: file (`-`: AICB wrote none), commit,
    command, exit, stderr (AICB's last line when it refused)."""
    with (RECORDINGS / "MANIFEST.tsv").open(newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


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


def oracle_results(folder: Path) -> list[dict[str, Any]]:
    """An oracle folder's `results.json` (empty when ../shared is absent)."""
    path = folder / "results.json"
    if not path.is_file():
        return []
    return list(_loaded(path))


@functools.cache
def _loaded(path: Path) -> tuple[dict[str, Any], ...]:
    """A recording's JSON, read once per test process (simai-oracle-2's is 26 MB, and several
    modules parametrize over it): the cases are shared, so no test may change one."""
    return tuple(json.loads(path.read_text()))


def oracle_params(folder: Path, cases: list[dict[str, Any]] | None = None) -> list[object]:
    """An oracle's cases as pytest params (by case name), or one skipped param without it."""
    cases = oracle_results(folder) if cases is None else cases
    if not cases:
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{folder} is absent"))]
    return [pytest.param(c, id=str(c["case"])) for c in cases]


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is absent")
    return CORPUS


def on_a_terminal(args: list[str], env: dict[str, str], term: str = "xterm-256color") -> bytes:
    """What a command writes to a pseudo-terminal (stdout and stderr), as a person sees it:
    on a colour terminal (`TERM`), whatever terminal the tests themselves run in."""
    import pty

    env = {**env, "TERM": term}
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


# ---- ../shared: every test reads it through the names and helpers below ---------------------

#: the folder beside the checkout that holds the third-party files the tests read
SHARED = ROOT.parent / "shared"
#: the real AICB generator's output, by era, and its MANIFEST.tsv
GENERATED = CORPUS / "aicb-generated"
#: the seed report's own file: gpt_7B, world 128, TP 4, PP 4, ga 64 (1,230 rows); a path that
#: does not exist when the corpus is absent (`require(SEED)` skips)
SEED = next(iter(sorted((GENERATED / "seed").glob("*.txt"))), GENERATED / "seed" / "absent.txt")


def absent(path: Path) -> str:
    """The skip reason for a missing `path` under ../shared: names the top folder, which is
    what the summary counts skips by."""
    try:
        folder = path.relative_to(SHARED).parts[0]
    except (ValueError, IndexError):
        return f"{path} is absent"
    return f"../shared/{folder} is absent"


def needs(path: Path) -> pytest.MarkDecorator:
    """Mark a test to skip unless `path` (a file or folder of ../shared) exists."""
    return pytest.mark.skipif(not path.exists(), reason=absent(path))


def require(path: Path) -> Path:
    """`path`, or skip the running test when it is absent."""
    if not path.exists():
        pytest.skip(absent(path))
    return path


@functools.cache
def triaged(case: str) -> Triage:
    """The answer to the shared triage case `case` (with its attachments where it has them),
    made once per run: several test files judge the same answers."""
    from wkparse import triage

    folder = require(TRIAGE / case)
    attachments = folder / "attachments"
    return triage(
        (folder / "issue.md").read_bytes(),
        attachments=attachments if attachments.is_dir() else None,
    )


_SHARED_FOLDER = re.compile(r"shared/([A-Za-z0-9._-]+)")


def skip_counts(reasons: Iterable[str]) -> list[tuple[str, int]]:
    """How many tests skipped for what: per ../shared folder named in the reason, then per
    other reason, most first."""
    counts: Counter[str] = Counter()
    for reason in reasons:
        reason = reason.removeprefix("Skipped: ")
        found = _SHARED_FOLDER.search(reason)
        counts[f"../shared/{found.group(1)} is absent" if found else reason] += 1
    return sorted(
        counts.items(), key=lambda kv: (not kv[0].startswith("../shared/"), -kv[1], kv[0])
    )


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Name what the skipped tests wanted: a clone without ../shared passes by skipping, and
    the summary says how much it did not test."""
    skipped = terminalreporter.stats.get("skipped", [])
    reasons = []
    for report in skipped:
        longrepr = report.longrepr
        reasons.append(longrepr[2] if isinstance(longrepr, tuple) else str(longrepr))
    if not reasons:
        return
    terminalreporter.write_sep("=", f"{len(reasons)} skipped, by what they need")
    for reason, count in skip_counts(reasons):
        terminalreporter.write_line(f"{count:6,} {reason}")


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


@pytest.fixture(autouse=True)
def _colour_mode_reset() -> Iterable[None]:
    """`--color` sets a process-wide mode (a real run is one process); in-process runs of the
    CLI must not hand it to the next test."""
    yield
    from wkparse import terminal

    terminal.set_color("auto")
