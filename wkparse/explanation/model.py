"""The facts explain produces: frozen dataclasses, from one row's phase up to the Explanation.

Pure data with no behaviour beyond small derived properties; `facts` fills them in, the
sentences and the renderers read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wkparse.explanation.routing import group_sizes
from wkparse.models.aicb import AicbName


@dataclass(frozen=True, slots=True)
class PhaseNote:
    """One phase of one row: its compute time and the collective it issues, if any."""

    phase: str
    compute_ns: int | None
    comm: str | None
    #: key of GROUPS the collective runs in; None when SimAI runs no communication
    group: str | None
    group_size: int | None
    size: int | None
    #: bytes each rank of the group holds: size / group size
    share: int | None
    #: why a written collective costs nothing, or what else SimAI does with it
    note: str | None = None

    @property
    def active(self) -> bool:
        """Whether the phase does anything worth a line: compute or a written collective."""
        return bool(self.compute_ns) or (self.comm not in (None, "NONE")) or bool(self.size)


@dataclass(frozen=True, slots=True)
class RowNote:
    line: int
    name: str | None
    phases: tuple[PhaseNote, ...]
    update_ns: int | None
    #: the row's own policy (13th field, HYBRID_CUSTOMIZED only)
    policy: str | None = None


@dataclass(frozen=True, slots=True)
class Shape:
    """Micro-batch groups sharing one sequence of row names."""

    count: int
    rows: int
    layers: int
    pattern: str
    first_group: int
    first_line: int
    last_line: int


@dataclass(frozen=True, slots=True)
class GroupDifference:
    """A group with the reference's row names but other values in some rows."""

    group: int
    first_line: int
    last_line: int
    #: (line, row name, "field: value instead of value", ...) for the first differing rows
    rows: tuple[tuple[int, str | None, str], ...]


@dataclass(frozen=True)
class Structure:
    prologue: tuple[RowNote, ...]
    epilogue: tuple[RowNote, ...]
    group_count: int
    shapes: tuple[Shape, ...]
    #: the expanded group: 1-based index and its rows (empty when there is no group)
    reference_group: int | None
    reference: tuple[RowNote, ...]
    #: groups whose rows are value-identical to the reference (itself included)
    identical_groups: int
    differences: tuple[GroupDifference, ...]
    #: other groups differing from the reference in values (beyond `differences` listed)
    differing_groups: int
    groups_first_line: int | None
    groups_last_line: int | None
    #: a body without groups: its pattern and its first rows
    body_pattern: str | None
    body: tuple[RowNote, ...]
    body_hidden: int


@dataclass(frozen=True, slots=True)
class CollectiveTotal:
    group: str | None
    collective: str
    calls: int
    bytes: int
    share_bytes: int | None


@dataclass(frozen=True, slots=True)
class KindTotal:
    """Where bytes and time go, by kind of layer (attention, mlp, ... or row name)."""

    kind: str
    rows: int
    bytes: int
    compute_ns: int


@dataclass(frozen=True, slots=True)
class Era:
    """Which AICB generator era the header and body shapes belong to."""

    label: str
    earliest: str | None
    latest: str | None
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class Generation:
    """What the file says about how it was made."""

    name: AicbName | None
    hidden: int | None
    hidden_how: str | None
    preset_layers: int | None
    preset_hidden: int | None
    sequence_parallel: bool
    moe: bool
    experts: int | None
    topk: int | None
    moe_how: str | None
    #: "measured" (AIOB), "placeholder" (every compute time 0 or 1) or "none" (no rows)
    compute: str
    era: Era | None
    expected_ga: int | None
    notes: tuple[str, ...]
    #: the AICB command that writes this file byte for byte (`aicb.infer`), when one does
    aicb_command: str | None = None
    #: False when no AICB run writes this file: nothing is said about AICB (no AIOB, no era)
    aicb: bool = True
    #: transformer layers of the model as run: the preset's, else the AICB command's
    model_layers: int | None = None


@dataclass(frozen=True, slots=True)
class Finding:
    """Lint diagnostics sharing code and message, with the lines they point at."""

    code: str
    severity: str | None
    message: str
    line: int
    column: int
    lines: tuple[int, ...]
    count: int
    #: header, count, prologue, groups, epilogue, body or file
    section: str
    #: an opt-in rule's: lint runs it only when selected (explain states every fact)
    opt_in: bool = False


