"""Where an AICB file departs from what the training it describes communicates.

A file can be exactly what AICB writes and still leave out traffic Megatron-LM runs: this
module reads a file's micro-batch group block by block (attention, dense MLP, MoE) and its
once-per-iteration gradient rows, and compares the collectives SimAI would simulate (a known
type, in a group of more than one rank) with `reference` (Megatron-LM's, see there for the
source of each). A collective the reference expects that the file leaves out, or writes with
0 bytes, is a departure; one the file writes beyond the reference is not reported.

Known departures of AICB (2025-12, and the earlier generators with the same branches):
- the AIOB path without sequence parallelism writes each attention and MLP block with its
  forward all-reduce only, leaving out the input-gradient all-reduce the non-AIOB path writes
  (half the TP bytes; aliyun/SimAI#292, #251, #123);
- the AIOB path with sequence parallelism writes the column-parallel input-gradient
  reduce-scatter with 0 bytes;
- the non-AIOB path with sequence parallelism writes no backward TP collective at all;
- the non-AIOB path writes the parameter all-gather in the forward column (SimAI runs it in the
  TP group) and no DP all-gather;
- DeepSeek MoE layers without sequence parallelism get a TP all-reduce and no expert all-to-all.

The setting comes from the AICB command when there is one, else from the file: header (TP, EP,
PP, all_gpus), row names (sequence parallelism), and the activation size AICB writes on the
embedding row. Only files that read as AICB's training output are compared.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from wkparse.ast import Workload
from wkparse.body import Body
from wkparse.models.aicb.reading.reference import (
    Collective,
    Setting,
    dense_block,
    gradients,
    moe_block,
)
from wkparse.models.aicb.training.args import TrainingArgs
from wkparse.models.simai.parallel import data_parallel
from wkparse.models.simai.tokens import header_value

POLICY = "HYBRID_TRANSFORMER_FWD_IN_BCKWD"
#: rows AICB writes in the prologue of a training file (AIOB path, non-AIOB path)
_AICB_PROLOGUE = frozenset(("grad_gather", "grad_param_comm", "grad_norm"))
_KINDS = ("ALLREDUCE", "ALLGATHER", "REDUCESCATTER", "ALLTOALL")
_SUFFIXES = {"": None, "_EP": "EP", "_DP_EP": "DP_EP"}
_PHASES = ("fwd", "ig", "wg")
#: the row names that open a new block even right after a block of the same kind
_OPENERS = frozenset(("attention_layer", "attention_layer_mla", "attention_column", "mlp_layer"))
_MLP_OPENERS = frozenset(("mlp_column",))
#: public threads about a departure, by (block kinds, phase, group, collective)
ISSUES = {("dense", "ig", "TP", "ALLREDUCE"): "aliyun/SimAI#292, #251"}


@dataclass(frozen=True, slots=True)
class Written:
    """One collective a row writes, as SimAI reads it."""

    phase: str
    group: str
    kind: str
    size: int
    row: int


@dataclass(slots=True)
class Departure:
    """A collective the reference expects and the file leaves out (or writes with 0 bytes)."""

    #: attention, mlp, moe or gradients
    block: str
    expected: Collective
    #: blocks of this kind per micro-batch group that lack it (1 for the gradient step)
    blocks: int = 0
    #: blocks of this kind per micro-batch group
    of: int = 0
    #: the file writes it with 0 bytes (rather than leaving it out)
    zero: bool = False
    #: the row index of the first block lacking it, in the first group (or the prologue)
    row: int = 0
    #: where the file writes the same traffic instead, e.g. `fwd TP ALLGATHER`
    instead: str | None = None
    issue: str | None = None

    @property
    def missing(self) -> int | None:
        """Bytes missing per micro-batch group (per iteration for the gradient step)."""
        size = self.expected.size
        return None if size is None else size * self.blocks


@dataclass(slots=True)
class Reading:
    """A file read against the reference: its setting, groups and departures."""

    setting: Setting
    #: micro-batch groups the file repeats (GA), each missing what a group departure says
    groups: int
    aiob: bool
    departures: list[Departure] = field(default_factory=list)

    def per_iteration(self, d: Departure) -> int | None:
        """Bytes `d` leaves out per iteration: once for the gradient step, else once a group."""
        missing = d.missing
        if missing is None:
            return None
        return missing if d.block == "gradients" else missing * self.groups


def _written(row: int, values: Sequence[object], s: Setting) -> Iterator[Written]:
    """The collectives a row's three phases write that SimAI simulates as traffic."""
    for phase, (m, z) in zip(_PHASES, ((3, 4), (6, 7), (9, 10))):
        comm, size = values[m], values[z]
        if not isinstance(comm, str) or not isinstance(size, int):
            continue
        kind = next((k for k in _KINDS if comm.startswith(k)), None)
        if kind is None or comm[len(kind) :] not in _SUFFIXES:
            continue
        group = _SUFFIXES[comm[len(kind) :]] or ("DP" if phase == "wg" else "TP")
        if s.group_size(group) > 1:
            yield Written(phase, group, kind, size, row)


