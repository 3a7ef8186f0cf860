"""Header rules (WK201-WK222) on real files: the defects the corpus really has (older AICB
eras, SimAI's and ASTRA-sim's own examples), the ones users make (edited into real headers in
memory), and the current generator's output, which must get no error.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import CORPUS
from wkparse.checks.header.reading import suggest_key
from wkparse.config import Config
from wkparse.diagnostics import Diagnostic, Severity
from wkparse.engine import lint
from wkparse.fix import apply_fixes
from wkparse.models.simai.tokens import reading
from wkparse.parse import parse_bytes, parse_file, parse_text

MINE = Config(select=("WK1", "WK2"))
GEN = CORPUS / "aicb-generated"
TAIL = "-MOE-False-GEMM-False-flash_attn-True.txt"
ERA_2024_10 = GEN / f"aicb-2024-10/aiob-gpt_7B-world_size64-tp4-pp4-ep1-gbs32-mbs1-seq4096{TAIL}"
ERA_2024_12A = (
    GEN / f"aicb-2024-12a/aiob-None-gpt_7B-world_size64-tp4-pp4-ep1-gbs32-mbs1-seq4096{TAIL}"
)
PP1_2024_12A = GEN / (
    f"aicb-2024-12a/aiob-sp-None-gpt_13B-world_size8-tp2-pp1-ep1-gbs32-mbs1-seq4096{TAIL}"
)
SP_2025_01 = GEN / (
    f"aicb-2025-01/aiob-sp-None-gpt_13B-world_size32-tp4-pp2-ep1-gbs32-mbs1-seq4096{TAIL}"
)
SEED = GEN / f"seed/None-gpt_7B-world_size128-tp4-pp4-ep1-gbs512-mbs1-seq4096{TAIL}"
GA0 = GEN / f"aicb-2025-12-edge/aiob-None-gpt_13B-world_size48-tp8-pp3-ep1-gbs1-mbs1-seq4096{TAIL}"
QWEN = (
    GEN / "aicb-2025-12-inference/Qwen3-Moe-235B-world_size16-tp2-pp2-ep8-bs1-seq4096-prefill.txt"
)
V1 = CORPUS / "aicb-examples/model_workload/G13B-M1-C01_GPT13B_megatron_tp8_pp1_mbs1_A100.txt"
ANALYTICAL = CORPUS / "simai-examples/workload_analytical.txt"
ASTRA = CORPUS / "astra-sim-1.0"


def _need(path: Path) -> bytes:
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    return path.read_bytes()


def _lint(data: bytes, path: str = "edited.txt") -> list[Diagnostic]:
    return lint(parse_bytes(data), path, MINE)


def _header(data: bytes) -> str:
    return data.split(b"\n", 1)[0].decode().rstrip("\r")


def _edit(data: bytes, old: str, new: str) -> bytes:
    """The file with its header's first `old` replaced by `new`."""
    header, rest = data.split(b"\n", 1)
    assert old.encode() in header, (old, header)
    return header.replace(old.encode(), new.encode(), 1) + b"\n" + rest


def _col(data: bytes, text: str, offset: int = 0) -> int:
    """1-based column of `text` (plus `offset`) in the header."""
    return _header(data).index(text) + 1 + offset


def _codes(found: list[Diagnostic], code: str) -> list[Diagnostic]:
    return [d for d in found if d.code == code]


def _fixed(data: bytes, found: list[Diagnostic]) -> str:
    """The header after every fix of `found` (safe or not) is applied, round after round."""
    text = data.decode()
    for _ in range(5):
        fixes = [d.fix for d in found if d.fix is not None]
        if not fixes:
            break
        text, _applied = apply_fixes(text, fixes)
        found = lint(parse_text(text), "edited.txt", MINE)
    return text.split("\n", 1)[0]


# ---- the eras of AICB's header --------------------------------------------------------------


def test_2024_10_file_lacks_vpp_and_pp_comm_and_the_fixes_give_the_next_era() -> None:
    data = _need(ERA_2024_10)
    found = _lint(data)
    assert {(d.code, d.span.line, d.span.column) for d in found} == {
        ("WK201", 1, 1),
        ("WK203", 1, 1),
    }
    [vpp] = _codes(found, "WK201")
    assert "`vpp:`" in vpp.message
    assert "finishes with bubble and Total time NaN or Inf" in vpp.message
    assert vpp.fix is not None and "`vpp: 9`" in vpp.fix.description
    [pp_comm] = _codes(found, "WK203")
    assert "pp is 4" in pp_comm.message and pp_comm.fix is not None
    assert "`pp_comm: 33554432`" in pp_comm.fix.description
    assert all(d.fix is not None and not d.fix.safe for d in found)
    # what the body shows is exactly what the next AICB era wrote for the same configuration
    assert _fixed(data, found) == _header(_need(ERA_2024_12A))


