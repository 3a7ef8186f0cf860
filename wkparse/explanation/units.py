"""Numbers as explain prints them: bytes in binary units, ticks in time units, percentages.

Shared by the sentences and the three renderers. Every function accepts the huge integers a
hostile header can carry (10^400 overflows a float) and still returns a short string.
"""

from __future__ import annotations

from wkparse.i18n import _


def as_written(x: object) -> str:
    """A header value as the file gives it: 'absent' for a key the file leaves out (never
    Python's None), integers with thousands separators."""
    if x is None:
        return _("absent")
    return f"{x:,}" if isinstance(x, int) else str(x)


def human_bytes(n: int | float | None) -> str:
    """Binary units, three significant digits: 33554432 -> '32 MiB'."""
    if n is None:
        return "-"
    try:
        value = float(n)
    except OverflowError:  # an int no float holds (a hostile file's 10^400)
        return f"~10^{_exponent(n)} B"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(value) < 1024 or unit == "PiB":
            if unit == "B":
                return f"{int(value):,} B"
            return f"{_sig3(value)} {unit}"
        value /= 1024
    return f"{n} B"  # pragma: no cover  (the loop always returns)


def human_ns(n: int | float | None) -> str:
    """Ticks are nanoseconds: 1820000 -> '1.82 ms'."""
    if n is None:
        return "-"
    try:
        value = float(n)
    except OverflowError:  # an int no float holds (a hostile file's 10^400)
        return f"~10^{_exponent(n)} ns"
    if abs(value) < 1000:
        return f"{int(value)} ns"
    for unit, scale in (("µs", 1e3), ("ms", 1e6), ("s", 1e9)):
        if abs(value) < scale * 1000 or unit == "s":
            return f"{_sig3(value / scale)} {unit}"
    return f"{n} ns"  # pragma: no cover


def _exponent(n: int | float) -> int:
    """The decimal exponent of a huge int, without converting it to str (which may refuse)."""
    return int(abs(int(n)).bit_length() * 0.30103)


def _sig3(value: float) -> str:
    if abs(value) >= 100:
        return f"{value:.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}".rstrip("0").rstrip(".")
    return f"{value:.2f}".rstrip("0").rstrip(".")


def percent(fraction: float) -> str:
    return f"{fraction * 100:.2f}%" if fraction < 0.1 else f"{fraction * 100:.1f}%"
