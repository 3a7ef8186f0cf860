"""Replay every run recorded in ../shared/simai-versions/ (SimAI_analytical built at 10
commits, each case under the oracle's options and, before 26b4574b, under that version's own
`-busbw` syntax) through the model at that version: the exit code, EndToEnd.csv byte for byte,
the lines SimAI printed on stderr, and whether it printed `SimAI-Analytical finished.`.

A run whose result C++ leaves undefined (a count or fields never written: the caveats of
docs/simai-versions.md) is checked for that: the model must say the ending is undefined, not
guess it.
"""

from __future__ import annotations

import gzip
import re
from typing import Any

import pytest

from tests.conftest import SIMAI_VERSIONS, oracle_params, oracle_results
from wkparse.models.simai import simulate
from wkparse.models.simai.options import parse
from wkparse.models.simai.run import SimaiRun
from wkparse.models.simai.versions import SWITCHES, VERSIONS, Switch, resolve

RUNS = oracle_results(SIMAI_VERSIONS)
ASSERTION = re.compile(r"^.*?(Assertion `.*' failed\.)$")


def _ids(runs: list[dict[str, Any]]) -> list[object]:
    params = oracle_params(SIMAI_VERSIONS, runs)
    if not runs:
        return params
    return [pytest.param(r, id=f"{r['version']['short']}-{r['variant']}-{r['case']}") for r in runs]


def _raw(run: dict[str, Any], kind: str) -> str:
    name = run["raw"].get(kind)
    if not name or not (SIMAI_VERSIONS / name).is_file():
        return ""
    return gzip.decompress((SIMAI_VERSIONS / name).read_bytes()).decode()


def replay(recorded: dict[str, Any]) -> SimaiRun:
    version = resolve(recorded["version"]["short"])
    case = next(c for c in _cases() if c["case"] == recorded["case"])
    data = (SIMAI_VERSIONS / case["workload_file"]).read_bytes()
    # each run had busbw.yaml beside it: the folder stands for SimAI's working directory
    return simulate(data, None, parse(recorded["options"], version, SIMAI_VERSIONS), version)


def _cases() -> list[dict[str, Any]]:
    import json

    return list(json.loads((SIMAI_VERSIONS / "cases.json").read_text()))


@pytest.mark.parametrize("recorded", _ids(RUNS))
def test_recorded_run_is_replayed(recorded: dict[str, Any]) -> None:
    run = replay(recorded)
    if run.outcome.undefined:
        # the recorded code is one draw of undefined behaviour; the model must not claim one
        assert recorded["exit"] in (0, 124, 134, 136)
        assert "undefined" in run.outcome.message or "garbage" in run.outcome.message
        return
    assert run.outcome.exit_code == recorded["exit"]
    csv = run.report.csv() if run.report is not None else ""
    assert csv == _raw(recorded, "csv")
    stderr = [ASSERTION.sub(r"\1", line) for line in _raw(recorded, "stderr").splitlines()]
    assert list(run.printed()) == stderr
    finished = run.outcome.kind in ("ok", "no-result") and run.outcome.exit_code == 0
    assert finished == recorded["finished_message"]


def test_every_recorded_run_is_replayed() -> None:
    if not RUNS:
        pytest.skip("../shared/simai-versions is absent")
    versions = {r["version"]["short"] for r in RUNS}
    assert len(versions) == 10
    assert {r["variant"] for r in RUNS} == {"recipe", "native"}
    assert any(r["exit"] == 124 for r in RUNS)


def _recorded(short: str, case: str, variant: str) -> dict[str, Any]:
    return next(
        r
        for r in RUNS
        if r["version"]["short"] == short and r["case"] == case and r["variant"] == variant
    )


@pytest.mark.parametrize("switch", [s for s in SWITCHES if s.proof], ids=lambda s: s.name)
def test_each_recorded_boundary_is_shown_by_its_case(switch: Switch) -> None:
    """The case a switch names ran differently at the version before and at the switch's
    version, and the model, asked at each, replays each run."""
    if not RUNS:
        pytest.skip("../shared/simai-versions is absent")
    case, before_variant, after_variant = switch.proof
    at = VERSIONS.index(resolve(switch.since))
    before = _recorded(VERSIONS[at - 1].short, case, before_variant)
    after = _recorded(VERSIONS[at].short, case, after_variant)
    assert (before["exit"], before.get("csv_sha256")) != (after["exit"], after.get("csv_sha256"))
    for recorded in (before, after):
        run = replay(recorded)
        assert run.outcome.exit_code == recorded["exit"]
        assert (run.report.csv() if run.report else "") == _raw(recorded, "csv")
        assert run.version.has(switch.name) == (recorded is after)
