"""Whole-column work over a file's row values: group the values by a few fields, pick the
values of some groups, sum a column per group.

Lint runs a row check once per distinct combination of the fields it reads, and explain sums
compute and bytes per kind of row. On a million rows that all differ, each of these must be a
few passes over a column in C, never a Python step per value per rule: tables of `NUMPY_FROM`
values or more go through numpy; smaller ones through plain Python, so that a small file never
imports numpy (a tenth of a second of start-up). Both paths give the same answers, in the same
order (tests/test_column_paths.py runs every check and explain through each).
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any

from wkparse.ast import RowTable, ValueTable

#: the smallest table grouped with numpy
NUMPY_FROM = 4096
#: a number column whose values span less than this is its own code (no sort)
_DENSE = 1 << 20
#: items per chunk of a pass over a column (see `_chunks`)
_CHUNK = 1 << 16
#: combined keys stay below this, so that products of codes never overflow int64
_KEY_LIMIT = 1 << 62
#: at most this many keys in a column's first chunk: `_renumber` tries a binary search
_FEW_KEYS = 1024


class Grouping:
    """Values grouped by a combination of fields: group `g` holds the values whose fields read
    `keys[g]`, and `first[g]` is the first of them (groups are numbered in that order)."""

    def __init__(self, keys: list[tuple[int, ...]], first: list[int], of: Any):
        self.keys = keys
        self.first = first
        #: each value's group (-1: not grouped); a numpy array or a list
        self.of = of

    def __len__(self) -> int:
        return len(self.keys)

    def members(self, wanted: Collection[int]) -> list[tuple[int, int]]:
        """(value index, group) of every value in one of the `wanted` groups, by index."""
        if not wanted:
            return []
        of = self.of
        if isinstance(of, list):
            return [(i, g) for i, g in enumerate(of) if g in wanted]
        np = _numpy()
        flag = np.zeros(len(self.keys) + 1, dtype=bool)  # the last slot is group -1
        flag[list(wanted)] = True
        where = np.concatenate([np.flatnonzero(flag[of[c]]) + c.start for c in _chunks(len(of))])
        return list(zip(where.tolist(), of[where].tolist()))


class Columns:
    """The columns of one file's row values, grouped and summed as a whole.

    Lint's context makes one per file, so that a column's codes and a grouping are worked
    out once for every check that reads them. Codes and group numbers are held in the
    narrowest integers that fit (a million values cost a megabyte or two per column).
    """

    def __init__(self, values: ValueTable, refs: Sequence[int]):
        self.values = values
        self.refs = refs
        self.large = len(values) >= NUMPY_FROM
        self._codes: dict[tuple[int, bool], tuple[Any, int]] = {}
        self._groupings: dict[tuple[tuple[int, ...], frozenset[int], bool], Grouping] = {}
        self._weights: Any = None
        self._counts: list[int] | None = None

    def group(
        self, fields: Sequence[int], nonzero: Collection[int] = (), whole: bool = False
    ) -> Grouping:
        """The values grouped by `fields` (indexes into ROW_FIELDS). A field in `nonzero`
        groups by whether it is non-zero (its key item is then a bool); `whole` leaves out
        the values the columns do not hold whole (`values.partial`), which callers check one
        by one. Asked again with the same arguments, it answers from memory (WK405, WK406
        and WK407 group by the same columns)."""
        key = (tuple(fields), frozenset(nonzero), whole)
        found = self._groupings.get(key)
        if found is None:
            group = self._group_numpy if self.large else self._group_python
            found = self._groupings[key] = group(fields, nonzero, whole)
        return found

    def _group_python(
        self, fields: Sequence[int], nonzero: Collection[int], whole: bool
    ) -> Grouping:
        values = self.values
        columns: list[Iterable[int]] = [
            map(bool, values.columns[k]) if k in nonzero else values.columns[k] for k in fields
        ]
        skip = values.partial if whole else {}
        number: dict[tuple[int, ...], int] = {}
        first: list[int] = []
        of: list[int] = []
        for index, key in enumerate(zip(*columns)):
            if index in skip:
                of.append(-1)
                continue
            g = number.get(key)
            if g is None:
                g = number[key] = len(first)
                first.append(index)
            of.append(g)
        return Grouping(list(number), first, of)

    def _group_numpy(
        self, fields: Sequence[int], nonzero: Collection[int], whole: bool
    ) -> Grouping:
        np = _numpy()
        values = self.values
        n = len(values)
        codes = [self._codes_of(k, k in nonzero) for k in fields]
        size = 1
        for _, count in codes:
            size *= count
        if size + 1 < 4 * n + (1 << 16):
            # Few combinations: one key of the narrowest type, no sort (the usual case).
            key = np.zeros(n, dtype=_narrowest(size + 1))
            for items, count in codes:
                key *= key.dtype.type(count)
                key += items
        else:
            key = np.zeros(n, dtype=np.int64)
            size = 1
            for items, count in codes:
                if size * count >= _KEY_LIMIT:
                    key, size = _renumber(key)
                key *= count
                key += items
                size *= count
            key, size = _renumber(key)
        if whole and values.partial:
            key[list(values.partial)] = size  # one more key, dropped below
            size += 1
        present = np.flatnonzero(_used(key, size))
        if whole and values.partial:
            present = present[present != size - 1]
        firsts = _first_indexes(key, present, size)
        rank = np.argsort(firsts, kind="stable")
        firsts, present = firsts[rank], present[rank]
        group_of_key = np.full(size, -1, dtype=_narrowest(len(present), signed=True))
        group_of_key[present] = np.arange(len(present))
        of = np.empty(n, dtype=group_of_key.dtype)
        for c in _chunks(n):
            of[c] = group_of_key[key[c]]
        del key
        first = firsts.tolist()
        keys = list(zip(*(_items_at(values.columns[k], firsts, k in nonzero) for k in fields)))
        return Grouping(keys, first, of)

    def _codes_of(self, field: int, nonzero: bool) -> tuple[Any, int]:
        """A column as codes 0..count-1 (equal values, equal codes), and the count."""
        found = self._codes.get((field, nonzero))
        if found is not None:
            return found
        np = _numpy()
        column = self.values.columns[field]
        if isinstance(column, list):
            number: dict[int, int] = {}
            items = [number.setdefault(bool(v) if nonzero else v, len(number)) for v in column]
            found = (np.array(items, dtype=_narrowest(len(number))), max(len(number), 1))
        elif nonzero:
            found = ((np.asarray(column) != 0).view(np.uint8), 2)
        else:
            items = np.asarray(column)
            low = int(items.min()) if len(items) else 0
            high = int(items.max()) if len(items) else 0
            if high == low:  # one number throughout (the reserved and policy fields, often)
                found = (np.zeros(len(items), dtype=np.uint8), 1)
            elif high - low < _DENSE:
                # A narrow span (text codes always): count each value's rank among those used.
                used = _used(items, high - low + 1, low)
                count = int(used.sum())
                rank = (np.cumsum(used) - 1).astype(_narrowest(count))
                codes = np.empty(len(items), dtype=rank.dtype)
                for c in _chunks(len(items)):
                    codes[c] = rank[items[c].astype(np.intp) - low]
                found = (codes, count)
            else:
                codes, count = _renumber(items)
                found = (codes.astype(_narrowest(count)), count)
        self._codes[(field, nonzero)] = found
        return found

    def largest(self, field: int) -> int | None:
        """The largest number of column `field` over every value, the partial ones' included
        (None: no value holds one). One pass in C: it lets a check of numbers that vary per
        row know that none reaches its threshold without running once per value."""
        column = self.values.columns[field]
        found = [p.values[field] for p in self.values.partial.values()]
        numbers = [v for v in found if isinstance(v, int)]
        if len(column) > len(self.values.partial):
            if self.large and not isinstance(column, list):
                numbers.append(int(_numpy().asarray(column).max()))
            else:
                numbers.append(max(column))
        return max(numbers, default=None)

    def rows_of(self, indexes: Sequence[int]) -> int:
        """How many rows carry one of these values."""
        if len(self.values) == len(self.refs):
            return len(indexes)
        if self.large:
            return int(self.weights()[list(indexes)].sum())
        counts = self.counts()
        assert counts is not None
        return sum(map(counts.__getitem__, indexes))

    def rows(self, grouping: Grouping) -> list[int]:
        """How many rows carry each group's values."""
        return self.sums(grouping, None)

    def sums(self, grouping: Grouping, field: int | None) -> list[int]:
        """Each group's sum of column `field` over its rows (a value counts once per row that
        carries it; None: one), exact whatever the numbers' size."""
        of, groups = grouping.of, len(grouping)
        column = self.values.columns[field] if field is not None else None
        if isinstance(of, list) or isinstance(column, list):
            return self._sums_in_python(grouping, column)
        np = _numpy()
        weights = self.weights()
        if column is None:
            if weights is None:
                return _exact_sums(of, None, 1, groups)
            return _exact_sums(of, weights, int(weights.max()), groups)
        items = np.asarray(column)
        if not len(items):
            return [0] * groups
        if int(items.min()) < 0:
            return self._sums_in_python(grouping, column)
        largest = int(items.max())
        if weights is not None:
            if largest * len(self.refs) >= 1 << 63:
                return self._sums_in_python(grouping, column)
            items = items.astype(np.int64) * weights
            largest *= int(weights.max())
        return _exact_sums(of, items, largest, groups)

    def _sums_in_python(self, grouping: Grouping, column: Sequence[int] | None) -> list[int]:
        of = grouping.of
        weights = self.counts()
        totals = [0] * len(grouping)
        for i, g in enumerate(of if isinstance(of, list) else of.tolist()):
            if g >= 0:
                w = weights[i] if weights is not None else 1
                totals[g] += w if column is None else column[i] * w
        return totals

    def weights(self) -> Any:
        """How many rows carry each value, as a numpy array; None when each value is on one
        row (every row differs)."""
        if len(self.values) == len(self.refs):
            return None
        if self._weights is None:
            np = _numpy()
            refs = self.refs
            items = np.asarray(refs) if isinstance(refs, array) else np.fromiter(refs, np.intp)
            self._weights = np.bincount(items, minlength=len(self.values)).astype(np.int64)
        return self._weights

    def counts(self) -> list[int] | None:
        """`weights()` as a list (None when each value is on one row)."""
        if len(self.values) == len(self.refs):
            return None
        if self._counts is None:
            found = Counter(self.refs)  # in C, without numpy
            self._counts = [found[i] for i in range(len(self.values))]
        return self._counts


