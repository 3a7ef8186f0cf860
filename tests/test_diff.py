"""`wkparse.difference` on real files: AICB eras with the same arguments, and edited copies.

The edited copies are made here from corpus files (never stored): a changed compute time, a
doubled collective size, two swapped rows, a dropped micro-batch group with `ga` and the row
count adjusted, and reformatted copies, which must compare equal.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import pairwise
from pathlib import Path

import pytest

from tests.conftest import CORPUS, GENERATED, SEED, absent, corpus_params, manifest, require
from wkparse.difference import Difference, diff
from wkparse.difference.words import row_pieces, sentence
from wkparse.format import format_result
from wkparse.models.simai import header_value
from wkparse.parse import parse_bytes, parse_file, parse_text

NAME_7B = (
    "gpt_7B-world_size64-tp4-pp4-ep1-gbs32-mbs1-seq4096-MOE-False-GEMM-False-flash_attn-True.txt"
)
NAME_13B = (
    "gpt_13B-world_size32-tp4-pp2-ep1-gbs32-mbs1-seq4096-MOE-False-GEMM-False-flash_attn-True.txt"
)
NAME_13B_PP1 = (
    "gpt_13B-world_size8-tp2-pp1-ep1-gbs32-mbs1-seq4096-MOE-False-GEMM-False-flash_attn-True.txt"
)


def _seed_text() -> str:
    return require(SEED).read_text()


def _diff_texts(a: str, b: str) -> Difference:
    return diff(parse_text(a), parse_text(b))


def _header(d: Difference) -> list[tuple[str, str | None, str | None]]:
    return [(h.key, h.a, h.b) for h in d.header]


# ---- the same arguments across AICB eras ------------------------------------------------


def _era_pairs() -> list[object]:
    by_arguments: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in manifest():
        by_arguments[row["arguments"]].append(row)
    pairs = []
    for rows in by_arguments.values():
        rows.sort(key=lambda r: r["generator"])
        for a, b in pairwise(rows):
            name = Path(a["file"]).name
            pairs.append(
                pytest.param(
                    a["file"], b["file"], id=f"{a['generator']}..{b['generator']}:{name[:40]}"
                )
            )
    if not pairs:
        return [pytest.param(None, None, marks=pytest.mark.skip(reason=absent(CORPUS)))]
    return pairs


#: (era a, era b, file name's model part) -> the header keys SimAI reads differently
ERA_HEADERS = {
    ("aicb-2024-10", "aicb-2024-12a", NAME_7B): [("vpp", None, "9"), ("pp_comm", None, "33554432")],
    ("aicb-2024-10", "aicb-2024-12a", NAME_13B): [
        ("vpp", None, "20"),
        ("pp_comm", None, "41943040"),
    ],
    ("aicb-2024-10", "aicb-2024-12a", NAME_13B_PP1): [
        ("vpp", None, "40"),
        ("pp_comm", None, "41943040"),
    ],
    # the float pp_comm of 2025-01 is divided by TP under sequence parallelism
    ("aicb-2024-12a", "aicb-2025-01", NAME_13B): [("pp_comm", "41943040", "10485760.0")],
    # pp_comm 0 with PP 1 from 2024-12-04 on
    ("aicb-2024-12a", "aicb-2025-01", NAME_13B_PP1): [("pp_comm", "41943040", "0")],
}


@pytest.mark.parametrize(("file_a", "file_b"), _era_pairs())
def test_eras_with_the_same_arguments_differ_exactly_in_the_known_header_keys(
    file_a: str, file_b: str
) -> None:
    era_a, era_b = file_a.split("/")[0], file_b.split("/")[0]
    model = next(n for n in (NAME_7B, NAME_13B, NAME_13B_PP1) if file_a.endswith(n))
    d = diff(parse_file(GENERATED / file_a), parse_file(GENERATED / file_b))
    assert _header(d) == ERA_HEADERS.get((era_a, era_b, model), [])
    # the rows of one set of arguments stay aligned across eras: same count, nothing moved
    assert (d.rows.a, d.rows.added, d.rows.removed, d.rows.moved) == (d.rows.b, 0, 0, 0)


def test_the_old_era_differs_in_the_parameter_sizes_of_the_prologue_only(corpus: Path) -> None:
    d = diff(
        parse_file(GENERATED / "aicb-2024-10" / f"aiob-{NAME_7B}"),
        parse_file(GENERATED / "aicb-2025-09" / f"aiob-None-{NAME_7B}"),
    )
    changes = [(c.name, c.field, c.a, c.b, c.where, c.rows) for c in d.rows.changes]
    assert changes == [
        ("grad_gather", "wg_size", 944242688, 1151860736, "the prologue", 1),
        ("grad_param_comm", "wg_size", 1888485376, 2303721472, "the prologue", 1),
        ("layernorm", "ig_size", 944242688, 1151860736, "the prologue", 1),
    ]
    facts = {f.name: (f.a, f.b) for f in d.facts}
    assert facts["vpp"] == (None, 9)
    assert facts["comm_bytes.PP"][0] == 0 and facts["comm_bytes.PP"][1] > 0
    assert "tp" not in facts and "ga" not in facts


def test_a_float_pp_comm_equals_its_integer() -> None:
    text = _seed_text()
    floated = text.replace("pp_comm: 33554432", "pp_comm: 33554432.0", 1)
    assert floated != text
    d = _diff_texts(text, floated)
    assert d.equal and not d.header


# ---- edited copies ----------------------------------------------------------------------


def test_a_changed_compute_time_is_one_change_in_all_groups() -> None:
    text = _seed_text()
    edited = text.replace("attention_layer\t-1\t1820000\t", "attention_layer\t-1\t2332000\t")
    d = _diff_texts(text, edited)
    assert not d.header and not d.equal
    assert (d.rows.changed, d.rows.added, d.rows.removed) == (576, 0, 0)
    [change] = d.rows.changes
    assert (change.name, change.field, change.a, change.b) == (
        "attention_layer",
        "fwd_compute",
        1820000,
        2332000,
    )
    assert (change.where, change.rows) == ("all 64 groups", 576)
    # the first attention row of group 1 (line 11 of both files)
    assert (change.line_a, change.line_b) == (11, 11)
    facts = {f.name: f for f in d.facts}
    assert set(facts) == {"compute_ns.fwd", "compute_ns.total"}
    fwd = facts["compute_ns.fwd"]
    assert fwd.b - fwd.a == 576 * (2332000 - 1820000)  # type: ignore[operator]
    assert fwd.ratio == round(fwd.b / fwd.a, 6)  # type: ignore[operator]


def test_a_doubled_size_shows_in_rows_and_in_the_tp_bytes() -> None:
    text = _seed_text()
    edited = text.replace(
        "mlp_layer\t-1\t2478000\tALLREDUCE\t33554432", "mlp_layer\t-1\t2478000\tALLREDUCE\t67108864"
    )
    d = _diff_texts(text, edited)
    [change] = d.rows.changes
    assert (change.field, change.a, change.b, change.rows) == ("fwd_size", 33554432, 67108864, 576)
    [fact] = d.facts
    assert fact.name == "comm_bytes.TP"
    assert fact.b - fact.a == 576 * 33554432  # type: ignore[operator]


def test_two_swapped_rows_are_one_move_not_two_changes() -> None:
    lines = _seed_text().splitlines(keepends=True)
    # lines 40 and 41 (1-based) are an attention_layer and an mlp_layer row of group 2
    assert lines[39].startswith("attention_layer") and lines[40].startswith("mlp_layer")
    lines[39], lines[40] = lines[40], lines[39]
    d = _diff_texts(_seed_text(), "".join(lines))
    assert (d.rows.changed, d.rows.added, d.rows.removed, d.rows.moved) == (0, 0, 0, 1)
    [change] = d.rows.changes
    assert change.kind == "row_moved" and change.where == "group 2"
    # the mlp row moved from line 41 (13th of its group) to line 40 (12th)
    assert (change.line_a, change.line_b, change.position_a, change.position_b) == (41, 40, 12, 11)
    assert sentence(row_pieces(change)) == (
        "mlp_layer swapped with the row above it (row 13 -> 12) in group 2 (1 row, line 41)"
    )
    assert not d.equal and not d.facts


def _drop_group(text: str, group: int, adjust: bool = True) -> str:
    """The file without micro-batch group `group` (1-based); ga and line 2 adjusted."""
    result = parse_text(text)
    from wkparse.body import Body

    g = Body(result.workload).groups[group - 1]
    lines = text.splitlines(keepends=True)
    rows = lines[2:]
    kept = rows[: g.start] + rows[g.end :]
    header, count = lines[0], lines[1]
    if adjust:
        ga = header_value(result.workload.header, "ga")
        header = header.replace(f"ga: {ga} ", f"ga: {ga - 1} ")
        count = f"{len(kept)}\n"
    return header + count + "".join(kept)


def test_a_dropped_group_with_ga_and_count_adjusted_is_one_removal() -> None:
    text = _seed_text()
    d = _diff_texts(text, _drop_group(text, 64))
    assert _header(d) == [("ga", "64", "63")]
    assert (d.rows.a, d.rows.b, d.rows.changed, d.rows.added, d.rows.removed) == (
        1230,
        1211,
        0,
        0,
        19,
    )
    [change] = d.rows.changes
    assert (change.kind, change.where, change.rows) == ("group_removed", "group 64", 19)
    facts = {f.name: (f.a, f.b) for f in d.facts}
    assert facts["ga"] == (64, 63)
    assert facts["declared_rows"] == (1230, 1211)
    assert facts["groups"] == (64, 63)


def test_a_group_dropped_from_the_middle_is_still_one_removal() -> None:
    text = _seed_text()
    d = _diff_texts(text, _drop_group(text, 30, adjust=False))
    assert (d.rows.changed, d.rows.added, d.rows.removed) == (0, 0, 19)
    assert [c.kind for c in d.rows.changes] == ["group_removed"]


def test_an_added_prologue_row_and_a_renamed_row() -> None:
    text = _seed_text()
    lines = text.splitlines(keepends=True)
    lines.insert(3, "extra_row\t-1\t1\tNONE\t0\t1\tNONE\t0\t1\tNONE\t0\t100\n")
    lines[1] = f"{int(lines[1]) + 1}\n"  # else SimAI never reads the last row: diff says so
    assert lines[5].startswith("grad_param_compute\t")
    lines[5] = lines[5].replace("grad_param_compute", "renamed", 1)
    d = _diff_texts(text, "".join(lines))
    kinds = [(c.kind, c.name, c.where) for c in d.rows.changes]
    assert sorted(kinds) == [
        ("row_added", "extra_row", "the prologue"),
        ("row_added", "renamed", "the prologue"),
        ("row_removed", "grad_param_compute", "the prologue"),
    ]
    assert (d.rows.changed, d.rows.added, d.rows.removed) == (0, 2, 1)


def _reformatted(text: str) -> list[tuple[str, bytes]]:
    spaced = text.replace("\t", "   ")
    return [
        ("spaces", spaced.encode()),
        ("crlf", text.replace("\n", "\r\n").encode()),
        ("bom", b"\xef\xbb\xbf" + text.encode()),
        (
            "trailing blanks",
            "".join(
                line.rstrip("\n") + " \t\n" for line in text.splitlines(keepends=True)
            ).encode(),
        ),
        ("leading zeros", text.replace("\t1820000\t", "\t0001820000\t").encode()),
        ("header spacing", text.replace(" ", "  ", 3).encode()),
        ("no final newline", text.rstrip("\n").encode()),
        ("blank lines in the body", text.replace("\nmlp_layer", "\n\nmlp_layer", 5).encode()),
        ("tabs in the header", text.replace(" ", "\t", 4).encode()),
        ("fmt of spaces", format_result(parse_text(spaced)).encode()),
    ]


def test_reformatted_copies_are_equal() -> None:
    text = _seed_text()
    original = parse_text(text)
    for label, data in _reformatted(text):
        result = parse_bytes(data)
        assert result.ok, label
        d = diff(original, result)
        assert d.equal, (label, d.header, d.facts, d.rows)


@pytest.mark.parametrize("path", corpus_params())
def test_every_corpus_file_equals_itself_and_its_formatted_copy(path: Path) -> None:
    result = parse_file(path)
    if not result.ok:
        pytest.skip("has syntax errors: no canonical form")
    assert diff(result, result).equal
    assert diff(result, parse_text(format_result(result))).equal


def test_a_body_without_groups_is_aligned_by_rows(corpus: Path) -> None:
    path = corpus / "astra-sim-1.0" / "MLP_ModelParallel.txt"
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    del lines[3]
    lines[1] = f"{len(lines) - 2}\n"
    d = _diff_texts(text, "".join(lines))
    removed = [c for c in d.rows.changes if c.kind == "row_removed"]
    assert [c.where for c in removed] == ["the body"] and d.rows.removed == 1
    assert d.rows.changed == 0 and d.rows.added == 0


# ---- header keys ------------------------------------------------------------------------

_LINE2 = "0\n"


def test_header_keys_compare_as_simai_reads_them() -> None:
    policy = "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group:"
    a = f"{policy} 4 checkpoints: 2 3 5 ga 8 pp_comm: 16777216.0\n"
    b = f"{policy} 4.0 checkpoints: 2 3 7 ga: 8 pp_comm: 16777216 mode: 1\n"
    d = _diff_texts(a + _LINE2, b + _LINE2)
    # SimAI marks the first listed layer `count` times: 3 5 and 3 7 both mark layer 3 twice
    assert _header(d) == [("ga", "8", "8"), ("mode", None, "1")]
    assert "does not read a's `ga`" in (d.header[0].note or "")


def test_the_policy_and_a_key_only_one_side_writes_differ() -> None:
    a = "HYBRID_TRANSFORMER model_parallel_NPU_group: 4 ep: 1\n"
    b = "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4\n"
    d = _diff_texts(a + _LINE2, b + _LINE2)
    assert _header(d) == [
        ("policy", "HYBRID_TRANSFORMER", "HYBRID_TRANSFORMER_FWD_IN_BCKWD"),
        ("ep", "1", None),
    ]


def test_ratios_read_as_a_percentage_near_one_and_a_factor_beyond() -> None:
    from wkparse.difference.model import FactChange
    from wkparse.difference.words import ratio

    def fact(a: int, b: int) -> FactChange:
        return FactChange("x", "x", a, b, round(b / a, 6), "count")

    assert ratio(fact(64, 63)) == "-1.6%"
    assert ratio(fact(2130, 2131)) == "+0.047%"
    assert ratio(fact(100, 415)) == "x4.15"
    assert ratio(fact(4, 1)) == "x0.25"


def test_a_header_of_thousands_of_keys_is_compared_key_by_key() -> None:
    policy = "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4 "
    a = policy + " ".join(f"k{i}: {i}" for i in range(4000)) + " ga: 1" * 1500 + "\n0\n"
    b = policy + " ".join(f"k{i}: {i + 1}" for i in range(4000)) + " ga: 2" * 1500 + "\n0\n"
    d = _diff_texts(a, b)
    assert len(d.header) == 4001
    assert (d.header[0].key, d.header[0].a, d.header[0].b) == ("k0", "0", "1")
    assert (d.header[-1].key, d.header[-1].a, d.header[-1].b) == ("ga", "1", "2")


def test_two_layouts_differ_in_the_facts_the_generator_arguments_give(corpus: Path) -> None:
    # MANIFEST: gpt_7B, 36 layers; world 128, TP 4, PP 4, gbs 256 against world 512, PP 8, gbs 64
    era = GENERATED / "aicb-2025-12"
    tail = "-ep1-{}-mbs1-{}-MOE-False-GEMM-False-flash_attn-True.txt"
    a = era / ("aiob-None-gpt_7B-world_size128-tp4-pp4" + tail.format("gbs256", "seq8192"))
    b = era / ("aiob-None-gpt_7B-world_size512-tp4-pp8" + tail.format("gbs64", "seq2048"))
    d = diff(parse_file(a), parse_file(b))
    facts = {f.name: (f.a, f.b) for f in d.facts}
    assert facts["pp"] == (4, 8)
    assert facts["dp"] == (128 // 16, 512 // 32)
    assert facts["ga"] == (256 // 8, 64 // 16)
    assert facts["layers_per_stage"] == (36 // 4, 36 // 8)
    assert facts["model_layers"] == (36, 32)
    assert "tp" not in facts and "sequence_parallel" not in facts
    changes = {(c.kind, c.name, c.where): c.rows for c in d.rows.changes}
    # 28 of a's 32 groups have no partner; the 4 paired ones each lose 5 of their 9 layers
    assert changes[("group_removed", None, "groups 5-32")] == 28 * 19
    assert changes[("row_removed", "attention_layer", "groups 1-4")] == 4 * 5
    assert changes[("row_removed", "mlp_layer", "groups 1-4")] == 4 * 5


def test_stretches_too_long_to_align_are_paired_by_position(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from wkparse.difference import rows

    text = _seed_text()
    edited = _drop_group(text, 30, adjust=False).replace(
        "attention_layer\t-1\t1820000\t", "attention_layer\t-1\t2332000\t"
    )
    aligned = _diff_texts(text, edited).rows
    monkeypatch.setattr(rows, "MAX_ALIGNED", 0)
    by_position = _diff_texts(text, edited).rows
    # aligned: one group removed and every attention row of the 63 others changed
    assert (aligned.removed, aligned.added, aligned.changed) == (19, 0, 63 * 9)
    assert [c.kind for c in aligned.changes] == ["field", "group_removed"]
    # by position the last group is the one without a partner; the counts still add up
    assert by_position.a - by_position.removed + by_position.added == by_position.b
    assert [c.where for c in by_position.changes if c.kind == "group_removed"] == ["group 64"]
    assert by_position.changed == 63 * 9


def test_where_simai_stops_reading_line_1_is_a_difference() -> None:
    from wkparse.difference.header import STOP

    head = "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4"
    d = _diff_texts(f"{head} ga: abc pp: 2\n0\n", f"{head} ga: 8 pp: 2\n0\n")
    found = {h.key: h for h in d.header}
    # the grammar reads `abc` as a key of its own, so `ga:` is written without a value; SimAI
    # hands `abc` to stoi as ga's value, so it is no key to compare (`ga: 2abc` reads as 2)
    assert (found["ga"].a, found["ga"].b) == ("", "8")
    assert "abc" not in found
    # std::stoi throws on `abc`: SimAI never reaches a's pp
    assert (found["pp"].a, found["pp"].b) == ("2", "2")
    assert found["pp"].note == "SimAI stops reading line 1 before a's `pp`"
    assert found[STOP].a is not None and "invalid_argument" in found[STOP].a
    assert found[STOP].b is None
