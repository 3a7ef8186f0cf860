"""wkparse.atomic: the old file or the new one, never a mix, and the file's mode kept."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from wkparse.atomic import atomic_write


def test_the_content_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "w.txt"
    path.write_bytes(b"old\n")
    atomic_write(path, [b"new ", b"content\n"])
    assert path.read_bytes() == b"new content\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.txt"]


@pytest.mark.parametrize("mode", [0o644, 0o600, 0o640, 0o755])
def test_permission_bits_are_kept(tmp_path: Path, mode: int) -> None:
    path = tmp_path / "w.txt"
    path.write_bytes(b"old\n")
    path.chmod(mode)
    atomic_write(path, [b"new\n"])
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert path.read_bytes() == b"new\n"


def test_a_new_file_gets_the_usual_mode(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        atomic_write(tmp_path / "new.txt", [b"x\n"])
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644


def test_a_symbolic_link_stays_a_link_to_the_new_content(tmp_path: Path) -> None:
    target = tmp_path / "real.txt"
    target.write_bytes(b"old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    atomic_write(link, [b"new\n"])
    assert link.is_symlink() and target.read_bytes() == b"new\n"


def test_a_failure_before_the_rename_leaves_the_original_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "w.txt"
    path.write_bytes(b"old\n")
    path.chmod(0o640)

    def interrupted(src: object, dst: object) -> None:
        raise OSError(5, "simulated crash between write and rename")

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(OSError, match="simulated"):
        atomic_write(path, [b"new\n"])
    assert path.read_bytes() == b"old\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.txt"]


def test_a_failure_while_writing_leaves_the_original(tmp_path: Path) -> None:
    path = tmp_path / "w.txt"
    path.write_bytes(b"old\n")

    def chunks() -> Iterator[bytes]:
        yield b"half of the new "
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        atomic_write(path, chunks())
    assert path.read_bytes() == b"old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.txt"]


@pytest.mark.parametrize("mode", [0o444, 0o400, 0o555])
def test_a_read_only_file_raises_and_changes_nothing(tmp_path: Path, mode: int) -> None:
    """As writing in place would (and fmt or lint --fix of a read-only file must not
    rewrite it), even though the folder would let the rename replace it."""
    path = tmp_path / "w.txt"
    path.write_bytes(b"old\n")
    path.chmod(mode)
    with pytest.raises(PermissionError, match="read-only"):
        atomic_write(path, [b"new\n"])
    assert path.read_bytes() == b"old\n" and stat.S_IMODE(path.stat().st_mode) == mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.txt"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only folder")
def test_a_read_only_folder_raises_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "w.txt"
    path.write_bytes(b"old\n")
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(PermissionError):
            atomic_write(path, [b"new\n"])
    finally:
        tmp_path.chmod(0o755)
    assert path.read_bytes() == b"old\n"
