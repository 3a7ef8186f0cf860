"""Body-consistency rules (WK301-WK306) on real corpus files, and edits of them.

Edits are made in memory on the real text (never copied into the project): one header value
or one row changed, so each test shows the rule reacting to exactly one defect.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from tests.conftest import CORPUS, GENERATED, SEED, absent, generator_arguments, manifest
from wkparse.body import Body
from wkparse.diagnostics import Diagnostic, Severity
from wkparse.engine import lint
from wkparse.models.aicb import parse_filename
from wkparse.models.simai import header_value
from wkparse.parse import parse_file, parse_text

CURRENT = sorted((GENERATED / "aicb-2025-12").glob("*.txt"))
MINE = ("WK3",)


def _needs(path: Path) -> Path:
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    return path


@functools.cache
def _text(path: Path) -> str:
    return _needs(path).read_text()


def _lint(text: str, path: Path | str = "workload.txt") -> list[Diagnostic]:
    return [d for d in lint(parse_text(text), str(path)) if d.code.startswith(MINE)]


def _header(text: str, key: str, value: str) -> str:
    """The text with one header value replaced (line 1 only)."""
    first, rest = text.split("\n", 1)
    new, n = re.subn(rf"(?<=\s{re.escape(key)} )\S+", value, first)
    assert n == 1, key
    return new + "\n" + rest


def _column(text: str, key: str) -> int:
    """1-based column of `key`'s value on line 1."""
    first = text.split("\n", 1)[0]
    return first.index(f" {key} ") + len(key) + 3


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _only(found: list[Diagnostic], code: str) -> Diagnostic:
    hits = [d for d in found if d.code == code]
    assert len(hits) == 1, [(d.code, d.message) for d in found]
    return hits[0]


@pytest.mark.parametrize("path", [SEED, *CURRENT], ids=lambda p: p.name[:60])
def test_current_generator_output_gets_no_error(path: Path) -> None:
    found = lint(parse_file(_needs(path)), str(path))
    errors = [d for d in found if d.code.startswith(("WK3", "WK4", "WK5"))]
    assert not [d for d in errors if d.severity == Severity.ERROR], errors


def test_unedited_seed_is_consistent() -> None:
    assert _lint(_text(SEED), SEED) == []


# ---- WK302 ga --------------------------------------------------------------------------


def test_ga_off_by_one_names_the_groups_and_the_fix() -> None:
    text = _header(_text(SEED), "ga:", "63")
    d = _only(_lint(text), "WK302")
    assert (d.span.line, d.span.column) == (1, _column(text, "ga:"))
    assert d.severity == Severity.ERROR
    assert "ga is 63 but the body holds 64 micro-batch groups" in d.message
    assert d.fix is not None and d.fix.description == "set ga: 64"
    assert d.fix is not None and not d.fix.safe
    assert [e.text for e in d.fix.edits] == ["64"]


def test_ga_is_not_checked_without_a_pipeline() -> None:
    path = (
        GENERATED
        / "aicb-2025-12"
        / (
            "aiob-None-gpt_13B-world_size32-tp8-pp1-ep1-gbs128-mbs1-seq2048-MOE-False-GEMM-False-"
            "flash_attn-True.txt"
        )
    )
    text = _header(_text(path), "ga:", "31")
    # with pp: 1 the bubble is zero: SimAI uses ga for nothing
    assert "WK302" not in {d.code for d in _lint(text)}


# ---- WK301 vpp -------------------------------------------------------------------------


def test_vpp_differs_from_layers_counted() -> None:
    text = _header(_text(SEED), "vpp:", "8")
    d = _only(_lint(text), "WK301")
    assert (d.span.line, d.span.column) == (1, _column(text, "vpp:"))
    assert "vpp is 8 but each micro-batch group holds 9 transformer layers" in d.message
    assert "holds 9 transformer layers" in d.message
    assert d.fix is not None and [e.text for e in d.fix.edits] == ["9"]


# ---- WK303 pp_comm ---------------------------------------------------------------------

_SP_PP2 = (
    "aiob-sp-None-gpt_13B-world_size32-tp4-pp2-ep1-gbs32-mbs1-seq4096-MOE-False-GEMM-False-"
    "flash_attn-True.txt"
)


def test_pp_comm_undivided_under_sequence_parallel_names_the_2024_12_era() -> None:
    path = GENERATED / "aicb-2024-12a" / _SP_PP2
    text = _text(path)
    d = _only(_lint(text, path), "WK303")
    assert (d.span.line, d.span.column) == (1, _column(text, "pp_comm:"))
    assert d.severity == Severity.WARNING
    assert "41943040 (line 9) / TP 4 = 10485760" in d.message
    assert d.fix is not None and [e.text for e in d.fix.edits] == ["10485760"]


