"""The text of an AICB workload file: header line, row count, one tab-separated line a row.

AICB prints each value with Python's `str()`, so the text here is built the same way: a
sequence-parallel `pp_comm` is a float (`8388608.0`), everything else an int, except what the
v1.0 generator (2024-07-31) printed that is no number (`Cell`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

NONE = "NONE"

#: a time or size as AICB printed it: an int, a float (`17301504.0`: DeepSeek's FP8 dispatch
#: of 2025-09-15), or the text of a value that is no number (the v1.0 generator wrote `None`
#: for a time it could not look up, and tuples as sizes)
Cell = int | float | str


@dataclass(frozen=True, slots=True)
class Row:
    """One row, in the file's column order (the placeholder -1 and process time 100 implied)."""

    name: str
    fwd_time: Cell
    fwd_comm: str
    fwd_size: Cell
    ig_time: Cell
    ig_comm: str
    ig_size: Cell
    wg_time: Cell
    wg_comm: str
    wg_size: Cell

    def line(self) -> str:
        return (
            f"{self.name}\t-1\t{self.fwd_time}\t{self.fwd_comm}\t{self.fwd_size}\t"
            f"{self.ig_time}\t{self.ig_comm}\t{self.ig_size}\t"
            f"{self.wg_time}\t{self.wg_comm}\t{self.wg_size}\t100\n"
        )

    def zero_unused_sizes(self) -> Row:
        """AICB's last pass under AIOB: a size next to NONE becomes 0 (the wg size is kept)."""
        if self.fwd_comm != NONE and self.ig_comm != NONE:
            return self
        return Row(
            self.name,
            self.fwd_time,
            self.fwd_comm,
            0 if self.fwd_comm == NONE else self.fwd_size,
            self.ig_time,
            self.ig_comm,
            0 if self.ig_comm == NONE else self.ig_size,
            self.wg_time,
            self.wg_comm,
            self.wg_size,
        )


def comm_row(name: str, wg_comm: str, wg_size: Cell) -> Row:
    """A gradient-step row: placeholder times of 1 and one weight-gradient collective."""
    return Row(name, 1, NONE, 0, 1, NONE, 0, 1, wg_comm, wg_size)


@dataclass(frozen=True, slots=True)
class Workload:
    """A whole file: header, the rows before the micro-batch groups, the groups, the rest.

    Groups are kept apart (and identical groups share one list) so a comparison can say which
    group a row belongs to, and a file of a million rows costs one list per distinct group.
    """

    header: str
    prologue: list[Row]
    groups: list[list[Row]]
    epilogue: list[Row]

    @property
    def row_count(self) -> int:
        return len(self.prologue) + sum(len(g) for g in self.groups) + len(self.epilogue)

    def rows(self) -> Iterator[Row]:
        yield from self.prologue
        for group in self.groups:
            yield from group
        yield from self.epilogue

    def chunks(self) -> Iterator[str]:
        """The file's text in pieces (one a group), for writing without one big string."""
        yield f"{self.header}\n{self.row_count}\n"
        yield "".join(r.line() for r in self.prologue)
        cache: dict[int, str] = {}
        for group in self.groups:
            text = cache.get(id(group))
            if text is None:
                text = cache[id(group)] = "".join(r.line() for r in group)
            yield text
        yield "".join(r.line() for r in self.epilogue)

    def text(self) -> str:
        return "".join(self.chunks())
