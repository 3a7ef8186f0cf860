"""Run-length pictures of row-name sequences: 'embedding_layer, 9 x (attention_layer, ...)'."""

from __future__ import annotations

import re
from collections.abc import Sequence

_MAX_PERIOD = 64


def compress(names: Sequence[str | None]) -> str:
    """A run-length picture of a name sequence: 'embedding_layer, 9 x (attention_layer, ...)'."""
    return ", ".join(_compress(tuple(n if n is not None else "(unnamed)" for n in names)))


def _compress(seq: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    i, n = 0, len(seq)
    while i < n:
        best_period, best_count = 0, 1
        for period in range(1, min(_MAX_PERIOD, (n - i) // 2) + 1):
            if seq[i + period] != seq[i]:
                continue  # no repeat of this period starts here (names that never repeat)
            block = seq[i : i + period]
            count = 1
            while seq[i + count * period : i + (count + 1) * period] == block:
                count += 1
            if count > 1 and period * count > best_period * best_count:
                best_period, best_count = period, count
        if best_count > 1:
            inner = _compress(seq[i : i + best_period])
            body = inner[0] if len(inner) == 1 else f"({', '.join(inner)})"
            out.append(f"{best_count} x {body}")
            i += best_period * best_count
        else:
            out.append(seq[i])
            i += 1
    return _number_runs(out)


def _number_runs(items: list[str]) -> list[str]:
    """'optimizer1, optimizer2, optimizer3' -> 'optimizer1..3'."""
    out: list[str] = []
    i = 0
    while i < len(items):
        # At most 18 digits: a hostile name's 5,000-digit run is not a counter, and int()
        # refuses it.
        m = re.fullmatch(r"(.*\D)(\d{1,18})", items[i])
        j = i + 1
        if m:
            stem, number = m.group(1), int(m.group(2))
            while j < len(items) and items[j] == f"{stem}{number + (j - i)}":
                j += 1
        if j - i >= 3 and m:
            out.append(f"{items[i]}..{number + (j - i) - 1}")
        else:
            out.extend(items[i:j])
        i = j
    return out