def test_pp_comm_divided_by_tp_is_accepted_in_its_float_form() -> None:
    path = GENERATED / "aicb-2025-01" / _SP_PP2
    assert "pp_comm: 10485760.0" in _text(path)
    assert "WK303" not in {d.code for d in _lint(_text(path), path)}


def test_pp_comm_without_colon_is_checked_as_simai_reads_it() -> None:
    path = CORPUS / "simai-examples" / "workload_analytical.txt"
    text = _text(path)
    d = _only(_lint(text, path), "WK303")
    assert d.span.column == text.split("\n", 1)[0].index("pp_comm 50331648") + 9
    assert "/ TP 2 = 25165824" in d.message


def test_pp_comm_mismatch_without_sequence_parallel() -> None:
    text = _header(_text(SEED), "pp_comm:", "33554431")
    d = _only(_lint(text), "WK303")
    assert "pp_comm is 33554431" in d.message and "line 10, 33554432" in d.message
    assert d.fix is not None and d.fix.description == "set pp_comm: 33554432"


# ---- WK304 group structure -------------------------------------------------------------


def test_group_missing_a_row_is_reported_at_the_first_difference() -> None:
    lines = _lines(_text(SEED))
    deleted = 10 + 4 * 19 + 5  # a row inside the fifth group (1-based line number)
    del lines[deleted - 1]
    lines[1] = "1229"
    d = _only(_lint("\n".join(lines)), "WK304")
    assert d.span.line == deleted
    assert d.severity == Severity.WARNING
    assert "micro-batch group 5 of 64" in d.message and "differs from the others" in d.message


# ---- WK305 embedding_layer -------------------------------------------------------------


def test_renamed_embedding_row_is_found_without_ga_or_structure_noise() -> None:
    lines = _lines(_text(SEED))
    renamed = 10 + 9 * 19  # the tenth group's embedding_layer
    assert lines[renamed - 1].startswith("embedding_layer\t")
    lines[renamed - 1] = "embedding" + lines[renamed - 1][len("embedding_layer") :]
    found = _lint("\n".join(lines))
    d = _only(found, "WK305")
    assert (d.span.line, d.span.column, d.span.end_column) == (renamed, 1, 10)
    assert d.fix is not None and [e.text for e in d.fix.edits] == ["embedding_layer"]
    assert {x.code for x in found} == {"WK305"}  # still 64 groups: no WK302, no WK304


def test_deleted_embedding_row_is_found_in_the_group_before() -> None:
    lines = _lines(_text(SEED))
    deleted = 10 + 20 * 19
    del lines[deleted - 1]
    lines[1] = "1229"
    found = _lint("\n".join(lines))
    d = _only(found, "WK305")
    assert d.span.line == deleted  # where the orphaned layer list now starts
    assert d.fix is None
    assert {x.code for x in found} == {"WK305"}


def test_first_group_without_embedding_reads_into_the_prologue() -> None:
    lines = _lines(_text(SEED))
    del lines[10 - 1]
    lines[1] = "1229"
    d = _only(_lint("\n".join(lines)), "WK305")
    assert d.span.line == 10


def test_no_embedding_row_at_all() -> None:
    text = _text(SEED).replace("embedding_layer\t", "embed\t")
    d = _only(_lint(text), "WK305")
    assert d.span.line == 10 and "`embed` on line 10 looks like it" in d.message


# ---- WK306 no micro-batch ----------------------------------------------------------------


def test_ga_zero_edge_case_is_reported_at_ga_with_the_generator_arithmetic() -> None:
    path = (
        GENERATED
        / "aicb-2025-12-edge"
        / (
            "aiob-None-gpt_13B-world_size48-tp8-pp3-ep1-gbs1-mbs1-seq4096-MOE-False-GEMM-False-"
            "flash_attn-True.txt"
        )
    )
    text = _text(path)
    d = _only(_lint(text, path), "WK306")
    assert (d.span.line, d.span.column) == (1, _column(text, "ga:"))
    assert d.severity == Severity.ERROR
    assert "ga is 0" in d.message and "no training step" in d.message


