"""Hostile input never crashes, hangs or loses data: the bounded fuzz suite (issue 8).

Three layers, all seeded so that a failure replays exactly:
- each hostile input the issue names (empty file, header only, BOM, CRLF, UTF-16, NUL bytes,
  invalid UTF-8, absurd count lines, huge numbers, `ga: 10^18`, a key without a value, a
  1,000,000-character line, random binary), once, through every command and format;
- mutations of real files (`../shared/corpus`, or `samples/` without it): byte flips,
  truncation, shuffled and deleted lines and tokens, huge numbers, ... stacked one to three
  deep; each case runs every command, the formats taking turns (`fuzzing.rotation`);
- hypothesis-built workload-like text through `lint`, `explain` and `fmt -` on stdin.
Then: invalid UTF-8 is reported at its line and column by every command; a folder holding link
loops, a dangling link, a device and a pipe named `.txt` is walked to the end; a handful of
real processes show no traceback. The contract is `check_case` of `benchmarks/fuzzing.py`. The
long run (`benchmarks/fuzz_long.py`) is the same check over 20,000 cases and every format.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from benchmarks import fuzzing
from benchmarks.fuzzing import Base, Case
from tests.conftest import CORPUS, SAMPLES, corpus_files
from wkparse import parse_bytes, syntax
from wkparse.checks import reached
from wkparse.cli import app

SEED = 8
MUTATED_CASES = 150
#: the bounded suite mutates the smaller real files; the long run takes them all
MAX_BASE_BYTES = 64 * 1024


@functools.cache
def bases() -> tuple[Base, ...]:
    small = [p for p in corpus_files() if p.stat().st_size <= MAX_BASE_BYTES]
    if small:
        return tuple(fuzzing.load_bases(small, CORPUS))
    return tuple(fuzzing.load_bases(sorted(SAMPLES.glob("*.txt")), SAMPLES))


def _assert_holds(
    case: Case, workdir: Path, invocations: tuple[fuzzing.Invocation, ...] = fuzzing.INVOCATIONS
) -> None:
    failures = fuzzing.check_case(case, workdir, invocations=invocations)
    assert not failures, "\n\n".join(map(str, failures))


# ---- the named hostile inputs, every command and format ------------------------------------


@pytest.mark.parametrize("case", list(fuzzing.named_cases(bases())), ids=lambda c: c.label)
def test_named_hostile_input(case: Case, tmp_path: Path) -> None:
    _assert_holds(case, tmp_path)


# ---- seeded mutations of real files ----------------------------------------------------------


@pytest.mark.parametrize("index", range(MUTATED_CASES))
def test_mutated_real_file(index: int, tmp_path: Path) -> None:
    case = fuzzing.make_case(SEED, index, bases())
    _assert_holds(case, tmp_path, fuzzing.rotation(index))


def test_a_case_replays_to_the_same_bytes() -> None:
    for index in range(20):
        first = fuzzing.make_case(SEED, index, bases())
        again = fuzzing.make_case(SEED, index, bases())
        assert (first.label, first.data) == (again.label, again.data)


def test_the_mutations_reach_every_kind_of_line() -> None:
    """The mutated cases break headers, counts and rows alike, in several ways each."""
    codes: set[str] = set()
    for index in range(MUTATED_CASES):
        codes.update(
            d.code for d in parse_bytes(fuzzing.make_case(SEED, index, bases()).data).diagnostics
        )
    assert {syntax.COUNT_NOT_INTEGER, syntax.MISSING_FIELD, syntax.INVALID_UTF8} <= codes
    assert len(codes) >= 8, sorted(codes)


def test_the_watchdog_interrupts_a_hang() -> None:
    with pytest.raises(fuzzing.CaseTimeout), fuzzing.watchdog(0.05):
        while True:
            pass


# ---- hypothesis: workload-like text through stdin --------------------------------------------

_NUMBERS = st.sampled_from(
    ["0", "1", "-1", "4", "64", "8388608.0", "1e9", "0x10", "-5", "999999999999",
     str(10**18), str(10**400), "9" * 700, "", "\u0663", "\u00b2"]
)  # fmt: skip
_WORDS = st.sampled_from(
    ["NONE", "ALLREDUCE", "ALLGATHER_DP_EP", "ALLTOALL_EP", "REDUCESCATTER", "ALLREDUSE",
     "BROADCAST", "ALLREDUCEALLTOALL", "embedding_layer", "attention_layer", "mlp_layer",
     "micro_test", "\x00", "\ufeff", "x:"]
)  # fmt: skip
_POLICIES = st.sampled_from(
    ["HYBRID_TRANSFORMER_FWD_IN_BCKWD", "HYBRID_TRANSFORMER", "MICRO", "DATA",
     "HYBRID_CUSTOMIZED", "HYBRID_DLRM", "\ufeffHYBRID_TRANSFORMER", "hybrid", ""]
)  # fmt: skip
_SEP = st.sampled_from([" ", "\t", "  ", " \t", "\v"])
_END = st.sampled_from(["\n", "\r\n", "\n\n", "\r"])


@st.composite
def workload_text(draw: st.DrawFn) -> str:
    header = [draw(_POLICIES)]
    for _ in range(draw(st.integers(0, 9))):
        header.append(draw(st.sampled_from([*fuzzing.HEADER_KEYS, "junk"])) + ":")
        header.append(draw(_NUMBERS))
    rows = []
    for _ in range(draw(st.integers(0, 6))):
        tokens = [draw(_WORDS), "-1"]
        for _ in range(3):
            tokens += [draw(_NUMBERS), draw(_WORDS), draw(_NUMBERS)]
        tokens.append(draw(_NUMBERS))
        tokens = tokens[: draw(st.integers(9, 13))]
        rows.append(draw(_SEP).join(tokens))
    count = draw(st.one_of(_NUMBERS, st.just(str(len(rows)))))
    end = draw(_END)
    return end.join([" ".join(header), count, *rows]) + draw(st.sampled_from(["", end]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workload_text())
def test_workload_like_text_on_stdin(text: str) -> None:
    data = text.encode("utf-8")
    expected = parse_bytes(data)
    runner = CliRunner()
    for args in (["lint", "--format", "json", "-"], ["explain", "--format", "json", "-"]):
        with fuzzing.watchdog(10):
            result = runner.invoke(app, args, input=data, catch_exceptions=False)
        assert result.exit_code in (0, 1), result.output
        json.loads(result.stdout)
        # the parser's findings on the lines SimAI reads (none after a line 1 it stops at)
        assert all(
            d.code in result.stdout for d in reached(expected.workload, expected.diagnostics)
        )
    with fuzzing.watchdog(10):
        formatted = runner.invoke(app, ["fmt", "-"], input=data, catch_exceptions=False)
    if expected.diagnostics:
        assert formatted.exit_code == 1 and not formatted.stdout_bytes
    else:  # a byte order mark is kept, and named (WK107): exit 1
        assert formatted.exit_code == (1 if data.startswith(b"\xef\xbb\xbf") else 0)
        assert fuzzing.values(parse_bytes(formatted.stdout_bytes)) == fuzzing.values(expected)


# ---- encoding: bad bytes are reported where they are, in every command ---------------------

_ASCII_LINE = st.text(
    st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=30
)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(_ASCII_LINE, min_size=1, max_size=6),
    st.data(),
    st.sampled_from(fuzzing.INVALID_UTF8),
)
def test_invalid_utf8_is_reported_at_its_line_and_column(
    lines: list[str], data: st.DataObject, bad: bytes
) -> None:
    line = data.draw(st.integers(0, len(lines) - 1))
    column = data.draw(st.integers(0, len(lines[line])))
    raw = [s.encode() for s in lines]
    raw[line] = raw[line][:column] + bad + raw[line][column:]
    result = parse_bytes(b"\n".join(raw) + b"\n")
    found = [
        (d.span.line, d.span.column) for d in result.diagnostics if d.code == syntax.INVALID_UTF8
    ]
    assert found == [(line + 1, column + 1)]


def test_every_command_reports_a_bad_byte_with_line_and_column(tmp_path: Path) -> None:
    row = "micro_test\t-1\t1\tNONE\t0\t1\tNONE\t0\t1\tALLREDUCE\t4096\t1"
    path = tmp_path / "w.txt"
    path.write_bytes(f"MICRO\n1\n{row}\n".encode().replace(b"_test", b"_t\xffest"))
    column = row.index("_test") + 3
    runner = CliRunner()
    for args in (
        ["parse"],
        ["lint"],
        ["lint", "--format", "github"],
        ["explain"],
        ["explain", "--format", "markdown"],
        ["fmt", "--check"],
    ):
        out = runner.invoke(app, [*args, str(path)], catch_exceptions=False).output
        assert "WK117" in out and f"column {column}" in out, (args, out)
        assert re.search(r":3:|line=3|line 3\b", out), (args, out)
    lint_json = runner.invoke(app, ["lint", "--format", "json", str(path)]).stdout
    where = {"code": "WK117", "line": 3, "column": column}
    assert any(where.items() <= d.items() for d in json.loads(lint_json))
    explain_json = json.loads(runner.invoke(app, ["explain", "--format", "json", str(path)]).stdout)
    assert any(
        (f["code"], f["line"], f["column"]) == ("WK117", 3, column)
        for f in explain_json["findings"]
    )


# ---- hostile trees (the walk itself is wkparse/discover.py's, tested in test_discover.py) ---


@pytest.fixture
def hostile_tree(tmp_path: Path) -> Path:
    """Link loops, a dangling link, a device and a pipe named `.txt`, binary and notes."""
    named = {c.label: c for c in fuzzing.named_cases(bases())}
    good = next(b for b in bases() if not parse_bytes(b.data).diagnostics)
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "good.txt").write_bytes(good.data)
    (tmp_path / "a" / "loop").symlink_to(tmp_path)
    (tmp_path / "a" / "self").symlink_to(tmp_path / "a")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "blob.txt").write_bytes(named["random binary"].data)
    (tmp_path / "b" / "notes.txt").write_text("how these workloads were made\n")
    header, count, rest = good.data.split(b"\n", 2)
    (tmp_path / "b" / "bad.txt").write_bytes(b"\n".join([header, count, b"\xff" + rest]))
    (tmp_path / "ghost.txt").symlink_to(tmp_path / "missing.txt")
    (tmp_path / "zero.txt").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "fifo.txt")  # opening it would wait for a writer forever
    return tmp_path


@pytest.mark.parametrize("command", [["lint", "--format", "json"], ["fmt", "--check"]])
def test_a_hostile_tree_is_walked_to_the_end(hostile_tree: Path, command: list[str]) -> None:
    with fuzzing.watchdog(30):
        result = CliRunner().invoke(app, [*command, str(hostile_tree)], catch_exceptions=False)
    assert result.exit_code == 2  # the dangling link
    assert "ghost.txt" in result.stderr and "Traceback" not in result.output
    if command[0] == "lint":
        reported = {Path(d["path"]).name for d in json.loads(result.stdout)}
        assert "bad.txt" in reported and not reported & {"blob.txt", "notes.txt", "zero.txt"}


@pytest.mark.parametrize("command", [["parse"], ["explain"], ["lint"], ["fmt", "--check"]])
def test_a_device_named_explicitly_is_refused_not_read(
    hostile_tree: Path, command: list[str]
) -> None:
    with fuzzing.watchdog(30):
        result = CliRunner().invoke(
            app, [*command, str(hostile_tree / "zero.txt")], catch_exceptions=False
        )
    assert result.exit_code == 2
    assert "not a regular file" in result.stderr


# ---- a few real processes: real tracebacks and exit codes -------------------------------------


@pytest.mark.parametrize(
    "name", ["random binary", "1,000,000-character line", "count line b'999999999999'", "ga: 10^18"]
)
def test_real_process_exits_cleanly(name: str, tmp_path: Path) -> None:
    case = next(c for c in fuzzing.named_cases(bases()) if c.label == name)
    path = tmp_path / case.name
    path.write_bytes(case.data)
    command = ["lint", "--format", "sarif"] if len(case.data) < 100_000 else ["explain"]
    done = subprocess.run(
        [sys.executable, "-m", "wkparse", *command, str(path)],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode in (0, 1)
    assert b"Traceback" not in done.stderr + done.stdout
    if command[0] == "lint":
        json.loads(done.stdout)
