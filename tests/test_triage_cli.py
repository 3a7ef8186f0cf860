# ruff: noqa: RUF001 - Chinese text is written with its own full-width punctuation
"""`wkparse triage` as a command and as `wkparse.triage()`: its formats, options and exit
codes, and that no text makes it crash or hang (empty, binary, 10 MB, a workload file given as
the issue, 50 commands)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import wkparse
from benchmarks.fuzzing import watchdog
from tests.conftest import SAMPLES, TRIAGE, require
from wkparse.cli import app

ISSUE = (
    "---\ntitle: 卡住了\ncreated: 2026-01-12\nlanguage: zh\n---\n\n生成命令：\n"
    "sh ./scripts/inference_workload_with_aiob.sh -m qwen3-235B \\\n"
    "-c ./scripts/inference_configs/qwen3_moe_default.json \\\n"
    "-s 32768 -b 4 -w 12288 -e 32  -t 8 -l 16 -p prefill\n"
    "仿真：./bin/SimAI_analytical -w aicb/results/workload/Qwen3-Moe-235B-world_size12288-tp8-"
    "pp16-ep32-bs4-seq32768-prefill.txt -g 12288 -g_p_s 8 -r prefill- -busbw example/busbw.yaml\n"
    "新编译的仿真器不认 -busbw 这个参数。\n"
)


def _invoke(*args: str, stdin: str | bytes | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, ["triage", *args], input=stdin, catch_exceptions=False)


def test_json_markdown_text_and_output_file(tmp_path: Path) -> None:
    issue = tmp_path / "issue.md"
    issue.write_text(ISSUE, encoding="utf-8")
    ran = _invoke(str(issue), "--format", "json")
    assert ran.exit_code == 0
    data = json.loads(ran.stdout)
    assert data["language"] == "zh" and data["scope"] == "in"
    # SimAI 26b4574b's parser refuses -busbw (as cef83f9's does, so it is listed once): it
    # prints its help line and exits 255
    [p] = data["predictions"]
    assert (p["backend"], p["outcome"], p["exit"]) == ("analytical", "refuse", 255)
    assert data["markdown"].startswith("可能的原因")
    md = _invoke(str(issue)).stdout
    assert md == data["markdown"]
    text = _invoke(str(issue), "--format", "text").stdout
    assert "**" not in text and "可能的原因" in text
    out = tmp_path / "answer.md"
    assert _invoke(str(issue), "-o", str(out)).exit_code == 0
    assert out.read_text(encoding="utf-8") == md


def test_lang_overrides_and_date_picks_the_versions(tmp_path: Path) -> None:
    issue = tmp_path / "issue.md"
    issue.write_text(ISSUE, encoding="utf-8")
    data = json.loads(_invoke(str(issue), "--format", "json", "--lang", "en").stdout)
    assert data["language"] == "en" and data["markdown"].startswith("Likely cause")
    early = json.loads(_invoke(str(issue), "--format", "json", "--date", "2025-03-01").stdout)
    assert early["versions"]["simai"]["commit"] != data["versions"]["simai"]["commit"]


def test_stdin_and_usage_errors(tmp_path: Path) -> None:
    assert json.loads(_invoke("-", "-f", "json", stdin=ISSUE).stdout)["scope"] == "in"
    assert _invoke(str(tmp_path / "absent.md")).exit_code == 2
    assert _invoke(str(tmp_path)).exit_code == 2
    issue = tmp_path / "i.md"
    issue.write_text("x", encoding="utf-8")
    assert _invoke(str(issue), "--format", "yaml").exit_code == 2
    assert _invoke(str(issue), "--lang", "fr").exit_code == 2
    for date in ("yesterday", "2026-13-01", "2024-02-30", "２０２４-01-01", "2024-00"):
        assert _invoke(str(issue), "--date", date).exit_code == 2, date
    assert _invoke(str(issue), "--date", "2024-02-29").exit_code == 0
    assert _invoke(str(issue), "--attachments", str(tmp_path / "none")).exit_code == 2


def test_attachments_are_matched_by_name() -> None:
    case = require(TRIAGE / "aliyun-SimAI-8")
    ran = _invoke(str(case / "issue.md"), "-f", "json", "--attachments", str(case / "attachments"))
    data = json.loads(ran.stdout)
    assert "WK201" in {f["code"] for f in data["findings"]}
    assert any("test.txt" in e for a in data["answers"] for e in a["evidence"])


def test_api_is_exported() -> None:
    result = wkparse.triage(ISSUE, date="2026-01-12")
    assert result.public()["scope"] == "in"
    assert "triage" in wkparse.__all__


def _workload() -> bytes:
    return next(iter(sorted(SAMPLES.glob("*.txt")))).read_bytes()


def _with_count(count: bytes) -> bytes:
    """The sample workload pasted as an issue, its count line replaced."""
    lines = _workload().split(b"\n")
    return b"\n".join([lines[0], count, *lines[2:]])


HOSTILE = {
    "empty": b"",
    # the pasted count read as a number: no int of 60,000 digits (found by the long fuzz run:
    # it raised), nor of a digit that is not ASCII
    "60,000-digit count": _with_count(b"9" * 60_000),
    "superscript count": _with_count("²".encode()),
    # JSON nested past Python's recursion limit (json.loads raised): read as text
    "deep JSON": ('{"title": "x", "body": ' + "[" * 100_000 + "]" * 100_000 + "}").encode(),
    # 5,000-digit numbers wherever triage reads one (a log, a topology file and name, TP, -g)
    "5,000-digit numbers": (
        "```\nchunk size is: {n} , size is: {n}\npass: {n} finished at time: {n}\n```\n"
        "```\n{n} 8 {n} 1 {n} A100\n```\nwith tp {n}\n"
        "./bin/SimAI_analytical -w workload.txt -g ²\n"
        "./bin/SimAI_simulator -t 16 -w w.txt -n ./Spectrum-X_{n}g_8gps_400Gbps_A100\n"
    )
    .format(n="9" * 5000)
    .encode(),
    "binary": bytes(random.Random(3).randrange(256) for _ in range(100_000)),
    "10 MB": (b"word `x " * 1_400_000)[:10_000_000],
    "10 MB one line": b"A" * 10_000_000,
    "workload as issue": b"",  # filled in below
    "50 commands": b"\n".join(
        b"sh ./scripts/megatron_workload_with_aiob.sh -m 7 --world_size %d "
        b"--tensor_model_parallel_size 4 --frame Megatron --global_batch 512 --micro_batch 1 "
        b"--seq_length 4096 --swiglu --use_flash_attn --aiob_enable "
        b"--comp_filepath workload/aiob_inputs/Example.txt\n"
        b"./bin/SimAI_analytical -w x.txt -g %d" % (8 * (i + 1), 8 * (i + 1))
        for i in range(25)
    ),
    "unclosed everything": b"```\n`" + "（：".encode() * 1000 + b"\\\n" * 1000 + b'"',
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_no_text_crashes_or_hangs(name: str, tmp_path: Path) -> None:
    data = HOSTILE[name] or _workload()
    issue = tmp_path / "issue"
    issue.write_bytes(data)
    with watchdog(120):
        ran = _invoke(str(issue), "-f", "json")
    assert ran.exit_code == 0, ran.stderr
    json.loads(ran.stdout)
    if name == "50 commands":
        counts = {}
        for a in json.loads(ran.stdout)["artefacts"]:
            counts[a["kind"]] = counts.get(a["kind"], 0) + 1
        assert counts["aicb-command"] == 25 and counts["simai-command"] == 25


def test_benchmark_runs(tmp_path: Path) -> None:
    """The speed benchmark's smoke run: it times and writes its record (never judged here)."""
    from benchmarks import triage as bench

    out = tmp_path / "triage.json"
    assert bench.main(["--repeat", "1", "--out", str(out), "--work", str(tmp_path)]) in (0, 1)
    if out.exists():
        rows = json.loads(out.read_text())
        assert all({"triage", "models", "explain"} <= set(r["median_s"]) for r in rows)


