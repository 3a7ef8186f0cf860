"""SimAI's bandwidth ratio tables and how it looks a message size up in them (`getValue`).

The tables (copies of SimAI's `inputs/ratio/*.csv`, see `data/SOURCE.md`) give, per message
size and per node count, the share of the bus bandwidth a collective reaches. SimAI skips the
title row, splits each line on commas, trims spaces and reads an empty cell as `1`. A size is
interpolated linearly between the two rows around it and divided by the last row's value; a
size below the first row gets the first row's value over the last's; a size above the last
row (17179869184 B) throws `Data size out of range`.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from itertools import pairwise

from wkparse.models.simai.ieee import f32

#: the node counts the columns stand for; any other count reads column 5 (16 nodes)
COLUMNS = {1: 1, 2: 2, 4: 3, 8: 4, 16: 5, 32: 6, 64: 7, 128: 8, 9: 9}
DEFAULT_COLUMN = 5
TABLES = ("nic", "nvlink", "ata")


class OutOfRange(Exception):
    """The size is past the table's last row: SimAI's `Data size out of range`."""


Table = tuple[tuple[float, ...], ...]


def parse_table(text: str) -> Table:
    rows: list[tuple[float, ...]] = []
    for line in text.split("\n")[1:]:
        if line == "":
            continue
        cells = line.split(",")
        if cells and cells[-1] == "":
            # getline does not give an empty last field
            cells.pop()
        rows.append(tuple(float(c.strip(" ") or "1") for c in cells))
    return tuple(rows)


@cache
def table(name: str) -> Table:
    """One of the shipped tables: "nic", "nvlink" or "ata"."""
    text = (
        resources.files("wkparse.models.simai")
        .joinpath("data")
        .joinpath(f"{name}_ratio.csv")
        .read_text()
    )
    return parse_table(text)


def lookup(size: float, nodes: int, data: Table) -> float:
    """`getValue`: the ratio for `size` bytes among `nodes` nodes, as a `float`."""
    col = COLUMNS.get(nodes, DEFAULT_COLUMN)
    if size == 0:
        return 1.0
    last = data[-1][col]
    if size < data[0][0]:
        return f32(data[0][col] / last)
    for lo, hi in pairwise(data):
        if lo[0] <= size <= hi[0]:
            v = lo[col] + (hi[col] - lo[col]) * (size - lo[0]) / (hi[0] - lo[0])
            return f32(v / last)
    raise OutOfRange("Data size out of range")


#: the largest size the tables hold
LAST_SIZE = 17179869184
