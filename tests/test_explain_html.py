"""`wkparse explain --format html`: the self-contained page and its four pictures.

Read from the seed file, a MoE file and a PP 1 file of the shared corpus (and our samples
when the corpus is absent); `test_explain_html_browser.py` opens the same pages in Chromium.
"""

from __future__ import annotations

import html
import importlib.util
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wkparse.cli import app
from wkparse.explanation import explain
from wkparse.parse import parse_file, parse_text
from wkparse.render.explain import html as explain_html

from .conftest import CORPUS, ROOT, SAMPLES

GENERATED = CORPUS / "aicb-generated"
SEED = (
    GENERATED
    / "seed"
    / (
        "None-gpt_7B-world_size128-tp4-pp4-ep1-gbs512-mbs1-seq4096-MOE-False-GEMM-False-"
        "flash_attn-True.txt"
    )
)
MOE = (
    GENERATED
    / "aicb-2025-12"
    / (
        "aiob-sp-None-Mixtral_8x7B-world_size32-tp2-pp2-ep8-gbs256-mbs2-seq8192-MOE-True-"
        "GEMM-True-flash_attn-True.txt"
    )
)
PP1 = (
    GENERATED
    / "aicb-2025-12"
    / (
        "None-gpt_175B-world_size128-tp8-pp1-ep1-gbs512-mbs1-seq4096-MOE-False-GEMM-False-"
        "flash_attn-True.txt"
    )
)
#: the three files the issue names, falling back to our own samples of the same shapes
FILES = {
    "seed": SEED if SEED.is_file() else SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt",
    "moe": MOE if MOE.is_file() else SAMPLES / "mixtral-world32-tp2-pp2-ep8-sp-moe.txt",
    "pp1": PP1 if PP1.is_file() else SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt",
}


