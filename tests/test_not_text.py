"""Binary data under a workload's name (WK121): reported once, read no further, never
rewritten by any command, whether the file is named or reached by walking a folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.test_never_writes import BINARY, SAMPLE
from wkparse import encoding, parse_bytes, syntax
from wkparse.ast import Span
from wkparse.cli import app
from wkparse.diagnostics import Diagnostic, Fix
from wkparse.fix import fix_file

runner = CliRunner()
#: high bytes that are no UTF-8, with CRs between them and no NUL and no LF at all
UNDECODABLE = bytes(range(0x80, 0x100)) * 4 + b"\r" + bytes(range(0x80, 0xC0)) + b"\r\r"
#: a policy line, then binary data: a walk takes it for a workload, the parser must not
POLICY_THEN_BINARY = b"HYBRID_TRANSFORMER_FWD_IN_BCKWD ga: 1\n1\n" + BINARY


@pytest.mark.parametrize("data", [BINARY, UNDECODABLE, POLICY_THEN_BINARY])
def test_binary_data_is_one_not_text_diagnostic(data: bytes) -> None:
    (d,) = parse_bytes(data).diagnostics
    assert d.code == syntax.NOT_TEXT
    assert d.message.startswith("not a text file")


@pytest.mark.parametrize(
    "data",
    [
        SAMPLE.read_bytes(),
        SAMPLE.read_text().encode("utf-16"),  # NULs, but text once decoded (WK119)
        SAMPLE.read_bytes().replace(b"moe", b"m\xf6e"),  # a few Latin-1 bytes (WK117)
        b"\xff\n",  # one bad byte on a short line is a bad byte, not binary data
    ],
)
def test_text_is_not_taken_for_binary_data(data: bytes) -> None:
    assert encoding.not_text(data[: encoding.TEXT_SNIFF_BYTES]) is None


@pytest.mark.parametrize("data", [BINARY, UNDECODABLE, POLICY_THEN_BINARY])
def test_no_command_rewrites_binary_data(data: bytes, tmp_path: Path) -> None:
    path = tmp_path / "x.txt"
    path.write_bytes(data)
    for args in (
        ["lint", "--fix", "--unsafe-fixes"],
        ["fmt"],
        ["lint", "--fix", "--format", "json"],
    ):
        runner.invoke(app, [*args, str(path)])  # named
        runner.invoke(app, [*args, str(tmp_path)])  # walked
        assert path.read_bytes() == data, args


def test_lint_reports_it_once_named_and_explain_says_what_it_is(tmp_path: Path) -> None:
    path = tmp_path / "x.txt"
    path.write_bytes(BINARY)
    found = json.loads(runner.invoke(app, ["lint", "-f", "json", str(path)]).stdout)
    assert [d["code"] for d in found] == [syntax.NOT_TEXT]
    facts = json.loads(runner.invoke(app, ["explain", "-f", "json", str(path)]).stdout)
    assert "Not a text file" in facts["represents"]


def test_fix_file_refuses_binary_data_whatever_the_diagnostics_say(tmp_path: Path) -> None:
    """The last guard: even a CR-line-ends fix handed in by a caller is not applied."""
    path = tmp_path / "x.txt"
    path.write_bytes(BINARY)
    forged = Diagnostic(syntax.CR_LINE_ENDS, "", Span(1, 1, 1, 2), fix=Fix("end every line", ()))
    assert fix_file(path, [forged]).applied == 0
    assert path.read_bytes() == BINARY


@pytest.mark.parametrize("data", [BINARY, UNDECODABLE], ids=["nul", "undecodable"])
@pytest.mark.parametrize(
    "command", [["lint"], ["simai"], ["simai", "--backend", "ns3"], ["explain"]], ids=" ".join
)
def test_a_line_of_raw_bytes_is_never_printed_as_text(
    command: list[str], data: bytes, tmp_path: Path
) -> None:
    """Issue 32: lint printed line 1 of a binary file as text (escapes and U+FFFD), and simai
    quoted it as a Python repr."""
    path = tmp_path / "data.txt"
    path.write_bytes(data)
    result = runner.invoke(app, [*command, str(path)])
    said = result.stdout + result.stderr
    assert "\ufffd" not in said and "\\x00" not in said and "\\x8" not in said, said
    assert "'" not in said.replace("SimAI's", "").replace("wkparse's", ""), said