def columns_of(rows: RowTable) -> Columns:
    """The `Columns` of a parse's rows, made once for every reader of that parse: lint,
    explain and SimAI's model group the same columns, and a column's codes are worked out
    once for all of them."""
    return rows.derived("columns", lambda: Columns(rows.values, rows.refs))


def most_of(column: Sequence[int]) -> int:
    """The largest item of a column of numbers, 0 for none: one pass in C for a long typed
    column, where `max` takes a Python step per item."""
    if isinstance(column, array) and len(column) >= NUMPY_FROM:
        return int(_numpy().asarray(column).max())
    return max(column, default=0)


def _items_at(column: Sequence[int], indexes: Any, nonzero: bool) -> list[Any]:
    """A column's items at `indexes` (a numpy array) as Python values, or whether each is
    non-zero: one gather in C for a typed column, where a tuple of items per group was a
    Python step per group and field."""
    if isinstance(column, list):
        items: list[Any] = [column[i] for i in indexes.tolist()]
        return list(map(bool, items)) if nonzero else items
    np = _numpy()
    taken = np.asarray(column)[indexes]
    found: list[Any] = (taken != 0).tolist() if nonzero else taken.tolist()
    return found


def _numpy() -> Any:
    import numpy

    return numpy


def _chunks(n: int) -> Iterator[slice]:
    """Slices of 64k items: a pass over a column a chunk at a time keeps numpy's temporary
    arrays (indexes are widened to 8 bytes) small beside the column itself."""
    return (slice(start, start + _CHUNK) for start in range(0, n, _CHUNK))


