"""explain and simai keep freed memory in the process while they read a large file
(`wkparse.heap`, issue 41's million rows), and read a regular file in one piece."""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Any

import pytest

from wkparse import heap, parse


class _Libc:
    """glibc as ctypes shows it, recording the `mallopt` calls."""

    def __init__(self, glibc: bool = True) -> None:
        self.calls: list[tuple[int, int]] = []
        if glibc:
            self.gnu_get_libc_version = lambda: b"2.36"

    def mallopt(self, param: int, value: int) -> int:
        self.calls.append((param, value))
        return 1


def _loaded(monkeypatch: pytest.MonkeyPatch, libc: _Libc, platform: str = "linux") -> None:
    monkeypatch.setattr(ctypes, "CDLL", lambda name: libc)
    monkeypatch.setattr(heap.sys, "platform", platform)


def test_a_large_file_keeps_freed_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    libc = _Libc()
    _loaded(monkeypatch, libc)
    heap.keep_freed_memory(heap.LARGE_FILE)
    assert libc.calls == [
        (heap.M_MMAP_THRESHOLD, heap.MMAP_THRESHOLD),
        (heap.M_TRIM_THRESHOLD, heap.TRIM_THRESHOLD),
    ]


@pytest.mark.parametrize(
    ("size", "platform", "glibc"),
    [
        (heap.LARGE_FILE - 1, "linux", True),
        (None, "linux", True),
        (1 << 30, "darwin", True),
        (1 << 30, "linux", False),
    ],
)
def test_a_small_file_or_another_c_library_is_left_alone(
    monkeypatch: pytest.MonkeyPatch, size: int | None, platform: str, glibc: bool
) -> None:
    libc = _Libc(glibc)
    _loaded(monkeypatch, libc, platform)
    heap.keep_freed_memory(size)
    assert libc.calls == []


def test_a_regular_file_is_read_in_one_piece(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pieces joined would hold a 78 MB file twice (simai's peak)."""
    path = tmp_path / "w.txt"
    path.write_bytes(b"x" * 100_000)

    def pieces(*args: Any) -> bytes:
        raise AssertionError("read in pieces")

    monkeypatch.setattr(parse, "_read_past", pieces)
    assert parse.read_input(path, parse.Limits()) == b"x" * 100_000
