"""What SimAI reads from a written number, and arithmetic that survives hostile sizes.

`stoi` mimics C++ `std::stoi` (SimAI's reader); `written_number` is the number as written;
`fraction` and `scaled` give None or an exact answer where a float would overflow.
"""

from __future__ import annotations

import re


def stoi(text: str | None) -> int | None:
    """What C++ `std::stoi` reads from a token: a leading integer, None when there is none."""
    if text is None:
        return None
    m = re.match(r"\s*([+-]?\d+)", text)
    if m is None or len(m.group(1).lstrip("+-").lstrip("0")) > 10:
        return None  # outside int32 (and, when long, more digits than int() takes)
    value = int(m.group(1))
    return value if -(2**31) <= value < 2**31 else None


def written_number(text: str | None) -> int | float | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return None


def fraction(numerator: int, denominator: int) -> float | None:
    """numerator / denominator, None when a hostile header makes it too large for a float."""
    try:
        return numerator / denominator
    except OverflowError:
        return None


def scaled(total: int, fraction: float | None) -> int | None:
    """round(total * fraction), exact when `total` (a hostile file's 10^400) is past floats."""
    if fraction is None:
        return None
    try:
        return round(total * fraction)
    except OverflowError:
        from fractions import Fraction

        return round(Fraction(total) * Fraction(fraction))
