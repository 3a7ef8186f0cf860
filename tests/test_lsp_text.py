"""The language server's document store (`wkparse.lsp.text`): versions made of pieces read,
stream and join like the edited string, in every position encoding LSP allows, and an older
version never sees a later edit."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest

from tests.conftest import SAMPLES
from wkparse.engine import lint
from wkparse.lsp.text import MAX_PIECES, Text, Version, to_units
from wkparse.parse import parse_bytes, parse_stream

TEXT = "MICRO\n2\nallreduce\t-1\t1 ällé 😀 x\n\nlast line"


def _position(text: str, index: int, encoding: str) -> tuple[int, int]:
    line = text.count("\n", 0, index)
    start = text.rfind("\n", 0, index) + 1
    end = text.find("\n", start)
    whole = text[start : len(text) if end < 0 else end]
    return line, to_units(whole, index - start, encoding)


def _streamed(version: Version, block: int) -> bytes:
    stream = version.stream()
    return b"".join(iter(lambda: stream.read(block), b""))


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_edits_read_stream_and_join_like_the_edited_string(encoding: str) -> None:
    rng = random.Random(encoding)
    expected = TEXT
    text = Text(TEXT, encoding)
    kept: list[tuple[Version, str]] = []
    for _ in range(200):
        a = rng.randrange(len(expected) + 1)
        b = rng.randrange(a, min(len(expected), a + 6) + 1)
        new = rng.choice(["", "x", "\n", "é\n😀", "ab\ncd\n", "\t7"])
        text.replace(_position(expected, a, encoding), _position(expected, b, encoding), new)
        expected = expected[:a] + new + expected[b:]
        lines = expected.split("\n")
        assert text.line_count == len(lines)
        probe = rng.randrange(len(lines))
        assert text.line(probe) == lines[probe]
        version, data = text.snapshot(), expected.encode()
        start, size = rng.randrange(len(data) + 1), rng.randrange(12)
        assert version.read(start, start + size) == data[start : start + size]
        assert version.ascii == expected.isascii() or not version.ascii
        if rng.random() < 0.1:
            assert _streamed(version, rng.choice([1, 3, 64])) == data
            kept.append((version, expected))
        if rng.random() < 0.05:
            text.adopt(version.joined())
            assert len(text.snapshot().pieces) <= 1
    assert text.snapshot().data == expected.encode() and text.revision == 200
    for version, then in kept:  # later edits made new versions and left these alone
        assert version.data == then.encode()
        assert version.line(version.line_count - 1) == then.split("\n")[-1]


def test_a_version_reads_its_own_slices_exactly() -> None:
    data = b"line one\r\nline two\nthree"
    version = Text(data.decode()).snapshot()
    assert version.read(5, 13) == data[5:13] and version.read(-4, 99) == data
    assert version.head(1) == b"line one\r\n" and version.head(9) == data
    assert version.line_bytes(0) == b"line one\r" and version.line(0) == "line one"
    assert version.line_bytes(2) == b"three" and version.line_bytes(3) == b""


def test_a_whole_text_change_is_a_new_revision() -> None:
    text = Text("a\nb", "utf-16")
    text.replace((1, 0), (1, 1), "c")
    text.reset("x\ny\nz")
    assert text.revision == 2 and text.line_count == 3 and text.line(2) == "z"
    assert text.snapshot().data == b"x\ny\nz"


def test_a_joined_version_is_taken_only_at_its_own_revision() -> None:
    text = Text("a\nb\n", "utf-16")
    for k in range(MAX_PIECES):
        text.replace((0, 0), (0, 0), str(k % 10))
    cut = text.snapshot()
    assert len(cut.pieces) > MAX_PIECES // 2
    joined = cut.joined()
    text.replace((1, 0), (1, 1), "c")
    text.adopt(joined)  # too late: the text moved on
    assert text.snapshot() is not joined and text.line(1) == "c"
    again = text.snapshot().joined()
    text.adopt(again)
    assert text.snapshot() is again and len(again.pieces) == 1
    assert again.data == cut.data.replace(b"\nb", b"\nc")


def test_the_parser_reads_a_version_in_pieces_as_it_reads_the_bytes() -> None:
    sample = (SAMPLES / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt").read_text()
    text = Text(sample.replace("ga: 64", "ga: 60", 1))
    row = sample.split("\n")[29]
    col = row.index("ALLREDUCE")
    text.replace((29, col), (29, col + len("ALLREDUCE")), "ALLREDUSE")
    text.replace((1, 0), (1, 4), "1229")
    version = text.snapshot()
    assert len(version.pieces) > 1
    whole = parse_bytes(version.data)
    for result in (
        parse_stream(version.stream(), len(version)),
        parse_stream(io.BytesIO(version.data), len(version)),
    ):
        assert result.diagnostics == whole.diagnostics
        assert list(result.workload.rows) == list(whole.workload.rows)
        assert replace(result.workload, rows=None) == replace(whole.workload, rows=None)
        assert lint(result, "w.txt") == lint(whole, "w.txt")
    assert {d.code for d in lint(whole, "w.txt")} == {"WK302", "WK105", "WK401"}
