"""What the body of a transformer workload is made of, read from the rows alone.

AICB writes a prologue of once-per-iteration rows, then `ga` micro-batch groups (each the
stage's layer list, starting with `embedding_layer`), then an epilogue (`cross_entropy*`,
`optimizer*`). Lint compares these counts with the header; explain prints them. Nothing here
looks at the header: counted facts and declared facts stay apart.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Sequence
from functools import cached_property
from itertools import islice, pairwise
from typing import Any

from wkparse import columns
from wkparse.ast import RowFields, Workload
from wkparse.record import record

GROUP_START = "embedding_layer"
EPILOGUE_PREFIXES = ("cross_entropy", "optimizer")
SP_NAMES = frozenset(
    {
        "attention_column",
        "attention_row",
        "mlp_column",
        "mlp_row",
        "final_column",
        "attention_column_layer",
        "attention_row_layer",
        "mlp_column_layer",
        "mlp_row_layer",
    }
)
MOE_NAMES = frozenset({"mlp_moelayer", "moe_route", "moe_expert", "shared_experts"})


#: once-per-iteration rows whose names contain "embed" but that start no micro-batch group
NOT_GROUP_START = frozenset({"embedding_norm", "embedding_grads"})


@record
class OrphanList:
    """A layer list with no `embedding_layer` row of its own (deleted, or renamed)."""

    #: row index where the list starts: the misnamed row when there is one
    index: int
    #: True when a row stands where `embedding_layer` belongs, under another name
    renamed: bool


@record
class Group:
    """One micro-batch group: rows `start` to `end` (indexes into the row table, end excluded)."""

    start: int
    end: int
    names: tuple[str | None, ...]

    @property
    def size(self) -> int:
        return self.end - self.start


def count_layers(names: tuple[str | None, ...]) -> int:
    """Transformer layers in a run of row names: each layer opens one run of `attention*` rows."""
    layers = 0
    previous_attention = False
    for name in names:
        attention = name is not None and name.startswith("attention")
        if attention and not previous_attention:
            layers += 1
        previous_attention = attention
    return layers


def looks_like_group_start(name: str | None) -> bool:
    """A row name that reads as a misspelt `embedding_layer` (`embedding`, `Embedding_layer`)."""
    return (
        name is not None
        and name != GROUP_START
        and "embed" in name.lower()
        and name not in NOT_GROUP_START
    )


def _orphans_in(names: tuple[str | None, ...], reference: tuple[str | None, ...]) -> list[int]:
    """Offsets, inside one group, of further layer lists that lack their `embedding_layer`.

    When an embedding row is deleted or renamed, the next group's layers run into the group
    before: after the reference list comes the layer list again, possibly after one stray row
    (the renamed embedding). A negative offset marks such a stray row; a row that looks like a
    misspelt embedding_layer counts as one wherever it stands. [] when the group is not built
    that way.
    """
    strays = [-i for i, n in enumerate(names) if i > 0 and looks_like_group_start(n)]
    layers = reference[1:]
    if names == reference or not layers or names[: len(reference)] != reference:
        return strays
    offsets: list[int] = []
    pos = len(reference)
    while pos < len(names):
        if names[pos : pos + len(layers)] == layers:
            offsets.append(pos)
            pos += len(layers)
        elif names[pos + 1 : pos + 1 + len(layers)] == layers:
            offsets.append(-pos)
            pos += 1 + len(layers)
        else:
            return strays
    return offsets


@record(slots=False)
class Body:
    workload: Workload

    @cached_property
    def names(self) -> tuple[str | None, ...]:
        """Every row's name (a file of many distinct values counts from `_codes` instead)."""
        # Kept on the row table, so that every Body of one file (lint's, explain's) shares it.
        return self.workload.rows.names

    @cached_property
    def _codes(self) -> Any:
        """Each row's name as its code into the value table's `texts`, as a numpy array,
        when the rows hold many values (then `names` would cost a tuple of a million
        strings); None for a file of few values, whose `names` are cheap and shared."""
        rows = self.workload.rows
        column = rows.values.column("name")
        if len(rows.values) < columns.NUMPY_FROM or isinstance(column, list):
            return None
        import numpy as np

        refs = rows.refs
        indexes = np.asarray(refs) if isinstance(refs, array) else np.fromiter(refs, np.intp)
        narrow = np.uint16 if len(rows.values.texts) <= 1 << 16 else np.uint32
        return np.asarray(column).astype(narrow)[indexes]

    def names_between(self, start: int, end: int) -> tuple[str | None, ...]:
        """The names of rows `start` to `end` (end excluded)."""
        codes = self._codes
        if codes is None:
            return self.names[start:end]
        return tuple(map(self.workload.rows.values.texts.__getitem__, codes[start:end].tolist()))

    @cached_property
    def epilogue_start(self) -> int:
        start = len(self.workload.rows)
        while start > 0 and (self.names_between(start - 1, start)[0] or "").startswith(
            EPILOGUE_PREFIXES
        ):
            start -= 1
        return start

    @cached_property
    def group_starts(self) -> tuple[int, ...]:
        end, codes = self.epilogue_start, self._codes
        if codes is not None:
            import numpy as np

            texts = self.workload.rows.values.texts
            if GROUP_START not in texts:
                return ()
            return tuple(np.flatnonzero(codes[:end] == texts.index(GROUP_START)).tolist())
        # `tuple.index` scans in C: a million-row file holds only ~14k group starts.
        names = self.names
        starts: list[int] = []
        i = -1
        try:
            while True:
                i = names.index(GROUP_START, i + 1, end)
                starts.append(i)
        except ValueError:
            return tuple(starts)

    @cached_property
    def groups(self) -> tuple[Group, ...]:
        """Micro-batch groups, delimited by `embedding_layer` rows; () when there is none.

        On a file of many values, groups with the same names share one tuple of them, found
        by their codes (a million distinct rows make ~14k groups of a few shapes)."""
        bounds = list(pairwise([*self.group_starts, self.epilogue_start]))
        codes = self._codes
        if codes is None:
            return tuple(Group(a, b, self.names[a:b]) for a, b in bounds)
        shared: dict[bytes, tuple[str | None, ...]] = {}
        groups = []
        for a, b in bounds:
            key = codes[a:b].tobytes()
            names = shared.get(key)
            if names is None:
                names = shared[key] = self.names_between(a, b)
            groups.append(Group(a, b, names))
        return tuple(groups)

    @cached_property
    def prologue_end(self) -> int:
        return self.group_starts[0] if self.group_starts else 0

    @property
    def has_groups(self) -> bool:
        return bool(self.group_starts)

    @cached_property
    def shapes(self) -> Counter[tuple[str | None, ...]]:
        """How many groups have each sequence of row names."""
        return Counter(g.names for g in self.groups)

    @cached_property
    def reference(self) -> Group | None:
        """The group shape most groups share (the stage's layer list)."""
        if not self.groups:
            return None
        common = self.shapes.most_common(1)[0][0]
        return next(g for g in self.groups if g.names == common)

    @cached_property
    def orphan_lists(self) -> tuple[OrphanList, ...]:
        """Layer lists without their own `embedding_layer` row, in file order.

        Each is one more micro-batch than the `embedding_layer` rows show: in the prologue
        (the first group's embedding row is missing) or inside a group (a later one's is).
        Worked out once per distinct group shape, so it stays cheap on long files.
        """
        reference = self.reference
        if reference is None:
            return ()
        found: list[OrphanList] = []
        layers = reference.names[1:]
        prologue = self.names_between(0, self.prologue_end)
        if layers and len(prologue) >= len(layers) and prologue[-len(layers) :] == layers:
            start = self.prologue_end - len(layers)
            renamed = start > 0 and looks_like_group_start(prologue[start - 1])
            found.append(OrphanList(start - 1 if renamed else start, renamed))
        per_shape = {shape: _orphans_in(shape, reference.names) for shape in self.shapes}
        for group in self.groups:
            for offset in per_shape[group.names]:
                found.append(OrphanList(group.start + abs(offset), offset < 0))
        return tuple(found)

    @cached_property
    def micro_batches(self) -> int:
        """The micro-batch groups the body holds: those its `embedding_layer` rows open and
        the layer lists that lost theirs (`orphan_lists`). The one count every command gives
        (lint compares it with ga, explain prints it)."""
        return len(self.groups) + len(self.orphan_lists)

    @cached_property
    def layers_per_group(self) -> int | None:
        """Transformer layers in the typical group; for a file without groups, in the body."""
        if self.reference is not None:
            return count_layers(self.reference.names)
        layers = count_layers(self.names_between(0, self.epilogue_start))
        return layers or None

    @cached_property
    def distinct_names(self) -> frozenset[str | None]:
        """Every row name that occurs, read from the name column's codes."""
        values = self.workload.rows.values
        return frozenset(map(values.texts.__getitem__, set(values.column("name"))))

    @cached_property
    def sequence_parallel(self) -> bool:
        return not SP_NAMES.isdisjoint(self.distinct_names)

    @cached_property
    def moe(self) -> bool:
        return not MOE_NAMES.isdisjoint(self.distinct_names)

    @cached_property
    def placeholder_compute(self) -> bool:
        """True when every compute time in the layer rows is AICB's placeholder (0 or 1)."""
        start, end = self.prologue_end, self.epilogue_start
        if start >= end:
            return False
        # Look for a real time among the layer rows: in a file with real times the first
        # layer row usually has one, so the scan stops at once. A file of placeholders has
        # few values, so the values are judged first.
        rows = self.workload.rows
        fwd, ig, wg = (rows.values.column(f"{p}_compute") for p in ("fwd", "ig", "wg"))
        if len(rows.values) * 4 < len(rows) and max(map(max, fwd, ig, wg), default=0) <= 1:
            return True
        return not any(fwd[v] > 1 or ig[v] > 1 or wg[v] > 1 for v in islice(rows.refs, start, end))

    @cached_property
    def activation_bytes(self) -> int | None:
        """2 * mbs * seq * hidden, as the TP collective of the first layer rows carries it."""
        index = self.activation_row
        return self.workload.rows.fields[index].fwd.size if index is not None else None

    @cached_property
    def activation_row(self) -> int | None:
        """Index of the row `activation_bytes` is read from (None: no row carries it).

        Lint points at this row when pp_comm disagrees with the activation size.
        """
        start, fields = self._first_group_span()
        for i, f in enumerate(fields):
            if f.name == GROUP_START and f.fwd.size:
                return start + i
        for i, f in enumerate(fields):
            if (
                (f.name or "").startswith("attention")
                and f.fwd.size
                and f.fwd.comm in ("ALLREDUCE", "ALLGATHER")
            ):
                return start + i
        return None

    def _first_group_span(self) -> tuple[int, Sequence[RowFields]]:
        fields = self.workload.rows.fields
        if self.reference is not None:
            return self.reference.start, fields[self.reference.start : self.reference.end]
        return 0, fields[: min(self.epilogue_start, 64)]
