"""Whole-file damage: workloads saved as UTF-16 or UTF-32 (WK119) and with CR-only line ends
(WK120). Each is recognised, reported once instead of as a flood of errors, converted back by
`lint --fix` to exactly the original, and walked as a workload.

The files are real ones (`../shared/corpus`, or `samples/` without it) re-encoded the way
Windows tools save "Unicode" text, or with every LF turned into a CR.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest
from typer.testing import CliRunner

from tests.conftest import SAMPLES, corpus_files
from tests.test_outputs import sarif_schema, validate  # noqa: F401  (a fixture)
from wkparse import encoding, parse_bytes, syntax
from wkparse.cli import app

#: codec, as the file names it, whether it starts with a byte order mark
CODECS = [
    ("utf-16", "UTF-16 LE", True),  # what Notepad's "Unicode" and PowerShell 5's `>` write
    ("utf-16-le", "UTF-16 LE", False),
    ("utf-16-be", "UTF-16 BE", False),
    ("utf-32", "UTF-32 LE", True),
]
runner = CliRunner()


def real_files() -> list[Path]:
    """Real workloads, without a UTF-8 BOM (their UTF-16 form would carry two marks)."""
    files = corpus_files() or sorted(SAMPLES.glob("*.txt"))
    return [p for p in files if not p.read_bytes().startswith(b"\xef\xbb\xbf")]


def wide(path: Path, codec: str) -> bytes:
    return path.read_bytes().decode("utf-8").encode(codec)


def write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


# ---- recognising the encoding ----------------------------------------------------------------


@pytest.mark.parametrize(("codec", "name", "bom"), CODECS)
def test_every_real_file_re_encoded_is_recognised(codec: str, name: str, bom: bool) -> None:
    for path in real_files():
        found = encoding.sniff(wide(path, codec)[: encoding.SNIFF_BYTES])
        assert found is not None, path
        assert (found.name, found.bom > 0) == (name, bom), path


@pytest.mark.parametrize("path", real_files()[:20], ids=lambda p: p.name[:40])
def test_utf8_files_and_random_bytes_are_not_taken_for_utf16(path: Path) -> None:
    assert encoding.sniff(path.read_bytes()[: encoding.SNIFF_BYTES]) is None
    rng = random.Random(path.name)
    for _ in range(200):
        assert encoding.sniff(rng.randbytes(64)) is None


def test_short_or_nul_heavy_heads_are_not_utf16() -> None:
    assert encoding.sniff(b"") is None
    assert encoding.sniff(b"M\x00I\x00") is None  # too short to trust without a mark
    assert encoding.sniff(b"\x00" * 64) is None  # zeros alone are no text
    assert encoding.sniff(b"MICRO\n1\nmicro\x00test") is None


def test_a_file_that_does_not_decode_is_not_converted() -> None:
    cut = "MICRO\n".encode("utf-16")[:-1]
    found = encoding.sniff(cut)
    assert found is not None and encoding.decode(cut, found) is None


# ---- one diagnostic, not a flood -------------------------------------------------------------


@pytest.mark.parametrize(("codec", "name", "bom"), CODECS)
def test_a_utf16_file_gets_one_diagnostic_naming_encoding_and_policy(
    codec: str, name: str, bom: bool
) -> None:
    for path in real_files():
        result = parse_bytes(wide(path, codec))
        (d,) = result.diagnostics
        assert (d.code, d.span.line, d.span.column) == (syntax.WIDE_ENCODING, 1, 1)
        policy = path.read_text().split()[0]
        assert name in d.message and f"`{policy}`" in d.message, d.message
        assert ("with a byte order mark" if bom else "without a byte order mark") in d.message


def test_lint_reports_it_once_with_its_fix_and_no_garbled_excerpt(tmp_path: Path) -> None:
    path = write(tmp_path, "w.txt", wide(real_files()[0], "utf-16"))
    result = runner.invoke(app, ["lint", str(path)])
    assert result.exit_code == 1
    assert result.stdout.count("WK119") == 1 and "error[" in result.stdout
    assert "fix: convert the file to UTF-8" in result.stdout
    assert "\\x00" not in result.stdout  # the UTF-8 reading of the file is not shown


def test_json_and_sarif_outputs(tmp_path: Path, sarif_schema: dict[str, object]) -> None:  # noqa: F811
    path = write(tmp_path, "w.txt", wide(real_files()[0], "utf-16-be"))
    (item,) = json.loads(runner.invoke(app, ["lint", "-f", "json", str(path)]).stdout)
    assert (item["code"], item["name"], item["fix"]["safe"]) == ("WK119", "utf16-file", True)
    document = json.loads(runner.invoke(app, ["lint", "-f", "sarif", str(path)]).stdout)
    validate(document, sarif_schema)
    (sarif,) = document["runs"][0]["results"]
    # SARIF fixes replace regions; a conversion of every byte is not offered as one.
    assert sarif["ruleId"] == "WK119" and "fixes" not in sarif


def test_explain_says_what_the_file_is(tmp_path: Path) -> None:
    path = write(tmp_path, "w.txt", wide(real_files()[0], "utf-16"))
    facts = json.loads(runner.invoke(app, ["explain", "-f", "json", str(path)]).stdout)
    assert facts["represents"].startswith("A text file in UTF-16 or UTF-32")
    assert [f["code"] for f in facts["findings"]] == ["WK119"]


def test_fmt_leaves_it_alone(tmp_path: Path) -> None:
    data = wide(real_files()[0], "utf-16")
    path = write(tmp_path, "w.txt", data)
    result = runner.invoke(app, ["fmt", str(path)])
    # issue 41: not "syntax errors", but what fixes it
    assert result.exit_code == 1 and "syntax errors" not in result.stderr
    assert "not formatted: convert the file to UTF-8 without a byte order mark first " in (
        result.stderr
    )
    assert "(`wkparse lint --fix` does)" in result.stderr
    assert path.read_bytes() == data


# ---- lint --fix converts it back -------------------------------------------------------------


class Fixed(NamedTuple):
    """An original after `lint --fix -f json`: its bytes, the exit code, the findings (without
    their path)."""

    data: bytes
    exit_code: int
    findings: list[dict[str, object]]


def fixed_json(path: Path) -> Fixed:
    """`lint --fix -f json` of `path`, which it may rewrite."""
    result = runner.invoke(app, ["lint", "--fix", "-f", "json", str(path)])
    findings = [{k: v for k, v in d.items() if k != "path"} for d in json.loads(result.stdout)]
    return Fixed(path.read_bytes(), result.exit_code, findings)


@pytest.fixture(scope="module")
def fixed_original(tmp_path_factory: pytest.TempPathFactory) -> Callable[[int, Path], Fixed]:
    """The original `source`, as file `{i}-a-{name}`, fixed once for every test that compares
    a damaged copy with it."""
    folder = tmp_path_factory.mktemp("originals")

    @functools.cache
    def fix(i: int, source: Path) -> Fixed:
        return fixed_json(write(folder, f"{i}-a-{source.name}", source.read_bytes()))

    return fix


@pytest.mark.parametrize("codec", [c for c, _, _ in CODECS])
def test_fixing_the_utf16_file_gives_what_fixing_the_original_gives(
    codec: str, tmp_path: Path, fixed_original: Callable[[int, Path], Fixed]
) -> None:
    """Every character is kept: the converted file is the original, with the original's own
    safe fixes applied, and it lints as the original does after them."""
    for i, source in enumerate(real_files()):
        a = fixed_original(i, source)
        converted = write(tmp_path, f"{i}-b-{source.name}", wide(source, codec))
        mode = 0o640
        converted.chmod(mode)
        b = fixed_json(converted)
        assert b.data == a.data, source
        assert converted.stat().st_mode & 0o777 == mode
        assert a.exit_code == b.exit_code
        assert a.findings == b.findings, source


def test_the_fix_is_not_applied_when_the_rule_is_ignored(tmp_path: Path) -> None:
    data = wide(real_files()[0], "utf-16")
    path = write(tmp_path, "w.txt", data)
    result = runner.invoke(app, ["lint", "--fix", "--ignore", "WK119", str(path)])
    assert result.exit_code == 0 and path.read_bytes() == data


def test_a_cut_off_utf16_file_is_reported_but_not_converted(tmp_path: Path) -> None:
    data = wide(real_files()[0], "utf-16")[:-1]  # half a character at the end
    path = write(tmp_path, "w.txt", data)
    result = runner.invoke(app, ["lint", "--fix", str(path)])
    assert result.exit_code == 1 and "WK119" in result.stdout
    assert path.read_bytes() == data


# ---- folder walks --------------------------------------------------------------------------


def test_a_walk_lints_a_utf16_workload_and_skips_utf16_notes(tmp_path: Path) -> None:
    write(tmp_path, "workload.txt", wide(real_files()[0], "utf-16"))
    write(tmp_path, "notes.txt", "how these were made\n".encode("utf-16"))
    result = runner.invoke(app, ["lint", "-f", "json", str(tmp_path)])
    assert [(Path(d["path"]).name, d["code"]) for d in json.loads(result.stdout)] == [
        ("workload.txt", "WK119")
    ]
    assert "Skipped 1 non-workload file" in result.stderr  # --verbose names it
    verbose = runner.invoke(app, ["lint", "-f", "json", "--verbose", str(tmp_path)])
    assert "skipped" in verbose.stderr and "notes.txt" in verbose.stderr


# ---- CR-only line ends (WK120) ---------------------------------------------------------------


def lf_files() -> list[Path]:
    """Real files with LF line ends only (CRLF would become CR CR, a blank line apiece)."""
    return [p for p in real_files() if b"\r" not in p.read_bytes()]


def cr_only(path: Path) -> bytes:
    return path.read_bytes().replace(b"\n", b"\r")


def test_every_real_file_with_cr_line_ends_gets_one_diagnostic_where_line_1_ends() -> None:
    for path in lf_files():
        (d,) = parse_bytes(cr_only(path)).diagnostics
        header = path.read_text().split("\n", 1)[0]
        assert (d.code, d.span.line, d.span.column) == (syntax.CR_LINE_ENDS, 1, len(header) + 1)


def test_fixing_cr_line_ends_gives_back_the_original(
    tmp_path: Path, fixed_original: Callable[[int, Path], Fixed]
) -> None:
    for i, source in enumerate(lf_files()):
        a = fixed_original(i, source)
        b = fixed_json(write(tmp_path, f"{i}-b-{source.name}", cr_only(source)))
        assert b.data == a.data, source
        assert a.exit_code == b.exit_code


@pytest.mark.parametrize(
    "text",
    [
        "MICRO ga: 8\r pp: 2",  # a stray CR inside a header with nothing after it
        "MICRO\r1\nmicro_test\t-1\t1\tNONE\t0\t1\tNONE\t0\t1\tALLREDUCE\t4096\t1\n",
        "MICRO\r\n1\r\n",  # Windows line ends are fine
    ],
)
def test_a_stray_cr_or_crlf_is_not_taken_for_cr_line_ends(text: str) -> None:
    codes = {d.code for d in parse_bytes(text.encode()).diagnostics}
    assert syntax.CR_LINE_ENDS not in codes


def test_explain_and_fmt_on_cr_line_ends(tmp_path: Path) -> None:
    data = cr_only(lf_files()[0])
    path = write(tmp_path, "w.txt", data)
    facts = json.loads(runner.invoke(app, ["explain", "-f", "json", str(path)]).stdout)
    assert "carriage return alone" in facts["represents"]
    assert runner.invoke(app, ["fmt", str(path)]).exit_code == 1
    assert path.read_bytes() == data


def test_the_longest_policy_is_named_whole_after_the_longest_marks() -> None:
    text = "HYBRID_TRANSFORMER_FWD_IN_BCKWD ga: 1\n0\n"
    data = b"\xef\xbb\xbf" + text.encode("utf-32")  # a UTF-8 mark, then UTF-32's own
    (d,) = parse_bytes(data).diagnostics
    assert "UTF-32 LE" in d.message and "`HYBRID_TRANSFORMER_FWD_IN_BCKWD`" in d.message


def test_a_utf8_mark_before_utf16_text_is_part_of_the_encoding(tmp_path: Path) -> None:
    """Found by the long fuzz run: an editor's UTF-8 mark in front of mark-less UTF-16 text.
    Reported as WK119 at once (not after the mark's own fix), and converted whole."""
    source = real_files()[0]
    path = write(tmp_path, "w.txt", b"\xef\xbb\xbf" + wide(source, "utf-16-le"))
    (d,) = parse_bytes(path.read_bytes()).diagnostics
    assert d.code == syntax.WIDE_ENCODING and "UTF-16 LE" in d.message
    runner.invoke(app, ["lint", "--fix", str(path)])
    assert path.read_bytes() == source.read_bytes()


def test_utf16_with_cr_line_ends_is_converted_in_one_run(tmp_path: Path) -> None:
    source = lf_files()[0]
    path = write(tmp_path, "w.txt", source.read_text().replace("\n", "\r").encode("utf-16"))
    assert [d.code for d in parse_bytes(path.read_bytes()).diagnostics] == ["WK119"]
    result = runner.invoke(app, ["lint", "--fix", str(path)])
    assert path.read_bytes() == source.read_bytes()
    assert "WK119" not in result.stdout and "WK120" not in result.stdout
