"""One verdict per file (issue 32): lint, explain, simai (both backends), diff and the server
read a file through the same models and never disagree about whether SimAI finishes, crashes
or hangs, which rows it reads, or which findings apply.

Every command runs in-process over the corpus, the samples and the seeded mutants of
`tests/test_fuzz.py` (the same cases), and each verdict is checked against the others.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks import fuzzing
from tests.conftest import CORPUS, SAMPLES, corpus_files
from tests.test_fuzz import MUTATED_CASES, SEED, bases
from wkparse.cli import app
from wkparse.commands.simai import why_not_clean
from wkparse.config import Config
from wkparse.diagnostics import Diagnostic, Severity
from wkparse.engine import lint
from wkparse.explanation.configured import explained
from wkparse.explanation.simai_report import simai_run
from wkparse.models.simai.ns3 import simulate_ns3
from wkparse.models.simai.reasons import ending
from wkparse.parse import parse_bytes

runner = CliRunner()

ROW = "layer_{i}\t-1\t100\tNONE\t0\t100\tNONE\t0\t100\tALLREDUCE\t1048576\t100"
MICRO = "MICRO\n2\n" + "\n".join(ROW.format(i=i) for i in range(2)) + "\n"
#: files larger than this are left to the corpus's own tests (explain of a million rows)
MAX_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class Case:
    name: str
    data: bytes


@functools.cache
def cases() -> tuple[Case, ...]:
    real = [p for p in corpus_files() if p.stat().st_size <= MAX_BYTES]
    found = [Case(str(p.relative_to(CORPUS)), p.read_bytes()) for p in real]
    found += [Case(p.name, p.read_bytes()) for p in sorted(SAMPLES.glob("*.txt"))]
    for index in range(MUTATED_CASES):
        case = fuzzing.make_case(SEED, index, bases())
        found.append(Case(f"mutant-{index:03}.txt", case.data))
    return tuple(found)


def _errors(found: list[Diagnostic], *severities: Severity) -> list[Diagnostic]:
    wanted = severities or (Severity.ERROR,)
    return [d for d in found if d.severity in wanted]


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.name)
def test_every_command_gives_one_verdict(case: Case, tmp_path: Path) -> None:
    path = tmp_path / Path(case.name).name
    path.write_bytes(case.data)
    result = parse_bytes(case.data)
    found = lint(result, str(path), Config())
    run, _ = simai_run(case.data, str(path))
    outcome = run.outcome
    # whether SimAI-Analytical finishes: a crash, a hang or no result is an error in lint
    if outcome.exit_code != 0 or outcome.kind in ("hang", "no-result"):
        assert _errors(found), (outcome.kind, outcome.exit_code, outcome.message)
    # a run that is not clean (a warning SimAI prints, rows it never reads, ...) is a finding
    why = why_not_clean(run)
    if why is not None:
        assert _errors(found, Severity.ERROR, Severity.WARNING), why
    # which rows it reads: rows after line 2's count are WK105's (where lint reads rows at
    # all: binary data is one WK121; a line past the length limit is WK116's error, which says
    # lint did not parse it, so lint counts no row there that SimAI reads)
    codes = {d.code for d in found}
    if run.unread_rows and len(result.workload.rows) and "WK116" not in codes:
        assert "WK105" in codes
    # explain: the same findings (lint's default ones among its opt-in ones), the same run
    e = explained(result, str(path), Config(), data=case.data)
    shown = {(f.code, f.message) for f in e.findings}
    assert {(d.code, d.message) for d in found} <= shown
    assert e.simai is not None
    # the same outcome as `simai --format json` gives (`wrong-total` for phantom layers, `nan`
    # for a Total time printed as NaN or Inf)
    assert (e.simai.kind, e.simai.exit_code) == (ending(run).kind, outcome.exit_code)
    if run.count is not None and run.lines is not None and e.declared_rows is not None:
        assert run.lines == e.declared_rows
    # SimAI-Simulation: a run that crashes or stops is a finding for the ns-3 target (the
    # model predicts transformer files only)
    ns3 = simulate_ns3(case.data)
    if not ns3.finishes and run.header.transformer:
        ns3_found = lint(result, str(path), Config(target="simai-ns3"))
        assert _errors(ns3_found, Severity.ERROR, Severity.WARNING), ns3.outcome.message
    # the server: the same diagnostics as lint, where it speaks about the file
    analysis = _server(path)
    if analysis is not None and analysis.attached and analysis.result is not None:
        assert analysis.diagnostics == found


def _server(path: Path) -> object:
    try:
        from wkparse.lsp.analysis import Analysis
        from wkparse.lsp.text import Version
    except ImportError:  # the lsp extra is not installed
        return None
    return Analysis(Version.of(path.read_bytes()), path, 1)


@pytest.mark.parametrize("sample", sorted(SAMPLES.glob("*.txt")), ids=lambda p: p.name)
def test_simai_diff_and_explain_predict_the_same_total(sample: Path, tmp_path: Path) -> None:
    """diff's SimAI side of a file is the run simai and explain predict for it."""
    edited = tmp_path / sample.name
    lines = sample.read_text().split("\n")
    lines[1] = str(int(lines[1]) - 1)
    edited.write_text("\n".join(lines))
    doc = json.loads(runner.invoke(app, ["diff", "-f", "json", str(sample), str(edited)]).stdout)
    simai = json.loads(runner.invoke(app, ["simai", "-f", "json", str(sample)]).stdout)
    explain = json.loads(runner.invoke(app, ["explain", "-f", "json", str(sample)]).stdout)
    total = simai["result"]["totals"]["total_time_us"]
    assert doc["simai_total_time"]["a"]["total_time_us"] == pytest.approx(total)
    assert explain["simai_report"]["totals"]["total_time_us"] == pytest.approx(total)


