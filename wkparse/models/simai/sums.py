"""SimAI's running sums: doubles added one at a time, in order.

SimAI-Analytical adds every layer's terms to its totals (`total comp`, the exposed comm, the
bubble base) with one `+=` at a time in double precision, so a total depends on the order of
its terms. `functools.reduce` adds the same way, where `sum` may compensate (Python 3.12's
does). Identical trailing layers past EXACT_REPEATS (a count line may declare a billion) are
multiplied out instead: adding them one by one would take minutes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import reduce
from itertools import chain, repeat
from operator import add

#: past this many identical trailing layers a sum is multiplied out, not added up
EXACT_REPEATS = 1_000_000


def running_sum(terms: Iterable[float], tail: Sequence[float] = (), times: int = 0) -> float:
    """`terms` (each layer's, in order), then `times` copies of the tail layer's terms."""
    if not tail:  # copies of no term add nothing, however many a count line declares
        return reduce(add, terms, 0.0)
    if times <= EXACT_REPEATS:
        return reduce(add, chain(terms, chain.from_iterable(repeat(tail, times))), 0.0)
    return reduce(add, terms, 0.0) + times * reduce(add, tail)
