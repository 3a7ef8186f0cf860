"""The language server's document store (`wkparse.lsp.text`): edits kept beside the bytes
read as if applied, in every position encoding LSP allows, and join to the same text."""

from __future__ import annotations

import random

import pytest

from wkparse.lsp.text import Text, to_units

TEXT = "MICRO\n2\nallreduce\t-1\t1 ällé 😀 x\n\nlast line"


def _position(text: str, index: int, encoding: str) -> tuple[int, int]:
    line = text.count("\n", 0, index)
    start = text.rfind("\n", 0, index) + 1
    end = text.find("\n", start)
    whole = text[start : len(text) if end < 0 else end]
    return line, to_units(whole, index - start, encoding)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_edits_read_and_join_like_the_edited_string(encoding: str) -> None:
    rng = random.Random(encoding)
    expected = TEXT
    text = Text(TEXT, encoding)
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
        if rng.random() < 0.1:
            assert text.snapshot()[0] == expected.encode()
    assert text.snapshot() == (expected.encode(), 200)


def test_a_whole_text_change_is_a_new_revision() -> None:
    text = Text("a\nb", "utf-16")
    text.replace((1, 0), (1, 1), "c")
    text.reset("x\ny\nz")
    assert text.revision == 2 and text.line_count == 3 and text.line(2) == "z"
    assert text.snapshot() == (b"x\ny\nz", 2)
