"""How a SimAI run ends, and the messages SimAI itself prints on the way."""

from __future__ import annotations

from wkparse.i18n import N_, _
from wkparse.record import record

#: SimAI's stderr line when line 1's first token is no policy it knows (then exit(1))
UNKNOWN_POLICY = (
    "######### Exiting because unable to decode the workload parallelization strategy #########"
)
#: SimAI's one warning about a header, spelling as printed
FORMAT_MISMATCH = (
    "*****Warining: Input workload format mismatch. It may cause simulation error. "
    "Pleased use the latest AICB to generate.*****"
)


@record
class Outcome:
    """The exit status of a SimAI run (either backend) and what it says about it.

    `kind` is "ok" (finished, exit 0), "exit" (SimAI's own exit(1)), "exception" (an uncaught
    C++ exception: abort, exit 134), "signal" (SIGABRT from an assertion 134, SIGFPE 136,
    SIGSEGV 139), "refused" (its option parser refused the command line: exit 255), "hang"
    (it never ends; 124 is what `timeout` reports when it kills it) or "no-result" (exit 0
    with no result: no pass finished and the results are empty, or the analytical report
    stopped part way without its summary). `undefined` marks an ending that C++ leaves
    undefined (reading past a vector, garbage values): the code given is the one measured on
    real files, not a promise. `layer` is the index of the layer the run ends at, when a row
    causes the ending.
    """

    exit_code: int
    kind: str
    message: str
    undefined: bool = False
    layer: int | None = None


#: its message stays English in every output but a triage answer, which words it in its language
OK = Outcome(0, "ok", N_("SimAI-Analytical finished."))


def exception(name: str, what: str) -> Outcome:
    """An uncaught `std::<name>`: libstdc++'s terminate handler prints these two lines."""
    return Outcome(
        134,
        "exception",
        f"terminate called after throwing an instance of 'std::{name}'\n  what():  {what}",
    )


def sigfpe(where: str) -> Outcome:
    return Outcome(136, "signal", f"Floating point exception (SIGFPE): {where}")


def sigsegv(where: str) -> Outcome:
    return Outcome(139, "signal", f"Segmentation fault (SIGSEGV): {where}", undefined=True)


def assertion(condition: str) -> Outcome:
    return Outcome(134, "signal", f"Assertion `{condition}' failed (SIGABRT)")


def unknown_policy() -> Outcome:
    return Outcome(1, "exit", UNKNOWN_POLICY)


#: SimAI's stderr line when an exception escapes a scheduled event (the report's
#: `Data size out of range`): `Sys::handleEvent` catches it and drops the callback
CALLABLE_REMOVED = "warning! a callable is removed before call"


def refused(stderr: str) -> Outcome:
    return Outcome(255, "refused", stderr)


def hang(index: int, phase: str, ns: int, as_int: int) -> Outcome:
    return Outcome(
        124,
        "hang",
        _(
            "layer {index} {phase} compute {ns} ns is {cut} as SimAI's int: the event lands "
            "before the current tick and the run never ends"
        ).format(index=index, phase=phase, ns=ns, cut=as_int),
        layer=index,
    )


def empty(index: int, phase: str, ns: int, as_int: int) -> Outcome:
    return Outcome(
        0,
        "no-result",
        _(
            "layer {index} {phase} compute {ns} ns is {cut} as SimAI's int: nothing is left "
            "to run, SimAI exits 0 at once with an empty EndToEnd.csv"
        ).format(index=index, phase=phase, ns=ns, cut=as_int),
        layer=index,
    )


def no_result(index: int) -> Outcome:
    return Outcome(
        0,
        "no-result",
        _(
            "layer {index}: a collective's size is past SimAI's ratio tables (Data size out of "
            "range): the report stops there, with no totals"
        ).format(index=index),
        layer=index,
    )
