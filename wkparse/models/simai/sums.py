"""SimAI's running sums: doubles added one at a time, in order.

SimAI-Analytical adds every layer's terms to its totals (`total comp`, the exposed comm, the
bubble base) with one `+=` at a time in double precision, so a total depends on the order of
its terms. `functools.reduce` adds the same way, where `sum` may compensate (Python 3.12's
does). Identical trailing layers past EXACT_REPEATS (a count line may declare a billion) are
multiplied out instead: adding them one by one would take minutes. A long column of terms
is added by numpy (`sequential_sum`), in the same order, one addition at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import reduce
from itertools import chain, repeat
from operator import add
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

#: past this many identical trailing layers a sum is multiplied out, not added up
EXACT_REPEATS = 1_000_000


def running_sum(
    terms: Iterable[float], tail: Sequence[float] = (), times: int = 0, start: float = 0.0
) -> float:
    """`start` (the sum of the terms before, `sequential_sum`'s), then `terms` (each
    layer's, in order), then `times` copies of the tail layer's terms."""
    total = reduce(add, terms, start)
    if not tail:  # copies of no term add nothing, however many a count line declares
        return total
    if times <= EXACT_REPEATS:
        return reduce(add, chain.from_iterable(repeat(tail, times)), total)
    return total + times * reduce(add, tail)


def sequential_sum(chunks: Iterable[NDArray[np.float64]]) -> float:
    """0.0 plus every term of the chunks, one at a time in order, as `running_sum` adds them:
    numpy's `add.accumulate` adds each term to the sum before it (the pairwise summation
    of `sum` and `add.reduce` would round differently), a chunk at a time so that no array
    as long as the file is made."""
    import numpy

    total = 0.0
    for chunk in chunks:
        if len(chunk):
            total = float(numpy.add.accumulate(numpy.concatenate(([total], chunk)))[-1])
    return total
