"""The SimAI commits wkparse tells apart, and which one a commit, a date or a release means.

Users rarely run the SimAI of today: they cloned it on some date. Each entry is a commit of
aliyun/SimAI's master where what SimAI does with a workload file changed (its reader, its
command line, its bandwidth model, its ns-3 backend), so the commit in force on a date is the
last entry at or before it. The analytical ones were built and run on the same cases
(`../shared/simai-versions`); the others are known from their source diffs only.
"""

from __future__ import annotations

import re

from wkparse.record import record


@record(slots=False)
class SimaiVersion:
    """One commit of aliyun/SimAI's master."""

    commit: str
    date: str
    subject: str
    release: str = ""

    @property
    def short(self) -> str:
        return self.commit[:8]

    def has(self, switch: str) -> bool:
        """Whether this version has the behaviour `switch` of `SWITCHES` (see `has`)."""
        return has(self, switch)

    def as_json(self) -> dict[str, str | None]:
        """How JSON outputs name it (`simai`)."""
        return {
            "commit": self.commit,
            "short": self.short,
            "date": self.date,
            "release": self.release or None,
        }

    @property
    def label(self) -> str:
        """How outputs name it: `cef83f9d (2026-08-14)`, with the release where there is one."""
        release = f", SimAI {self.release}" if self.release else ""
        return f"{self.short} ({self.date}{release})"


#: oldest first; the dates are the commits' own
VERSIONS: tuple[SimaiVersion, ...] = (
    SimaiVersion(
        "b1c1eb6688d3c7a6b52676b46adf2f5b7b79d9cc",
        "2024-11-19",
        "[SimAI-Analytical] v1.0 release",
        "1.0",
    ),
    SimaiVersion(
        "03613a7a7992a40b1b396ed5a1b11bcc9c6af634",
        "2024-12-04",
        "[SimAI-Analytical]Add PP comm support",
    ),
    SimaiVersion(
        "b83ea3d43a911adf7f28dc701b3abb84aa086392",
        "2025-01-13",
        "Apply patch to improve workload reading (#69)",
    ),
    SimaiVersion(
        "0253299782eecd65c53b9093fa7bd477abcff63d",
        "2025-02-18",
        "Add AlltoAll support and EP/DP_EP group with SimAI-NS3. (#78)",
    ),
    SimaiVersion(
        "7f06c19cca2db2140404d998486722c323fb17ce",
        "2025-02-28",
        "Fix small message, Simulation same CSV output format as Analytical (#100)",
    ),
    SimaiVersion(
        "4e66932a9b0090a163a7a72b3cb9ea799d713a90",
        "2025-03-20",
        "update group QR code and fix workload read bug (#113)",
    ),
    SimaiVersion(
        "26b4574b4aa28cd6d8b77068093c89fdf9909f25",
        "2025-07-09",
        "Auto buwbw cal (#144)",
    ),
    SimaiVersion(
        "f5efb5a93ea9be7db25a8843f9f7ff54044f6062",
        "2026-04-24",
        "Merge pull request #268",
        "1.6",
    ),
    SimaiVersion(
        "632e1469db91036c6379f167e5255d92c54320d9",
        "2026-07-07",
        "feat(simai): SimAI 1.7 - SimCCL v2.30 integration, docs update, send_lat bucketing",
        "1.7",
    ),
    SimaiVersion(
        "cef83f9ddd96540e3e9f48934f11335d52d54fce",
        "2026-08-14",
        "Merge pull request #294",
    ),
)

#: what wkparse describes when no version is asked for
DEFAULT = VERSIONS[-1]

_DATE = re.compile(r"^\d{4}-\d{2}(-\d{2})?$")
_HASH = re.compile(r"^[0-9a-fA-F]{4,40}$")


class UnknownVersion(ValueError):
    """A revision that names no modelled SimAI (the message says what is accepted)."""


def in_force(date: str) -> SimaiVersion:
    """The SimAI a user who cloned master on `date` (YYYY-MM-DD or YYYY-MM) built."""
    day = date if len(date) == 10 else f"{date}-31"
    known = [v for v in VERSIONS if v.date <= day]
    if not known:
        raise UnknownVersion(f"{date}: before SimAI's first modelled release ({VERSIONS[0].label})")
    return known[-1]