def _used(items: Any, size: int, low: int = 0) -> Any:
    """Which of `low`..`low + size - 1` occur among `items`, as a boolean array."""
    np = _numpy()
    used = np.zeros(size, dtype=bool)
    for c in _chunks(len(items)) if size <= _CHUNK else (slice(None),):
        used |= np.bincount(items[c].astype(np.intp) - low, minlength=size) > 0
    return used


def _exact_sums(of: Any, amounts: Any, largest: int, groups: int) -> list[int]:
    """Per group, the sum of `amounts` (non-negative integers, none above `largest`; None:
    one each) over the values in it (group -1: left out), exact. numpy sums by group only
    in float64, exact below 2^53: a chunk's amounts are summed whole when that bound holds,
    else in 22-bit slices; the chunks' sums add up in int64, or Python ints past 2^63."""
    np = _numpy()
    wide = largest * len(of) >= 1 << 63
    totals: Any = [0] * groups if wide else np.zeros(groups, dtype=np.int64)
    whole = largest * _CHUNK < 1 << 53
    for c in _chunks(len(of)):
        ids, part = of[c], amounts[c] if amounts is not None else None
        kept = ids >= 0
        if not kept.all():
            ids, part = ids[kept], part[kept] if part is not None else None
        shift = 0
        while True:
            piece = part
            if part is not None and not whole:
                mask = part.dtype.type((1 << 22) - 1)
                piece = (part >> part.dtype.type(shift)) & mask
            found = np.bincount(ids, weights=piece, minlength=groups).astype(np.int64)
            if wide:
                totals = [t + (int(f) << shift) for t, f in zip(totals, found.tolist())]
            else:
                totals += found << shift
            shift += 22
            if whole or not largest >> shift:
                break
    return [int(t) for t in totals]


