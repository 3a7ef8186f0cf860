"""Every real file parses; the fast path and pure Lark agree on every one of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import corpus_params
from wkparse import parse_file
from wkparse.parse import ParseResult


def _non_blank_body_lines(path: Path) -> int:
    lines = path.read_bytes().split(b"\n")[2:]
    return sum(1 for line in lines if line.strip())


@pytest.mark.parametrize("path", corpus_params())
def test_corpus_file_parses_with_one_row_per_body_line(path: Path) -> None:
    result = parse_file(path)
    assert result.diagnostics == ()
    assert result.workload.header is not None
    assert len(result.workload.rows) == _non_blank_body_lines(path)


def _facts(result: ParseResult) -> tuple[object, ...]:
    w = result.workload
    return (
        w.header,
        w.count,
        list(w.rows),
        w.line_endings,
        w.final_newline,
        w.blank_lines,
        result.diagnostics,
    )


@pytest.mark.parametrize("path", corpus_params())
def test_fast_path_and_pure_lark_give_the_same_ast(path: Path) -> None:
    assert _facts(parse_file(path, fast=True)) == _facts(parse_file(path, fast=False))
