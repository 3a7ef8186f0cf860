"""What a workload file means, as facts derived from its AST (pure: no printing).

`explain(result, path)` returns an `Explanation`: the header values as written (None when
absent), what the body holds counted from its rows, the parallel layout, every row of the
prologue, of one micro-batch group and of the epilogue annotated with the group each collective
runs in (SimAI's rules), totals per iteration, what can be inferred about how the file was
generated, one summary sentence (`represents`) and the lint findings. Header values and
counted values are kept apart: when they disagree, a note says which one SimAI uses.

Everything is computed per distinct row value with its count (AICB repeats one group `ga`
times, so a million-row file has a few hundred distinct rows), never per row object.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePath

from wkparse.aicb import PRESETS, AicbName, parse_filename
from wkparse.ast import PHASES, RowFields, Workload
from wkparse.body import GROUP_START, MOE_NAMES, Body, count_layers
from wkparse.diagnostics import Diagnostic
from wkparse.parse import ParseResult

COLLECTIVES = ("ALLREDUCE", "ALLGATHER", "REDUCESCATTER", "ALLTOALL")
TRANSFORMER_POLICIES = frozenset(
    {"HYBRID_TRANSFORMER", "HYBRID_TRANSFORMER_FWD_IN_BCKWD", "DISTRIBUTED_INFERENCE"}
)
KNOWN_POLICIES = TRANSFORMER_POLICIES | {
    "DATA",
    "MODEL",
    "HYBRID_DATA_MODEL",
    "HYBRID_MODEL_DATA",
    "HYBRID_DLRM",
    "HYBRID_DLRM_ENHANCED",
    "HYBRID_CUSTOMIZED",
    "MICRO",
}
#: group keys: SimAI's transformer groups, then ASTRA-sim 1.0's model-parallel and all GPUs
GROUPS = ("TP", "DP", "EP", "DP_EP", "PP", "MP", "ALL")
GROUP_LABELS = {
    "TP": "TP",
    "DP": "DP",
    "EP": "EP",
    "DP_EP": "DP/EP",
    "PP": "PP",
    "MP": "model-parallel",
    "ALL": "all GPUs",
}
PHASE_LABELS = {"fwd": "forward", "ig": "input-grad", "wg": "weight-grad"}
#: rows shown for a body without micro-batch groups (the JSON and the text stay bounded)
BODY_ROWS_SHOWN = 60
_MAX_PERIOD = 64
_FINDING_LINES = 20
#: distinct group values compared slice by slice before keying every group by its row ids
_MAX_REPS = 32


# ---- small formatting helpers shared by the sentences and the renderers ------------------


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


def _fraction(numerator: int, denominator: int) -> float | None:
    """numerator / denominator, None when a hostile header makes it too large for a float."""
    try:
        return numerator / denominator
    except OverflowError:
        return None


def _scaled(total: int, fraction: float | None) -> int | None:
    """round(total * fraction), exact when `total` (a hostile file's 10^400) is past floats."""
    if fraction is None:
        return None
    try:
        return round(total * fraction)
    except OverflowError:
        from fractions import Fraction

        return round(Fraction(total) * Fraction(fraction))


def _sig3(value: float) -> str:
    if abs(value) >= 100:
        return f"{value:.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}".rstrip("0").rstrip(".")
    return f"{value:.2f}".rstrip("0").rstrip(".")


def percent(fraction: float) -> str:
    return f"{fraction * 100:.2f}%" if fraction < 0.1 else f"{fraction * 100:.1f}%"


# ---- the facts ------------------------------------------------------------------------------


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

    @property
    def group_sizes(self) -> dict[str, int | None]:
        return {
            "TP": self.tp,
            "DP": self.dp,
            "EP": self.ep,
            "DP_EP": self.dp_ep,
            "PP": self.pp,
            "MP": None,
            "ALL": self.all_gpus,
        }


# ---- entry point ----------------------------------------------------------------------------


def explain(
    result: ParseResult, path: str | None = None, findings: Sequence[Diagnostic] | None = None
) -> Explanation:
    """Explain a parsed file. `findings` defaults to `wkparse.engine.lint(result, path)`."""
    if findings is None:
        from wkparse.engine import lint

        findings = lint(result, path)
    return _Explainer(result.workload, path, findings).run()


def stoi(text: str | None) -> int | None:
    """What C++ `std::stoi` reads from a token: a leading integer, None when there is none."""
    if text is None:
        return None
    m = re.match(r"\s*([+-]?\d+)", text)
    if m is None or len(m.group(1).lstrip("+-").lstrip("0")) > 10:
        return None  # outside int32 (and, when long, more digits than int() takes)
    value = int(m.group(1))
    return value if -(2**31) <= value < 2**31 else None


def _written_number(text: str | None) -> int | float | None:
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


def dialect_of(workload: Workload, names: set[str | None]) -> str:
    header = workload.header
    if header is None or header.policy not in KNOWN_POLICIES:
        return "unknown"
    policy = header.policy
    if policy == "MICRO" or (names and names <= {"micro_test"}):
        return "micro"
    if policy in TRANSFORMER_POLICIES:
        mode = header.read("mode")
        if policy == "DISTRIBUTED_INFERENCE" or (
            mode is not None and mode.value is not None and mode.value.text == "1"
        ):
            return "inference"
        return "transformer"
    return {
        "DATA": "data",
        "MODEL": "model",
        "HYBRID_DATA_MODEL": "hybrid_data_model",
        "HYBRID_MODEL_DATA": "hybrid_model_data",
        "HYBRID_DLRM": "dlrm",
        "HYBRID_DLRM_ENHANCED": "dlrm",
        "HYBRID_CUSTOMIZED": "customized",
    }[policy]


def route(policy: str | None, phase: str, comm: str | None) -> tuple[str | None, str | None]:
    """The group a written collective runs in under `policy`, and a note when it runs in none.

    Transformer policies follow SimAI: in the fwd and ig columns a bare type runs in the TP
    group, in the wg column in the DP group; `_EP` picks the EP group, `_DP_EP` the DP/EP group.
    """
    if comm is None or comm == "NONE":
        return None, None
    base, suffix = _split_comm(comm)
    if base is None:
        return None, f"{comm} is no collective SimAI knows: it runs no communication"
    if suffix not in ("", "_EP", "_DP_EP"):
        return None, f"SimAI runs {comm} as {base} in no group, which costs no time"
    if policy in TRANSFORMER_POLICIES:
        if suffix == "_EP":
            return "EP", None
        if suffix == "_DP_EP":
            return "DP_EP", None
        return ("DP" if phase == "wg" else "TP"), None
    if policy in ("DATA", "MODEL", "MICRO"):
        return "ALL", None
    if policy in ("HYBRID_DATA_MODEL", "HYBRID_MODEL_DATA", "HYBRID_DLRM", "HYBRID_DLRM_ENHANCED"):
        return ("DP" if phase == "wg" else "MP"), None
    return None, None


def _split_comm(comm: str) -> tuple[str | None, str]:
    for base in sorted(COLLECTIVES, key=len, reverse=True):
        if comm.startswith(base):
            return base, comm[len(base) :]
    return None, comm


def _without_index(name: str) -> str:
    """`name` without its trailing digits and underscores (`optimizer1` -> `optimizer`).

    A loop, not `re.sub(r"[_\\d]+$", ...)`: that search backtracks quadratically on a long
    run of digits that does not end the name (a hostile 60,000-character one takes minutes).
    """
    end = len(name)
    while end and (name[end - 1] == "_" or name[end - 1].isdecimal()):
        end -= 1
    return name[:end] or name


def layer_kind(name: str | None, transformer: bool) -> str:
    """The kind of layer a row belongs to, for the totals by kind."""
    if name is None or name == "":
        return "(unnamed)"
    if not transformer:
        return _without_index(name)
    if name in MOE_NAMES or (name.startswith("moe_") and not name.startswith("moe_grad")):
        return "moe"
    if name.startswith(("grad", "moe_grad", "layernorm", "embedding_grads")) or name == "norm":
        return "grad sync"
    for prefix, kind in (
        ("embedding", "embedding"),
        ("attention", "attention"),
        ("mlp", "mlp"),
        ("dense_mlp", "mlp"),
        ("final", "final"),
        ("cross_entropy", "loss"),
        ("optimizer", "optimizer"),
    ):
        if name.startswith(prefix):
            return kind
    return _without_index(name)


# ---- patterns -------------------------------------------------------------------------------


def compress(names: Sequence[str | None]) -> str:
    """A run-length picture of a name sequence: 'embedding_layer, 9 x (attention_layer, ...)'."""
    return ", ".join(_compress(tuple(n if n is not None else "(unnamed)" for n in names)))


def _compress(seq: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    i, n = 0, len(seq)
    while i < n:
        best_period, best_count = 0, 1
        for period in range(1, min(_MAX_PERIOD, (n - i) // 2) + 1):
            block = seq[i : i + period]
            count = 1
            while seq[i + count * period : i + (count + 1) * period] == block:
                count += 1
            if count > 1 and period * count > best_period * best_count:
                best_period, best_count = period, count
        if best_count > 1:
            inner = _compress(seq[i : i + best_period])
            body = inner[0] if len(inner) == 1 else f"({', '.join(inner)})"
            out.append(f"{best_count} x {body}")
            i += best_period * best_count
        else:
            out.append(seq[i])
            i += 1
    return _number_runs(out)


def _number_runs(items: list[str]) -> list[str]:
    """'optimizer1, optimizer2, optimizer3' -> 'optimizer1..3'."""
    out: list[str] = []
    i = 0
    while i < len(items):
        # At most 18 digits: a hostile name's 5,000-digit run is not a counter, and int()
        # refuses it.
        m = re.fullmatch(r"(.*\D)(\d{1,18})", items[i])
        j = i + 1
        if m:
            stem, number = m.group(1), int(m.group(2))
            while j < len(items) and items[j] == f"{stem}{number + (j - i)}":
                j += 1
        if j - i >= 3 and m:
            out.append(f"{items[i]}..{number + (j - i) - 1}")
        else:
            out.extend(items[i:j])
        i = j
    return out


# ---- the work -------------------------------------------------------------------------------


@dataclass(slots=True)
class _Rep:
    """A run of micro-batch groups with equal rows: the first one's index and its rows."""

    first: int
    fields: list[RowFields]
    count: int = 1


class _Explainer:
    def __init__(self, workload: Workload, path: str | None, findings: Sequence[Diagnostic]):
        self.w = workload
        self.path = path
        self.diagnostics = findings
        self.body = Body(workload)
        self.reps = self._value_groups()
        self.by_id, self.counts = self._distinct()
        self.names = {f.name for f in self.by_id.values()}
        self.dialect = dialect_of(workload, self.names)
        header = workload.header
        self.header = header
        self.policy = header.policy if header is not None else None
        transformerish = self.policy in TRANSFORMER_POLICIES
        self.tp = self._int("model_parallel_NPU_group") if transformerish else None
        self.ep = self._int("ep") if transformerish else None
        self.pp = self._int("pp") if transformerish else None
        self.ga = self._int("ga") if transformerish else None
        self.vpp = self._int("vpp") if transformerish else None
        self.all_gpus = self._int("all_gpus") if transformerish else None
        pp_comm = header.read("pp_comm") if header is not None and transformerish else None
        self.pp_comm_text = (
            pp_comm.value.text if pp_comm is not None and pp_comm.value is not None else None
        )
        self.dp: int | None = None
        self.dp_remainder: int | None = None
        if self.all_gpus is not None and self.tp and self.pp:
            self.dp, self.dp_remainder = divmod(self.all_gpus, self.tp * self.pp)
        self.dp_ep = self.dp // self.ep if self.dp is not None and self.ep else None
        self.sizes: dict[str, int | None] = {
            "TP": self.tp,
            "DP": self.dp,
            "EP": self.ep,
            "DP_EP": self.dp_ep,
            "PP": self.pp,
            "MP": None,
            "ALL": self.all_gpus,
        }
        self._routes: dict[tuple[str | None, str, str | None], tuple[str | None, str | None]] = {}
        self.aicb_rows = bool(self.names & {GROUP_START, "attention_layer", "attention_column"})

    def _value_groups(self) -> list[_Rep]:
        """The groups, collapsed into runs of equal values: one representative row slice each.

        Slices are compared with list equality, which is C code and checks identity first, so
        a file of `ga` identical groups costs one comparison per group, not one per row.
        """
        fields = self.w.rows.fields
        reps: list[_Rep] = []
        for i, g in enumerate(self.body.groups):
            rows = fields[g.start : g.end]
            for rep in reps:
                if rep.fields == rows:
                    rep.count += 1
                    break
            else:
                if len(reps) >= _MAX_REPS:
                    return self._value_groups_by_id()
                reps.append(_Rep(i, rows))
        return reps

    def _value_groups_by_id(self) -> list[_Rep]:
        """The same for files whose groups mostly differ: key every group by its row ids."""
        fields = self.w.rows.fields
        found: dict[tuple[int, ...], _Rep] = {}
        for i, g in enumerate(self.body.groups):
            rows = fields[g.start : g.end]
            key = tuple(map(id, rows))
            rep = found.get(key)
            if rep is None:
                found[key] = _Rep(i, rows)
            else:
                rep.count += 1
        return list(found.values())

    def _distinct(self) -> tuple[dict[int, RowFields], Counter[int]]:
        """Each distinct row value and how many rows carry it."""
        fields = self.w.rows.fields
        counts: Counter[int] = Counter()
        by_id: dict[int, RowFields] = {}
        if not self.reps:
            by_id = dict(zip(map(id, fields), fields))
            counts.update(map(id, fields))
            return by_id, counts
        body = self.body
        outside = [*fields[: body.prologue_end], *fields[body.epilogue_start :]]
        for f in outside:
            by_id[id(f)] = f
            counts[id(f)] += 1
        for rep in self.reps:
            for f in rep.fields:
                by_id[id(f)] = f
                counts[id(f)] += rep.count
        return by_id, counts

    def placeholder(self) -> bool:
        """Body.placeholder_compute, from the distinct values: every layer-row compute <= 1."""
        if not self.reps:
            return self.body.placeholder_compute
        return all(
            (ph.compute or 0) <= 1
            for rep in self.reps
            for f in rep.fields
            for ph in (f.fwd, f.ig, f.wg)
        )

    def _int(self, key: str) -> int | None:
        f = self.header.read(key) if self.header is not None else None
        return stoi(f.value.text) if f is not None and f.value is not None else None

    def _route(self, policy: str | None, phase: str, comm: str | None) -> tuple[str | None, ...]:
        key = (policy, phase, comm)
        found = self._routes.get(key)
        if found is None:
            found = self._routes[key] = route(policy, phase, comm)
        return found

    def _row_policy(self, f: RowFields) -> str | None:
        return f.policy if self.policy == "HYBRID_CUSTOMIZED" else self.policy

    # ---- rows ---------------------------------------------------------------------------

    def note(self, line: int, f: RowFields) -> RowNote:
        policy = self._row_policy(f)
        phases = []
        for name in PHASES:
            ph = f.phase(name)
            group, why = self._route(policy, name, ph.comm)
            size = self.sizes.get(group) if group else None
            share = ph.size // size if ph.size is not None and size else None
            if group is None and why is None and ph.comm == "NONE" and ph.size:
                why = "NONE: no communication (SimAI ignores the size)"
            if group is None and why is None and ph.comm not in (None, "NONE"):
                why = f"no group under policy {policy}"
            phases.append(PhaseNote(name, ph.compute, ph.comm, group, size, ph.size, share, why))
        return RowNote(line, f.name, tuple(phases), f.update_time, f.policy if f.policy else None)

    def notes_for(self, start: int, end: int) -> tuple[RowNote, ...]:
        rows = self.w.rows
        return tuple(
            self.note(line, f) for line, f in zip(rows.lines[start:end], rows.fields[start:end])
        )

    # ---- totals -------------------------------------------------------------------------

    def totals(
        self,
    ) -> tuple[
        dict[str, int], dict[str, int], int, tuple[CollectiveTotal, ...], tuple[KindTotal, ...]
    ]:
        comm: Counter[str] = Counter({g: 0 for g in GROUPS[:5]})
        compute: Counter[str] = Counter({p: 0 for p in PHASES})
        calls: Counter[tuple[str | None, str]] = Counter()
        coll_bytes: Counter[tuple[str | None, str]] = Counter()
        kinds: dict[str, list[int]] = {}
        non_embedding = 0
        transformer = self.dialect in ("transformer", "inference")
        for fid, n in self.counts.items():
            f = self.by_id[fid]
            policy = self._row_policy(f)
            row_bytes = 0
            row_compute = 0
            for name in PHASES:
                ph = f.phase(name)
                row_compute += ph.compute or 0
                if ph.comm is None or ph.comm == "NONE":
                    continue
                group = self._route(policy, name, ph.comm)[0]
                size = (ph.size or 0) * n
                calls[(group, ph.comm)] += n
                coll_bytes[(group, ph.comm)] += size
                if group is not None:
                    comm[group] += size
                    row_bytes += size
            for name in PHASES:
                compute[name] += (f.phase(name).compute or 0) * n
            if f.name != GROUP_START:
                non_embedding += row_compute * n
            kind = kinds.setdefault(layer_kind(f.name, transformer), [0, 0, 0])
            kind[0] += n
            kind[1] += row_bytes
            kind[2] += row_compute * n
        pp_bytes = self.pp_bytes()
        if pp_bytes:
            comm["PP"] += pp_bytes
            calls[("PP", "pp_comm")] += 2 * (self.vpp or 0) * (self.ga or 0)
            coll_bytes[("PP", "pp_comm")] += pp_bytes
        compute_ns = dict(compute)
        compute_ns["total"] = sum(compute.values())
        collectives = tuple(
            CollectiveTotal(
                group,
                coll,
                calls[(group, coll)],
                total,
                self._share(group, total, coll),
            )
            for (group, coll), total in sorted(
                coll_bytes.items(),
                key=lambda item: (GROUPS.index(item[0][0]) if item[0][0] else 99, -item[1]),
            )
        )
        kind_totals = tuple(
            KindTotal(k, v[0], v[1], v[2])
            for k, v in sorted(kinds.items(), key=lambda kv: (-(kv[1][1] + kv[1][2]), kv[0]))
        )
        if not transformer and len(kind_totals) > 8:
            rest = kind_totals[7:]
            kind_totals = (
                *kind_totals[:7],
                KindTotal(
                    f"{len(rest)} other kinds",
                    sum(k.rows for k in rest),
                    sum(k.bytes for k in rest),
                    sum(k.compute_ns for k in rest),
                ),
            )
        return dict(comm), compute_ns, non_embedding, collectives, kind_totals

    def _share(self, group: str | None, total: int, coll: str) -> int | None:
        if group is None or coll == "pp_comm":
            return None
        size = self.sizes.get(group)
        return total // size if size else None

    def pp_bytes(self) -> int:
        """PP traffic as SimAI counts it: pp_comm bytes 2 x vpp x ga times per iteration."""
        simai = stoi(self.pp_comm_text)
        if not simai or not self.pp or self.pp <= 1 or not self.vpp or not self.ga:
            return 0
        return 2 * self.vpp * self.ga * simai

    # ---- structure ----------------------------------------------------------------------

    def structure(self) -> Structure:
        body, rows = self.body, self.w.rows
        groups = body.groups
        pro_end, epi_start = body.prologue_end, body.epilogue_start
        if not groups:
            aicb = self.dialect in ("transformer", "inference") and self.aicb_rows
            end = epi_start if aicb else len(rows)
            shown = min(end, BODY_ROWS_SHOWN)
            return Structure(
                prologue=(),
                epilogue=self.notes_for(epi_start, len(rows)) if aicb else (),
                group_count=0,
                shapes=(),
                reference_group=None,
                reference=(),
                identical_groups=0,
                differences=(),
                differing_groups=0,
                groups_first_line=None,
                groups_last_line=None,
                body_pattern=compress(body.names[:end]) if end else None,
                body=self.notes_for(0, shown),
                body_hidden=end - shown,
            )
        first_of: dict[tuple[str | None, ...], int] = {}
        for i, g in enumerate(groups):
            first_of.setdefault(g.names, i)
        shapes = tuple(
            Shape(
                count,
                len(names),
                count_layers(names),
                compress(names),
                first_of[names] + 1,
                rows.lines[groups[first_of[names]].start],
                rows.lines[groups[first_of[names]].end - 1],
            )
            for names, count in body.shapes.most_common()
        )
        # The expanded group is the commonest exact row sequence among the commonest shape.
        common = body.shapes.most_common(1)[0][0]
        same_names = [r for r in self.reps if tuple(f.name for f in r.fields) == common]
        ref_rep = max(same_names, key=lambda r: (r.count, -r.first))
        ref = groups[ref_rep.first]
        differences: list[GroupDifference] = []
        for rep in sorted(same_names, key=lambda r: r.first):
            if rep is ref_rep or len(differences) >= 3:
                continue
            g = groups[rep.first]
            changed = [
                (rows.lines[g.start + offset], a.name, _diff(a, b))
                for offset, (a, b) in enumerate(zip(rep.fields, ref_rep.fields))
                if a is not b and a != b
            ]
            differences.append(
                GroupDifference(
                    rep.first + 1, rows.lines[g.start], rows.lines[g.end - 1], tuple(changed[:3])
                )
            )
        identical = ref_rep.count
        ref_index = ref_rep.first
        differing = sum(r.count for r in same_names) - identical
        return Structure(
            prologue=self.notes_for(0, pro_end),
            epilogue=self.notes_for(epi_start, len(rows)),
            group_count=len(groups),
            shapes=shapes,
            reference_group=ref_index + 1,
            reference=self.notes_for(ref.start, ref.end),
            identical_groups=identical,
            differences=tuple(differences),
            differing_groups=differing,
            groups_first_line=rows.lines[groups[0].start],
            groups_last_line=rows.lines[groups[-1].end - 1],
            body_pattern=None,
            body=(),
            body_hidden=0,
        )

    # ---- generation ---------------------------------------------------------------------

    def generation(self) -> Generation:
        body = self.body
        name = parse_filename(self.path) if self.path else None
        act = body.activation_bytes
        hidden, hidden_how = None, None
        if name is not None and act:
            tokens = name.mbs * (1 if name.inference_phase == "decode" else name.seq)
            if tokens and act % (2 * tokens) == 0:
                hidden = act // (2 * tokens)
                what = (
                    f"batch {name.mbs} (decode: one token each)"
                    if name.inference_phase == "decode"
                    else f"mbs {name.mbs} x seq {name.seq}"
                )
                hidden_how = f"activation {act:,} B = 2 x {what} x hidden"
        preset = name.preset if name is not None else None
        if name is not None and preset is None:
            preset = PRESETS.get(name.model.replace("*", "x"))
        notes: list[str] = []
        if hidden is not None and preset is not None and hidden != preset.hidden:
            notes.append(
                f"hidden {hidden:,} differs from the {name.model if name else ''} preset's "
                f"{preset.hidden:,}"
            )
        if name is not None and name.model.startswith("DeepSeek"):
            notes.append(
                "AICB's DeepSeek presets pass the FFN size as hidden_size, which inflates "
                "activation sizes and pp_comm (the file stays consistent with itself)"
            )
        experts, topk, moe_how = self._moe_shape()
        compute = "none"
        if len(self.w.rows):
            compute = "placeholder" if self.placeholder() else "measured"
        expected_ga = None
        if name is not None and name.gbs is not None and self.dp:
            expected_ga = name.gbs // (name.mbs * self.dp)
        if name is not None and self.policy in TRANSFORMER_POLICIES:
            for key, said, header in (
                ("tp", name.tp, self.tp),
                ("pp", name.pp, self.pp),
                ("ep", name.ep, self.ep),
                ("world_size", name.world, self.all_gpus),
            ):
                if header is not None and said != header:
                    notes.append(f"the file name says {key} {said} but the header says {header}")
        return Generation(
            name=name,
            hidden=hidden,
            hidden_how=hidden_how,
            preset_layers=preset.layers if preset else None,
            preset_hidden=preset.hidden if preset else None,
            sequence_parallel=body.sequence_parallel,
            moe=body.moe,
            experts=experts,
            topk=topk,
            moe_how=moe_how,
            compute=compute,
            era=self.era(compute),
            expected_ga=expected_ga,
            notes=tuple(notes),
        )

    def _moe_shape(self) -> tuple[int | None, int | None, str | None]:
        """Experts and top-k from AICB's MoE row sizes, when the rows allow it.

        The EP all-to-all carries activation x top-k / TP bytes; in the 5-row layer of AICB
        2025-09+ the first row's all-gather carries 2 x EP x experts x TP bytes.
        """
        act = self.body.activation_bytes
        if not self.body.moe or not act or not self.tp:
            return None, None, None
        moe_fields = [f for f in self.by_id.values() if f.name in MOE_NAMES]
        dispatch = max(
            (f.fwd.size or 0 for f in moe_fields if f.fwd.comm == "ALLTOALL_EP"), default=0
        )
        topk = None
        how = []
        if dispatch and (dispatch * self.tp) % act == 0:
            topk = dispatch * self.tp // act
            how.append(f"top-k = EP all-to-all {dispatch:,} B x TP {self.tp} / activation")
        experts = None
        names = self.body.reference.names if self.body.reference is not None else ()
        per_layer = _moe_rows_per_layer(names)
        if per_layer == 5 and self.ep and self.body.reference is not None:
            ref = self.body.reference
            first = next(
                f for f in self.w.rows.fields[ref.start : ref.end] if f.name == "mlp_moelayer"
            )
            gather = first.fwd.size or 0
            if first.fwd.comm == "ALLGATHER" and gather % (2 * self.ep * self.tp) == 0:
                experts = gather // (2 * self.ep * self.tp)
                how.append(f"experts = router all-gather {gather:,} B / (2 x EP x TP)")
        return experts, topk, "; ".join(how) or None

    def era(self, compute: str) -> Era | None:
        header = self.header
        if header is None or (self.policy not in TRANSFORMER_POLICIES and self.policy != "MICRO"):
            return None
        keys = [f.key for f in header.fields]
        if self.policy == "MICRO":
            if self.names <= {"micro_test"}:
                return Era("AICB collective micro-benchmark (MICRO)", None, None, ())
            return None
        reasons: list[str] = []
        if (
            self.dialect == "inference"
            and "mode" in keys
            and "all_gpus" in keys
            and keys.index("all_gpus") < keys.index("mode")
        ):
            return Era(
                "AICB inference generator, 2025-10 or later",
                "2025-10",
                None,
                ("inference key order: all_gpus before mode: 1 and vpp",),
            )
        has = set(keys)
        if not has & {"ep", "pp", "ga", "all_gpus", "vpp"}:
            if self.names and self.names <= {"micro_test"}:
                return Era(
                    "AICB v1.0 micro-benchmark (transformer header)",
                    None,
                    None,
                    ("micro_test rows under a header with only model_parallel_NPU_group",),
                )
            who = "AICB v1.0" if self.aicb_rows or _aicb_like(self.names) else "ASTRA-sim 1.0"
            return Era(
                f"{who}-style header",
                None,
                None,
                ("the header carries only model_parallel_NPU_group",),
            )
        earliest: str | None = None
        latest: str | None = None
        pp_comm = header.read("pp_comm")
        if "vpp" not in has:
            latest = "2024-11-05"
            reasons.append("no vpp, which AICB added on 2024-11-05")
        elif pp_comm is None:
            earliest, latest = "2024-11-05", "2024-12-02"
            reasons.append("vpp, added 2024-11-05, but no pp_comm, added 2024-12-02")
        else:
            earliest = "2024-12-02"
            text = pp_comm.value.text if pp_comm.value is not None else ""
            value = _written_number(text)
            if isinstance(value, float) and not text.isdigit():
                earliest = "2025-01-02"
                reasons.append(f"pp_comm written as a float, {text}, as from 2025-01-02")
            elif self.pp == 1 and value == 0:
                earliest = "2024-12-04"
                reasons.append("pp_comm: 0 with PP 1, written from 2024-12-04")
            elif self.pp == 1 and value:
                latest = "2024-12-04"
                reasons.append(
                    "pp_comm non-zero with PP 1, written only from 2024-12-02 to 2024-12-04"
                )
            else:
                reasons.append("pp_comm present, added 2024-12-02")
        act = self.body.activation_bytes
        if (
            self.body.sequence_parallel
            and self.pp
            and self.pp > 1
            and self.tp
            and self.tp > 1
            and pp_comm is not None
            and pp_comm.value is not None
            and pp_comm.value.text == str(act)
        ):
            latest = _min_date(latest, "2025-01-02")
            reasons.append(
                "pp_comm is the whole activation under SP; divided by TP from 2025-01-02"
            )
        if compute == "measured" and self._none_with_size():
            latest = _min_date(latest, "2025-09-15")
            reasons.append(
                "NONE columns with non-zero sizes in a measured AIOB file; zeroed from 2025-09-15"
            )
        per_layer = _moe_rows_per_layer(
            self.body.reference.names if self.body.reference is not None else ()
        )
        if per_layer == 7:
            latest = _min_date(latest, "2025-09-15")
            reasons.append("7 mlp_moelayer rows per MoE layer; 5 from 2025-09")
        elif per_layer == 5:
            earliest = _max_date(earliest, "2025-09-15")
            reasons.append("5 mlp_moelayer rows per MoE layer, as from 2025-09")
        if earliest and latest:
            label = f"AICB {earliest} to {latest}"
        elif earliest:
            label = f"AICB {earliest} or later"
        elif latest:
            label = f"AICB before {latest}"
        else:  # pragma: no cover  (every branch above bounds one side)
            label = "AICB"
        return Era(label, earliest, latest, tuple(reasons))

    def _none_with_size(self) -> bool:
        return any(
            ph.comm == "NONE" and ph.size for f in self.by_id.values() for ph in (f.fwd, f.ig, f.wg)
        )

    # ---- findings -----------------------------------------------------------------------

    def findings(self) -> tuple[Finding, ...]:
        grouped: dict[tuple[str, str, str | None], list[Diagnostic]] = {}
        for d in self.diagnostics:
            key = (d.code, d.message, str(d.severity) if d.severity is not None else None)
            grouped.setdefault(key, []).append(d)
        out = []
        for (code, message, severity), ds in grouped.items():
            lines = sorted({d.span.line for d in ds})
            first = min(ds, key=lambda d: (d.span.line, d.span.column))
            out.append(
                Finding(
                    code,
                    severity,
                    message,
                    first.span.line,
                    first.span.column,
                    tuple(lines[:_FINDING_LINES]),
                    len(ds),
                    self._section(first.span.line),
                )
            )
        out.sort(key=lambda f: (f.line, f.code))
        return tuple(out)

    def _section(self, line: int) -> str:
        if line == 1:
            return "header"
        if line == 2:
            return "count"
        rows = self.w.rows
        index = bisect_right(rows.lines, line) - 1
        if index < 0 or rows.lines[index] != line:
            return "file"
        if not self.body.has_groups:
            return "epilogue" if index >= self.body.epilogue_start and self.aicb_rows else "body"
        if index < self.body.prologue_end:
            return "prologue"
        if index < self.body.epilogue_start:
            return "groups"
        return "epilogue"

    # ---- assembly -----------------------------------------------------------------------

    def run(self) -> Explanation:
        body = self.body
        comm, compute, non_embedding, collectives, kinds = self.totals()
        bubble = None
        if self.pp is not None and self.ga and self.vpp:
            bubble = _fraction(self.pp - 1, self.ga * self.vpp)
        elif self.pp == 1 and self.dialect in ("transformer", "inference"):
            bubble = None if not (self.ga and self.vpp) else 0.0
        groups = len(body.groups)
        training = self.dialect == "transformer"
        layers_per_stage = body.layers_per_group if training else None
        layers_in_body = (
            (body.layers_per_group or 0) * groups
            if groups and len(body.shapes) == 1
            else count_layers(body.names)
        )
        model_layers = None
        if training and layers_per_stage is not None:
            model_layers = layers_per_stage * (self.pp if self.pp else 1)
        pro_rows = body.prologue_end if groups else 0
        epi_rows = len(self.w.rows) - body.epilogue_start if (groups or self.aicb_rows) else 0
        generation = self.generation()
        structure = self.structure()
        header_text = {}
        if self.header is not None:
            for f in self.header.fields:
                header_text[f.key] = " ".join(v.text for v in f.values)
        e = Explanation(
            path=self.path,
            dialect=self.dialect,
            policy=self.policy,
            header_text=header_text,
            tp=self.tp,
            pp=self.pp,
            ep=self.ep,
            ga=self.ga,
            vpp=self.vpp,
            all_gpus=self.all_gpus,
            pp_comm=_written_number(self.pp_comm_text),
            pp_comm_text=self.pp_comm_text,
            pp_comm_simai=stoi(self.pp_comm_text),
            declared_rows=self.w.count.value if self.w.count is not None else None,
            dp=self.dp,
            dp_remainder=self.dp_remainder,
            dp_ep=self.dp_ep,
            bubble_fraction=bubble,
            rows=len(self.w.rows),
            groups=groups,
            layers_per_stage=layers_per_stage,
            layers_in_body=layers_in_body,
            model_layers=model_layers,
            prologue_rows=pro_rows,
            epilogue_rows=epi_rows,
            sequence_parallel=body.sequence_parallel,
            moe=body.moe,
            activation_bytes=body.activation_bytes,
            placeholder_compute=self.placeholder(),
            comm_bytes=comm,
            compute_ns=compute,
            bubble_compute_ns=_scaled(non_embedding, bubble),
            collectives=collectives,
            kinds=kinds,
            structure=structure,
            generation=generation,
            represents="",
            notes=(),
            findings=self.findings(),
            bom=self.w.bom,
            leading=tuple(v.text for v in self.header.leading) if self.header else (),
        )
        return _replace(
            e, represents=represents(e), notes=tuple(notes(e)), answers=tuple(answers(e))
        )


def _replace(e: Explanation, **changes: object) -> Explanation:
    from dataclasses import replace

    return replace(e, **changes)  # type: ignore[arg-type]


def _diff(a: RowFields, b: RowFields) -> str:
    va, vb = a.values(), b.values()
    parts = []
    for key, value in va.items():
        if value != vb[key]:
            if key.endswith("compute") or key == "update_time":
                parts.append(f"{key} {human_ns(_num(value))} instead of {human_ns(_num(vb[key]))}")
            else:
                parts.append(f"{key} {value} instead of {vb[key]}")
    return "; ".join(parts)


def _num(value: int | str | None) -> int | None:
    return value if isinstance(value, int) else None


def _moe_rows_per_layer(names: Sequence[str | None]) -> int | None:
    """mlp_moelayer rows in the first MoE layer of a group, None when there is none."""
    count = 0
    for name in names:
        if name == "mlp_moelayer":
            count += 1
        elif count:
            break
    return count or None


def _aicb_like(names: set[str | None]) -> bool:
    return any(n is not None and (n.startswith("grad_norm") or "_layer" in n) for n in names)


def _min_date(a: str | None, b: str) -> str:
    return b if a is None or b < a else a


def _max_date(a: str | None, b: str) -> str:
    return b if a is None or b > a else a


# ---- sentences ------------------------------------------------------------------------------


def represents(e: Explanation) -> str:
    """The summary: what the file stands for, in plain words, from the facts above."""
    if e.bom and e.policy is not None:
        return (
            "A UTF-8 byte-order mark precedes the policy word, so SimAI cannot decode the "
            "parallelization strategy and stops with exit 1. Read without it: " + _represents(e)
        )
    return _represents(e)


def _represents(e: Explanation) -> str:
    if e.dialect == "transformer":
        return _represents_training(e)
    if e.dialect == "inference":
        return _represents_inference(e)
    if e.dialect == "micro":
        return _represents_micro(e)
    if e.dialect == "unknown":
        if e.policy is None:
            return "A file without a policy line: SimAI cannot read it."
        bom = " (a UTF-8 byte-order mark precedes it)" if e.bom else ""
        return (
            f"The first word, {e.policy!r}{bom}, is no parallelism policy SimAI knows: SimAI "
            f'stops with exit 1 ("unable to decode the workload parallelization strategy").'
        )
    return _represents_astra(e)


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n:,} {word if n == 1 else plural or word + 's'}"


def _tp_phrase(e: Explanation) -> str:
    if e.tp is None:
        return "one GPU"
    if e.tp == 1:
        return "one GPU (TP 1, no tensor parallelism)"
    return f"one GPU of a TP group of {e.tp}"


def _once_phrase(e: Explanation) -> str:
    once = e.prologue_rows + e.epilogue_rows
    if not once:
        return ""
    return (
        f", plus {_plural(once, 'once-per-iteration row')} "
        f"({e.prologue_rows} before the groups, {e.epilogue_rows} after)"
    )


def _bubble_phrase(e: Explanation) -> str:
    if e.bubble_fraction is not None and e.pp is not None:
        return (
            f"the bubble formula (PP-1)/(GA*vpp) = {e.pp - 1}/({e.ga}*{e.vpp}) = "
            f"{percent(e.bubble_fraction)} of the non-embedding layer time"
        )
    return (
        f"the bubble formula (PP-1)/(GA*vpp), which divides by zero here (ga {e.ga}, "
        f"vpp {e.vpp}): SimAI reports the total time as NaN or Inf"
    )


def _has_kind(e: Explanation, kind: str) -> bool:
    return any(k.kind == kind for k in e.kinds)


def _represents_training(e: Explanation) -> str:
    layers = e.layers_per_stage or 0
    pp = e.pp
    g = e.generation
    if e.groups == 0:
        if e.layers_in_body:
            return (
                f"One GPU's view of {_plural(e.layers_in_body, 'transformer layer')} written "
                f"without embedding_layer rows, so the micro-batch repetitions cannot be told "
                f"apart ({e.rows:,} rows in all, on {_tp_phrase(e)})."
            )
        if e.ga == 0:
            return (
                f"No micro-batch at all: the header declares ga 0 and the body holds only "
                f"{_plural(e.rows, 'once-per-iteration row')}, no transformer layer. AICB writes "
                f"this when the global batch is smaller than micro_batch x DP (ga floors to 0); "
                f"SimAI warns about ga 0 and its bubble formula divides by zero."
            )
        return (
            f"A transformer-policy workload of {_plural(e.rows, 'row')} for {_tp_phrase(e)}; "
            f"its rows are not AICB's layer list (no embedding_layer groups, no attention or "
            f"mlp rows), so each row is one layer run once per pass."
        )
    if e.ga is None:
        ga_part = " (no ga in the header)"
    elif e.ga != e.groups:
        ga_part = f" (the header says ga {e.ga})"
    else:
        ga_part = " (ga)"
    micro = f"run once per micro-batch for {_plural(e.groups, 'micro-batch', 'micro-batches')}"
    if e.dp == 1:
        dp = " (DP 1: no data parallelism)"
    else:
        dp = f" (one of {e.dp:,} data-parallel replicas)" if e.dp else ""
    if not layers:
        pattern = e.structure.shapes[0].pattern if e.structure.shapes else "?"
        hold = "holds" if e.groups == 1 else "hold"
        first = (
            f"One GPU's view of {_plural(e.groups, 'micro-batch group')}{ga_part} that {hold} "
            f"no transformer layer (each group is only {pattern}), on {_tp_phrase(e)}{dp}"
            f"{_once_phrase(e)}."
        )
    elif pp is None or pp <= 1:
        first = (
            f"One GPU's view of the whole model: all {_plural(layers, 'transformer layer')} on "
            f"{_tp_phrase(e)}{dp}, {micro}{ga_part}{_once_phrase(e)}."
        )
    if pp is None:
        return first + (
            " The header has no pp: key, so the file describes no pipeline split: the rows "
            "are the whole model."
        )
    if pp <= 1:
        return first + " With pp 1 there is no pipeline: no stage-to-stage traffic and no bubble."
    preset = g.preset_layers
    model = g.name.model if g.name is not None else "the model"
    dropped = ""
    if not layers:
        pass
    elif preset is not None and preset == layers and preset != layers * pp:
        first = (
            f"One GPU's view of one representative pipeline stage that holds all {layers} of "
            f"{model}'s layers (this generator did not divide num_layers by pp {pp}), {micro}"
            f"{ga_part}{_once_phrase(e)}."
        )
    else:
        first = (
            f"One GPU's view of one representative pipeline stage: {layers} of the model's "
            f"{layers * pp} transformer layers ({layers} per stage x pp {pp}), {micro}{ga_part}"
            f"{_once_phrase(e)}."
        )
        if preset is not None and preset > layers * pp and preset // pp == layers:
            dropped = (
                f" {model} has {preset} layers (AICB preset): AICB floors {preset}/{pp} to "
                f"{layers} per stage, so {_plural(preset - layers * pp, 'layer is', 'layers are')}"
                f" not simulated."
            )
    if e.pp_comm_simai:
        pp_comm = f"pp_comm ({e.pp_comm_simai:,} B)"
    else:
        pp_comm = "pp_comm (absent or 0 here, so none)"
    stages, others = (
        ("both stages", "the other stage")
        if pp == 2
        else (f"all {pp} stages", f"the other {pp - 1} stages")
    )
    second = (
        f" SimAI applies these same rows to {stages}, so it simulates {others} as identical "
        f"to this one, and models stage-to-stage traffic only through {pp_comm} and "
        f"{_bubble_phrase(e)}."
    )
    loss = " and the loss rows (cross_entropy) come once" if _has_kind(e, "loss") else ""
    third = (
        " In a real pipeline only the first stage holds the embedding and only the last the "
        "loss; the file does not show that difference: every group here starts with "
        f"embedding_layer{loss}, for every stage alike."
    )
    return first + dropped + second + third


def _represents_inference(e: Explanation) -> str:
    layers = e.layers_in_body
    ep = f" with EP {e.ep}" if e.ep is not None else ""
    pp = ""
    if e.pp is not None and e.pp > 1:
        pp = (
            f", under pp {e.pp}; SimAI applies these rows to each of the {e.pp} stages like a "
            "training stage"
        )
    bubble = ""
    if e.pp is not None and e.pp > 1:
        bubble = f", pipeline bubble included ({_bubble_phrase(e)})"
    return (
        f"An inference workload (mode: 1): {_plural(layers, 'layer')}, each once "
        f"({_plural(e.rows, 'row')}), for {_tp_phrase(e)}{ep}{pp}. SimAI reads mode: "
        f"nowhere: it simulates these rows as one training iteration (forward, input-gradient "
        f"and weight-gradient phases){bubble}."
    )


def _collective_summary(e: Explanation) -> str:
    several = len({c.group for c in e.collectives if c.group is not None}) > 1
    parts = [
        f"{c.calls:,} x {c.collective}"
        + (f" in the {GROUP_LABELS[c.group]} group" if several and c.group != "ALL" else "")
        + (" over all GPUs" if several and c.group == "ALL" else "")
        + f", {human_bytes(c.bytes)}"
        for c in e.collectives
        if c.group is not None
    ]
    return "; ".join(parts) if parts else "none"


def _represents_micro(e: Explanation) -> str:
    rows = e.structure.body
    sizes: list[int] = []
    kinds: list[str] = []
    for r in rows:
        for ph in r.phases:
            if ph.comm not in (None, "NONE"):
                if ph.comm not in kinds:
                    kinds.append(ph.comm or "")
                if ph.size is not None and ph.size not in sizes:
                    sizes.append(ph.size)
    what = " / ".join(kinds) or "no collective"
    span = ""
    if sizes:
        low, high = min(sizes), max(sizes)
        span = (
            f" of {human_bytes(low)}"
            if low == high
            else f" of {human_bytes(low)} to {human_bytes(high)}"
        )
        if len(sizes) > 1:
            span += f" ({_plural(len(sizes), 'size')})"
    if e.policy == "MICRO":
        where = f"SimAI runs {'it' if e.rows == 1 else 'each one'} over all GPUs of the run."
    else:
        where = (
            f"It is written under a {e.policy} header, so SimAI runs weight-gradient-column "
            f"collectives in the DP group (-g / (TP x PP) GPUs) and forward or input-gradient "
            f"ones in the TP group of {e.tp}."
        )
    each = "one" if e.rows == 1 else "each one"
    them = "it" if e.rows == 1 else "them"
    return (
        f"A collective micro-benchmark: {_plural(e.rows, 'row')}, {each} {what}{span}, "
        f"with no model behind {them}. {where}"
    )


def _represents_astra(e: Explanation) -> str:
    n = _plural(e.rows, "layer")
    colls = _collective_summary(e)
    if e.dialect == "data":
        return (
            f"A data-parallel workload (ASTRA-sim 1.0 policy DATA): {n}, each run once per "
            f"pass; every GPU holds the whole model and its collectives run over all GPUs of the "
            f"run. Collectives: {colls}."
        )
    if e.dialect == "model":
        return (
            f"A model-parallel workload (policy MODEL): {n} split across all GPUs; its "
            f"collectives run over all GPUs of the run. Collectives: {colls}."
        )
    if e.dialect in ("hybrid_data_model", "hybrid_model_data"):
        return (
            f"A hybrid data- and model-parallel workload (policy {e.policy}): {n}; forward and "
            f"input-gradient collectives run in the model-parallel group, weight-gradient ones "
            f"in the data-parallel group (the policy decides which network dimensions each "
            f"group spans). Collectives: {colls}."
        )
    if e.dialect == "dlrm":
        return (
            f"A DLRM workload (policy {e.policy}): {n}; forward and input-gradient collectives "
            f"(the embedding all-to-alls) run in the model-parallel group, weight-gradient "
            f"all-reduces of the MLPs in the data-parallel group. Collectives: {colls}."
        )
    counts = Counter(r.policy or "(none)" for r in e.structure.body)
    mix = ", ".join(f"{c} {p}" for p, c in counts.most_common())
    return (
        f"A per-layer workload (policy HYBRID_CUSTOMIZED): {n}, each naming its own policy in "
        f"a 13th field ({mix}); each row's collectives run in the groups of its own policy. "
        f"Collectives: {colls}."
    )


def answers(e: Explanation) -> list[tuple[str, str]]:
    """The two questions users ask of a pipeline-parallel training file, answered from it."""
    if e.dialect != "transformer" or not e.groups or not e.pp or e.pp <= 1:
        return []
    layers, pp = e.layers_per_stage or 0, e.pp
    g = e.generation
    model = g.name.model if g.name is not None else "the model"
    total = g.preset_layers if g.preset_layers is not None else layers * pp
    if g.preset_layers is not None and g.preset_layers == layers:
        split = (
            f"No: each group holds all {layers} layers of {model} although pp is {pp} (this "
            f"generator did not divide num_layers by pp), and SimAI still treats the rows as "
            f"one stage's."
        )
    else:
        vpp = f", written as vpp: {e.vpp}" if e.vpp is not None else ""
        floored = f" = {total / pp:.2f}, floored by AICB" if total % pp else ""
        split = (
            f"Yes. Each of the {e.groups} groups (one per micro-batch, ga {e.ga}) holds "
            f"{layers} transformer layers: {total} layers / pp {pp}{floored}{vpp}. "
            f"The file is one GPU's rows for one representative stage (a GPU of a TP group of "
            f"{e.tp}); it is not a trace of every rank, and nothing in it says which stage."
        )
    same = (
        f"In SimAI, yes: no row depends on the stage index, SimAI applies the same rows to all "
        f"{pp} stages and models the pipeline only through pp_comm and the bubble "
        f"(PP-1)/(GA*vpp). In a real run the stages at the ends differ: the first also holds "
        f"the input embedding, the last the output layer and the loss (cross_entropy); the "
        f"file does not show that, since every group starts with embedding_layer and the loss "
        f"rows are written once for every stage alike."
    )
    return [
        (
            f"Does the file show only one pipeline stage ({layers} of {total} layers) on one GPU?",
            split,
        ),
        ("Are the other stages the same?", same),
    ]


def notes(e: Explanation) -> list[str]:
    """Header against body, and what SimAI does with what is written."""
    out: list[str] = []
    if e.declared_rows is not None and e.declared_rows != e.rows:
        effect = (
            f"invents {e.declared_rows - e.rows:,} empty layers"
            if e.declared_rows > e.rows
            else f"ignores the last {e.rows - e.declared_rows:,}"
        )
        out.append(
            f"Line 2 declares {e.declared_rows:,} rows but the body has {e.rows:,}: SimAI reads "
            f"exactly {e.declared_rows:,} and {effect}."
        )
    if e.dialect == "dlrm" and e.leading:
        out.append(
            f"The bare {' '.join(e.leading)} after the policy is ASTRA-sim 1.0's last "
            f"bottom-MLP layer; SimAI reads only DLRM_LAST_BOTTOM_LAYER: N, which this header "
            f"does not have."
        )
    checkpoints = e.header_text.get("checkpoints", "").split()
    if len(checkpoints) > 2:
        out.append(
            f"checkpoints: {' '.join(checkpoints)}: SimAI marks only the first index "
            f"({checkpoints[1]}), {checkpoints[0]} times; later indices are never marked."
        )
    if e.dialect not in ("transformer", "inference") and not (
        e.dialect == "micro" and e.policy in TRANSFORMER_POLICIES
    ):
        return out
    for key, value in (("vpp", e.vpp), ("ga", e.ga)):
        if value is None and e.header_text.get(key) is None:
            out.append(
                f'No {key}: in the header: SimAI reads {key} as 0, warns ("Input workload '
                f'format mismatch") and its bubble formula divides by zero, so the total time '
                f"reads NaN or Inf."
            )
        elif value == 0:
            out.append(
                f"{key}: 0: SimAI warns and its bubble formula divides by zero, so the total "
                f"time reads NaN or Inf."
            )
    if e.dialect == "transformer" and e.groups:
        if e.ga is not None and e.ga != e.groups:
            out.append(
                f"Header ga {e.ga} but the body has {e.groups} micro-batch groups: SimAI uses "
                f"ga {e.ga} only in the bubble formula and the PP-traffic count; it runs the "
                f"{e.groups} groups the body holds."
            )
        if e.vpp and e.layers_per_stage is not None and e.vpp != e.layers_per_stage:
            out.append(
                f"Header vpp {e.vpp} but each group holds {e.layers_per_stage} transformer "
                f"layers: SimAI uses vpp {e.vpp} in the bubble formula and the PP-traffic count; "
                f"the rows it runs hold {e.layers_per_stage} per micro-batch."
            )
    if e.dp_remainder:
        assert e.tp is not None and e.pp is not None
        out.append(
            f"all_gpus {e.all_gpus} is not a multiple of TP x PP = {e.tp * e.pp}: DP floors to "
            f"{e.dp} and {e.dp_remainder} GPUs belong to no replica."
        )
    if e.all_gpus is not None and e.tp and e.pp:
        out.append(
            f"SimAI-Analytical takes DP from its -g option, as -g / (TP x PP), not from "
            f"all_gpus (which only feeds its zero check): run it with -g {e.all_gpus} to "
            f"simulate DP {e.dp}."
        )
    if e.pp_comm_simai is not None and str(e.pp_comm_simai) != e.pp_comm_text:
        out.append(f"pp_comm is written {e.pp_comm_text}: SimAI's stoi reads {e.pp_comm_simai:,}.")
    if e.pp is not None and e.pp > 1 and not e.pp_comm_simai:
        out.append(
            f"PP {e.pp} with no pp_comm value: SimAI warns about a format mismatch and counts "
            f"no stage-to-stage bytes."
        )
    if e.pp == 1 and e.pp_comm_simai:
        out.append(
            f"PP 1 with pp_comm {e.pp_comm_simai:,}: SimAI warns about a format mismatch; with "
            f"one stage nothing crosses a stage boundary."
        )
    if e.pp is not None and e.pp > 1 and e.pp_comm_simai and e.activation_bytes and e.tp:
        act, divided = e.activation_bytes, e.activation_bytes // e.tp
        if e.dialect != "transformer":
            pass
        elif e.sequence_parallel and e.pp_comm_simai == act and e.tp > 1:
            out.append(
                f"pp_comm equals the whole activation ({act:,} B) although the rows use "
                f"sequence parallelism: AICB divides it by TP under SP only from 2025-01-02."
            )
        elif e.pp_comm_simai not in ((act, divided) if e.sequence_parallel else (act,)):
            how = f" (or / TP = {divided:,} B with sequence parallelism)"
            out.append(
                f"pp_comm {e.pp_comm_simai:,} B differs from the activation the rows carry "
                f"({act:,} B{how if e.sequence_parallel else ''}), which AICB writes as pp_comm."
            )
    if e.pp is not None and e.pp > 1 and e.pp_comm_simai:
        out.append(
            "pp_comm only costs time when SimAI runs with a PP overlap ratio (-pp_o) below 1; "
            "with the default of 1 the exposed PP time is 0 whatever its value."
        )
    out.extend(f"{note[0].upper()}{note[1:]}." for note in e.generation.notes)
    return out


def path_label(path: str | None) -> str:
    return PurePath(path).name if path else "<stdin>"


__all__ = [
    "Era",
    "Explanation",
    "Finding",
    "Generation",
    "PhaseNote",
    "RowNote",
    "Structure",
    "explain",
    "human_bytes",
    "human_ns",
]