def _kind_of(name: str | None) -> str | None:
    """The block a row name belongs to (attention, moe or mlp); None outside a block."""
    if name is None:
        return None
    if name.startswith("attention"):
        return "attention"
    if "moe" in name:
        return "moe"
    if name.startswith("mlp"):
        return "mlp"
    return None


def _blocks(names: Sequence[str | None]) -> list[tuple[str, int, int]]:
    """(kind, first, end) of each block in a group's names, in order."""
    out: list[tuple[str, int, int]] = []
    current: str | None = None
    for i, name in enumerate(names):
        kind = _kind_of(name)
        opens = kind is not None and (
            kind != current or name in _OPENERS or (kind == "mlp" and name in _MLP_OPENERS)
        )
        if kind is None:
            current = None
            continue
        if opens:
            out.append((kind, i, i + 1))
        else:
            k, first, _end = out[-1]
            out[-1] = (k, first, i + 1)
        current = kind
    return out


def _match(wanted: Collective, written: list[Written]) -> tuple[Written | None, list[Written]]:
    """The largest written collective of the same phase, group and type, and the rest."""
    key = (wanted.phase, wanted.group, wanted.kind)
    same = [w for w in written if (w.phase, w.group, w.kind) == key]
    if not same:
        return None, written
    best = max(same, key=lambda w: w.size)
    rest = list(written)
    rest.remove(best)
    return best, rest


def _instead(wanted: Collective, written: Sequence[Written]) -> str | None:
    """Where the file writes traffic of the same type and size in another phase or group."""
    for w in written:
        if w.kind == wanted.kind and wanted.size and w.size == wanted.size:
            return f"{w.phase} {w.group} {w.kind}"
    return None


def _is_mla(names: Sequence[str | None]) -> bool:
    """Whether an attention block is DeepSeek's MLA (not modelled under TP > 1)."""
    return any(n is not None and ("lora" in n or "mla" in n or n.endswith("o_row")) for n in names)


def looks_like_aicb(workload: Workload, body: Body) -> bool:
    """Whether a file reads as AICB's training output (its policy, prologue rows and groups)."""
    header = workload.header
    if header is None or header.policy != POLICY or not body.has_groups:
        return False
    return any(n in _AICB_PROLOGUE for n in body.names_between(0, body.prologue_end))


def setting_from(workload: Workload, body: Body, args: TrainingArgs | None) -> Setting | None:
    """The parallelism to read the file with: the command's, else the file's own."""
    if args is not None:
        return Setting(
            args.tp, args.ep, args.dp, args.sequence_parallel, args.tp_comm_size, args.topk
        )
    header = workload.header
    if header is None:
        return None
    tp, world = header_value(header, "model_parallel_NPU_group"), header_value(header, "all_gpus")
    ep, pp = header_value(header, "ep") or 1, header_value(header, "pp") or 1
    if not tp or not world:
        return None
    dp = data_parallel(world, tp, pp)
    if dp is None:
        return None
    sp = any(n is not None and n.endswith(("_column", "_row")) for n in body.distinct_names)
    activation = None
    group = body.reference
    if group is not None:
        first = workload.rows.fields[group.start].ordered()
        size = first[4]
        if isinstance(size, int) and size > 0:
            activation = size
    topk = _topk(workload, body, activation)
    return Setting(tp, ep, dp, sp, activation, topk)