def page(path: Path, *args: str) -> str:
    result = CliRunner().invoke(app, ["explain", "--format", "html", str(path), *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module", params=sorted(FILES))
def named(request: pytest.FixtureRequest) -> tuple[str, str]:
    return request.param, page(FILES[request.param])


def svgs(text: str) -> dict[str, int]:
    """Root SVG classes and how often each occurs."""
    found: dict[str, int] = {}
    for cls in re.findall(r'<svg [^>]*class="([a-z]+)"', text):
        found[cls] = found.get(cls, 0) + 1
    return found


def test_page_is_self_contained(named: tuple[str, str]) -> None:
    _, text = named
    assert text.startswith("<!DOCTYPE html>")
    assert "<script" not in text
    assert "://" not in text  # no font, stylesheet or image from anywhere
    assert "@import" not in text and "@font-face" not in text
    assert set(re.findall(r"url\(([^)]*)\)", text)) <= {"#wk-hatch"}


def test_page_has_the_four_pictures(named: tuple[str, str]) -> None:
    """Plus a third bar chart, where SimAI-Analytical's Total time goes, when it has one."""
    _, text = named
    simai = int("Where SimAI-Analytical" in text)
    assert svgs(text) == {"layout": 1, "schedule": 1, "bars": 2 + simai, "layers": 1}


def test_page_carries_the_plain_answer_from_the_facts(named: tuple[str, str]) -> None:
    name, text = named
    e = explain(parse_file(FILES[name]), str(FILES[name]))
    assert html.escape(e.represents) in text
    for question, answer in e.answers:
        assert html.escape(question) in text and html.escape(answer) in text


def test_seed_layout_draws_every_gpu_and_marks_one() -> None:
    text = page(FILES["seed"])
    layout = text[text.index('class="layout"') : text.index("</svg>", text.index('class="layout"'))]
    assert layout.count('class="gpu"') + layout.count('class="gpu this"') == 128
    assert layout.count('class="gpu this"') == 1
    assert "real run: + input embedding" in layout
    assert "real run: + output layer, loss" in layout
    assert [f"DP {i}" for i in range(8)] == re.findall(r">(DP \d+)<", layout)


def test_seed_schedule_shows_the_micro_batches_and_labels_the_bubble() -> None:
    text = page(FILES["seed"])
    schedule = text[text.index('class="schedule"') :]
    schedule = schedule[: schedule.index("</svg>")]
    assert "3/(64*9) = 0.52% of the layer time" in schedule
    for label in ("F1", "B1", "F10", "F64", "B64"):
        assert f">{label}<" in schedule
    assert "… 53 …" in schedule  # 64 micro-batches: 11 drawn, the rest summarised
    # stages 1-3 wait for the ones before them, and every stage idles at the end
    assert schedule.count('class="bubble"') == 3 + 4
    for stage in range(4):
        assert f">stage {stage}<" in schedule


def test_moe_layout_groups_replicas_by_expert_parallel_group() -> None:
    text = page(FILES["moe"])
    assert "EP group 0" in text
    assert "expert-parallel groups of EP 8" in text
    bars = re.search(r'<svg [^>]*class="bars".*?</svg>', text, re.S)
    assert bars is not None and ">EP<" in bars.group(0)


def test_pp1_page_has_no_bubble_and_the_whole_model_on_one_stage() -> None:
    text = page(FILES["pp1"])
    assert "PP 1: no pipeline bubble" in text
    assert "the whole model" in text and "embedding and loss on this stage" in text
    schedule = text[text.index('class="schedule"') :]
    assert 'class="bubble"' not in schedule[: schedule.index("</svg>")]


def test_findings_stand_beside_the_rows_they_point_at() -> None:
    text = page(FILES["seed"])
    e = explain(parse_file(FILES["seed"]), str(FILES["seed"]))
    finding = next(f for f in e.findings if f.section == "prologue")
    row = re.search(rf'<tr class="flagged"><td class="num">{finding.line}</td>.*?</tr>', text)
    assert row is not None and finding.code in row.group(0)
    assert html.escape(finding.message) in text
    layers = re.search(r'<svg [^>]*class="layers".*?</svg>', text, re.S)
    assert layers is not None


def test_output_file_is_written_and_stdout_stays_empty(tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    result = CliRunner().invoke(
        app, ["explain", "-f", "html", str(FILES["seed"]), "-o", str(target)]
    )
    assert result.exit_code == 0 and result.output == ""
    assert target.read_text(encoding="utf-8") == page(FILES["seed"])


def test_output_into_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    target = tmp_path / "no" / "report.html"
    result = CliRunner().invoke(
        app, ["explain", "-f", "html", str(FILES["seed"]), "-o", str(target)]
    )
    assert result.exit_code == 2
    assert "Traceback" not in result.output and not target.exists()


def test_output_with_text_format_writes_the_text(tmp_path: Path) -> None:
    """Issue 41: `explain -o x.txt` was refused for text; it writes what a pipe gets."""
    target = tmp_path / "x.txt"
    result = CliRunner().invoke(app, ["explain", str(FILES["seed"]), "-o", str(target)])
    assert result.exit_code == 0 and result.stdout == ""
    piped = CliRunner().invoke(app, ["explain", str(FILES["seed"])]).stdout
    assert target.read_text() == piped


@pytest.mark.parametrize(
    ("name", "start"), [("r.html", "<!DOCTYPE html>"), ("r.md", "### "), ("r.json", "{")]
)
def test_output_without_a_format_takes_the_one_its_name_ends_in(
    tmp_path: Path, name: str, start: str
) -> None:
    """`explain FILE -o report.html` wrote the terminal's text under an .html name; the
    name's ending chooses the format when --format is not given (an explicit one wins)."""
    target = tmp_path / name
    result = CliRunner().invoke(app, ["explain", str(FILES["seed"]), "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_text().startswith(start)
    forced = CliRunner().invoke(
        app, ["explain", "-f", "text", str(FILES["seed"]), "-o", str(target)]
    )
    assert forced.exit_code == 0 and "wkparse explain" in target.read_text().split("\n", 1)[0]


def _synthesize() -> object:
    name = "wkparse_bench_synthesize"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "synthesize.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def test_a_huge_layout_and_many_micro_batches_stay_bounded() -> None:
    synth = _synthesize()
    text = synth.synthesize(  # type: ignore[attr-defined]
        tp=8, pp=64, world=65536, gbs=4096, mbs=1, seq=4096, layers=64, hidden=4096
    )
    e = explain(parse_text(text), "big.txt")
    assert e.dp == 128 and e.ga == 32
    out = explain_html.render(e)
    layout = re.search(r'<svg [^>]*class="layout".*?</svg>', out, re.S)
    assert layout is not None
    cells = layout.group(0).count('class="gpu')
    assert cells <= 8 * 8 * 16  # at most 8 stages and 16 replicas are drawn
    assert "stage 63" in layout.group(0) and "DP 127" in layout.group(0)


def test_a_body_of_distinct_rows_and_findings_stays_small() -> None:
    header = (
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: 1 vpp: 1 "
        "ga: 1 all_gpus: 2 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0"
    )
    rows = [f"row{i}_{'x' * 200} -1 5 ALLREDUCE {i} 5 NONE 0 5 NONE 0 100" for i in range(20_000)]
    text = "\n".join([header, "19999", *rows]) + "\n"
    out = explain_html.render(explain(parse_text(text), "wide.txt"))
    assert len(out.encode()) < 1024 * 1024
