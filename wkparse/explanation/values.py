"""Numbers as written, and arithmetic that survives hostile sizes.

`written_number` is the number as written (what SimAI reads is `wkparse.models.simai`'s); `fraction`
and `scaled` give None or an exact answer where a float would overflow.
"""

from __future__ import annotations


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
