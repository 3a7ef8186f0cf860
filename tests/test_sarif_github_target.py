"""SARIF links each rule's page and fingerprints each result; GitHub annotations name the paths
that could not be read; `--target astra-sim-1.0` keeps SimAI-only keys out of 1.0 files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.conftest import CORPUS, SAMPLES
from tests.test_outputs import sarif_schema, validate  # noqa: F401  (a fixture)
from wkparse.cli import app

runner = CliRunner()
SAMPLE = SAMPLES / "mixtral-world32-tp2-pp2-ep8-sp-moe.txt"
ASTRA = CORPUS / "astra-sim-1.0"


def sarif(*args: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(runner.invoke(app, ["lint", "-f", "sarif", *args]).stdout)
    return out


def two_findings_on_one_line(folder: Path) -> Path:
    header, rest = SAMPLE.read_text().split("\n", 1)
    path = folder / "w.txt"
    path.write_text(header.replace(" ep: 8", " ep: 8 colour: 1 flavour: 2") + "\n" + rest)
    return path


def test_every_rule_links_its_page(sarif_schema: dict[str, Any]) -> None:  # noqa: F811
    log = sarif(str(SAMPLE))
    validate(log, sarif_schema)
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert all(r["helpUri"].endswith(f"/{r['id']}.toml") for r in rules)
    page = Path(rules[0]["helpUri"].removeprefix("file://"))
    assert page.is_file()  # the default points at the rule page itself


def test_help_base_url_from_config(tmp_path: Path) -> None:
    (tmp_path / "ci.toml").write_text('help-base-url = "file:///srv/wk/rules/"\n')
    log = sarif("--config", str(tmp_path / "ci.toml"), str(SAMPLE))
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert rules[0]["helpUri"] == f"file:///srv/wk/rules/{rules[0]['id']}.toml"


def test_json_links_the_rule_page_too(tmp_path: Path) -> None:
    (tmp_path / "ci.toml").write_text('help-base-url = "file:///srv/wk/rules"\n')
    path = str(two_findings_on_one_line(tmp_path))
    found = json.loads(runner.invoke(app, ["lint", "-f", "json", path]).stdout)
    assert found[0]["url"].startswith("file://") and found[0]["url"].endswith("/WK204.toml")
    based = runner.invoke(app, ["lint", "-f", "json", "--config", str(tmp_path / "ci.toml"), path])
    assert json.loads(based.stdout)[0]["url"] == "file:///srv/wk/rules/WK204.toml"


def test_distinct_findings_get_distinct_fingerprints(tmp_path: Path) -> None:
    path = two_findings_on_one_line(tmp_path)
    results = sarif(str(path))["runs"][0]["results"]
    prints = [r["partialFingerprints"]["wkparse/v1"] for r in results]
    same_rule = [r for r in results if r["ruleId"] == "WK204"]
    assert len(same_rule) == 2 and len(set(prints)) == len(prints)
    assert prints == [
        r["partialFingerprints"]["wkparse/v1"] for r in sarif(str(path))["runs"][0]["results"]
    ]


def test_unreadable_paths_are_github_errors(tmp_path: Path) -> None:
    missing = tmp_path / "gone.txt"
    result = runner.invoke(app, ["lint", "-f", "github", str(missing), str(SAMPLE)])
    assert result.exit_code == 2
    assert f"::error file={missing},title=unreadable::" in result.stdout


def _codes(*args: str) -> set[str]:
    result = runner.invoke(app, ["lint", "-f", "json", *args])
    return {d["code"] for d in json.loads(result.stdout)}


def test_astra_sim_1_0_files_are_not_told_about_simai_keys(corpus: Path) -> None:
    simai = _codes(str(ASTRA))
    astra = _codes("--target", "astra-sim-1.0", str(ASTRA))
    assert {"WK201", "WK202", "WK218", "WK222"} <= simai
    # WK218: 1.0's example lists two checkpoints, which 1.0 read and SimAI does not.
    assert not {"WK201", "WK202", "WK203", "WK218", "WK222"} & astra


def test_checks_that_hold_for_astra_sim_1_0_still_run(tmp_path: Path, corpus: Path) -> None:
    lines = (ASTRA / "Transformer_HybridParallel.txt").read_text().splitlines(keepends=True)
    lines[2] = lines[2].replace("\t", "\tword\t", 1)  # one field too many on the first row
    edited = tmp_path / "t.txt"
    edited.write_text("".join(lines))
    assert "WK111" in _codes("--target", "astra-sim-1.0", str(edited))


def test_target_from_config(tmp_path: Path, corpus: Path) -> None:
    folder = tmp_path / "old"
    folder.mkdir()
    (folder / "t.txt").write_bytes((ASTRA / "Transformer_HybridParallel.txt").read_bytes())
    assert "WK201" in _codes(str(folder))
    (folder / ".wkparse.toml").write_text('target = "astra-sim-1.0"\n')
    assert "WK201" not in _codes(str(folder))


@pytest.mark.parametrize("target", ["astra", "simai-2"])
def test_unknown_target_is_a_usage_error(target: str) -> None:
    result = runner.invoke(app, ["lint", "--target", target, str(SAMPLE)])
    assert result.exit_code == 2 and "simai, simai-ns3, astra-sim-1.0" in result.stderr