def test_v1_header_with_only_tp_misses_every_other_key() -> None:
    data = _need(V1)
    found = _lint(data)
    missing = _codes(found, "WK201")
    assert [m.message.split("`")[1] for m in missing] == ["ep:", "pp:", "vpp:", "ga:"]
    assert "simulates the expert-parallel size as 0" in missing[0].message
    assert "dies of SIGFPE" in missing[1].message  # as the real SimAI does (oracle)
    assert all((m.span.line, m.span.column) == (1, 1) for m in missing)
    assert [(d.span.line, d.span.column) for d in _codes(found, "WK202")] == [(1, 1)]
    assert "format mismatch" in _codes(found, "WK202")[0].message


def test_astra_sim_transformer_examples_miss_keys_and_list_checkpoints() -> None:
    data = _need(ASTRA / "Transformer_HybridParallel_Fwd_In_Bckwd.txt")
    found = _lint(data)
    assert len(_codes(found, "WK201")) == 4
    lists = _codes(found, "WK218")
    assert [(d.span.line, d.span.column) for d in lists] == [
        (1, _col(data, "checkpoints:")),
        (1, _col(data, "checkpoint_initiates:")),
    ]
    assert "lists 2 layers" in lists[0].message and "layer 2 (read 2 times)" in lists[0].message


def test_pp_comm_with_pp_1_in_the_2024_12a_era() -> None:
    data = _need(PP1_2024_12A)
    [found] = _lint(data)
    assert (found.code, found.span.line, found.span.column) == (
        "WK213",
        1,
        _col(data, "pp_comm: ", len("pp_comm: ")),
    )
    assert "41943040" in found.message
    assert _fixed(data, [found]).endswith("pp_comm: 0")


def test_float_pp_comm_from_2025_01_is_info_with_a_safe_fix() -> None:
    data = _need(SP_2025_01)
    [found] = _lint(data)
    assert (found.code, found.severity) == ("WK216", Severity.INFO)
    assert found.span.column == _col(data, "10485760.0")
    assert found.fix is not None and found.fix.safe
    assert _fixed(data, [found]).endswith("pp_comm: 10485760")


def test_colon_less_pp_comm_in_simai_example() -> None:
    data = _need(ANALYTICAL)
    [found] = _lint(data)
    assert (found.code, found.span.column) == ("WK215", _col(data, "pp_comm 50331648"))
    assert _fixed(data, [found]).endswith("pp_comm: 50331648")


def test_ga_zero_edge_file() -> None:
    data = _need(GA0)
    [found] = _lint(data)
    assert (found.code, found.span.line, found.span.column) == (
        "WK209",
        1,
        _col(data, "ga: 0", len("ga: ")),
    )
    assert "finishes with bubble and Total time NaN or Inf" in found.message


def test_inference_file_mode_and_ep_beyond_dp() -> None:
    data = _need(QWEN)
    found = _lint(data)
    # ep 8 does not divide DP 4, but no row of AICB's inference file runs in a `_DP_EP` group
    assert {(d.code, d.span.column) for d in found} == {("WK220", _col(data, "mode: 1"))}
    edited = data.replace(b"\tALLTOALL_EP\t", b"\tALLTOALL_DP_EP\t", 1)
    found = _lint(edited)
    assert {(d.code, d.span.column) for d in found} == {
        ("WK220", _col(data, "mode: 1")),
        ("WK211", _col(data, "ep: 8", len("ep: "))),
    }
    [ep] = _codes(found, "WK211")
    assert "16 / (2 x 2) = 4" in ep.message
    # both are opt-in: the real SimAI runs this file normally (simai-oracle-2 qwen3moe-prefill)
    assert lint(parse_bytes(edited), "edited.txt") == []


def test_dlrm_bare_number_in_astra_sim_and_its_fix() -> None:
    data = _need(ASTRA / "DLRM_HybridParallel.txt")
    [found] = _lint(data)
    assert (found.code, found.span.column) == ("WK222", len("HYBRID_DLRM\t") + 1)
    assert _fixed(data, [found]).startswith("HYBRID_DLRM\tDLRM_LAST_BOTTOM_LAYER: 4\t")
    missing = _lint(data.replace(b"HYBRID_DLRM\t4", b"HYBRID_DLRM", 1))
    assert [(d.code, d.span.column) for d in missing] == [("WK221", 1)]


# ---- defects users make, edited into real headers -------------------------------------------


