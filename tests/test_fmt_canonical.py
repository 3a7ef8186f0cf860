"""`format.is_canonical`, the decision `fmt --check` makes without rendering a row, against
the full rendering: on every corpus file, its canonical copy, and edited copies of that."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings

from tests.conftest import SAMPLES, corpus_files
from tests.test_fmt import clean_files
from wkparse import format as fmt
from wkparse.parse import parse_bytes


def _first(pattern: bytes, replacement: bytes) -> Callable[[bytes], bytes]:
    """An edit of the first match after line 2 (the rows)."""

    def edit(data: bytes) -> bytes:
        cut = data.index(b"\n", data.index(b"\n") + 1) + 1
        return data[:cut] + re.sub(pattern, replacement, data[cut:], count=1)

    return edit


#: edits of a canonical file; some keep it canonical, most do not (and some break its syntax,
#: which the tests skip)
EDITS: dict[str, Callable[[bytes], bytes]] = {
    "leading zero": _first(rb"\t(\d)", rb"\t0\1"),
    "plus sign": _first(rb"\t-1\t", rb"\t+1\t"),
    "minus zero": _first(rb"\t-1\t", rb"\t-0\t"),
    "minus zero zero": _first(rb"\t-1\t", rb"\t-01\t"),
    "space for a tab": _first(rb"\t", b" "),
    "two tabs": _first(rb"\t", b"\t\t"),
    "leading tab": _first(rb"^", b"\t"),
    "trailing tab": _first(rb"\n", b"\t\n"),
    "trailing space": _first(rb"\n", b" \n"),
    "vertical tab": _first(rb"\t", b"\x0b"),
    "form feed": _first(rb"\t", b"\t\x0c"),
    "carriage return": _first(rb"\n", b"\r\n"),
    "blank line": _first(rb"\n", b"\n\n"),
    "blank line at the end": lambda d: d + b"\n",
    "no final newline": lambda d: d[:-1],
    # one byte more on a row and one less at the end: the length alone would match
    "leading zero, no final newline": lambda d: _first(rb"\t(\d)", rb"\t0\1")(d)[:-1],
    "rows swapped": lambda d: _swap_rows(d),
    "header spaced": lambda d: d.replace(b" ", b"  ", 1),
    "count with a leading zero": lambda d: re.sub(rb"\n(\d)", rb"\n0\1", d, count=1),
    "byte order mark": lambda d: b"\xef\xbb\xbf" + d,
}


def _swap_rows(data: bytes) -> bytes:
    lines = data.split(b"\n")
    if len(lines) > 4:
        lines[2], lines[3] = lines[3], lines[2]
    return b"\n".join(lines)


def decisions(data: bytes) -> tuple[bool, bool] | None:
    """(the fast decision, the full rendering's) for a file, or None when it has errors."""
    result = parse_bytes(data)
    if not result.ok:
        return None
    fast = fmt.is_canonical(result, io.BytesIO(data))
    return fast, fmt.format_result(result).encode("utf-8") == data


@pytest.fixture(params=["python", "numpy, small blocks"])
def path_taken(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test runs with the per-value sums and with numpy's counts over 1 KiB blocks."""
    if request.param != "python":
        monkeypatch.setattr(fmt, "NUMPY_VALUES", 0)
        monkeypatch.setattr(fmt, "SCAN_BLOCK", 1024)
    return str(request.param)


def _files() -> list[Path]:
    return corpus_files() or sorted(SAMPLES.glob("*.txt"))


def test_every_real_file_and_its_edited_copies(path_taken: str) -> None:
    seen: dict[bool, int] = {True: 0, False: 0}
    for path in _files():
        original = path.read_bytes()
        canonical = fmt.format_result(parse_bytes(original)).encode("utf-8")
        copies = {"as found": original, "formatted": canonical}
        copies.update({name: edit(canonical) for name, edit in EDITS.items()})
        for name, data in copies.items():
            found = decisions(data)
            if found is None:
                continue
            fast, slow = found
            assert fast == slow, f"{path.name}, {name}: fast says {fast}, the rendering {slow}"
            seen[slow] += 1
    # both answers were met many times, so neither side is vacuous
    assert seen[True] > len(_files()) and seen[False] > 5 * len(_files())


@settings(max_examples=150, deadline=None)
@given(clean_files())
def test_any_clean_file(text: str) -> None:
    data = text.encode("utf-8")
    found = decisions(data)
    assert found is not None and found[0] == found[1]
    formatted = fmt.format_result(parse_bytes(data)).encode("utf-8")
    assert decisions(formatted) == (True, True)


def test_a_canonical_file_is_recognised_without_rendering_a_row(
    monkeypatch: pytest.MonkeyPatch, path_taken: str
) -> None:
    def no_rendering(*_: object) -> None:
        raise AssertionError("rendered the rows")

    monkeypatch.setattr(fmt, "_rows", no_rendering)
    for sample in sorted(SAMPLES.glob("*.txt")):
        with sample.open("rb") as stream:
            assert fmt.is_canonical(parse_bytes(sample.read_bytes()), stream), sample


def test_numbers_of_every_width_and_sign_are_counted() -> None:
    """The digit counts at each power of ten, for the narrow, wide and unbounded columns."""
    edges = [0, 9, 10, 99, 100, 2**31 - 1, 2**32 - 1, 2**63 - 1, 2**64 - 1, 10**19, 2**70]
    reserved = [-(2**31), -(2**31) + 1, -(10**9), -1, 0, 7, 2**31 - 1, -(2**63), -(2**70)]
    header = b"MICRO\n"
    for numbers in (edges[:7], edges[:8], edges):
        rows = [
            f"l\t{r}\t{n}\tNONE\t{n}\t{n}\tNONE\t{n}\t{n}\tNONE\t{n}\t{n}\n".encode()
            for n in numbers
            for r in reserved
        ]
        data = header + str(len(rows)).encode() + b"\n" + b"".join(rows)
        result = parse_bytes(data)
        assert result.ok
        python = fmt.body_length(result.workload.rows)
        assert python == len(data) - len(header) - len(str(len(rows))) - 1
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(fmt, "NUMPY_VALUES", 0)
            assert fmt.body_length(result.workload.rows) == python
            # rows repeating values weigh each value by its rows
            doubled = parse_bytes(header + str(2 * len(rows)).encode() + b"\n" + 2 * b"".join(rows))
            assert fmt.body_length(doubled.workload.rows) == 2 * python


def test_columns_of_every_kind_become_arrays() -> None:
    from array import array

    assert fmt._array(array("Q", [2**64 - 1])).tolist() == [2**64 - 1]
    assert fmt._array(range(3)).tolist() == [0, 1, 2]
    assert fmt._array([5, -1]).dtype.kind == "i"
    assert fmt._array([2**64]).tolist() == [2**64]
    assert fmt._digits([2**64, -1, 0], None) == len("18446744073709551616-10")