def resolve(rev: str) -> SimaiVersion:
    """The version `rev` means: a commit (4+ hex digits), a date, or a release (`1.6`)."""
    text = rev.strip()
    if _DATE.match(text):
        return in_force(text)
    by_release = [v for v in VERSIONS if v.release and text.lstrip("v") == v.release]
    if by_release:
        return by_release[0]
    if _HASH.match(text):
        low = text.lower()
        matches = [v for v in VERSIONS if v.commit.startswith(low)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise UnknownVersion(f"{rev}: ambiguous SimAI commit; give more digits")
    names = ", ".join(v.short for v in VERSIONS)
    raise UnknownVersion(
        f"{rev}: give a SimAI commit ({names}), a date YYYY-MM-DD or a release (1.0, 1.6, 1.7)"
    )


# ---- what changed at each boundary ---------------------------------------------------------

#: how a statement about a version is known: SimAI_analytical built at both ends and run on
#: the same cases (`../shared/simai-versions`), or read from the commit's source diff only
RECORDED = "recorded"
SOURCE = "from SimAI's source, not run"


@record(slots=False)
class Switch:
    """One behaviour of SimAI that changes at one commit: off before it, on from it.

    `commit` is where it changed; `first` the first modelled version that has it (the same
    commit, or for a commit wkparse does not model, the next one on master). `case` names the
    recorded case of `../shared/simai-versions` that shows it, where a run does."""

    name: str
    commit: str
    backend: str
    before: str
    after: str
    evidence: str
    case: str = ""
    first: str = ""
    #: the recorded runs that show it: (case, variant before, variant from it), compared at
    #: the version before and at this one (tests/test_simai_versions_replay.py)
    proof: tuple[str, ...] = ()

    @property
    def since(self) -> str:
        return self.first or self.commit


#: every switch wkparse models, oldest first; the model asks `version.has(name)`
SWITCHES: tuple[Switch, ...] = (
    Switch(
        "pp_comm_key",
        "03613a7a",
        "analytical",
        "the count is read where AICB writes `pp_comm:`: it reads 0 and every file with a "
        "pp_comm key aborts (index < SIZE)",
        "a non-numeric token where the count was is taken as the pp_comm key; the next two "
        "numbers are pp_comm (uint32) and the count",
        RECORDED,
        "seed7b__default (native: 134 at b1c1eb66, 0 at 03613a7a)",
        proof=("seed7b__default", "native", "native"),
    ),
    Switch(
        "pp_term",
        "03613a7a",
        "analytical",
        "totals line of 9 fields, no Expose_PP_comm; -pp_o (default 0) scales the bubble; "
        "-v takes a value",
        "Expose_PP_comm = 2 x vpp x ga x pp_comm / PP busbw x (1 - pp_o), its own column; "
        "-pp_o defaults to 1; -v is a flag",
        RECORDED,
        "micro__default (native: 9-field totals at b1c1eb66, 10 at 03613a7a)",
        proof=("micro__default", "native", "native"),
    ),
    Switch(
        "header_by_name",
        "b83ea3d4",
        "both",
        "line 1 read with >> by position (key words read and ignored); the count and the "
        "rows follow in the same stream",
        "line 1 read with getline, keys looked up by name (stoi of the next token); line 2 "
        "through stoi (the ns-3 backend reads with the same Workload.cc: keys in another "
        "order read alike at b83ea3d4)",
        RECORDED,
        "gpt22b__count_63abc (native: T 1 at 03613a7a, read whole at b83ea3d4); "
        "mixtral-ep8__default (float pp_comm: 134 at 03613a7a, 0 at b83ea3d4); "
        "micro__header_reordered (../shared/simai-ns3-versions: keys in another order)",
        proof=("mixtral-ep8__default", "native", "native"),
    ),
    Switch(
        "ns3_alltoall",
        "02532997",
        "ns3",
        "the ns-3 backend runs a plain ALLTOALL with the `direct` all-to-all, whose flows find no "
        "NIC: an ns-3 assertion in rdma-hw.cc aborts the run (exit 134) right after the "
        "collective is issued",
        "ALLTOALL runs as an NcclFlowModel all-to-all and finishes",
        RECORDED,
        "micro__alltoall_row0 (../shared/simai-ns3-versions: 134 at b83ea3d4, 0 at 02532997)",
    ),
    Switch(
        "ns3_group_names",
        "02532997",
        "ns3",
        "the ns-3 build's reader knows only the plain names (ALLREDUCE, ALLGATHER, "
        "REDUCESCATTER, ALLTOALL, ALLREDUCEALLTOALL): an `_EP` or `_DP_EP` collective is read as "
        "none (`no ... collective for layer`) and costs nothing; no EP or DP_EP groups are made",
        "the mock NCCL layer makes EP and DP_EP groups, and `_EP` and `_DP_EP` collectives run "
        "in them, as in SimAI-Analytical",
        RECORDED,
        "small__big_colls_div1024 (../shared/simai-ns3-versions: its two size-0 `_DP_EP` "
        "collectives not issued at b83ea3d4, issued at 02532997)",
    ),
    Switch(
        "small_forward",
        "7f06c19c",
        "both",
        "forward sizes of 1-4095 B are simulated as written",
        "forward sizes of 1-4095 B are raised to 4096 B (HYBRID_TRANSFORMER_FWD_IN_BCKWD)",
        RECORDED,
        "mixtral-ep8__default (native: T 4859879 at 02532997, 4859881 at 7f06c19c)",
        proof=("mixtral-ep8__default", "native", "native"),
    ),
    Switch(
        "ns3_small_message",
        "7f06c19c",
        "ns3",
        "a collective of 1-4095 B is issued and never completes: the ns-3 backend exits 0 "
        "within seconds, with no `all passes finished` and an empty EndToEnd.csv (run for "
        "forward ones of 4 and 128 B; other sizes and input- and weight-gradient ones from the "
        "source)",
        "forward sizes of 1-4095 B are raised to 4096 B and finish; input- and weight-gradient "
        "ones are not raised (from the source, not run)",
        RECORDED,
        "micro__allreduce_4B_row0, mixtral_ep2__div1024 (../shared/simai-ns3-versions: exit 0 "
        "without a finished pass at b83ea3d4 and 02532997, finished at 7f06c19c)",
    ),
    Switch(
        "ns3_csv_summary",
        "7f06c19c",
        "ns3",
        "ncclFlowModel_EndToEnd.csv has no summary: its layer rows end with the SUM and "
        "`total exposed comm, ..., total time, T` lines",
        "two lines head it, `File name, Expose DP comm, ..., Total time` and the run's values, "
        "as SimAI-Analytical writes them",
        RECORDED,
        "micro (../shared/simai-ns3-versions: 5 lines at 02532997, 7 at 7f06c19c)",
    ),
    Switch(
        "checkpoint_initiates",
        "4e66932a",
        "both",
        "checkpoint_initiates ids are stored as checkpoints",
        "checkpoint_initiates ids mark need_checkpoint_initiation (no effect on the "
        "analytical report)",
        SOURCE,
    ),
    Switch(
        "option_parser",
        "26b4574b",
        "analytical",
        "options -w -g -g_p_s -r -busbw -dp_o -tp_o -ep_o -pp_o -v; -nv/-nic/-n_p_s/-nic_t/"
        "-g_type refused (`Error: Unknown option`, exit 255)",
        "-busbw removed; -nv -nic -n_p_s -nic_t -g_type -r_f added; an unknown option prints "
        "only the help hint (exit 255)",
        RECORDED,
        "seed7b__default (recipe: 255 at 4e66932a, 0 at 26b4574b); micro__busbw (the reverse)",
        proof=("seed7b__default", "recipe", "recipe"),
    ),
    Switch(
        "cal_busbw",
        "26b4574b",
        "analytical",
        "bandwidths from the busbw.yaml per group and collective (Layer::compute_time); a TP "
        "group of one GPU costs 0; no size limit",
        "cal_busbw from -nv/-nic/-g_p_s/-n_p_s and the ratio tables; 1 B < size < 1 MiB gets "
        "fixed latencies; a TP group of one GPU is infinite; sizes past 16 GiB stop the report",
        RECORDED,
        "gpt7b-tp1pp1__default (finite at 4e66932a, 2^63 ns TP comm at 26b4574b)",
        proof=("gpt7b-tp1pp1__default", "native", "recipe"),
    ),
    Switch(
        "pp_ratio",
        "26b4574b",
        "analytical",
        "the PP term divides by the busbw.yaml PP bandwidth",
        "the PP term divides by -pp_o (the ratio doubles as the PP bandwidth)",
        RECORDED,
        "seed7b__pp_o-0.5 (8307292 at 4e66932a native, 43917302 at 26b4574b)",
        proof=("seed7b__pp_o-0.5", "native", "recipe"),
    ),
    Switch(
        "ns3_64bit_sizes",
        "a920cdc2",
        "ns3",
        "the ns-3 frontend adds sent chunk sizes in a 32-bit int: messages of 2 GiB or more "
        "overflow",
        "sent chunk sizes are 64-bit",
        SOURCE,
        first="f5efb5a9",
    ),
    Switch(
        "lang_option",
        "f5efb5a9",
        "analytical",
        "no -l option",
        "-l/--lang en|ja (chart labels only)",
        SOURCE,
    ),
)
_SWITCH = {s.name: s for s in SWITCHES}
_INDEX = {v.short: i for i, v in enumerate(VERSIONS)}


def has(version: SimaiVersion, name: str) -> bool:
    """Whether `version` has switch `name` on (is at or after the first version with it)."""
    return _INDEX[version.short] >= _INDEX[_SWITCH[name].since]


def changes_at(version: SimaiVersion) -> tuple[Switch, ...]:
    """The switches that turn on at this version (the boundary from its predecessor)."""
    return tuple(s for s in SWITCHES if s.since == version.short)


def accepting(versions: tuple[SimaiVersion, ...]) -> str:
    """A run of versions as a range: `b1c1eb66 … 4e66932a` (or one commit)."""
    if not versions:
        return ""
    if len(versions) == 1:
        return versions[0].short
    return f"{versions[0].short} … {versions[-1].short}"
