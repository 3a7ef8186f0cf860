"""Row rules (WK401-WK409) on real corpus files, and one-token edits of them."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import CORPUS, GENERATED, SEED
from wkparse.checks.rows import classify
from wkparse.cli import app
from wkparse.config import Config
from wkparse.diagnostics import Diagnostic, Severity
from wkparse.engine import lint
from wkparse.models.simai.tables import KNOWN_COMMS
from wkparse.parse import parse_file, parse_text

V1_EXAMPLES = [
    CORPUS / "aicb-examples" / "model_workload" / name
    for name in (
        "G13B-M1-C01_GPT13B_megatron_tp8_pp1_mbs1_A100.txt",
        "G13B-M1-C02_GPT13B_megatron_tp8_pp1_mbs1_sp_A100.txt",
        "L7B-M1-C04_Llama7B_megatron_tp2_pp1_mbs1_A100.txt",
    )
]
SP_MIXTRAL = (
    GENERATED
    / "aicb-2025-12"
    / (
        "sp-None-Mixtral_8x7B-world_size16-tp4-pp2-ep2-gbs32-mbs1-seq8192-MOE-True-GEMM-True-"
        "flash_attn-True.txt"
    )
)
AIOB_MIXTRAL = (
    GENERATED
    / "aicb-2025-12"
    / (
        "aiob-sp-None-Mixtral_8x7B-world_size32-tp2-pp2-ep8-gbs256-mbs2-seq8192-MOE-True-GEMM-True-"
        "flash_attn-True.txt"
    )
)


@functools.cache
def _text(path: Path) -> str:
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    return path.read_text()


#: every rule, opt-in ones included (WK405, WK406): these tests are about the rules
ALL = Config(opt_in=True)


def _lint(text: str, code: str, path: Path | str = "workload.txt") -> list[Diagnostic]:
    return [d for d in lint(parse_text(text), str(path), ALL) if d.code == code]


def _column(text: str, line: int, token: str) -> tuple[int, int]:
    """1-based (column, end_column) of the first `token` on a line: what a span should say."""
    fields = text.split("\n")[line - 1].split("\t")
    column = sum(len(f) + 1 for f in fields[: fields.index(token)]) + 1
    return column, column + len(token)


def _lines_with(text: str, prefix: str) -> list[int]:
    return [i for i, line in enumerate(text.split("\n"), 1) if line.startswith(prefix)]


# ---- comm types ------------------------------------------------------------------------


def test_every_spelling_simai_knows_passes() -> None:
    assert all(
        classify(comm, phase) is None for comm in KNOWN_COMMS for phase in ("fwd", "ig", "wg")
    )
    assert classify("NONE_TP", "fwd") is None  # no traffic, as NONE says
    assert classify("none", "wg") is None


@pytest.mark.parametrize(
    ("comm", "phase", "code", "replacement"),
    [
        ("ALLREDUSE", "wg", "WK401", "ALLREDUCE"),
        ("allreduce", "fwd", "WK401", "ALLREDUCE"),
        ("GATHER", "fwd", "WK401", "ALLGATHER"),
        ("ALLREDUCE_TP", "fwd", "WK402", "ALLREDUCE"),
        ("REDUCESCATTER_DP", "wg", "WK402", "REDUCESCATTER"),
        ("ALLTOALL_EPP", "fwd", "WK402", "ALLTOALL_EP"),
        ("ALLREDUCE_TP", "wg", "WK402", None),
        ("ALLREDUCEALLTOALL", "wg", "WK403", None),
        ("ALLREDUCEALLTOALL_EP", "fwd", "WK403", None),
        ("BROADCAST", "fwd", "WK404", None),
    ],
)
def test_comm_type_classification(
    comm: str, phase: str, code: str, replacement: str | None
) -> None:
    problem = classify(comm, phase)
    assert problem is not None and problem.code == code
    assert problem.replacement == replacement


@pytest.mark.parametrize("path", V1_EXAMPLES, ids=lambda p: p.name[:20])
def test_aicb_v1_examples_broadcast_row(path: Path) -> None:
    found = _lint(_text(path), "WK404", path)
    assert [(d.span.line, d.span.column, d.span.end_column) for d in found] == [(3, 11, 20)]
    assert found[0].severity == Severity.WARNING


def test_unknown_type_is_reported_on_every_line_carrying_the_row() -> None:
    text = _text(SEED).replace(
        "embedding_layer\t-1\t799000\tALLREDUCE", "embedding_layer\t-1\t799000\tALLREDUSE"
    )
    found = _lint(text, "WK401")
    assert [d.span.line for d in found] == _lines_with(text, "embedding_layer")
    assert len(found) == 64
    d = found[0]
    assert (d.span.column, d.span.end_column) == _column(text, d.span.line, "ALLREDUSE")
    assert "did you mean `ALLREDUCE`?" in d.message and d.severity == Severity.ERROR
    assert d.fix is not None and not d.fix.safe and d.fix.edits[0].text == "ALLREDUCE"


def test_unknown_suffix_in_the_dp_column() -> None:
    text = _text(SEED).replace("\tREDUCESCATTER\t2303721472", "\tREDUCESCATTER_DP\t2303721472")
    (d,) = _lint(text, "WK402")
    assert d.span.line == 4
    assert (d.span.column, d.span.end_column) == _column(text, 4, "REDUCESCATTER_DP")
    assert "write `REDUCESCATTER`" in d.message and d.fix is not None
    assert d.fix.edits[0].text == "REDUCESCATTER"


def test_prefix_trap() -> None:
    text = _text(SEED).replace("\tALLGATHER\t1151860736", "\tALLREDUCEALLTOALL\t1151860736")
    (d,) = _lint(text, "WK403")
    assert d.span.line == 3 and "runs as ALLREDUCE with no group" in d.message


# ---- sizes -----------------------------------------------------------------------------


def test_zero_size_collectives_are_one_info_per_pattern() -> None:
    found = _lint(_text(SEED), "WK405")
    text = _text(SEED)
    assert [(d.span.line, d.span.column) for d in found] == [
        (8, _column(text, 8, "ALLGATHER_DP_EP")[0] + len("ALLGATHER_DP_EP") + 1),
        (9, _column(text, 9, "REDUCESCATTER_DP_EP")[0] + len("REDUCESCATTER_DP_EP") + 1),
    ]
    assert all(d.severity == Severity.INFO for d in found)
    assert "ALLGATHER_DP_EP of 0 bytes" in found[0].message and "on 1 row" in found[0].message


def test_zero_size_count_matches_the_rows() -> None:
    text = _text(AIOB_MIXTRAL)
    rows = [line.split("\t") for line in text.split("\n")[2:] if line]
    expected = sum(1 for r in rows if r[6] == "REDUCESCATTER" and r[7] == "0")
    found = [d for d in _lint(text, "WK405", AIOB_MIXTRAL) if "REDUCESCATTER of 0" in d.message]
    assert len(found) == 1 and f"on {expected:,} rows" in found[0].message


def test_none_with_size_in_current_non_aiob_sequence_parallel_output() -> None:
    found = _lint(_text(SP_MIXTRAL), "WK406", SP_MIXTRAL)
    assert found and found[0].severity == Severity.INFO
    assert found[0].span.line == 4
    assert found[0].span.column == _column(_text(SP_MIXTRAL), 4, "67108864")[0]
    assert "16 rows (embedding_layer" in found[0].message


# ---- expert collectives with ep: 1 ------------------------------------------------------


def test_ep_collectives_while_ep_is_one() -> None:
    text = _text(SP_MIXTRAL).replace(" ep: 2 ", " ep: 1 ", 1)
    found = _lint(text, "WK407", SP_MIXTRAL)
    lines = [i for i, line in enumerate(text.split("\n"), 1) if "\tALLTOALL_EP\t" in line]
    assert sorted({d.span.line for d in found}) == lines
    assert found[0].severity == Severity.WARNING
    assert _lint(_text(SP_MIXTRAL), "WK407", SP_MIXTRAL) == []


def test_dp_ep_rows_of_dense_models_are_not_expert_traffic() -> None:
    assert "ALLGATHER_DP_EP\t0" in _text(SEED)
    assert _lint(_text(SEED).replace("ALLGATHER_DP_EP\t0", "ALLGATHER_DP_EP\t4096"), "WK407") == []


# ---- numbers and the reserved field ----------------------------------------------------


def test_size_over_64_bits() -> None:
    text = _text(SEED).replace("\t1151860736\t100", f"\t{2**64}\t100", 1)
    (d,) = _lint(text, "WK408")
    assert d.span.line == 3 and d.severity == Severity.ERROR
    assert (d.span.column, d.span.end_column) == _column(text, 3, str(2**64))
    assert _lint(_text(SEED).replace("\t1151860736\t100", f"\t{2**64 - 1}\t100", 1), "WK408") == []


def test_reserved_outside_int32_and_other_than_minus_one() -> None:
    huge = _text(SEED).replace("grad_gather\t-1\t", f"grad_gather\t{2**31}\t", 1)
    (d,) = _lint(huge, "WK408")
    assert d.span.line == 3 and d.fix is not None
    assert (d.span.column, d.span.end_column) == _column(huge, 3, str(2**31))
    assert _lint(huge, "WK409") == []
    other = _text(SEED).replace("grad_gather\t-1\t", "grad_gather\t0\t", 1)
    (w,) = _lint(other, "WK409")
    assert w.span.line == 3 and w.severity == Severity.WARNING
    assert w.fix is not None and w.fix.safe and w.fix.edits[0].text == "-1"


@pytest.mark.parametrize(
    "path",
    [*sorted((GENERATED / "aicb-2025-12").glob("*.txt")), SEED],
    ids=lambda p: p.name[:50],
)
def test_current_generator_output_gets_no_row_error_or_warning(path: Path) -> None:
    if not path.is_file():
        pytest.skip("../shared/corpus is absent")
    found = [
        d
        for d in lint(parse_file(path), str(path))
        if d.code.startswith("WK4") and d.severity != Severity.INFO
    ]
    assert found == []


def test_an_expert_collective_on_a_plain_layer_warns_by_default(tmp_path: Path) -> None:
    """Issue 32: an EP collective hand-written on a plain `mlp_layer` of an ep: 1 file linted
    clean once WK407 became opt-in. AICB's own MoE rows stay quiet by default (WK407)."""
    sample = Path(__file__).parents[1] / "samples" / "gpt13b-world8-tp2-pp1-sp.txt"
    lines = sample.read_text().split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("mlp_"))
    fields = lines[at].split("\t")
    fields[3:5] = ["ALLTOALL_EP", "1048576"]
    lines[at] = "\t".join(fields)
    path = tmp_path / "edited.txt"
    path.write_text("\n".join(lines))
    found = json.loads(CliRunner().invoke(app, ["lint", "-f", "json", str(path)]).stdout)
    assert [(d["code"], d["line"]) for d in found] == [("WK410", at + 1)]
    fields[0] = "moe_expert"
    lines[at] = "\t".join(fields)
    path.write_text("\n".join(lines))
    found = json.loads(CliRunner().invoke(app, ["lint", "-f", "json", str(path)]).stdout)
    assert not [d for d in found if d["code"] in ("WK407", "WK410")]
