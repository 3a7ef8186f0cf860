"""Atomic file replacement: a reader (or SimAI) sees the old file or the new one, never a mix.

The new content goes to a temporary file in the same directory (so the final rename stays on
one file system, where POSIX makes it atomic), is flushed to disk, takes the original's
permission bits, and then replaces the original with `os.replace`. The directory is fsynced
afterwards so that the rename itself survives a power cut. On any failure the temporary file
is removed and the original is left untouched.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

#: a file with none of these set is read-only, even to root
_WRITE_BITS = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
#: permissions of a file created where none existed, before the umask (as `open()` does)
_NEW_FILE_MODE = 0o666


def atomic_write(path: str | os.PathLike[str], chunks: Iterable[bytes]) -> None:
    """Replace the file at `path` with the concatenation of `chunks`, atomically.

    A symbolic link is followed: its target is replaced and the link stays a link. The mode
    bits (and, where the process may set them, owner and group) of the old file are kept.
    Raises OSError when the directory cannot be written, and PermissionError for a read-only
    file (no write bit, or not writable by this process), as writing it in place would: the
    rename could replace it, but read-only means "leave it". The old file is then unchanged.
    """
    target = Path(os.path.realpath(path))
    mode, owner = _current_mode(target)
    if owner is not None and not (mode & _WRITE_BITS and os.access(target, os.W_OK)):
        raise PermissionError(errno.EACCES, "read-only file, left unchanged", str(path))
    fd, temp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
            if owner is not None:
                _keep_owner(out.fileno(), owner)
            # mkstemp creates the file 0600; the result must read like the file it replaces.
            # After the chown, which would clear set-user-id and set-group-id bits.
            os.chmod(out.fileno(), mode)
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise
    _fsync_directory(target.parent)


def _current_mode(target: Path) -> tuple[int, tuple[int, int] | None]:
    try:
        info = target.stat()
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return _NEW_FILE_MODE & ~umask, None
    return stat.S_IMODE(info.st_mode), (info.st_uid, info.st_gid)


def _keep_owner(fd: int, owner: tuple[int, int]) -> None:
    if not hasattr(os, "fchown"):  # pragma: no cover - Windows has no owners to keep
        return
    info = os.fstat(fd)
    if (info.st_uid, info.st_gid) != owner:
        # Only root may give a file away; anyone else keeps their own ownership, as editors do.
        with contextlib.suppress(PermissionError):
            os.fchown(fd, *owner)


def _fsync_directory(directory: Path) -> None:
    """Make the rename durable; a file system that cannot fsync a directory is left alone."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows cannot open a directory
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