def test_the_workflow_runs_what_the_tests_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/triage-workflow.yml: `gh issue view --json` output in, `wkparse triage ... -o` out;
    its wkparse step is run here as written, on an issue in gh's JSON form."""
    from tests.conftest import ROOT

    workflow = (ROOT / "docs" / "triage-workflow.yml").read_text(encoding="utf-8")
    steps = [line.split("- run: ", 1)[1] for line in workflow.splitlines() if "- run: " in line]
    gh_view = next(s for s in steps if s.startswith("gh issue view"))
    assert "--json title,body,createdAt,url,comments > issue.json" in gh_view
    [step] = [s for s in steps if s.startswith("wkparse ")]
    issue = {
        "title": "SimAI_analytical 不认 -busbw",
        "body": ISSUE.split("---\n", 2)[2],
        "createdAt": "2026-01-12T08:00:00Z",
        "url": "https://github.com/o/r/issues/1",
        "comments": [],
    }
    (tmp_path / "issue.json").write_text(json.dumps(issue, ensure_ascii=False), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    ran = CliRunner().invoke(app, step.split()[1:], catch_exceptions=False)
    assert ran.exit_code == 0
    comment = (tmp_path / "comment.md").read_text(encoding="utf-8")
    assert comment.startswith("可能的原因") and "-busbw" in comment
    assert any(s.startswith("gh issue comment") and "--body-file comment.md" in s for s in steps)


def test_the_api_refuses_a_date_that_is_no_date() -> None:
    """The API checks the date as the command does (one check, `versions.is_date`)."""
    import wkparse

    with pytest.raises(ValueError, match="2026-13-01"):
        wkparse.triage(ISSUE, date="2026-13-01")
    assert wkparse.triage(ISSUE, date="2026-02").scope == "in"
