"""The C and C++ library behaviour SimAI's reader leans on, written out in Python.

SimAI reads a workload with `std::getline`, `std::stoi`, `istream >>` and a few implicit
conversions (a 64-bit integer times a `float` scale, the product stored back in 64 bits). Each
of them decides what SimAI ends up with, so each is modelled here once, from the C and C++
standards and the behaviour of libstdc++ on x86-64 (the platform SimAI is built on). Everything
works on bytes: C's `isspace` knows six ASCII characters, not Unicode's whitespace.

It sits below the parser (which reads line 2 with the same `stoi`) and imports nothing of
wkparse: the SimAI model (`wkparse.models.simai`) builds on it, never the other way round.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from wkparse.record import record

#: the characters C's isspace() accepts in the "C" locale; `>>` and getline-then-split use them
C_SPACE = b" \t\n\v\f\r"
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1
U32 = 2**32
U64 = 2**64
_DIGITS = b"0123456789"
#: past this many significant digits a number is out of range of every C integer type; checking
#: first keeps int() away from a million-digit token
_MAX_SIGNIFICANT = 20


@record
class Stoi:
    """What `std::stoi` makes of a string.

    `value` is the int it returns; `error` the exception it throws instead: "invalid_argument"
    (no digits after optional whitespace and sign) or "out_of_range" (outside 32-bit int).
    `consumed` counts the characters strtol used, so `whole` says the text was a plain integer.
    """

    value: int | None
    error: str | None
    consumed: int
    length: int

    @property
    def whole(self) -> bool:
        return self.error is None and self.consumed == self.length


def _leading_integer(data: bytes, start: int) -> tuple[int | None, int]:
    """Optional sign then ASCII digits from `start`: (value, end), value None without digits.

    The value is clamped to just past 64 bits, enough for every range check made on it.
    """
    i = start
    negative = False
    if i < len(data) and data[i] in b"+-":
        negative = data[i] == ord("-")
        i += 1
    first = i
    while i < len(data) and data[i] in _DIGITS:
        i += 1
    if i == first:
        return None, i
    digits = data[first:i].lstrip(b"0")
    value = int(digits) if 0 < len(digits) <= _MAX_SIGNIFICANT else (0 if not digits else U64)
    return (-value if negative else value), i


def stoi(text: bytes | str) -> Stoi:
    """`std::stoi(text)`: strtol in base 10 (leading C whitespace, a sign, digits, stop at the
    first other character), then the int range check."""
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    start = 0
    while start < len(data) and data[start] in C_SPACE:
        start += 1
    value, end = _leading_integer(data, start)
    if value is None:
        return Stoi(None, "invalid_argument", 0, len(data))
    if not INT_MIN <= value <= INT_MAX:
        return Stoi(None, "out_of_range", end, len(data))
    return Stoi(value, None, end, len(data))


def wrap_int32(value: int) -> int:
    """A product of two ints as x86-64 leaves it (two's complement wrap)."""
    value &= U32 - 1
    return value - U32 if value > INT_MAX else value


def c_div(a: int, b: int) -> int:
    """C integer division: truncates toward zero (the caller checks for a zero divisor)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def float32(value: int) -> int:
    """The integer value of the 32-bit float nearest to a non-negative integer (ties to even):
    what `uint64 * 1.0f` keeps of a size or a compute time."""
    bits = value.bit_length()
    if bits <= 24:
        return value
    shift = bits - 24
    kept = value >> shift
    rest = value - (kept << shift)
    half = 1 << (shift - 1)
    if rest > half or (rest == half and kept & 1):
        kept += 1
    return kept << shift


def float_to_u64(value: int) -> int:
    """A float product stored back in a uint64_t: exact below 2**64; at or above it the x86-64
    conversion gcc emits yields 0 (how a negative size, wrapped to nearly 2**64, becomes 0)."""
    return value if value < U64 else 0


def scaled(value: int) -> int:
    """A uint64 value after SimAI multiplies it by its float scale of 1 and stores it back."""
    return float_to_u64(float32(value))


#: below this every integer is exact as a double, so a C `float` rounds it once, as SimAI's
#: scale does
_EXACT_DOUBLE = 2**53


def scaled_floats(values: Sequence[int], most: int | None = None) -> array[float]:
    """`scaled` of each value (the largest `most`, when known), in an array of C floats (which
    holds each exactly: it is a float's value). A column of values below 2**53, exact as
    doubles, is converted in one call, C rounding each as `float32` does; a larger value is
    scaled one at a time."""
    from wkparse.columns import NUMPY_FROM, most_of

    if most is None:
        most = most_of(values)
    if most >= _EXACT_DOUBLE:
        return array("f", map(scaled, values))
    if len(values) < NUMPY_FROM:
        return array("f", values)
    # a long column by numpy: each value rounded to a C float as `array("f", ...)` rounds it
    # (its double, the integer itself below 2**53, is rounded once either way)
    import numpy

    floats = array("f")
    floats.frombytes(numpy.asarray(values).astype(numpy.float32).data.cast("B"))
    return floats


class IStream:
    """`std::ifstream >>` over the bytes after line 2, one extraction at a time.

    Extractions skip C whitespace (line ends included); a string takes everything up to the
    next whitespace; an integer takes a sign and digits and stops at the first other byte,
    which the next extraction starts from. Once an extraction fails the stream stays failed
    and every later extraction leaves its variable untouched (returns None).
    """

    __slots__ = ("data", "failed", "failed_at", "pos", "start")

    def __init__(self, data: bytes, pos: int = 0) -> None:
        self.data = data
        self.pos = pos
        self.failed = False
        #: the offset where the stream failed
        self.failed_at = -1
        #: where the last integer extraction started
        self.start = pos

    def fail(self, at: int | None = None) -> None:
        if not self.failed:
            self.failed = True
            self.failed_at = self.pos if at is None else at

    def skip_space(self) -> bool:
        """Move past whitespace; False (and the stream fails) at the end of the data."""
        data, i = self.data, self.pos
        n = len(data)
        while i < n and data[i] in C_SPACE:
            i += 1
        self.pos = i
        if i == n:
            self.fail()
            return False
        return True

    def word(self) -> bytes | None:
        """`>> std::string`: the next token, or None when the stream fails."""
        if self.failed or not self.skip_space():
            return None
        data, start = self.data, self.pos
        i = start
        n = len(data)
        while i < n and data[i] not in C_SPACE:
            i += 1
        self.pos = i
        return data[start:i]

    def _integer(self) -> int | None:
        if self.failed or not self.skip_space():
            return None
        self.start = self.pos
        value, end = _leading_integer(self.data, self.pos)
        if value is None:
            self.fail()
            self.pos = end
            return 0
        self.pos = end
        return value

    def int32(self) -> int | None:
        """`>> int` (libstdc++ reads a long, then narrows): out of range fails and stores the
        nearest bound; no digits fails and stores 0; None when the variable is untouched."""
        value = self._integer()
        if value is None or self.failed:
            return value
        if not LONG_MIN <= value <= LONG_MAX or not INT_MIN <= value <= INT_MAX:
            self.fail(self.start)
            return INT_MAX if value > 0 else INT_MIN
        return value

    def uint32(self) -> int | None:
        """`>> uint32_t`: as `uint64`, modulo 2**32; a magnitude past 32 bits fails and stores
        the maximum."""
        return self._unsigned(U32)

    def uint64(self) -> int | None:
        """`>> uint64_t`: a leading minus wraps modulo 2**64; a magnitude past 64 bits fails and
        stores the maximum; no digits fails and stores 0; None when the variable is untouched."""
        return self._unsigned(U64)

    def _unsigned(self, bound: int) -> int | None:
        """`>>` into an unsigned type of `bound` values (see `uint64`)."""
        value = self._integer()
        if value is None or self.failed:
            return value
        if abs(value) >= bound:
            self.fail(self.start)
            return bound - 1
        return value % bound


def split_c(line: bytes) -> list[bytes]:
    """`istringstream >> token` until it fails: the tokens between C whitespace."""
    # bytes.split() splits on exactly the six C whitespace bytes
    return line.split()
