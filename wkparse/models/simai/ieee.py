"""The floating-point arithmetic SimAI-Analytical's report does, as x86-64 and glibc do it.

Its times pass between `double`, `float` and `uint64_t` (SimAI's `Tick`): a bandwidth is a
`float`, a `Tick` multiplied by a `float` ratio is a `float` product, and a `double` stored in
a `Tick` is truncated the way gcc's conversion sequence does it (NaN becomes 2**63, infinity
and anything at or past 2**64 become 0, a negative value wraps). Python floats are IEEE
doubles computed by the same hardware, so a NaN keeps the sign x86 gives it (`-nan` for one
made by an invalid operation); only division by zero needs writing out, since Python raises
where C gives an infinity or a NaN.
"""

from __future__ import annotations

import math
import struct

U64 = 2**64
TWO_63 = 2**63
#: the NaN x86 makes for an invalid operation (0/0, inf-inf, 0*inf): its sign bit is set
DEFAULT_NAN = -math.nan if math.copysign(1.0, math.nan) > 0 else math.nan
_F32 = struct.Struct("f")
_PACK, _UNPACK = _F32.pack, _F32.unpack


def f32(x: float) -> float:
    """`x` rounded to a C `float` (ties to even), as a Python float (SimAI's report rounds
    several times per collective: kept to a pack and an unpack)."""
    if x != x:  # NaN, kept as it is (its sign shows in what SimAI prints)
        return x
    try:
        found: float = _UNPACK(_PACK(x))[0]
        return found
    except OverflowError:
        # past the largest float the rounding gives an infinity of the same sign
        return math.copysign(math.inf, x)


def div(a: float, b: float) -> float:
    """`a / b` in IEEE arithmetic, including b == 0."""
    if b != 0.0:
        return a / b
    if math.isnan(a):
        return a
    if a == 0.0:
        return DEFAULT_NAN
    negative = (math.copysign(1.0, a) < 0) != (math.copysign(1.0, b) < 0)
    return -math.inf if negative else math.inf


def tick(x: float) -> int:
    """A `double` (or `float`) stored in a `uint64_t`, by the sequence gcc emits on x86-64:
    below 2**63 (or NaN) a signed truncation, whose overflow value is 2**63; otherwise the
    value less 2**63 truncated, with bit 63 flipped."""
    if math.isnan(x):
        return TWO_63
    if x < TWO_63:
        if x <= -TWO_63 - 1 or math.isinf(x):
            return TWO_63
        return int(x) % U64
    rest = x - TWO_63
    if math.isinf(rest) or rest >= TWO_63:
        return 0
    return int(rest) ^ TWO_63


def u64_to_f32(value: int) -> float:
    """A `uint64_t` converted to `float` (nearest, ties to even)."""
    return f32(float(value))


def scale_tick(value: int, factor: float) -> int:
    """`Tick *= float`: the product is taken in `float`, then stored back in the `Tick`."""
    return tick(f32(u64_to_f32(value) * factor))


def fixed(value: float, decimals: int) -> str:
    """`printf("%.Nf")` / `std::fixed << setprecision(N)` as glibc prints it."""
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    if math.isinf(value):
        return "-inf" if value < 0 else "inf"
    return f"{value:.{decimals}f}"


#: SimAI's `format_value` of a finite value: no decimals (a template for `%`, so that a whole
#: row of them is formatted in one call)
WHOLE = "%.0f"


def whole(value: float) -> str:
    """SimAI's `format_value`: no decimals, or `NaN or Inf` for a value that is not finite."""
    if math.isnan(value) or math.isinf(value):
        return "NaN or Inf"
    return WHOLE % value


def stof(text: str) -> float | None:
    """`std::stof` of an option value: its longest leading decimal number as a `float`
    (None when there is none, where stof throws `invalid_argument`)."""
    s = text.lstrip(" \t\n\v\f\r")
    for end in range(len(s), 0, -1):
        head = s[:end]
        if "_" in head or head.strip() != head:
            continue
        try:
            return f32(float(head))
        except ValueError:
            continue
    return None
