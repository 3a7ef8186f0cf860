"""Messages are one short line (issue 13): median <= 120 characters and 95% <= 200 over every
finding on the shared corpus and on edited copies of it (the seeded fuzz cases). The why
and the full fix live on the rule page; benchmarks/message_lengths.py prints the numbers."""

from __future__ import annotations

import statistics

from benchmarks import fuzzing
from tests.conftest import CORPUS, corpus_files
from wkparse.engine import lint
from wkparse.parse import parse_bytes

#: edited copies linted here (the benchmark lints more)
CASES = 120


def _lengths_ok(lengths: list[int]) -> None:
    ordered = sorted(lengths)
    assert statistics.median(ordered) <= 120
    assert ordered[int(0.95 * len(ordered))] <= 200


def test_corpus_messages_are_short(corpus: object) -> None:
    lengths = [
        len(d.message) for p in corpus_files() for d in lint(parse_bytes(p.read_bytes()), p.name)
    ]
    assert lengths
    _lengths_ok(lengths)


def test_edited_copies_get_short_messages(corpus: object) -> None:
    bases = fuzzing.load_bases(corpus_files(), CORPUS)
    lengths = []
    for index in range(CASES):
        case = fuzzing.make_case(0, index, bases)
        lengths += [len(d.message) for d in lint(parse_bytes(case.data), case.name)]
    assert len(lengths) > CASES
    _lengths_ok(lengths)


def test_a_mangled_count_line_gets_one_short_message() -> None:
    """Control characters are escaped before the quote is elided, so the bound holds."""
    body = b"layer\t-1\t1\tNONE\t0\t1\tNONE\t0\t1\tNONE\t0\t100\n"
    header = b"HYBRID_DATA_MODEL model_parallel_NPU_group: 1\n"
    count = b"1" + b"x\x01\x1b" * 12 + b"y" * 963 + b"\x07" * 4 + b"\n"
    [message] = [d.message for d in lint(parse_bytes(header + count + body)) if d.code == "WK104"]
    assert len(message) <= 120
    assert "x\\x01\\x1b" in message and "\\x07" in message and "\x1b" not in message
    assert "(1,003 characters)" in message