@dataclass(frozen=True, slots=True)
class MissingTraffic:
    """A collective Megatron-LM runs that an AICB file leaves out, or writes with 0 bytes
    (`wkparse.models.aicb.reading.departures`): per micro-batch group, and per iteration."""

    #: attention, mlp, moe, or gradients (the once-per-iteration gradient step)
    block: str
    phase: str
    group: str
    collective: str
    #: what it moves (translated), and the Megatron-LM file and function that run it
    what: str
    source: str
    #: blocks lacking it per micro-batch group, of how many (1 of 1 for the gradient step)
    blocks: int
    of: int
    zero: bool
    #: bytes of one collective; missing per micro-batch group and per iteration (None: unknown)
    size: int | None
    per_group_bytes: int | None
    per_iteration_bytes: int | None
    #: where the file writes the same traffic instead (`fwd TP ALLGATHER`), if it does
    instead: str | None
    issue: str | None
    line: int


@dataclass(frozen=True)
class SimaiReport:
    """What the real SimAI-Analytical will report for the file under one option set."""

    #: the SimAI command line the prediction is for ("" when SimAI refuses it)
    options: str
    #: whether the options are wkparse's stated set (the user gave none)
    stated: bool
    #: the outcome: "ok", "hang", "no-result", "refused", "signal", ... and SimAI's exit code;
    #: "wrong-total" for a run that exits 0 after summing layers no row of the file gives
    kind: str
    exit_code: int
    message: str
    #: the layer (and its source line) that makes SimAI hang or stop, where one does
    layer: int | None
    line: int | None
    #: the summary's values in us (`wkparse.models.simai.report.TOTAL_KEYS` and total_time_us);
    #: empty without a summary; NaN or Inf where SimAI prints `NaN or Inf`
    totals: dict[str, float]
    #: SimAI's summary line as it writes it (None without one)
    summary: str | None
    #: why a total is NaN/Inf, infinite, or leaves comm out (None when it is sound)
    reason: str | None
    #: where the options and the file do not fit
    warnings: tuple[str, ...] = ()
    #: the SimAI described (`simai.versions.SimaiVersion.label`)
    simai: str = ""


@dataclass(frozen=True)
class Explanation:
    path: str | None
    #: transformer, inference, micro, data, model, hybrid_data_model, hybrid_model_data,
    #: dlrm, customized or unknown
    dialect: str
    policy: str | None
    header_text: dict[str, str]
    # header values as SimAI reads them (None when absent)
    tp: int | None
    pp: int | None
    ep: int | None
    ga: int | None
    vpp: int | None
    all_gpus: int | None
    pp_comm: int | float | None
    pp_comm_text: str | None
    pp_comm_simai: int | None
    declared_rows: int | None
    # derived from the header
    dp: int | None
    dp_remainder: int | None
    dp_ep: int | None
    bubble_fraction: float | None
    # counted in the body
    rows: int
    groups: int
    layers_per_stage: int | None
    layers_in_body: int
    model_layers: int | None
    prologue_rows: int
    epilogue_rows: int
    sequence_parallel: bool
    moe: bool
    activation_bytes: int | None
    placeholder_compute: bool
    # totals per iteration
    comm_bytes: dict[str, int]
    compute_ns: dict[str, int]
    bubble_compute_ns: int | None
    collectives: tuple[CollectiveTotal, ...]
    kinds: tuple[KindTotal, ...]
    structure: Structure
    generation: Generation
    represents: str
    notes: tuple[str, ...]
    findings: tuple[Finding, ...] = field(default=())
    bom: bool = False
    #: (question, answer) pairs for the question users keep asking about pipeline files
    answers: tuple[tuple[str, str], ...] = ()
    #: numbers written straight after the policy (ASTRA-sim 1.0's `HYBRID_DLRM 4`)
    leading: tuple[str, ...] = ()
    #: where `activation_bytes` comes from: "rows" (a TP collective carries it) or "pp_comm"
    #: (no row does, as with TP 1: pp_comm, times TP with sequence parallelism)
    activation_source: str | None = None
    #: traffic the training the AICB file describes runs and the file leaves out, and where
    #: the setting it was read with came from ("command" or "file"; None: not an AICB file)
    missing_traffic: tuple[MissingTraffic, ...] = ()
    missing_traffic_basis: str | None = None
    #: "What SimAI-Analytical will report" (None when explain was not given the file's bytes)
    simai: SimaiReport | None = None
    #: whole rows the file holds past line 2's count (SimAI never reads them; `rows` does
    #: not count them)
    rows_past_count: int = 0

    @property
    def group_sizes(self) -> dict[str, int | None]:
        return group_sizes(self.tp, self.dp, self.ep, self.pp, self.all_gpus)
