"""The Python API (`wkparse.lint`, `explain`, `simai`, `aicb`, `diff`): the example of its
manual page (docs/python-api.md) runs and passes `mypy --strict`, and each function returns
what its command's JSON renders, from a path, the text or the bytes alike. Reads only the
bundled samples."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

import wkparse
from tests.conftest import ROOT, SAMPLES
from wkparse.cli import app
from wkparse.models.aicb import AicbError
from wkparse.render.explain import json as explain_json
from wkparse.render.lint import json as json_out
from wkparse.render.simai import json as simai_json

SAMPLE = SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"
runner = CliRunner()


def manual_example() -> str:
    """The first Python block of the manual's Python API page."""
    page = (ROOT / "docs" / "python-api.md").read_text(encoding="utf-8")
    assert page.startswith("# Python API\n")
    found = re.search(r"```python\n(.*?)```", page, re.DOTALL)
    assert found is not None, "the manual's Python API page has no python block"
    return found.group(1)


def test_the_manual_example_runs_and_passes_mypy_strict(tmp_path: Path) -> None:
    example = tmp_path / "example.py"
    example.write_text(manual_example(), encoding="utf-8")
    ran = subprocess.run(
        [sys.executable, str(example)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert ran.returncode == 0, ran.stderr
    assert "One GPU's view of one representative pipeline stage" in ran.stdout
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", str(example)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_path_its_text_and_its_bytes_give_the_same_findings(tmp_path: Path) -> None:
    broken = tmp_path / "w.txt"
    broken.write_text("HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2\n3\nx\n")
    by_path = wkparse.lint(broken)
    assert by_path and by_path == wkparse.lint(str(broken))
    text = broken.read_text()
    unnamed = [replace(d, path=None) for d in by_path]  # text and bytes have no file name
    assert wkparse.lint(text) == unnamed == wkparse.lint(text.encode())


def test_lint_is_what_the_json_of_wkparse_lint_renders(tmp_path: Path) -> None:
    edited = tmp_path / SAMPLE.name
    edited.write_text(SAMPLE.read_text().replace("ga: 64", "ga: 32", 1))
    done = runner.invoke(app, ["lint", "--format", "json", str(edited)])
    rendered = [
        {k: v for k, v in json_out.diagnostic_json(d, str(edited), None).items() if k != "name"}
        for d in wkparse.lint(edited)
    ]
    shown = [
        {k: v for k, v in d.items() if k not in ("name", "url")} for d in json.loads(done.stdout)
    ]
    assert rendered and shown == rendered


def test_explain_is_what_the_json_of_wkparse_explain_renders() -> None:
    path = str(SAMPLE)
    done = runner.invoke(app, ["explain", "--format", "json", path])
    assert done.exit_code == 0
    assert json.loads(done.stdout) == explain_json.to_dict(wkparse.explain(path))
    # the text and the bytes are explained alike, under no file name
    from_text = explain_json.to_dict(wkparse.explain(SAMPLE.read_text()))
    assert from_text == explain_json.to_dict(wkparse.explain(SAMPLE.read_bytes()))
    assert from_text["dp"] == 8 and from_text["path"] is None


def test_simai_is_what_the_json_of_wkparse_simai_renders() -> None:
    done = runner.invoke(app, ["simai", "--format", "json", "-g", "64", str(SAMPLE)])
    out = io.StringIO()
    simai_json.write(wkparse.simai(SAMPLE, ["-g", "64"]), out)
    assert json.loads(done.stdout) == json.loads(out.getvalue())
    assert wkparse.simai(SAMPLE.read_bytes(), "-g 64").dp == json.loads(out.getvalue())["dp"]
    assert wkparse.simai(SAMPLE).gpus == 128  # without -g: the header's all_gpus


@pytest.mark.parametrize(
    ("options", "message"),
    [(["-g"], "-g needs"), ("-g 0", "-g"), ("-g 128 -r 'name", "quotation")],
)
def test_simai_refuses_options_it_cannot_model(options: list[str] | str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        wkparse.simai(SAMPLE, options)


def test_simai_takes_simais_options_and_gives_its_csv() -> None:
    """SimAI's own options (a pasted line too); a refusal keeps SimAI's exit code."""
    pasted = f"./bin/SimAI_analytical -w {SAMPLE} -g 128 -g_p_s 8 -n_p_s 8 -nv 360 -r s-"
    run = wkparse.simai(SAMPLE, pasted)
    assert run.report is not None and run.report.csv().startswith("File name, Expose DP comm")
    done = runner.invoke(app, ["simai", "-f", "csv", str(SAMPLE), "--", *pasted.split()[1:]])
    assert done.stdout == run.report.csv()
    refused = wkparse.simai(SAMPLE, "-g 128 -g_p_s 8 -busbw busbw.yaml")
    assert (refused.outcome.kind, refused.outcome.exit_code) == ("refused", 255)


def test_aicb_is_the_generator_at_any_revision() -> None:
    command = "sh scripts/megatron_workload_with_aiob.sh -m 7 --world_size 16"
    made = wkparse.aicb(command)
    done = runner.invoke(app, ["aicb", "--", command])
    assert done.stdout == made.text()
    aiob = f"{command} --aiob_enable --comp_filepath workload/aiob_inputs/Example.txt"
    old = wkparse.aicb(aiob, at="2024-12-02")
    done = runner.invoke(app, ["aicb", "--at", "cf516c0", "--", aiob])
    assert done.stdout == old.text() and old.revision.short == "cf516c0"
    assert old.text().split("\n")[0].endswith("pp_comm: 33554432")
    with pytest.raises(AicbError, match="--at 1999-01-01"):
        wkparse.aicb(command, at="1999-01-01")
    with pytest.raises(AicbError):
        wkparse.aicb("sh scripts/unknown.sh")


def test_diff_compares_and_refuses_a_file_that_does_not_parse() -> None:
    text = SAMPLE.read_text()
    same = wkparse.diff(SAMPLE, text.encode())
    assert same.equal and same.a_path == str(SAMPLE) and same.b_path == "b"
    other = wkparse.diff(text, text.replace("ga: 64", "ga: 32", 1))
    assert not other.equal and "ga" in {f.name for f in other.facts}
    with pytest.raises(wkparse.WorkloadSyntaxError, match="b: 1 syntax error"):
        wkparse.diff(text, "HYBRID_TRANSFORMER\nnot a count\n")


def test_the_functions_stay_functions_after_their_packages_are_imported() -> None:
    import wkparse.difference.model
    import wkparse.explanation.facts
    import wkparse.models.aicb.generation
    import wkparse.models.simai.run

    for name in ("lint", "explain", "simai", "aicb", "diff"):
        assert callable(getattr(wkparse, name)), name
        assert getattr(wkparse, name).__module__ == "wkparse.api"


def test_import_wkparse_loads_only_the_parser() -> None:
    code = (
        "import sys\n"
        "import wkparse\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith(('wkparse', 'lark', "
        "'numpy', 'rich')))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = done.stdout.split()
    heavy = ("lark", "numpy", "rich", "wkparse.engine", "wkparse.checks", "wkparse.explanation")
    assert [m for m in loaded if m.startswith(heavy)] == []
    assert [m for m in loaded if m.startswith(("wkparse.models.aicb", "wkparse.difference"))] == []
