"""Files from the wild (issue #42, #41 item 4): what users hand-write around SimAI's format,
read as SimAI reads it. Notes below the rows, a count that disagrees with them, a file cut off
inside a row, one-collective test files: what SimAI never reads is never counted, fixed or
flagged, and no fix without `--unsafe-fixes` changes what SimAI simulates.

Every file here is written by the test (none is copied from elsewhere).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from wkparse.cli import app
from wkparse.config import Config
from wkparse.diagnostics import Diagnostic, Severity
from wkparse.engine import lint
from wkparse.explanation.configured import explained
from wkparse.parse import parse_text

runner = CliRunner()

HEADER = (
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: {pp} vpp: {vpp} "
    "ga: {ga} all_gpus: {gpus} checkpoints: 0 checkpoint_initiates: 0 pp_comm: {pp_comm}"
)


def header(pp: int = 1, vpp: int = 1, ga: int = 1) -> str:
    pp_comm = 16777216 if pp > 1 else 0
    return HEADER.format(pp=pp, vpp=vpp, ga=ga, gpus=2 * pp * 4, pp_comm=pp_comm)


def row(name: str, fwd: str = "ALLREDUCE\t16777216", ig: str = "ALLREDUCE\t16777216") -> str:
    return f"{name}\t-1\t100\t{fwd}\t100\t{ig}\t100\tNONE\t0\t100"


EMBEDDING = row("embedding_layer", ig="NONE\t0")
GROUP = [EMBEDDING, row("attention_layer"), row("mlp_layer")]
NOTES = ["MTU 1500", "*10 111963", "13197 25744", "", "measured on 8 GPUs"]


def file(head: str, count: int | str, rows: list[str], end: str = "\n") -> str:
    return "\n".join([head, str(count), *rows]) + end


def found(text: str, config: Config | None = None) -> list[Diagnostic]:
    return lint(parse_text(text), "w.txt", config)


def codes(text: str) -> set[str]:
    return {d.code for d in found(text)}


def fixed(tmp_path: Path, text: str, *options: str) -> str:
    path = tmp_path / "w.txt"
    path.write_text(text)
    runner.invoke(app, ["lint", "--fix", *options, str(path)])
    return path.read_text()


# ---- notes below the rows -------------------------------------------------------------------

NOTED = file(header(), 1, [EMBEDDING, *NOTES])


def test_notes_below_the_declared_rows_are_one_warning_and_nothing_else() -> None:
    (only,) = found(NOTED)
    assert only.code == "WK105" and only.severity is Severity.WARNING
    assert only.span.line == 4 and "lines 4-8" in only.message and "never reads" in only.message
    assert only.fix is None
    assert runner.invoke(app, ["lint", "-"], input=NOTED).exit_code == 0


@pytest.mark.parametrize("options", [(), ("--unsafe-fixes",)])
def test_no_fix_counts_notes_as_rows_or_rewrites_their_numbers(
    tmp_path: Path, options: tuple[str, ...]
) -> None:
    assert fixed(tmp_path, NOTED, *options) == NOTED


def test_explain_counts_only_the_row_simai_reads() -> None:
    e = explained(parse_text(NOTED), "w.txt", Config(), data=NOTED.encode())
    assert e.rows == 1 and e.groups == 1
    assert {k.kind for k in e.kinds} == {"embedding"}
    assert e.compute_ns["fwd"] == 100
    assert e.simai is not None and e.simai.kind == "ok"


def test_rows_past_the_count_are_ignored_by_every_count() -> None:
    text = file(header(ga=1), 3, GROUP * 4)
    (count,) = [d for d in found(text) if d.code == "WK105"]
    assert "SimAI ignores the last 9 rows" in count.message
    assert count.fix is not None and not count.fix.safe
    e = explained(parse_text(text), "w.txt", Config())
    assert e.rows == 3 and e.groups == 1
    assert "WK308" not in codes(text)  # ga 1 is what SimAI reads: one group


def test_no_row_error_on_lines_simai_never_reads() -> None:
    broken = [row("attention_layer") + "\t7", "attention_layer\t0\t1"]
    text = file(header(), 3, [*GROUP, *broken])
    assert codes(text) == {"WK105"}


# ---- a count larger than the rows ------------------------------------------------------------


def test_a_short_body_is_told_as_cut_short_and_only_an_unsafe_fix_sets_the_count(
    tmp_path: Path,
) -> None:
    rows = (GROUP * 4)[1:10]  # nine rows from the middle of a longer file
    text = file(header(), 1789, rows)
    (count,) = [d for d in found(text) if d.code == "WK105"]
    assert "cut short" in count.message and "1,780 phantom layers" in count.message
    assert count.fix is not None and not count.fix.safe
    assert fixed(tmp_path, text) == text
    # and no value counted from what is left is offered as a fix (ga: WK308)
    assert all(d.fix is None for d in found(text) if d.code.startswith("WK3"))


def test_a_file_cut_inside_a_row_is_truncated_and_nothing_hides_it(tmp_path: Path) -> None:
    text = file(header(), 12, [*GROUP * 3, "embedding_la"], end="")
    (count,) = [d for d in found(text) if d.code == "WK105"]
    assert count.span.line == 12 and count.fix is None
    assert "cut off inside the row on line 12" in count.message
    assert "last whole row is line 11" in count.message
    assert "WK110" not in codes(text)  # the cut row is WK105's
    assert fixed(tmp_path, text, "--unsafe-fixes") == text
    e = explained(parse_text(text), "w.txt", Config())
    ga = [d for d in found(text) if d.code == "WK308"]
    assert e.groups == 3 and (not ga or "3 micro-batch groups" in ga[0].message)


def test_explain_and_lint_count_the_same_groups() -> None:
    # the last group lost its embedding_layer row: three micro-batches, two embedding rows
    text = file(header(ga=2), 8, [*GROUP, *GROUP, *GROUP[1:]])
    (ga,) = [d for d in found(text) if d.code == "WK308"]
    e = explained(parse_text(text), "w.txt", Config())
    assert "3 micro-batch groups" in ga.message and e.groups == 3


def test_a_vpp_mismatch_is_seen_when_each_group_holds_two_layer_lists() -> None:
    # a renamed embedding row inside every group: four micro-batches of one layer each
    renamed = [*GROUP, row("Embedding", ig="NONE\t0"), *GROUP[1:]]
    text = file(header(pp=4, vpp=3, ga=4), 12, renamed * 2)
    (vpp,) = [d for d in found(text) if d.code == "WK301"]
    assert "holds 1 transformer layer:" in vpp.message
    e = explained(parse_text(text), "w.txt", Config())
    assert e.groups == 4 and not [d for d in found(text) if d.code == "WK302"]


# ---- fixes that would change what SimAI simulates --------------------------------------------


def test_dlrm_bare_number_is_not_rewritten_by_a_safe_fix(tmp_path: Path) -> None:
    text = file("HYBRID_DLRM 4", 1, [row("Embedding", "ALLTOALL\t98304", "ALLTOALL\t98304")])
    (bare,) = [d for d in found(text) if d.code == "WK222"]
    assert bare.fix is not None and not bare.fix.safe
    assert fixed(tmp_path, text) == text


# ---- one-collective test files ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["ascend_allgather_layer", "moe_incast", "grad_gather"])
def test_a_one_collective_file_is_no_missing_training_step(name: str) -> None:
    text = file(header(), 1, [row(name, ig="NONE\t0")])
    assert "WK306" not in codes(text)


def test_aicb_ga_zero_output_is_still_caught() -> None:
    rows = [row("grad_gather", "NONE\t0", "NONE\t0"), row("cross_entropy1", ig="NONE\t0")]
    assert "WK306" in codes(file(header(ga=0), 2, rows))
    assert "WK306" in codes(file(header(ga=1), 2, rows))


# ---- the last row's extra tokens --------------------------------------------------------------


def test_extra_tokens_after_the_last_field_simai_reads_are_harmless() -> None:
    last = row("mlp_layer") + "\t7"
    assert "WK111" not in codes(file(header(), 3, [*GROUP[:2], last]))
    assert "WK111" in codes(file(header(), 3, [GROUP[0], last, GROUP[2]]))


# ---- phantom layers: the outcome a program reads says the total is wrong ----------------------


def test_phantom_layers_are_no_ok_outcome(tmp_path: Path) -> None:
    import json

    path = tmp_path / "w.txt"
    path.write_text(file(header(), 5, [EMBEDDING]))
    result = runner.invoke(app, ["simai", "--format", "json", str(path)])
    outcome = json.loads(result.stdout)["outcome"]
    assert outcome["exit_code"] == 0 and outcome["kind"] == "wrong-total"
    assert "the total is wrong" in outcome["message"]
    text = path.read_text()
    e = explained(parse_text(text), str(path), Config(), data=text.encode())
    assert e.simai is not None and e.simai.kind == "wrong-total"
    assert e.simai.reason is not None and "the total is wrong" in e.simai.reason
    whole = file(header(), 1, [EMBEDDING])
    e = explained(parse_text(whole), str(path), Config(), data=whole.encode())
    assert e.simai is not None and e.simai.kind == "ok" and e.simai.reason is None


def test_lint_fails_a_file_whose_total_simai_makes_infinite() -> None:
    text = file(header().replace("NPU_group: 2", "NPU_group: 1"), 1, [EMBEDDING])
    assert "WK702" in codes(text)
    assert runner.invoke(app, ["lint", "-"], input=text).exit_code == 1


# ---- lines SimAI never reaches ---------------------------------------------------------------


def test_after_line_1_stops_simai_nothing_else_is_reported_and_the_header_is_found() -> None:
    comments = ["# workload for 8 GPUs", "# written by hand", "#", "// v2", "# see README"]
    text = "\n".join([*comments, header(), "3", *GROUP]) + "\n"
    (only,) = found(text)
    assert only.code == "WK106" and only.span.line == 1 and "on line 6" in only.message
    e = explained(parse_text(text), "w.txt", Config())
    assert e.rows == 0 and e.groups == 0


# ---- smaller -----------------------------------------------------------------------------------


@pytest.mark.parametrize("extra", ["model: gpt_13B dtype: bf16", "model gpt13b dtype bf16"])
def test_each_unknown_key_counts_once_whatever_its_value(extra: str) -> None:
    text = file(f"{header()} {extra}", 1, [EMBEDDING])
    unknown = [d for d in found(text) if d.code == "WK204"]
    assert len(unknown) == 2 and "`dtype" in unknown[1].message


def test_an_aicb_v1_file_name_is_read_against_the_header() -> None:
    name = "gpt_13B-world_size8-tp8-pp1-gbs64-mbs1-seq2048-flash_attn-True.txt"
    (tp,) = [d for d in lint(parse_text(file(header(), 1, [EMBEDDING])), name) if d.code == "WK501"]
    assert "tp8" in tp.message


def test_a_collective_in_a_dp_group_of_one_is_said_to_cost_nothing(tmp_path: Path) -> None:
    path = tmp_path / "w.txt"
    one = header().replace("all_gpus: 8", "all_gpus: 2")  # tp 2 x pp 1: DP 1
    grad = "grad_sync\t-1\t100\tNONE\t0\t100\tNONE\t0\t100\tALLREDUCE\t2791728742\t100"
    path.write_text(file(one, 1, [grad]))
    out = runner.invoke(app, ["simai", str(path)]).stdout
    assert "ALLREDUCE of 2,791,728,742 B in a DP group of one GPU: no traffic, 0 us" in out


def test_rows_of_another_format_get_one_finding() -> None:
    wide = "\t".join(["1"] * 9)
    text = file(header(), 4, [f"{r}\t{wide}" for r in GROUP + GROUP[1:2]])
    (only,) = found(text, Config(select=("WK1", "WK4")))  # the rows' own findings
    assert only.code == "WK111" and only.span.line == 3
    assert "every row has 21 fields where SimAI reads 12" in only.message


def test_the_server_outlines_and_hovers_notes_as_lines_simai_never_reads(tmp_path: Path) -> None:
    from wkparse.lsp.analysis import Analysis
    from wkparse.lsp.text import Version

    path = tmp_path / "w.txt"
    path.write_text(file(header(), 3, [*GROUP, *GROUP]))
    analysis = Analysis(Version.of(path.read_bytes()), path, 1)
    assert [s.last_line for s in analysis.sections()][-1] == 5
    hovered = analysis.hover(6, 1)
    assert hovered is not None and "a line SimAI never reads" in hovered[0]


def test_triage_reads_phantom_layers_as_a_run_that_finishes() -> None:
    from wkparse.threads.models import run

    predicted = run(file(header(), 5, [EMBEDDING]).encode(), "analytical", [], None)
    assert (predicted.outcome, predicted.exit) == ("finish", 0)