def test_unknown_key_with_an_alias_suggestion() -> None:
    data = _edit(_need(SEED), "ep: 1", "expert_parallel_npu_group: 1")
    found = _lint(data)
    [unknown] = _codes(found, "WK204")
    assert unknown.span.column == _col(data, "expert_parallel_npu_group:")
    assert "did you mean `ep:`?" in unknown.message
    [missing] = _codes(found, "WK201")
    assert "`ep:`" in missing.message and "expert_parallel_npu_group:" in missing.message
    assert _fixed(data, [unknown]) == _header(_need(SEED))


def test_unknown_key_already_present_has_no_rename() -> None:
    data = _edit(_need(SEED), "ga: 64", "ga: 64 GA: 64")
    [found] = _lint(data)
    assert found.code == "WK204" and found.fix is None
    assert "already has" in found.message


def test_duplicate_keys_conflicting_and_repeated() -> None:
    seed = _need(SEED)
    conflict = _edit(seed, "pp_comm: 33554432", "pp_comm: 33554432 ga: 32")
    [found] = _lint(conflict)
    assert (found.code, found.span.column) == ("WK205", _col(conflict, "ga: 64"))
    assert "2 times" in found.message and "the last, 32" in found.message
    assert _fixed(conflict, [found]) == _header(seed).replace(" ga: 64", "") + " ga: 32"
    repeat = _edit(seed, "pp_comm: 33554432", "pp_comm: 33554432 ga: 64")
    [again] = _lint(repeat)
    assert (again.code, again.severity) == ("WK206", Severity.INFO)
    assert again.span.column == _header(repeat).rindex("ga: 64") + 1
    assert again.fix is not None and again.fix.safe
    assert _fixed(repeat, [again]) == _header(seed)


@pytest.mark.parametrize(
    ("old", "new", "column_of", "said"),
    [
        ("pp_comm: 33554432", "pp_comm:", "pp_comm:", "reads past the line"),
        ("ep: 1", "ep: one", "ep:", "not an integer"),
        ("vpp: 9", "vpp: ga: 64", "vpp:", "`ga:`"),
    ],
)
def test_key_without_a_usable_value(old: str, new: str, column_of: str, said: str) -> None:
    data = _edit(_need(SEED), old, new)
    found = _codes(_lint(data), "WK207")
    assert [(d.span.line, d.span.column) for d in found] == [(1, _col(data, column_of))]
    assert said in found[0].message


def test_value_over_int_max() -> None:
    data = _edit(_need(SEED), "pp_comm: 33554432", "pp_comm: 4294967296")
    [found] = _lint(data)
    assert (found.code, found.span.column) == ("WK208", _col(data, "4294967296"))
    assert "stoi throws" in found.message


def test_all_gpus_problems() -> None:
    seed = _need(SEED)
    odd = _edit(seed, "all_gpus: 128", "all_gpus: 130")
    [found] = _lint(odd)
    assert (found.code, found.span.column) == ("WK210", _col(odd, "130"))
    assert "TP x PP = 16" in found.message and "leaves 2 GPUs out" in found.message
    assert "-g" in found.message
    gone = _edit(seed, " all_gpus: 128", "")
    assert [(d.code, d.span.column) for d in _lint(gone)] == [("WK202", 1)]
    zero = _edit(seed, "all_gpus: 128", "all_gpus: 0")
    assert [(d.code, d.span.column) for d in _lint(zero)] == [("WK202", _col(zero, "0 ", 0))]


def test_pp_comm_zero_with_pipeline_gets_the_activation_size() -> None:
    seed = _need(SEED)
    data = _edit(seed, "pp_comm: 33554432", "pp_comm: 0")
    [found] = _lint(data)
    assert (found.code, found.span.column) == ("WK212", _col(data, "pp_comm: 0", 9))
    assert _fixed(data, [found]) == _header(seed)


@pytest.mark.parametrize("written", ["vpp 9", "vpp:9"])
def test_key_without_colon_or_blank(written: str) -> None:
    seed = _need(SEED)
    data = _edit(seed, "vpp: 9", written)
    [found] = _lint(data)
    assert (found.code, found.span.column) == ("WK214", _col(data, written))
    assert found.fix is not None and found.fix.safe
    assert _fixed(data, [found]) == _header(seed)


def test_partly_read_values() -> None:
    seed = _need(SEED)
    half = _edit(seed, "all_gpus: 128", "all_gpus: 128.5")
    [found] = _lint(half)
    assert (found.code, found.span.column) == ("WK217", _col(half, "128.5"))
    assert "reads only 128" in found.message and found.fix is None
    exp = _edit(seed, "ga: 64", "ga: 6.4e1")
    [found] = _lint(exp)
    assert found.code == "WK217" and "reads only 6" in found.message
    assert _fixed(exp, [found]) == _header(seed)