def _narrowest(count: int, signed: bool = False) -> Any:
    """The smallest numpy integer type that holds 0..count-1 (and -1 when `signed`)."""
    np = _numpy()
    for kind in (np.int8, np.int16, np.int32) if signed else (np.uint8, np.uint16, np.uint32):
        if count <= np.iinfo(kind).max:
            return kind
    return np.int64


def _renumber(key: Any) -> tuple[Any, int]:
    """Keys renumbered 0..k-1 in the order of their values (for keys spread too wide to count
    directly). When the keys are few (collective sizes, say), each key's number is found
    among them by a binary search: among those of the first chunk, then, for the items whose
    key it lacked, among all; otherwise the whole column is sorted."""
    np = _numpy()
    seen = np.unique(key[:_CHUNK])
    if len(seen) <= _FEW_KEYS:
        at = np.searchsorted(seen, key)
        np.minimum(at, len(seen) - 1, out=at)
        missed = np.flatnonzero(seen[at] != key)
        if not len(missed):
            return at.astype(np.int64), len(seen)
        every = np.union1d(seen, key[missed])
        if len(every) <= _FEW_KEYS:
            at = np.searchsorted(every, seen)[at]  # the first chunk's numbers among all
            at[missed] = np.searchsorted(every, key[missed])
            return at.astype(np.int64), len(every)
    unique, inverse = np.unique(key, return_inverse=True)
    return inverse.reshape(-1).astype(np.int64), len(unique)


def _first_indexes(key: Any, present: Any, size: int) -> Any:
    """For each key in `present` (keys are 0..size-1), the first index where `key` holds it.

    One pass a chunk at a time: only the items whose key no earlier chunk held are sorted
    (a stable sort, so the first of equal keys wins), so each key costs one lookup per item
    and its first sighting one sort step: linear in the items, whatever the number of keys.
    """
    np = _numpy()
    first = np.full(size, -1, dtype=_narrowest(len(key), signed=True))
    for c in _chunks(len(key)):
        part = key[c]
        fresh = np.flatnonzero(first[part] < 0)
        if len(fresh):
            keys, where = np.unique(part[fresh], return_index=True)
            first[keys] = fresh[where] + c.start
    return first[present].astype(np.int64)
