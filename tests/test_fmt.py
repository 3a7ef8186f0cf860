"""`wkparse fmt` and wkparse.format: the canonical form keeps every value, on every real file,
and the command's --check, --diff, stdin, syntax-error and unreadable-path behaviour."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.conftest import SAMPLES, corpus_params
from wkparse import format as fmt
from wkparse.ast import Workload
from wkparse.cli import app
from wkparse.format import Unformattable, format_text
from wkparse.parse import BOM, parse_bytes, parse_file, parse_text

runner = CliRunner()

ROW = "attention_layer\t-1\t1820000\tALLREDUCE\t33554432\t1820000\tNONE\t0\t1820000\tNONE\t0\t100"
SPACED_ROW = ROW.replace("\t", "   ")
HEADER = "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4 ep: 1 pp: 1 vpp: 1 ga: 1"
CANONICAL = f"{HEADER}\n2\n{ROW}\n{ROW}\n"
MESSY_HEADER = HEADER.replace(" ", " \t ")
MESSY = f"{MESSY_HEADER}  \r\n2 \r\n{SPACED_ROW}\r\n\r\n{SPACED_ROW}"
BROKEN = f"MICRO\n1\n{ROW.rsplit(chr(9), 1)[0]}\n"


def header_values(w: Workload) -> object:
    h = w.header
    assert h is not None
    return (
        h.policy,
        [v.text for v in h.leading],
        [(f.key, f.colon, [v.text for v in f.values]) for f in h.fields],
    )


def row_values(w: Workload) -> list[dict[str, int | str | None]]:
    return [f.values() for f in w.rows.fields]


def same_values(before: Workload, after: Workload) -> None:
    assert header_values(after) == header_values(before)
    assert after.count is not None and before.count is not None
    assert after.count.value == before.count.value
    assert after.bom == before.bom
    assert row_values(after) == row_values(before)


# ---- every real file -----------------------------------------------------------------------


@pytest.mark.parametrize("path", corpus_params())
def test_formatting_a_real_file_keeps_every_value_and_is_stable(path: Path) -> None:
    original = parse_file(path)
    assert original.ok, "the corpus files all parse; a formatter test needs them to"
    formatted = fmt.format_result(original)
    reparsed = parse_text(formatted)
    assert reparsed.ok
    same_values(original.workload, reparsed.workload)
    assert format_text(formatted) == formatted


def test_the_projects_samples_are_already_canonical() -> None:
    for sample in sorted(SAMPLES.glob("*.txt")):
        assert fmt.format_result(parse_file(sample)).encode() == sample.read_bytes(), sample


# ---- any clean file ------------------------------------------------------------------------

_SEP = st.text(alphabet=" \t\v\f", min_size=1, max_size=3)
_UINT = st.integers(0, 2**70).map(str) | st.integers(0, 99).map(lambda n: f"00{n}")
_ROW_SLOTS = [
    st.sampled_from(["attention_layer", "micro_test", "é_layer", "x:y"]),
    st.sampled_from(["-1", "+0", "-07", "3"]),
    *[_UINT, st.sampled_from(["NONE", "ALLREDUCE", "ALLTOALL_EP", "BOGUS"]), _UINT] * 3,
    _UINT,
]
_HEADER_TOKENS = st.lists(
    st.sampled_from(["ga:", "pp:", "pp_comm", "vpp", "4", "8388608.0", "-1", "1e3", "mode:"]),
    max_size=8,
)


@st.composite
def clean_files(draw: st.DrawFn) -> str:
    sep = draw(_SEP)
    header = sep.join(["HYBRID_TRANSFORMER", *draw(_HEADER_TOKENS)])
    rows = []
    for _ in range(draw(st.integers(0, 4))):
        rows.append(
            sep.join(draw(slot) for slot in _ROW_SLOTS) + draw(st.sampled_from(["", " \t"]))
        )
        rows.extend([""] * draw(st.integers(0, 1)))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    bom = draw(st.sampled_from(["", "\ufeff"]))
    text = bom + end.join([header, draw(_UINT), *rows])
    return text + draw(st.sampled_from(["", end]))


@settings(max_examples=150, deadline=None)
@given(clean_files())
def test_any_clean_file_keeps_its_values_and_formats_once(text: str) -> None:
    original = parse_text(text)
    assert original.ok, original.diagnostics
    formatted = fmt.format_result(original)
    reparsed = parse_text(formatted)
    assert reparsed.ok
    same_values(original.workload, reparsed.workload)
    assert format_text(formatted) == formatted
    assert "\r" not in formatted and formatted.endswith("\n")
    assert " \n" not in formatted and "\t\n" not in formatted


# ---- the canonical form --------------------------------------------------------------------


def test_messy_whitespace_line_ends_and_blank_lines_become_canonical() -> None:
    assert format_text(MESSY) == CANONICAL


def test_header_tokens_keep_their_text_and_order() -> None:
    header = (
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD\tmodel_parallel_NPU_group: 2 ga: 3 ga: 4  vpp 9 "
        "pp_comm 8388608.0 checkpoints: 2 2 11"
    )
    text = format_text(f"{header}\n1\n{ROW}\n")
    assert text.split("\n")[0] == (
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ga: 3 ga: 4 vpp 9 "
        "pp_comm 8388608.0 checkpoints: 2 2 11"
    )


def test_bare_dlrm_number_after_the_policy_is_kept() -> None:
    row = ROW
    assert format_text(f"HYBRID_DLRM\t4\n1\n{row}\n").startswith("HYBRID_DLRM 4\n1\n")


def test_numbers_are_written_as_the_integers_simai_reads() -> None:
    row = ROW.replace("\t-1\t", "\t+007\t").replace("\t100", "\t0100")
    count = format_text(f"MICRO\n0001\n{row}\n").split("\n")
    assert count[1] == "1"
    assert count[2].split("\t")[1] == "7" and count[2].split("\t")[-1] == "100"


def test_the_count_line_is_never_changed_to_the_rows_present() -> None:
    assert format_text(f"MICRO\n839\n{ROW}\n").split("\n")[1] == "839"


def test_a_byte_order_mark_is_kept() -> None:
    # Removing it changes what SimAI does (it fails on it): a lint fix, not a format change.
    text = format_text(f"\ufeffMICRO\n1\n{ROW}\n")
    assert text == f"\ufeffMICRO\n1\n{ROW}\n"
    assert parse_text(text).workload.bom


def test_customized_rows_keep_their_thirteenth_field() -> None:
    text = f"HYBRID_CUSTOMIZED\n1\n{SPACED_ROW}  HYBRID_DATA_MODEL\n"
    assert format_text(text) == f"HYBRID_CUSTOMIZED\n1\n{ROW}\tHYBRID_DATA_MODEL\n"


def test_a_file_without_rows() -> None:
    assert format_text("MICRO \n0") == "MICRO\n0\n"


def test_rows_spanning_several_chunks_come_out_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fmt, "CHUNK_ROWS", 3)
    rows = [ROW.replace("attention_layer", f"layer{i % 4}") for i in range(10)]
    text = "MICRO\n10\n" + "\n".join(r.replace("\t", " ") for r in rows) + "\n"
    result = parse_text(text)
    chunks = list(fmt.canonical_chunks(result))
    assert len(chunks) == 1 + 4
    assert "".join(chunks) == "MICRO\n10\n" + "".join(f"{r}\n" for r in rows)


def test_a_file_with_syntax_errors_has_no_canonical_form() -> None:
    with pytest.raises(Unformattable):
        format_text(BROKEN)


def test_a_partial_row_is_refused_even_without_diagnostics() -> None:
    row = parse_text(BROKEN).workload.rows.fields[0]
    with pytest.raises(Unformattable):
        fmt.row_line(row)


# ---- the command ---------------------------------------------------------------------------


def write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode())
    return path


def test_fmt_rewrites_a_file_and_keeps_its_mode(tmp_path: Path) -> None:
    path = write(tmp_path / "w.txt", MESSY)
    path.chmod(0o640)
    result = runner.invoke(app, ["fmt", str(path)])
    assert result.exit_code == 0
    assert path.read_bytes() == CANONICAL.encode()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert f"reformatted {path}" in result.stderr
    assert result.stdout == ""


def test_fmt_leaves_a_read_only_file_and_does_not_count_it(tmp_path: Path) -> None:
    path = write(tmp_path / "w.txt", MESSY)
    other = write(tmp_path / "x.txt", MESSY)
    path.chmod(0o444)
    result = runner.invoke(app, ["fmt", str(path), str(other)])
    assert result.exit_code == 2 and path.read_bytes() == MESSY.encode()
    assert f"error: {path}: read-only file, left unchanged" in result.stderr
    assert result.stderr.rstrip().endswith("\n1 file reformatted")


def test_an_interrupted_rewrite_leaves_the_original_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "w.txt", MESSY)
    other = write(tmp_path / "x.txt", MESSY)

    def crash(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    result = runner.invoke(app, ["fmt", str(path), str(other)])
    assert result.exit_code == 2
    assert f"{path}: no space left on device" in result.stderr
    assert path.read_bytes() == other.read_bytes() == MESSY.encode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.txt", "x.txt"]


def test_fmt_leaves_a_canonical_file_untouched(tmp_path: Path) -> None:
    path = write(tmp_path / "w.txt", CANONICAL)
    before = path.stat()
    os.utime(path, ns=(before.st_atime_ns, 1_000_000_000))
    result = runner.invoke(app, ["fmt", str(path)])
    assert result.exit_code == 0
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, 1_000_000_000)
    assert "1 file already formatted" in result.stderr


def test_check_lists_the_files_that_would_change_and_writes_nothing(tmp_path: Path) -> None:
    messy = write(tmp_path / "messy.txt", MESSY)
    clean = write(tmp_path / "clean.txt", CANONICAL)
    result = runner.invoke(app, ["fmt", "--check", str(messy), str(clean)])
    assert result.exit_code == 1
    assert messy.read_bytes() == MESSY.encode()
    assert f"would reformat {messy}" in result.stderr
    assert str(clean) not in result.stderr
    assert runner.invoke(app, ["fmt", "--check", str(clean)]).exit_code == 0


def test_diff_prints_a_unified_diff_and_writes_nothing(tmp_path: Path) -> None:
    path = write(tmp_path / "w.txt", f"MICRO\n1\n{SPACED_ROW}")
    result = runner.invoke(app, ["fmt", "--diff", str(path)])
    assert result.exit_code == 1  # a diff shown is a change found, as ruff format --diff
    assert path.read_text() == f"MICRO\n1\n{SPACED_ROW}"
    assert result.stdout.splitlines() == [
        f"--- {path}",
        f"+++ {path}",
        "@@ -1,3 +1,3 @@",
        " MICRO",
        " 1",
        f"-{SPACED_ROW}",
        "\\ No newline at end of file",
        f"+{ROW}",
    ]


def test_diff_with_check_exits_1_on_a_change(tmp_path: Path) -> None:
    path = write(tmp_path / "w.txt", MESSY)
    result = runner.invoke(app, ["fmt", "--diff", "--check", str(path)])
    assert result.exit_code == 1
    assert result.stdout.startswith(f"--- {path}\n")
    assert path.read_bytes() == MESSY.encode()


def test_diff_of_a_canonical_file_is_empty(tmp_path: Path) -> None:
    path = write(tmp_path / "w.txt", CANONICAL)
    result = runner.invoke(app, ["fmt", "--diff", "--check", str(path)])
    assert (result.exit_code, result.stdout) == (0, "")


def test_stdin_is_formatted_to_stdout() -> None:
    result = runner.invoke(app, ["fmt", "-"], input=MESSY.encode())
    assert result.exit_code == 0
    assert result.stdout_bytes == CANONICAL.encode()


def test_stdin_with_check_prints_no_text() -> None:
    changed = runner.invoke(app, ["fmt", "--check", "-"], input=MESSY.encode())
    assert (changed.exit_code, changed.stdout) == (1, "")
    assert "would reformat <stdin>" in changed.stderr
    clean = runner.invoke(app, ["fmt", "--check", "-"], input=CANONICAL.encode())
    assert (clean.exit_code, clean.stdout) == (0, "")


def test_stdin_with_diff_prints_the_diff_only() -> None:
    result = runner.invoke(app, ["fmt", "--diff", "-"], input=f"MICRO \n1\n{ROW}\n".encode())
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "--- <stdin>",
        "+++ <stdin>",
        "@@ -1,3 +1,3 @@",
        "-MICRO ",
        "+MICRO",
        " 1",
        f" {ROW}",
    ]


def test_a_file_with_syntax_errors_is_reported_and_not_rewritten(tmp_path: Path) -> None:
    path = write(tmp_path / "bad.txt", BROKEN.replace("\t", "  "))
    clean = write(tmp_path / "clean.txt", MESSY)
    result = runner.invoke(app, ["fmt", str(path), str(clean)])
    assert result.exit_code == 1
    assert path.read_bytes() == BROKEN.replace("\t", "  ").encode()
    assert clean.read_bytes() == CANONICAL.encode()
    diagnostic = parse_bytes(path.read_bytes()).diagnostics[0]
    assert (
        f"{path}:3:{diagnostic.span.column}: {diagnostic.code} {diagnostic.message}"
        in result.stderr
    )


def test_stdin_with_syntax_errors_writes_nothing() -> None:
    result = runner.invoke(app, ["fmt", "-"], input=BROKEN.encode())
    assert (result.exit_code, result.stdout) == (1, "")
    assert "<stdin>:3:" in result.stderr


def test_an_unreadable_path_exits_2_and_the_others_are_still_formatted(tmp_path: Path) -> None:
    path = write(tmp_path / "w.txt", MESSY)
    result = runner.invoke(app, ["fmt", str(tmp_path / "missing.txt"), str(path)])
    assert result.exit_code == 2
    assert "missing.txt: no such file or directory" in result.stderr
    assert path.read_bytes() == CANONICAL.encode()


def test_a_folder_is_walked_for_workload_files(tmp_path: Path) -> None:
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    deep = write(nested / "w.txt", MESSY)
    notes = write(tmp_path / "notes.txt", "just some notes\n")
    other = write(tmp_path / "w.csv", MESSY)
    result = runner.invoke(app, ["fmt", str(tmp_path)])
    assert result.exit_code == 0
    assert deep.read_bytes() == CANONICAL.encode()
    assert notes.read_text() == "just some notes\n"
    assert other.read_bytes() == MESSY.encode()


def test_skip_non_workloads_passes_over_a_named_note(tmp_path: Path) -> None:
    note = tmp_path / "notes.txt"
    note.write_text("Workloads for the March runs.\n")
    sample = tmp_path / "seed.txt"
    sample.write_bytes((SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt").read_bytes())
    assert runner.invoke(app, ["fmt", "--check", str(note)]).exit_code == 1
    skipped = runner.invoke(app, ["fmt", "--check", "--skip-non-workloads", str(note), str(sample)])
    assert skipped.exit_code == 0
    assert "skipped 1 file that is not a workload (--verbose lists them)" in skipped.stderr
    verbose = ["fmt", "--check", "--skip-non-workloads", "--verbose", str(note), str(sample)]
    assert "notes.txt: skipped" in runner.invoke(app, verbose).stderr
    assert note.read_text() == "Workloads for the March runs.\n"


@pytest.mark.parametrize("args", [["--check"], [], ["--diff"]], ids=" ".join)
def test_a_byte_order_mark_is_never_called_formatted(args: list[str], tmp_path: Path) -> None:
    """Issue 32: `fmt --check` said "already formatted" where lint reports WK107 (an error)."""
    path = tmp_path / "bom.txt"
    path.write_bytes(BOM + b"MICRO\n1\n" + ROW.encode() + b"\n")
    result = runner.invoke(app, ["fmt", *args, str(path)])
    assert result.exit_code == 1
    assert "already formatted" not in result.stderr
    assert "WK107" in result.stderr and f"{path}:1:1:" in result.stderr
    assert path.read_bytes().startswith(BOM)  # fmt keeps it: removing it is lint's fix


def test_diff_of_crlf_line_ends_says_so_in_one_line(tmp_path: Path) -> None:
    """Issue 41: `fmt --diff` on a CRLF file showed every line removed and added again."""
    path = tmp_path / "w.txt"
    path.write_bytes(CANONICAL.replace("\n", "\r\n").encode())
    result = runner.invoke(app, ["fmt", "--diff", str(path)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert f"{path}: line endings CRLF -> LF" in result.stderr.splitlines()
    # with another change besides, the diff shows only that change
    path.write_bytes(CANONICAL.replace("\n2\n", "\n2 \n").replace("\n", "\r\n").encode())
    result = runner.invoke(app, ["fmt", "--diff", str(path)])
    changed = [x for x in result.stdout.splitlines() if x[:1] in "+-" and x[:3] not in "+++---"]
    assert changed == ["-2 ", "+2"]


def test_notes_below_the_rows_are_told_as_lint_tells_them(tmp_path: Path) -> None:
    """Lines after the declared rows that are no rows: lint's WK105 (SimAI never reads them),
    not WK110's 'SimAI misreads every later field'; the file is left as it is."""
    text = f"{CANONICAL}these are my notes\nrun with -g 8\n"
    path = write(tmp_path / "notes.txt", text)
    result = runner.invoke(app, ["fmt", "--check", str(path)])
    assert result.exit_code == 1
    assert f"{path}:5:1: WK105 lines 5-6 after the 2 rows" in result.stderr
    assert "WK110" not in result.stderr and "misreads" not in result.stderr
    assert "1 file not formatted (notes below the rows)" in result.stderr
    assert path.read_text() == text


def test_a_row_cut_off_at_the_end_is_told_as_lint_tells_it(tmp_path: Path) -> None:
    path = write(tmp_path / "cut.txt", f"{HEADER}\n3\n{ROW}\n{ROW[:30]}")
    result = runner.invoke(app, ["fmt", str(path)])
    assert result.exit_code == 1
    assert f"{path}:4:1: WK105 the file is cut off inside the row on line 4" in result.stderr
    assert "WK110" not in result.stderr
    assert "1 file not formatted (syntax errors)" in result.stderr
