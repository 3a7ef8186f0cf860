"""The data-parallel size as SimAI-Analytical computes it, written once.

SimAI does not read DP from the file: it divides the GPU count it is run with (`-g`, which
wkparse takes from `all_gpus` unless told otherwise) by TP x PP, in C `int` arithmetic: the
product wraps in 32 bits, the quotient truncates, and the GPUs left over are never mentioned.
Lint (WK210, WK211), explain and the `simai` model all ask this module.
"""

from __future__ import annotations

from wkparse.cpp import c_div, wrap_int32


def stages(tp: int, pp: int) -> int:
    """TP x PP as SimAI's int product holds it (0 means SimAI dies of SIGFPE dividing by it)."""
    return wrap_int32(tp * pp)


def data_parallel(gpus: int, tp: int, pp: int) -> int | None:
    """DP = gpus / (TP x PP) as SimAI computes it; None where TP x PP is 0."""
    divisor = stages(tp, pp)
    return c_div(gpus, divisor) if divisor else None


def left_out(gpus: int, tp: int, pp: int) -> int | None:
    """The GPUs SimAI's DP leaves out (gpus - DP x TP x PP); None where TP x PP is 0."""
    dp = data_parallel(gpus, tp, pp)
    return None if dp is None else gpus - dp * stages(tp, pp)
