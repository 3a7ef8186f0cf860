"""explain leads with its answer (issue 41): what the file is, what SimAI-Analytical will
report and how the file was made come first; a micro-batch group's repeated rows are shown
once and their copies folded into one line; `ga` and `vpp` are said in plain words."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from rich.console import Console

from tests.conftest import SAMPLES
from wkparse.config import Config
from wkparse.explanation import Explanation, PhaseNote, RowNote
from wkparse.explanation.configured import explained
from wkparse.parse import parse_file
from wkparse.render.explain import html as explain_html
from wkparse.render.explain import markdown as explain_markdown
from wkparse.render.explain import text as explain_text
from wkparse.render.explain.cells import Fold, fold_text, folded

#: the issue's sample: 13B, TP 2, PP 1, ga 8, 40 layers of 4 rows per group (634 lines before)
SAMPLE = SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt"
LEAD = ("What this file is", "What SimAI-Analytical will report", "How it was generated")
LATER = ("Parallel layout", "Structure", "What AICB leaves out", "Totals per iteration")
FOLD = "lines 176-331: the 4 rows above, 39 more times"


@pytest.fixture(scope="module")
def sample() -> Explanation:
    return explained(parse_file(SAMPLE), str(SAMPLE), Config(), data=SAMPLE.read_bytes())


def _text(e: Explanation, width: int = 80) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(explain_text.render(e))
    return out.getvalue()


def _order(out: str, titles: tuple[str, ...]) -> list[int]:
    return [out.index(t) for t in titles]


def test_text_leads_with_the_file_simai_and_its_making(sample: Explanation) -> None:
    out = _text(sample)
    at = _order(out, LEAD + LATER)
    assert at == sorted(at)
    assert "Total time" in out[at[1] : at[2]] and "AICB command" in out[at[2] : at[3]]


def test_text_folds_the_repeated_layers_of_a_group(sample: Explanation) -> None:
    out = _text(sample)
    assert FOLD in out
    group = out[out.index("Micro-batch group 2 of 8") : out.index("Epilogue")]
    assert group.count("attention_row") == 1 and "332 final_column" in group
    assert len(out.splitlines()) < 200  # 634 when every row of the group was printed


def test_text_says_what_ga_and_vpp_mean_in_this_file(sample: Explanation) -> None:
    out = " ".join(_text(sample, 160).split())
    assert "ga 8: gradient accumulation, the micro-batches one GPU runs per iteration" in out
    assert "(8 in this file)" in out
    assert "vpp 40: in the files AICB writes, the transformer layers of one pipeline stage" in out
    assert "each group in this file holds 40" in out


def test_markdown_and_html_lead_and_fold_alike(sample: Explanation) -> None:
    md = explain_markdown.render(sample)
    at = _order(md, tuple(f"#### {t}" for t in LEAD[1:] + LATER))
    assert at == sorted(at) and FOLD in md and "- ga 8: gradient accumulation" in md
    page = explain_html.render(sample)
    at = _order(page, ("What this file is", *LEAD[1:], "1. Parallel layout"))
    assert at == sorted(at) and FOLD in page and '<tr class="fold">' in page
    assert "<details><summary>What SimAI-Analytical will report" in page


def _row(line: int, name: str, compute: int = 5) -> RowNote:
    phase = PhaseNote("fwd", compute, "ALLREDUCE", "TP", 2, 1024, 512)
    return RowNote(line, name, (phase,), 0)


def test_a_run_of_repeated_rows_is_shown_once_and_its_copies_folded() -> None:
    rows = [_row(1, "embedding")]
    rows += [_row(2 + i, ("attention", "mlp")[i % 2]) for i in range(8)]
    rows.append(_row(10, "final"))
    shown = folded(rows)
    assert shown == [*rows[:3], Fold(4, 9, 2, 3), rows[9]]
    assert fold_text(Fold(4, 9, 2, 3)) == "lines 4-9: the 2 rows above, 3 more times"
    assert fold_text(Fold(4, 7, 1, 4)) == "lines 4-7: the row above, 4 more times"


def test_rows_differing_in_a_value_or_a_finding_are_not_folded() -> None:
    rows = [_row(1 + i, "mlp") for i in range(6)]
    rows[3] = replace(rows[3], phases=(replace(rows[3].phases[0], compute_ns=6),))
    assert folded(rows) == rows  # runs of 3 and 2: too short to fold
    same = [_row(1 + i, "mlp") for i in range(6)]
    assert folded(same) == [same[0], Fold(2, 6, 1, 5)]
    assert folded(same, flagged={4}) == same  # a finding on line 4 splits them
