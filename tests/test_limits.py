"""Bounds that hold whatever the file says (issue 8).

Nothing may be sized by the declared row count or a header value: a file that declares
999999999999 rows or `ga: 10^18` is linted, explained and formatted in small memory (measured
with tracemalloc, never with a clock). A file over `max-bytes` gets a diagnostic, not a
MemoryError, and is not read; a line over `max-line-bytes` gets a diagnostic with its line
number and the lines after it are still parsed. Numbers too long to become an int (Python
refuses to convert more than a few thousand digits) are syntax errors, not ValueErrors.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks import fuzzing
from tests.conftest import SAMPLES
from wkparse import parse_bytes, parse_file, parse_text, syntax
from wkparse.ast import MAX_DIGITS
from wkparse.cli import app
from wkparse.engine import lint
from wkparse.models.simai import header_value
from wkparse.parse import Limits

HEADER = (
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4 ep: 1 pp: 4 vpp: 1 ga: 2 "
    "all_gpus: 16 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 33554432"
)
ROWS = [
    "embedding_layer\t-1\t1\tALLREDUCE\t33554432\t1\tNONE\t0\t1\tNONE\t0\t100",
    "attention_layer\t-1\t1\tALLREDUCE\t33554432\t1\tALLREDUCE\t33554432\t1\tNONE\t0\t100",
    "mlp_layer\t-1\t1\tALLREDUCE\t33554432\t1\tALLREDUCE\t33554432\t1\tNONE\t0\t100",
] * 2
#: memory a command may take above what was already allocated; any allocation sized by a
#: declared value of 50,000,000 or more would need hundreds of megabytes
BUDGET = 32 * 1024**2
COMMANDS = (
    ("parse", "--format", "json"),
    ("lint", "--format", "json"),
    ("lint", "--format", "sarif"),
    ("explain", "--format", "text"),
    ("explain", "--format", "json"),
    ("fmt", "--check"),
)
runner = CliRunner()


def workload(header: str = HEADER, count: str = "6") -> str:
    return f"{header}\n{count}\n" + "\n".join(ROWS) + "\n"


def peak_memory(args: list[str]) -> tuple[int, int, str]:
    """(exit code, bytes allocated at the peak above the start, output) of one command."""
    runner.invoke(app, args)  # load grammar, catalog and checks outside the measurement
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        result = runner.invoke(app, args, catch_exceptions=False)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    return result.exit_code, peak, result.stdout + result.stderr


# ---- nothing sized by what the file declares ----------------------------------------------


@pytest.mark.parametrize("count", ["999999999999", "50000000"])
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_huge_declared_count_allocates_nothing(
    tmp_path: Path, count: str, command: tuple[str, ...]
) -> None:
    path = tmp_path / "w.txt"
    path.write_text(workload(count=count))
    code, peak, output = peak_memory([*command, str(path)])
    assert code in (0, 1)
    assert peak < BUDGET, f"{peak:,} bytes"
    if command[0] == "lint":
        assert "WK105" in output  # the count mismatch is reported, not acted upon


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("ga", "1000000000000000000"),
        ("ga", "50000000"),
        ("vpp", "50000000"),
        ("pp", "50000000"),
        ("all_gpus", "1000000000000000000"),
        ("all_gpus", "50000000"),
        ("model_parallel_NPU_group", "50000000"),
        ("ep", "50000000"),
        ("pp_comm", "1000000000000000000"),
    ],
)
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_huge_header_value_allocates_nothing(
    tmp_path: Path, key: str, value: str, command: tuple[str, ...]
) -> None:
    header = _set(HEADER, key, value)
    assert f"{key}: {value}" in header
    path = tmp_path / "w.txt"
    path.write_text(workload(header))
    code, peak, _ = peak_memory([*command, str(path)])
    assert code in (0, 1)
    assert peak < BUDGET, f"{peak:,} bytes"


def _set(header: str, key: str, value: str) -> str:
    tokens = header.split(" ")
    at = tokens.index(f"{key}:")
    tokens[at + 1] = value
    return " ".join(tokens)


# ---- file size -------------------------------------------------------------------------------


def test_parse_file_reports_a_file_over_the_limit_without_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_text(workload())
    result = parse_file(path, limits=Limits(max_bytes=100))
    assert [d.code for d in result.diagnostics] == [syntax.FILE_TOO_LARGE]
    assert "over the 100-byte limit" in result.diagnostics[0].message
    assert len(result.workload.rows) == 0


@pytest.fixture
def sparse_3gb(tmp_path: Path) -> Path:
    """A 3 GiB file (over the default 2 GiB limit) that takes no disk space."""
    path = tmp_path / "huge.txt"
    with path.open("wb") as f:
        f.write(HEADER.encode() + b"\n")
        f.truncate(3 * 1024**3)
    if os.stat(path).st_blocks * 512 > 64 * 1024**2:  # pragma: no cover
        pytest.skip("this file system does not keep sparse files")
    return path


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_file_over_the_default_limit_is_a_diagnostic_not_a_read(
    sparse_3gb: Path, command: tuple[str, ...]
) -> None:
    code, peak, output = peak_memory([*command, str(sparse_3gb)])
    assert code == (0 if command[0] == "explain" else 1)  # explain describes, lint judges
    assert syntax.FILE_TOO_LARGE in output
    assert peak < BUDGET, f"{peak:,} bytes"
    assert "MemoryError" not in output


def _fifo_with(tmp_path: Path, data: bytes) -> tuple[Path, threading.Thread]:
    path = tmp_path / "pipe.txt"
    os.mkfifo(path)

    def write() -> None:
        with contextlib.suppress(BrokenPipeError), path.open("wb") as f:
            f.write(data)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    return path, writer


def test_a_pipe_is_read_up_to_the_limit_and_no_further(tmp_path: Path) -> None:
    path, writer = _fifo_with(tmp_path, workload().encode() * 50)
    result = parse_file(path, limits=Limits(max_bytes=1000))
    writer.join(10)
    assert [d.code for d in result.diagnostics] == [syntax.FILE_TOO_LARGE]


def test_a_pipe_within_the_limit_parses(tmp_path: Path) -> None:
    path, writer = _fifo_with(tmp_path, workload().encode())
    result = parse_file(path)
    writer.join(10)
    assert not result.diagnostics and len(result.workload.rows) == len(ROWS)


def test_a_device_is_refused_not_read() -> None:
    with pytest.raises(OSError, match="not a regular file"):
        parse_file("/dev/zero")


def test_max_bytes_comes_from_the_config_file(tmp_path: Path) -> None:
    (tmp_path / ".wkparse.toml").write_text("max-bytes = 100\n")
    path = tmp_path / "w.txt"
    path.write_text(workload())
    result = runner.invoke(app, ["lint", "--format", "json", str(path)], catch_exceptions=False)
    assert result.exit_code == 1
    assert [d["code"] for d in json.loads(result.stdout)] == [syntax.FILE_TOO_LARGE]


# ---- line length -----------------------------------------------------------------------------


def test_a_line_over_the_cap_is_reported_and_the_rest_still_parses() -> None:
    long_row = "x" * 200 + ROWS[0]
    text = f"{HEADER}\n3\n{ROWS[0]}\n{long_row}\n{ROWS[1]}\n"
    result = parse_text(text, limits=Limits(max_line_bytes=180))
    assert [(d.code, d.span.line) for d in result.diagnostics] == [(syntax.LINE_TOO_LONG, 4)]
    assert [r.name for r in result.workload.rows] == ["embedding_layer", None, "attention_layer"]


@pytest.mark.parametrize("line", [1, 2, 3])
def test_a_million_character_line_is_capped_by_default(line: int) -> None:
    lines = workload().split("\n")
    lines[line - 1] = "9" * 1_000_000
    result = parse_text("\n".join(lines))
    assert (syntax.LINE_TOO_LONG, line) in [(d.code, d.span.line) for d in result.diagnostics]


def test_max_line_bytes_comes_from_the_config_file(tmp_path: Path) -> None:
    (tmp_path / ".wkparse.toml").write_text("max-line-bytes = 100\n")
    path = tmp_path / "w.txt"
    path.write_text(workload())
    result = runner.invoke(app, ["lint", "--format", "json", str(path)], catch_exceptions=False)
    found = {(d["code"], d["line"]) for d in json.loads(result.stdout)}
    assert (syntax.LINE_TOO_LONG, 1) in found  # the header is 150 bytes long


# ---- long tokens cost linear time -------------------------------------------------------------

#: tokens that are almost numbers; a backtracking regular expression takes time quadratic in
#: their length (a 65,000-digit one took 200 s before the grammar's NUMBER was rewritten)
_NEAR_NUMBERS = {
    "digits-then-letter": "9" * 64_000 + "x",
    "two-runs-of-digits": "9" * 32_000 + "." + "9" * 32_000 + "x",
    "digits-then-exponent": "9" * 64_000 + "e99x",
    "signed-digits": "-" + "9" * 64_000 + "x",
    "digits-then-dot": "9" * 64_000 + ".x",
}


@pytest.mark.parametrize("token", list(_NEAR_NUMBERS.values()), ids=list(_NEAR_NUMBERS))
@pytest.mark.parametrize("where", ["header value", "count", "row field"])
@pytest.mark.parametrize("fast", [True, False])
def test_a_long_near_number_parses_without_backtracking(token: str, where: str, fast: bool) -> None:
    from benchmarks.fuzzing import watchdog

    if where == "header value":
        text = workload(_set(HEADER, "ga", token))
    elif where == "count":
        text = workload(count=token)
    else:
        text = f"{HEADER}\n1\n" + ROWS[0].replace("33554432", token) + "\n"
    with watchdog(10):  # a hang detector, not a speed assertion: linear work takes ~0.1 s
        result = parse_text(text, fast=fast)
    assert result.diagnostics or where == "header value"


_LONG_WORDS = {
    "word": "attention_layer" * 4000,
    "control-characters": "a\x00" * 30_000,
    "non-ascii": "\u00e9" * 30_000,
}


def _with_long_word(where: str, word: str) -> str:
    if where == "policy":
        # explain's row notes quote an unknown policy: 60 rows of them, each 60,000 long
        rows = [ROWS[1].replace("_layer", f"_{i}") for i in range(60)]
        return f"{word}{HEADER[HEADER.index(' ') :]}\n60\n" + "\n".join(rows) + "\n"
    if where == "header key":
        return workload(f"{HEADER} {word[:-1]}: 1")
    if where == "comm type":
        # explain's row table once padded each line of an expanded group to its widest cell:
        # 1,201 lines of 60,000 characters (28 s)
        group = [ROWS[0].replace("ALLREDUCE", word), *[ROWS[1], ROWS[2]] * 600]
        header = _set(_set(HEADER, "vpp", "600"), "ga", "2")
        return f"{header}\n{2 * len(group)}\n" + "\n".join(group * 2) + "\n"
    return f"{HEADER}\n1\n" + ROWS[0].replace("embedding_layer", word) + "\n"


@pytest.mark.parametrize("word", list(_LONG_WORDS.values()), ids=list(_LONG_WORDS))
@pytest.mark.parametrize("where", ["policy", "header key", "comm type", "row name"])
def test_a_long_word_is_rendered_in_bounded_time(tmp_path: Path, word: str, where: str) -> None:
    from benchmarks.fuzzing import watchdog

    path = tmp_path / "w.txt"
    path.write_text(_with_long_word(where, word))
    for command in (["lint"], ["explain"], ["explain", "--format", "markdown"]):
        with watchdog(10):  # a hang detector: 0.6 s at most now, 14 s and 28 s before
            result = runner.invoke(app, [*command, str(path)], catch_exceptions=False)
        assert result.exit_code in (0, 1)


# ---- numbers too long to be ints ---------------------------------------------------------------


def test_a_count_with_too_many_digits_is_a_syntax_error() -> None:
    result = parse_text(workload(count="9" * 5000))
    assert [d.code for d in result.diagnostics] == [syntax.COUNT_NOT_INTEGER]
    assert "5,000 digits" in result.diagnostics[0].message
    assert result.workload.count is not None and result.workload.count.value is None


@pytest.mark.parametrize("fast", [True, False])
def test_a_row_number_with_too_many_digits_is_a_syntax_error(fast: bool) -> None:
    huge = "9" * (MAX_DIGITS + 1)
    row = ROWS[0].replace("33554432", huge)
    result = parse_text(f"{HEADER}\n1\n{row}\n", fast=fast)
    column = row.index(huge) + 1
    assert [(d.code, d.span.line, d.span.column) for d in result.diagnostics] == [
        (syntax.WORD_FOR_NUMBER, 3, column)
    ]
    assert result.workload.rows[0].fields.fwd.size is None
    assert len(result.diagnostics[0].message) < 300  # the token is elided, not quoted whole


def test_numbers_up_to_the_digit_bound_are_read_exactly() -> None:
    row = ROWS[0].replace("33554432", str(10**400))
    result = parse_text(f"{HEADER}\n1\n{row}\n")
    assert not result.diagnostics
    assert result.workload.rows[0].fields.fwd.size == 10**400


def test_a_header_value_with_too_many_digits_is_not_an_int_and_lints() -> None:
    result = parse_text(workload(_set(HEADER, "ga", "9" * 5000)))
    assert result.workload.header is not None
    assert header_value(result.workload.header, "ga") is None
    assert lint(result, "w.txt")  # diagnostics, not a ValueError


#: tokens with more digits than Python's int() converts (4,300 by default)
_DIGIT_RUNS = {
    "integer": "9" * 5000,
    "fraction": "9" * 5000 + ".5",
    "exponent": "9" * 5000 + "e5",
    "then-letter": "9" * 5000 + "x",
    "name-with-counter": "layer" + "9" * 5000,
}


@pytest.mark.parametrize("token", list(_DIGIT_RUNS.values()), ids=list(_DIGIT_RUNS))
@pytest.mark.parametrize("where", ["ga", "pp_comm", "count", "row name", "row size"])
def test_thousands_of_digits_anywhere_never_reach_int(
    tmp_path: Path, token: str, where: str
) -> None:
    if where in ("ga", "pp_comm"):
        text = workload(_set(HEADER, where, token))
    elif where == "count":
        text = workload(count=token)
    else:
        old = "embedding_layer" if where == "row name" else "\t33554432\t"
        new = token if where == "row name" else f"\t{token}\t"
        text = f"{HEADER}\n1\n" + ROWS[0].replace(old, new) + "\n"
    path = tmp_path / "w.txt"
    path.write_text(text)
    for command in (["lint", "--format", "json"], ["explain", "--format", "json"], ["fmt"]):
        result = runner.invoke(app, [*command, str(path)], catch_exceptions=False)
        assert result.exit_code in (0, 1), (command, result.output)


def test_a_count_with_too_many_digits_and_junk_is_not_converted() -> None:
    result = parse_bytes(workload(count="9" * 5000 + "x").encode())
    assert [d.code for d in result.diagnostics] == [syntax.COUNT_NOT_INTEGER]
    assert len(result.diagnostics[0].message) < 300


@pytest.mark.skipif(shutil.which("yes") is None, reason="needs `yes`")
@pytest.mark.parametrize("command", [("lint",), ("explain",), ("fmt", "--check")], ids=" ".join)
def test_endless_standard_input_is_read_up_to_the_limit(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """`yes 9 | wkparse lint -` ends, reporting the input as too large (not a MemoryError)."""
    (tmp_path / ".wkparse.toml").write_text("max-bytes = 100000\n")
    done = subprocess.run(
        ["sh", "-c", f"yes 9 | {shlex.quote(sys.executable)} -m wkparse {' '.join(command)} -"],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    assert syntax.FILE_TOO_LARGE.encode() in done.stdout + done.stderr


def test_explain_says_a_file_over_the_limit_was_not_read(tmp_path: Path) -> None:
    (tmp_path / ".wkparse.toml").write_text("max-bytes = 100\n")
    path = tmp_path / "w.txt"
    path.write_text(workload())
    result = runner.invoke(app, ["explain", "--format", "json", str(path)])
    facts = json.loads(result.stdout)
    assert facts["represents"].startswith("A file over wkparse's size limit, so it was not read")


def _explained(path: Path, *options: str) -> dict[str, Any]:
    with fuzzing.watchdog(60):  # a second open of a pipe would wait for a writer forever
        result = runner.invoke(app, ["explain", "--format", "json", *options, str(path)])
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def test_explain_reads_a_pipe_once_for_its_parse_and_simai(tmp_path: Path) -> None:
    """A pipe is read once: the parse and "What SimAI-Analytical will report" both come from
    it, as from the same bytes in a file (a second read of the pipe found nothing)."""
    text = workload().encode()
    (tmp_path / "file").mkdir()
    file = tmp_path / "file" / "pipe.txt"  # the same name: SimAI names its report by it
    file.write_bytes(text)
    path, writer = _fifo_with(tmp_path, text)
    piped = _explained(path)
    writer.join(10)
    assert piped["simai_report"] is not None
    from_file = _explained(file)
    assert piped["simai_report"] == from_file["simai_report"]
    assert piped["generation"] == from_file["generation"]  # the AICB behind it, too


def test_explain_of_standard_input_infers_the_aicb_behind_it(tmp_path: Path) -> None:
    """The same bytes on standard input tell what they tell from a file, AICB's command and
    revisions included (but the file name, which standard input has none of)."""
    file = SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt"
    result = runner.invoke(app, ["explain", "--format", "json", "-"], input=file.read_text())
    given = json.loads(result.stdout)["generation"]
    from_file = _explained(file)["generation"]
    assert from_file["aicb_command"] is not None
    assert given["aicb_command"] == from_file["aicb_command"]
    assert given["era"] == from_file["era"]


def test_explain_of_a_pipe_over_the_limit_reports_the_size(tmp_path: Path) -> None:
    """Past the byte limit, explain of a pipe says the file is too large; it does not read on
    and explain the rest of the pipe."""
    (tmp_path / ".wkparse.toml").write_text("max-bytes = 300\n")
    path, writer = _fifo_with(tmp_path, workload().encode() * 3)
    doc = _explained(path)
    writer.join(10)
    assert syntax.FILE_TOO_LARGE in [d["code"] for d in doc["findings"]]
    assert doc.get("simai_report") is None


def _diffed(a: Path, b: Path) -> Any:
    with fuzzing.watchdog(60):  # a second open of a pipe would wait for a writer forever
        return runner.invoke(app, ["diff", "--format", "json", str(a), str(b)])


def test_diff_reads_a_pipe_once_for_its_parse_and_simai(tmp_path: Path) -> None:
    """`wkparse diff a.txt <(cmd)`: the pipe is read once, for the rows and for SimAI's
    prediction, which is the one made for the same bytes in a file."""
    edited = workload().replace("\t1\tALLREDUCE", "\t9\tALLREDUCE", 1).encode()
    a = tmp_path / "a.txt"
    a.write_text(workload())
    (tmp_path / "copy").mkdir()
    copy = tmp_path / "copy" / "pipe.txt"
    copy.write_bytes(edited)
    path, writer = _fifo_with(tmp_path, edited)
    piped = _diffed(a, path)
    writer.join(10)
    assert piped.exit_code == 1, piped.output
    simai = json.loads(piped.stdout)["simai_total_time"]
    assert simai is not None and simai == json.loads(_diffed(a, copy).stdout)["simai_total_time"]


def test_diff_of_a_pipe_with_a_syntax_error_shows_its_line(tmp_path: Path) -> None:
    """A pipe that does not parse gets lint's excerpt of the bad line, from the bytes read."""
    a = tmp_path / "a.txt"
    a.write_text(workload())
    path, writer = _fifo_with(
        tmp_path, workload().replace("mlp_layer\t-1", "mlp_layer\tx").encode()
    )
    result = _diffed(a, path)
    writer.join(10)
    assert result.exit_code == 2
    assert re.search(r"5 \| mlp_layer\s+x\s+1", result.stderr), result.stderr