@pytest.mark.parametrize(
    "path",
    [
        GENERATED
        / "aicb-2025-12-inference"
        / "Qwen3-Moe-235B-world_size16-tp2-pp2-ep8-bs1-seq4096-prefill.txt",
        GENERATED
        / "aicb-2025-12-inference"
        / "Qwen3-Next-80B-world_size8-tp4-pp1-ep2-bs64-seq2048-decode.txt",
        CORPUS / "aicb-examples" / "micro_test" / "muti_all_reduce.txt",
        CORPUS / "simai-examples" / "microAllReduce.txt",
        CORPUS / "astra-sim-1.0" / "Transformer_HybridParallel.txt",
        CORPUS / "astra-sim-1.0" / "Transformer_HybridParallel_Fwd_In_Bckwd.txt",
    ],
    ids=lambda p: p.name[:40],
)
def test_files_without_training_groups_get_no_consistency_noise(path: Path) -> None:
    assert _lint(_text(path), path) == []


# ---- counted facts against the generator's arguments -------------------------------------


def _manifest_params() -> list[object]:
    rows = [r for r in manifest() if (GENERATED / r["file"]).is_file()]
    if not rows:
        return [pytest.param(None, marks=pytest.mark.skip(reason=absent(GENERATED)))]
    return [pytest.param(r, id=r["file"][:70]) for r in rows]


@pytest.mark.parametrize("entry", _manifest_params())
def test_counted_facts_agree_with_generator_arguments(entry: dict[str, str]) -> None:
    path = GENERATED / entry["file"]
    workload = parse_file(path).workload
    body, header = Body(workload), workload.header
    assert header is not None
    args = generator_arguments(entry["arguments"])
    name = parse_filename(path)
    assert name is not None
    tp, pp = int(args["tensor_model_parallel_size"]), int(args["pipeline_model_parallel"])
    world, mbs, seq = int(args["world_size"]), int(args["micro_batch"]), int(args["seq_length"])
    ep = int(args.get("expert_model_parallel_size", "1"))
    assert (name.tp, name.pp, name.world, name.mbs, name.seq, name.ep) == (
        tp,
        pp,
        world,
        mbs,
        seq,
        ep,
    )
    assert body.moe == ("moe_enable" in args)
    if "inference" in entry["generator"]:
        assert not body.has_groups and header_value(header, "mode") == 1
        return
    layers, hidden, gbs = (
        int(args["num_layers"]),
        int(args["hidden_size"]),
        int(args["global_batch"]),
    )
    sp = "enable_sequence_parallel" in args
    ga = gbs // (mbs * (world // (tp * pp)))
    assert name.gbs == gbs and name.ga == ga
    assert len(body.groups) == ga == header_value(header, "ga")
    assert body.sequence_parallel == sp
    if ga:
        assert body.layers_per_group == layers // pp
    era = entry["generator"]
    if era != "aicb-2024-10":  # vpp arrived 2024-11
        assert header_value(header, "vpp") == layers // pp
    if tp > 1 and ga:  # the activation rides on the layer rows' TP collectives
        assert body.activation_bytes == 2 * mbs * seq * hidden
        if pp > 1 and era != "aicb-2024-10":  # pp_comm arrived 2024-12
            undivided = era == "aicb-2024-12a" or not sp
            expected = body.activation_bytes if undivided else body.activation_bytes // tp
            assert header_value(header, "pp_comm") == expected


def test_pages_state_the_fix_their_rule_attaches() -> None:
    """A WK3-WK5 page's `fixable` is the kind of fix its failing examples' diagnostics carry:
    none for "no"; otherwise that kind at least once (some cases have nothing to fix to)."""
    from wkparse.catalog import catalog
    from wkparse.config import Config

    for page in catalog().values():
        if not page.code.startswith(("WK3", "WK4", "WK5")):
            continue
        kinds = {
            "no" if d.fix is None else "safe" if d.fix.safe else "unsafe"
            for example in page.fail
            for d in lint(parse_text(example.text), example.filename, Config(opt_in=True))
            if d.code == page.code
        }
        assert page.fixable in kinds and kinds <= {"no", page.fixable}, page.code


@pytest.mark.parametrize(
    ("sample", "code"),
    [
        ("gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt", "WK302"),
        ("gpt13b-world8-tp2-pp1-sp.txt", "WK308"),
    ],
)
def test_a_count_below_the_rows_leaves_the_fix_to_the_count(sample: str, code: str) -> None:
    """Line 2 says 500 of the 1,230 rows: ga (or vpp) counted from the 500 SimAI reads differs
    from the header, but setting it to that count would break the file once the count is
    fixed; only WK105's fix (the count) is offered."""
    text = (Path(__file__).resolve().parents[1] / "samples" / sample).read_text()
    rows = text.count("\n") - 2
    short = text.replace(f"\n{rows}\n", "\n500\n", 1)
    found = [d for d in lint(parse_text(short), "short.txt")]
    assert _only(found, code).fix is None
    count = _only(found, "WK105")
    assert count.fix is not None and [e.text for e in count.fix.edits] == [str(rows)]
