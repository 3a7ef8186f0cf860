"""The stored fast-path recipe: current with the grammar, Lark-free on clean files, and the
fast header/count reading equal to Lark's on real and generated lines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import SAMPLES, corpus_params
from wkparse import grammar
from wkparse.parse import parse_bytes, parse_file

REGENERATE = 'python -c "from wkparse.grammar import write_fast_path; write_fast_path()"'


def test_the_stored_recipe_is_the_one_the_grammar_gives() -> None:
    stored = json.loads(grammar.stored_path().read_text(encoding="utf-8"))
    fresh = {
        "grammar": grammar.grammar_file().read_text(encoding="utf-8"),
        **grammar.derive(grammar.parser()),
    }
    assert stored == fresh, f"the grammar changed: run {REGENERATE}"


def test_header_tokens_are_tried_in_lark_priority_order() -> None:
    kinds = grammar.derive(grammar.parser())["header"]["kinds"]
    assert [t for t, _ in kinds] == ["NUMBER", "KEY", "WORD"]
    assert dict(kinds) == {"NUMBER": "value", "KEY": "field", "WORD": "bare_field"}


def test_a_clean_file_is_parsed_without_importing_lark() -> None:
    code = (
        "import sys\n"
        "from wkparse.parse import parse_file\n"
        f"result = parse_file({str(SAMPLES / 'gpt13b-world8-tp2-pp1-sp.txt')!r})\n"
        "assert result.ok and len(result.workload.rows) == 1309\n"
        "print('lark' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "False"


#: everything made from the recipe, cached
CACHED = (grammar.recipe, grammar.row_matcher, grammar.row_line, grammar.header_matcher)


def test_a_stale_recipe_is_derived_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stale = json.loads(grammar.stored_path().read_text(encoding="utf-8"))
    stale["grammar"] += "\n// edited\n"
    stale["patterns"]["UINT"] = "x"  # would reject every row if it were used
    path = tmp_path / "workload.fast.json"
    path.write_text(json.dumps(stale), encoding="utf-8")
    monkeypatch.setattr(grammar, "stored_path", lambda: path)
    for cached in CACHED:
        cached.cache_clear()
    try:
        result = parse_file(SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt")
        assert result.ok and len(result.workload.rows) == 1309
    finally:
        for cached in CACHED:
            cached.cache_clear()


def _same_as_lark(data: bytes) -> None:
    fast, slow = parse_bytes(data, fast=True), parse_bytes(data, fast=False)
    assert fast.workload.header == slow.workload.header
    assert fast.workload.count == slow.workload.count
    assert fast.diagnostics == slow.diagnostics


@pytest.mark.parametrize("path", corpus_params())
def test_fast_header_and_count_equal_lark_on_the_corpus(path: Path) -> None:
    with path.open("rb") as f:
        _same_as_lark(f.readline() + f.readline())


# Tokens at the edges of the header terminals: numbers that are not quite, keys that are not
# quite, non-ASCII digits and spaces, control characters.
_TOKEN = st.sampled_from(
    [
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD", "HYBRID_CUSTOMIZED", "ga:", "ga", "pp_comm", "1",
        "-1", "+2", "1.5", ".5", "5.", "1e5", "1e", "e5", "1.2.3", "0x10", "a:b", ":", "1:",
        "_:", "ga::", "-", "+", ".", "\u0661", "\u00e9:", "x\u00a0y", "\x1c", "\x00", "4abc",
        "9" * 700, "1E+3", "1e-3", "+.5e2", "Z9:",
    ]
)  # fmt: skip
_SEPARATOR = st.sampled_from([" ", "\t", "  ", "\x0b", "\x0c", "\r", " \t "])
_COUNT = st.sampled_from(
    ["1", " 7 ", "x", "", "1 2", "-3", "+3", "3.0", "\t12\r", "1e3", "9" * 700]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_TOKEN, _SEPARATOR), max_size=10), st.booleans(), _COUNT)
def test_fast_header_and_count_equal_lark_on_token_soup(
    items: list[tuple[str, str]], indent: bool, count: str
) -> None:
    line = (" " if indent else "") + "".join(t + s for t, s in items)
    _same_as_lark(f"{line}\n{count}\n".encode())
