"""benchmarks/vs_simai.py with a stand-in for SimAI_analytical: what it compares and reports.

The stand-in writes what SimAI would write where SimAI writes it (`./results/<-r>EndToEnd.csv`,
appended), from `wkparse simai` itself, optionally with one byte changed: so the harness's
verdicts are tested, never a time and never SimAI's behaviour (no real binary here).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, SAMPLES

SCRIPT = ROOT / "benchmarks" / "vs_simai.py"
SAMPLE = SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt"
GIVEN = ["-g", "8", "-g_p_s", "4", "-n_p_s", "4"]
STAND_IN = f"""#!{sys.executable}
import os, subprocess, sys
args = sys.argv[1:]
file = args[args.index("-w") + 1]
rest = [a for i, a in enumerate(args) if a != "-w" and (i == 0 or args[i - 1] != "-w")]
prefix = args[args.index("-r") + 1]
command = [sys.executable, "-m", "wkparse", "simai", file, "--format", "csv", "--", *rest]
csv = subprocess.run(command, capture_output=True, check=True).stdout
if os.environ.get("STAND_IN_DIFFERS"):
    csv = csv.replace(b",", b";", 1)
with open("results/" + prefix + "EndToEnd.csv", "ab") as out:
    out.write(csv)
with open(os.environ["STAND_IN_LOG"], "a") as log:
    log.write(" ".join(args) + "\\n")
"""


def _run(tmp_path: Path, extra_env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    binary = tmp_path / "SimAI_analytical"
    binary.write_text(STAND_IN, encoding="utf-8")
    binary.chmod(0o755)
    env = {**os.environ, "SIMAI_ANALYTICAL": str(binary), "STAND_IN_LOG": str(tmp_path / "log")}
    env.pop("SIMAI_ROOT", None)
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        env={**env, **extra_env},
        timeout=120,
        check=False,
    )


def test_equal_bytes_pass_and_the_stated_options_reach_simai(tmp_path: Path) -> None:
    done = _run(tmp_path, {}, str(SAMPLE))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"| {SAMPLE.name} | yes |" in done.stdout
    # -g is the header's all_gpus (8 here), then the stated set, then the result prefix.
    assert (tmp_path / "log").read_text().split()[2:] == [
        *("-g", "8", "-g_p_s", "8", "-n_p_s", "8", "-nv", "360", "-nic", "48.5", "-r", "vs-")
    ]


def test_a_differing_byte_fails(tmp_path: Path) -> None:
    done = _run(tmp_path, {"STAND_IN_DIFFERS": "1"}, str(SAMPLE), "--", *GIVEN)
    assert done.returncode == 1
    assert "no: the CSVs differ" in done.stdout
    assert (tmp_path / "log").read_text().split()[2:] == [*GIVEN, "-r", "vs-"]


def test_without_a_binary_it_says_skipped(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT)],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "SIMAI_ANALYTICAL"},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout.startswith("skipped: set SIMAI_ANALYTICAL")


@pytest.mark.parametrize("sample", sorted(SAMPLES.glob("*.txt")), ids=lambda p: p.stem)
def test_every_bundled_sample_has_an_all_gpus_to_use(sample: Path) -> None:
    from benchmarks.vs_simai import options_for

    assert options_for(sample, [])[:1] == ["-g"]