def _topk(workload: Workload, body: Body, activation: int | None) -> int | None:
    """Experts per token, from the size of the MoE rows' TP all-gather (A * topk)."""
    group = body.reference
    if activation is None or group is None:
        return None
    fields = workload.rows.fields
    sizes = [
        v[4]
        for i in range(group.start, group.end)
        if "moe" in (group.names[i - group.start] or "")
        for v in (fields[i].ordered(),)
        if v[3] == "ALLGATHER" and isinstance(v[4], int)
    ]
    biggest = max(sizes, default=0)
    return biggest // activation if biggest >= activation and biggest % activation == 0 else None


def read(workload: Workload, body: Body, args: TrainingArgs | None = None) -> Reading | None:
    """The file against Megatron-LM's collectives; None when it is no AICB training file (or
    its parallelism cannot be told)."""
    if not looks_like_aicb(workload, body):
        return None
    s = setting_from(workload, body, args)
    if s is None or s.tp < 1 or s.ep < 1 or s.dp < 1:
        return None
    prologue = body.names_between(0, body.prologue_end)
    aiob = "grad_gather" in prologue
    reading = Reading(s, len(body.groups), aiob)
    group = body.reference
    fields = workload.rows.fields
    found: dict[tuple[str, int], Departure] = {}
    counts: dict[str, int] = {}
    experts = False
    if group is not None:
        for kind, first, end in _blocks(group.names):
            counts[kind] = counts.get(kind, 0) + 1
            names = group.names[first:end]
            if kind == "moe":
                experts = True
                wanted = moe_block(s)
            elif kind == "attention" and _is_mla(names) and s.tp > 1:
                continue
            else:
                wanted = dense_block(s)
            written = [
                w
                for i in range(group.start + first, group.start + end)
                for w in _written(i, fields[i].ordered(), s)
            ]
            _compare(kind, wanted, written, group.start + first, found)
    prologue_written = [
        w for i in range(body.prologue_end) for w in _written(i, fields[i].ordered(), s)
    ]
    scattered = {g: _scattered(prologue_written, g) for g in ("DP", "DP_EP")}
    wanted_grads = gradients(s, experts=experts, scattered=scattered)
    _compare("gradients", wanted_grads, prologue_written, 0, found)
    counts["gradients"] = 1
    for d in found.values():
        d.of = counts.get(d.block, 0)
    reading.departures = list(found.values())
    return reading


def _scattered(written: Sequence[Written], group: str) -> int | None:
    """The gradient reduce-scatter bytes of a group: written, or twice the all-gather's."""

    def largest(kind: str) -> int:
        key = ("wg", group, kind)
        return max((w.size for w in written if (w.phase, w.group, w.kind) == key), default=0)

    rs = largest("REDUCESCATTER")
    if rs > 0:
        return rs
    ag = largest("ALLGATHER")
    return 2 * ag if ag > 0 else None


def _compare(
    block: str,
    wanted: Sequence[Collective],
    written: list[Written],
    first_row: int,
    found: dict[tuple[str, int], Departure],
) -> None:
    """Match each expected collective with one the block writes; count what is missing."""
    rest = list(written)
    missing: list[tuple[int, Collective, Written | None]] = []
    for index, want in enumerate(wanted):
        got, rest = _match(want, rest)
        if got is None or got.size <= 0:
            missing.append((index, want, got))
    for index, want, got in missing:
        key = (block, index)
        d = found.get(key)
        if d is None:
            family = "dense" if block in ("attention", "mlp") else block
            d = found[key] = Departure(
                block,
                want,
                row=got.row if got is not None else first_row,
                zero=got is not None,
                instead=None if got is not None else _instead(want, rest),
                issue=ISSUES.get((family, want.phase, want.group, want.kind)),
            )
        d.blocks += 1