def test_a_micro_file_is_one_verdict(tmp_path: Path) -> None:
    """lint said "All checks passed", explain "SimAI runs each one over all GPUs", and simai
    predicted SIGFPE (exit 136)."""
    path = tmp_path / "micro.txt"
    path.write_text(MICRO)
    simai = json.loads(runner.invoke(app, ["simai", str(path), "-f", "json"]).stdout)
    assert simai["outcome"]["exit_code"] == 136
    result = runner.invoke(app, ["lint", "-f", "json", str(path)])
    assert result.exit_code == 1
    errors = [d for d in json.loads(result.stdout) if d["severity"] == "error"]
    assert [d["code"] for d in errors] == ["WK704"] and "SIGFPE" in errors[0]["message"]
    explain = " ".join(runner.invoke(app, ["explain", str(path)]).stdout.split())
    assert "SIGFPE" in explain and "WK704" in explain
    assert "SimAI runs each one over all GPUs" not in explain
    # ASTRA-sim 1.0 runs it: for that target the file is clean
    astra = runner.invoke(app, ["lint", "--target", "astra-sim-1.0", str(path)])
    assert astra.exit_code == 0


def test_every_non_zero_exit_says_why_on_stderr(tmp_path: Path) -> None:
    """Issue 32: a non-zero exit says why on standard error in every format (JSON, SARIF,
    annotations, CSV and Markdown carry only their document on standard output)."""
    sample = SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt"
    lines = sample.read_text().split("\n")
    lines[1] = str(int(lines[1]) - 1)
    edited = tmp_path / "edited.txt"
    edited.write_text("\n".join(lines))
    broken = tmp_path / "broken.txt"
    broken.write_text("MICRO\n1\nrow\t-1\tx\n")
    micro = tmp_path / "micro.txt"
    micro.write_text(MICRO)
    runs = [
        *(["lint", "-f", f, str(edited)] for f in ("text", "json", "sarif", "github")),
        *(["diff", "-f", f, str(sample), str(edited)] for f in ("json", "markdown")),
        *(["simai", "-f", f, str(micro)] for f in ("text", "json", "csv")),
        ["simai", "--backend", "ns3", "-f", "json", str(edited)],
        ["parse", "-f", "json", str(broken)],
        ["fmt", "--check", str(broken)],
    ]
    for args in runs:
        result = runner.invoke(app, args)
        assert result.exit_code in (0, 1, 2), args
        if result.exit_code and args[:3] != ["lint", "-f", "text"]:  # text: on stdout
            assert result.stderr.strip(), args
