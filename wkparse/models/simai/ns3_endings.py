"""How SimAI-Simulation (the ns-3 backend) ends where an older SimAI's did otherwise, in words
that name what each statement rests on: a run recorded at that commit
(`../shared/simai-ns3-versions/`, the ns-3 backend built and run at b83ea3d4, 02532997 and
7f06c19c) or SimAI's source where no run exists.

- **The abort.** Before 02532997 a plain `ALLTOALL` runs with the `direct` all-to-all: right
  after it is issued an ns-3 assertion in `rdma-hw.cc` aborts the run (exit 134).
- **The small collective.** A collective of 1-4095 B is issued and never completes: nothing is
  left to simulate, ns-3 runs out of events and the program exits 0 once the traffic before
  it is simulated (within seconds in the recorded runs), with no
  `all passes finished` and an empty EndToEnd.csv. 7f06c19c raises forward sizes to 4096 B
  (`Workload.cc`, the forward pass only); input- and weight-gradient sizes are issued as read
  at 7f06c19c and at cef83f9, down the same `Sys::generate_collective` and mock NCCL flow model
  that the forward ones stopped in.
"""

from __future__ import annotations

from wkparse.models.simai.versions import SimaiVersion

#: where the older commits' ns-3 runs are recorded
RUNS = "../shared/simai-ns3-versions"
#: the commits whose ns-3 backend was built and run (cef83f9: `../shared/simai-ns3-oracle/`)
RUN_AT = ("b83ea3d4", "02532997", "7f06c19c", "cef83f9d")
#: the cases that show each ending, and the commits they were recorded at
ABORT_CASE = "micro__alltoall_row0 (a forward ALLTOALL in a TP group of 8)"
ABORT_AT = ("b83ea3d4",)
SMALL_CASES = "micro__allreduce_4B_row0 (4 B) and mixtral_ep2__div1024 (128 B)"
SMALL_AT = ("b83ea3d4", "02532997")
#: the stderr line of the abort, as recorded
NIC_ASSERT = 'assert failed. cond="false", msg="We assume at least one NIC is alive"'
#: the outcome's own words, shared by the ns-3 verdict, lint and triage
SILENT = (
    "exit 0 once the traffic before it is simulated (within seconds in the recorded runs), "
    "no `all passes finished`, ncclFlowModel_EndToEnd.csv empty"
)


def _evidence(version: SimaiVersion, recorded_at: tuple[str, ...], cases: str) -> str:
    at = " and ".join(recorded_at)
    where = f"{RUNS} {cases}"
    if version.short in recorded_at:
        return f"recorded at {version.short}: {where}"
    return f"from the source, not run; recorded at {at}: {where}"


def abort_message(version: SimaiVersion, comm: str, phase: str, index: int, name: str) -> str:
    """The run aborts right after a plain ALLTOALL is issued (before 02532997)."""
    return (
        f"Aborted (SIGABRT, exit 134): {comm} in the {phase} pass of layer {index} ({name}) is "
        f"issued, then ns-3 stops at `{NIC_ASSERT}` (rdma-hw.cc): before 02532997 the ns-3 "
        f"backend runs a plain ALLTOALL with the `direct` all-to-all "
        f"({_evidence(version, ABORT_AT, ABORT_CASE)}; SimAI#44 reports it too)"
    )


def small_message(
    version: SimaiVersion,
    comm: str,
    size: int,
    phase: str,
    index: int,
    name: str,
    fwd_in_bckwd: bool,
) -> str:
    """The run stops silently at a collective of 1-4095 B; `fwd_in_bckwd`: the file's policy
    is the one whose forward sizes 7f06c19c raises."""
    head = (
        f"{comm} of {size} B in the {phase} pass of layer {index} ({name}) is issued and never "
        f"completes: SimAI-Simulation stops there silently ({SILENT})"
    )
    if phase == "weight-gradient":
        # issued non-blocking: the backward pass goes on, the run waits for it at the end
        head = (
            f"{comm} of {size} B in the weight-gradient pass of layer {index} ({name}) is issued "
            "and never completes: the backward pass goes on past it and prints `pass: 0 "
            "finished`, then SimAI-Simulation waits for it and stops silently (exit 0, no "
            "`all passes finished`, ncclFlowModel_EndToEnd.csv empty)"
        )
    recorded = f"{RUNS} {SMALL_CASES}"
    if phase == "forward" and not version.has("ns3_small_message"):
        evidence = _evidence(version, SMALL_AT, SMALL_CASES)
        return f"{head}; forward collectives under 4 KiB stop it before 7f06c19c ({evidence})"
    if phase == "forward":
        why = "7f06c19c raises forward sizes in HYBRID_TRANSFORMER_FWD_IN_BCKWD files only"
    else:
        why = "7f06c19c raises forward sizes only"
    return (
        f"{head}; {why}, so this one takes the path the forward ones stopped on at "
        f"{' and '.join(SMALL_AT)} ({recorded}): from the source, not run"
    )


#: the runs that show the older reader's names and the older EndToEnd.csv
NAMES_CASE = "small__big_colls_div1024 (its two size-0 `_DP_EP` collectives)"
NAMES_AT = ("b83ea3d4",)
CSV_CASES = "micro, small__big_colls_div1024 and their header variants"
CSV_AT = ("b83ea3d4", "02532997")


def dropped_note(version: SimaiVersion, count: int) -> str:
    """Collectives by 02532997's names that an older ns-3 reader reads as none."""
    what = "collective is" if count == 1 else "collectives are"
    return (
        f"{count} `_EP`/`_DP_EP` {what} no collective to SimAI {version.short}'s ns-3 reader "
        f"(it knows only the plain names until 02532997): `no ... collective for layer`, they "
        f"cost nothing ({_evidence(version, NAMES_AT, NAMES_CASE)})"
    )


def older_csv_note(version: SimaiVersion) -> str:
    """A finished run's EndToEnd.csv before 7f06c19c."""
    return (
        "ncclFlowModel_EndToEnd.csv in the older format: no `File name, ..., Total time` "
        "summary lines; the total is the last value of its `total exposed comm, ..., total "
        f"time, T` line ({_evidence(version, CSV_AT, CSV_CASES)})"
    )
