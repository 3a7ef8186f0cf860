"""WK7xx: lint says where the real SimAI-Analytical's result is broken, and says what
`wkparse simai` predicts for the same file (one verdict per file), on the oracle cases."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import CORPUS, SIMAI_ORACLE_2, oracle_params, oracle_results
from wkparse.engine import lint
from wkparse.models.simai import simulate
from wkparse.parse import parse_bytes

TP1 = (
    "aicb-generated/aicb-2025-12/aiob-None-gpt_7B-world_size16-tp1-pp1-ep1-gbs64-mbs1-seq2048"
    "-MOE-False-GEMM-False-flash_attn-True.txt"
)


def _codes(data: bytes) -> set[str]:
    return {d.code for d in lint(parse_bytes(data)) if d.code.startswith("WK7")}


#: one case per base file and edit: the option sets do not change what lint sees
CASES = list({c["workload"]: c for c in oracle_results(SIMAI_ORACLE_2)}.values())


@pytest.mark.parametrize("case", oracle_params(SIMAI_ORACLE_2, CASES))
def test_lint_and_simai_agree_on_the_oracle_files(case: dict[str, Any]) -> None:
    data = (SIMAI_ORACLE_2 / case["workload"]).read_bytes()
    run = simulate(data)
    codes = _codes(data)
    assert ("WK701" in codes) == (run.cut is not None)
    assert run.cut is None or run.outcome.kind in ("hang", "no-result")
    # the real runs: WK702 exactly on the tp 1 base, WK703 exactly on the 20 GB all-gather
    assert ("WK702" in codes) == case["base"].startswith("gpt7b-tp1pp1")
    assert ("WK703" in codes) == (case["defect"] == "tp_allgather_size_20000000000")


def test_a_missing_vpp_says_simai_finishes_with_nan_or_inf() -> None:
    """One verdict: SimAI finishes (the model's outcome ok) and its total is NaN or Inf."""
    from wkparse.models.simai.options import parse

    text = (
        b"HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: 2 ga: 1 "
        b"all_gpus: 4 pp_comm: 0\n1\n"
        b"attention_layer\t-1\t100\tALLREDUCE\t2097152\t100\tNONE\t0\t100\tNONE\t0\t100\n"
    )
    [message] = [d.message for d in lint(parse_bytes(text)) if d.code == "WK201"]
    assert "finishes with bubble and Total time NaN or Inf" in message
    run = simulate(text, None, parse(["-g", "4", "-g_p_s", "8", "-n_p_s", "8", "-r", "x-"]))
    assert run.outcome.kind == "ok" and run.report is not None
    assert run.report.summary is not None and run.report.summary.endswith("NaN or Inf")


def test_unedited_tp1_aicb_output_gets_wk702(corpus: object) -> None:
    path = CORPUS / TP1
    if not path.is_file():
        pytest.skip("corpus file absent")
    assert _codes(path.read_bytes()) == {"WK702"}


def test_wk701_found_among_a_long_file_of_distinct_times() -> None:
    """A long file's compute columns are screened by numpy's max (`Columns.largest`): the
    one time past int among thousands of distinct ones is still reported, on its line."""
    from wkparse.columns import NUMPY_FROM

    header = (
        b"HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: 1 vpp: 1 "
        b"ga: 1 all_gpus: 2 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0\n"
    )
    rows = [
        b"attention_layer\t-1\t%d\tALLREDUCE\t2097152\t%d\tNONE\t0\t100\tNONE\t0\t100\n"
        % (1000 + i, 2000 + i)
        for i in range(NUMPY_FROM + 10)
    ]
    clean = header + b"%d\n" % len(rows) + b"".join(rows)
    assert "WK701" not in _codes(clean)
    rows[NUMPY_FROM + 5] = rows[NUMPY_FROM + 5].replace(
        b"\t%d\t" % (2000 + NUMPY_FROM + 5), b"\t3000000000\t"
    )
    cut = header + b"%d\n" % len(rows) + b"".join(rows)
    found = [d for d in lint(parse_bytes(cut)) if d.code == "WK701"]
    assert [d.span.line for d in found] == [NUMPY_FROM + 5 + 3]
