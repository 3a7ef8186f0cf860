"""Freed memory kept for the next allocation while a command reads a large file (glibc).

Reading a million rows allocates and frees blocks of megabytes over and over. glibc gives
each freed block back to the kernel (a block past its mmap threshold, or the free top of the
heap past its trim threshold), and the next block is then faulted in page by page as zeroed
memory: on issue 41's 78 MB file a third of explain's page faults were such blocks again
(89k -> 58k faults, ~0.05 s of system time). A command's process ends soon after, so the
memory kept costs nothing; the language server, which lives on, never asks for this.
"""

from __future__ import annotations

import sys

#: glibc's `mallopt` parameters (malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
#: blocks up to this size come from the heap (glibc's largest mmap threshold on 64 bits)
MMAP_THRESHOLD = 32 << 20
#: free memory at the heap's top kept up to this much
TRIM_THRESHOLD = 256 << 20
#: a file smaller than this is read in blocks too few to matter (the parser's bulk size)
LARGE_FILE = 4 << 20


def keep_freed_memory(size: int | None) -> None:
    """Keep freed blocks in the process for the rest of a command about to read `size`
    bytes (None: unknown); nothing for a small file, or off Linux, or without glibc's
    `mallopt` (another C library's is left alone)."""
    if size is None or size < LARGE_FILE or not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        libc = ctypes.CDLL(None)  # the C library the interpreter is linked with
        if not hasattr(libc, "gnu_get_libc_version"):
            return
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return
    mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)