def test_checkpoint_index_outside_the_rows_or_missing() -> None:
    data = _need(ASTRA / "Transformer_HybridParallel_Fwd_In_Bckwd.txt")
    outside = _edit(data, "2 2 11", "1 21")
    [found] = _codes(_lint(outside), "WK219")
    assert found.span.column == _col(outside, "21 ")
    assert "past the last layer (20)" in found.message
    bare = _edit(data, "checkpoints: 2 2 11", "checkpoints: 1")
    [found] = _codes(_lint(bare), "WK219")
    assert found.span.column == _col(bare, "checkpoints:")
    assert "`checkpoint_initiates:`" in found.message


def test_checkpoint_lists_are_only_read_under_fwd_in_bckwd() -> None:
    data = _need(ASTRA / "Transformer_HybridParallel_Fwd_In_Bckwd.txt")
    plain = data.replace(b"HYBRID_TRANSFORMER_FWD_IN_BCKWD", b"HYBRID_TRANSFORMER", 1)
    assert not {"WK218", "WK219"} & {d.code for d in _lint(plain)}


# ---- no noise -------------------------------------------------------------------------------


def _files(folder: Path) -> list[Path]:
    files = sorted(folder.glob("*.txt")) if folder.is_dir() else []
    if not files:
        pytest.skip(f"{folder} is absent")
    return files


def test_current_aicb_output_gets_no_error_and_only_float_info() -> None:
    """AICB at 2025-12 from correct configurations: no error; the one note is the float
    pp_comm it writes under sequence parallel, which SimAI reads correctly."""
    for path in _files(GEN / "aicb-2025-12"):
        found = lint(parse_file(path), str(path), MINE)
        assert [d for d in found if d.severity == Severity.ERROR] == [], path.name
        assert {d.code for d in found} <= {"WK216"}, path.name
        assert bool(found) == path.name.startswith(("sp-", "aiob-sp-")), path.name


def test_policies_that_read_no_keys_get_no_header_diagnostic() -> None:
    paths = [p for p in _files(ASTRA) if not p.name.startswith(("Transformer", "DLRM"))]
    paths += _files(CORPUS / "aicb-examples" / "micro_test")[:3]
    for path in paths:
        found = lint(parse_file(path), str(path), MINE)
        assert [d for d in found if d.code.startswith("WK2")] == [], path.name


# ---- the model of SimAI's reader -------------------------------------------------------------


def test_reading_takes_the_token_after_the_key_whatever_it_is() -> None:
    header = parse_text("HYBRID_TRANSFORMER ep: pp: 2 pp_comm 7 pp_comm: 8\n0\n").workload.header
    assert header is not None
    r = reading(header)
    assert r.last("ep") is not None and r.last("ep").value_token.text == "pp:"  # type: ignore[union-attr]
    assert r.value("pp") == 2
    assert [o.result.value for o in r.reads["pp_comm"]] == [7, 8] and r.value("pp_comm") == 8


def test_suggest_key() -> None:
    known = frozenset({"model_parallel_NPU_group", "ep", "pp", "vpp", "ga", "all_gpus"})
    assert suggest_key("expert_parallel_npu_group", known) == "ep"
    assert suggest_key("model_parallel_npu_group", known) == "model_parallel_NPU_group"
    assert suggest_key("all_gpu", known) == "all_gpus"
    assert suggest_key("sequence_parallel", known) is None


def test_pages_state_the_fix_their_rule_attaches() -> None:
    """A page's `fixable` is the kind of fix its failing examples' diagnostics carry: none at
    all for "no"; otherwise that kind, at least once (some cases have no value to fix to)."""
    from wkparse.catalog import catalog

    for page in catalog().values():
        if not page.code.startswith(("WK1", "WK2")) or page.code in LIMITED:
            continue
        kinds = {
            "no" if d.fix is None else "safe" if d.fix.safe else "unsafe"
            for example in page.fail
            for d in lint(
                parse_bytes(example.data), example.filename, MINE.with_simai(example.simai)
            )
        }
        assert page.fixable in kinds and kinds <= {"no", page.fixable}, page.code


#: pages whose examples need tests/test_catalog.py's limits (neither has a fix), and WK212,
#: whose example carries no activation size (one that did would trigger WK303 too); its fix is
#: tested on a real file in test_pp_comm_zero_with_pipeline_gets_the_activation_size
LIMITED = frozenset({"WK116", "WK118", "WK212"})
