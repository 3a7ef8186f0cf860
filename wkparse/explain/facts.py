"""The facts of one file: `explain(result, path)` computes an `Explanation` from a ParseResult.

Header values as written (None when absent), what the body holds counted from its rows, the
parallel layout, every row of the prologue, of one micro-batch group and of the epilogue
annotated with the group each collective runs in (SimAI's rules, `routing`), totals per
iteration, what can be inferred about how the file was generated, and the lint findings.
Header values and counted values are kept apart: when they disagree, a note says which one
SimAI uses. The sentences are added last, by `sentences`.

Everything is computed per distinct row value with its count (AICB repeats one group `ga`
times, so a million-row file has a few hundred distinct rows), never per row object.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from wkparse.aicb import PRESETS, parse_filename
from wkparse.ast import PHASE_FIELDS, PHASES, RowFields, Workload
from wkparse.body import GROUP_START, MOE_NAMES, Body, count_layers
from wkparse.columns import Columns
from wkparse.diagnostics import Diagnostic
from wkparse.explain.model import (
    CollectiveTotal,
    Era,
    Explanation,
    Finding,
    Generation,
    GroupDifference,
    KindTotal,
    PhaseNote,
    RowNote,
    Shape,
    Structure,
)
from wkparse.explain.patterns import compress
from wkparse.explain.routing import GROUPS, TRANSFORMER_DIALECTS, dialect_of, layer_kind, route
from wkparse.explain.sentences import answers, notes, represents
from wkparse.explain.units import human_ns
from wkparse.explain.values import fraction, scaled, simai_int, written_number
from wkparse.i18n import _
from wkparse.parse import ParseResult
from wkparse.simai.tables import GroupType, decode_comm

#: rows shown for a body without micro-batch groups (the JSON and the text stay bounded)
BODY_ROWS_SHOWN = 60
_FINDING_LINES = 20
#: distinct group values compared slice by slice before keying every group by its row ids
_MAX_REPS = 32


def explain(
    result: ParseResult,
    path: str | None = None,
    findings: Sequence[Diagnostic] | None = None,
    body: Body | None = None,
) -> Explanation:
    """Explain a parsed file. `findings` defaults to lint's, opt-in rules included: explain
    states every fact, lint only what is wrong. `body` is the file's `Body` when the caller
    has counted it already (diff reads the same one)."""
    if findings is None:
        from wkparse.config import Config
        from wkparse.engine import lint

        findings = lint(result, path, Config(opt_in=True))
    return _Explainer(result.workload, path, findings, body).run()


@dataclass(slots=True)
class _Rep:
    """Micro-batch groups with equal rows: the first one's index and its rows' values."""

    first: int
    refs: Sequence[int]
    count: int = 1


class _Explainer:
    def __init__(
        self,
        workload: Workload,
        path: str | None,
        findings: Sequence[Diagnostic],
        body: Body | None = None,
    ):
        self.w = workload
        self.path = path
        self.diagnostics = findings
        self.body = body if body is not None else Body(workload)
        self.values = workload.rows.values
        self.reps = self._value_groups()
        self.names = set(self.body.distinct_names)
        self.dialect = dialect_of(workload, self.names)
        header = workload.header
        self.header = header
        self.policy = header.policy if header is not None else None
        transformerish = self.policy in TRANSFORMER_DIALECTS
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
        self._routes: dict[tuple[str | None, str, str | None], str | None] = {}
        self.aicb_rows = bool(self.names & {GROUP_START, "attention_layer", "attention_column"})

    def _value_groups(self) -> list[_Rep]:
        """The groups, collapsed into runs of equal values: one representative slice each.

        Slices of value indexes are compared as arrays, in C, so a file of `ga` identical
        groups costs one comparison per group, not one per row.
        """
        refs = self.w.rows.refs
        reps: list[_Rep] = []
        for i, g in enumerate(self.body.groups):
            rows = refs[g.start : g.end]
            for rep in reps:
                if rep.refs == rows:
                    rep.count += 1
                    break
            else:
                if len(reps) >= _MAX_REPS:
                    return self._value_groups_by_key()
                reps.append(_Rep(i, rows))
        return reps

    def _value_groups_by_key(self) -> list[_Rep]:
        """The same for files whose groups mostly differ: every group keyed by a hash of its
        value indexes, each representative a view of the rows' indexes (nothing is copied
        per group: a million distinct rows make ~14k groups that all differ)."""
        refs = self.w.rows.refs
        view: Sequence[int] = memoryview(refs) if isinstance(refs, array) else refs
        by_hash: dict[int, list[_Rep]] = {}
        reps: list[_Rep] = []
        for i, g in enumerate(self.body.groups):
            rows = view[g.start : g.end]
            key = hash(rows.tobytes() if isinstance(rows, memoryview) else tuple(rows))
            same = by_hash.setdefault(key, [])
            for rep in same:
                if rep.refs == rows:
                    rep.count += 1
                    break
            else:
                same.append(_Rep(i, rows))
                reps.append(same[-1])
        return reps

    def placeholder(self) -> bool:
        """Whether every compute time of the layer rows is a placeholder (<= 1)."""
        return self.body.placeholder_compute

    def _int(self, key: str) -> int | None:
        f = self.header.read(key) if self.header is not None else None
        return simai_int(f.value.text) if f is not None and f.value is not None else None

    def _route(self, policy: str | None, phase: str, comm: str | None) -> str | None:
        key = (policy, phase, comm)
        if key not in self._routes:
            self._routes[key] = route(policy, phase, comm)
        return self._routes[key]

    def _row_policy(self, f: RowFields) -> str | None:
        return self._policy_of(f.policy)

    def _policy_of(self, row_policy: str | None) -> str | None:
        return row_policy if self.policy == "HYBRID_CUSTOMIZED" else self.policy

    # ---- rows ---------------------------------------------------------------------------

    def note(self, line: int, f: RowFields) -> RowNote:
        return _note(line, f, self._row_policy(f), self.sizes, self._route)

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
        texts = self.values.texts
        for key, rows, sums in self.combinations:
            name_code, policy_code, *comms = key
            name = texts[name_code]
            policy = self._policy_of(texts[policy_code])
            row_bytes = 0
            row_compute = 0
            for phase, comm_code, (phase_ns, size) in zip(PHASES, comms, sums):
                row_compute += phase_ns
                compute[phase] += phase_ns
                comm_name = texts[comm_code]
                if comm_name is None or comm_name == "NONE":
                    continue
                group = self._route(policy, phase, comm_name)
                calls[(group, comm_name)] += rows
                coll_bytes[(group, comm_name)] += size
                if group is not None:
                    comm[group] += size
                    row_bytes += size
            if name != GROUP_START:
                non_embedding += row_compute
            kind = kinds.setdefault(layer_kind(name, transformer), [0, 0, 0])
            kind[0] += rows
            kind[1] += row_bytes
            kind[2] += row_compute
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
                    _("{n} other kinds").format(n=len(rest)),
                    sum(k.rows for k in rest),
                    sum(k.bytes for k in rest),
                    sum(k.compute_ns for k in rest),
                ),
            )
        return dict(comm), compute_ns, non_embedding, collectives, kind_totals

    @cached_property
    def combinations(self) -> list[tuple[tuple[int, ...], int, list[tuple[int, int]]]]:
        """Per distinct (name, policy, comm types) of the values: that key, how many rows
        have it, and per phase the sums of compute and size over those rows.

        The values are grouped and the columns summed per group as a whole (numpy on large
        files, `wkparse.columns`), each value weighted by how many rows carry it.
        """
        rows = self.w.rows
        columns = Columns(rows.values, rows.refs)
        grouping = columns.group((0, 12, 3, 6, 9))
        counts = columns.rows(grouping)
        sums = [
            list(zip(columns.sums(grouping, c), columns.sums(grouping, z)))
            for c, _, z in (PHASE_FIELDS[p] for p in PHASES)
        ]
        return [
            (key, counts[g], [phase[g] for phase in sums]) for g, key in enumerate(grouping.keys)
        ]

    def _share(self, group: str | None, total: int, coll: str) -> int | None:
        if group is None or coll == "pp_comm":
            return None
        size = self.sizes.get(group)
        return total // size if size else None

    def pp_bytes(self) -> int:
        """PP traffic as SimAI counts it: pp_comm bytes 2 x vpp x ga times per iteration."""
        simai = simai_int(self.pp_comm_text)
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
        same_names = [r for r in self.reps if body.groups[r.first].names == common]
        ref_rep = max(same_names, key=lambda r: (r.count, -r.first))
        ref = groups[ref_rep.first]
        differences: list[GroupDifference] = []
        for rep in sorted(same_names, key=lambda r: r.first):
            if rep is ref_rep or len(differences) >= 3:
                continue
            g = groups[rep.first]
            values = self.values
            changed = [
                (rows.lines[g.start + offset], a.name, _diff(a, b))
                for offset, (i, j) in enumerate(zip(rep.refs, ref_rep.refs))
                if i != j
                for a, b in [(RowFields(values, i), RowFields(values, j))]
                if a != b
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

    def activation(self) -> tuple[int | None, str | None]:
        """The activation size (2 x mbs x seq x hidden) and where it is read: a TP collective
        of the first group's rows, or, when no row carries it (TP 1) and PP > 1, pp_comm,
        which AICB writes as the activation (divided by TP with sequence parallelism)."""
        act = self.body.activation_bytes
        if act is not None:
            return act, "rows"
        pp_comm = simai_int(self.pp_comm_text)
        if self.pp is not None and self.pp > 1 and pp_comm and pp_comm > 0:
            tp = self.tp if self.body.sequence_parallel and self.tp and self.tp > 0 else 1
            return pp_comm * tp, "pp_comm"
        return None, None

    def generation(self) -> Generation:
        body = self.body
        name = parse_filename(self.path) if self.path else None
        act = self.activation()[0]
        hidden, hidden_how = None, None
        if name is not None and act:
            tokens = name.mbs * (1 if name.inference_phase == "decode" else name.seq)
            if tokens and act % (2 * tokens) == 0:
                hidden = act // (2 * tokens)
                what = (
                    _("batch {mbs} (decode: one token each)").format(mbs=name.mbs)
                    if name.inference_phase == "decode"
                    else f"mbs {name.mbs} x seq {name.seq}"
                )
                hidden_how = _("activation {bytes} B = 2 x {what} x hidden").format(
                    bytes=f"{act:,}", what=what
                )
        preset = name.preset if name is not None else None
        if name is not None and preset is None:
            preset = PRESETS.get(name.model.replace("*", "x"))
        notes: list[str] = []
        if hidden is not None and preset is not None and hidden != preset.hidden:
            notes.append(
                _("hidden {hidden} differs from the {model} preset's {preset}").format(
                    hidden=f"{hidden:,}",
                    model=name.model if name else "",
                    preset=f"{preset.hidden:,}",
                )
            )
        if name is not None and name.model.startswith("DeepSeek"):
            notes.append(
                _(
                    "AICB's DeepSeek presets pass the FFN size as hidden_size, which inflates "
                    "activation sizes and pp_comm (the file stays consistent with itself)"
                )
            )
        experts, topk, moe_how = self._moe_shape()
        compute = "none"
        if len(self.w.rows):
            compute = "placeholder" if self.placeholder() else "measured"
        expected_ga = None
        if name is not None and name.gbs is not None and self.dp:
            expected_ga = name.gbs // (name.mbs * self.dp)
        if name is not None and self.policy in TRANSFORMER_DIALECTS:
            for key, said, header in (
                ("tp", name.tp, self.tp),
                ("pp", name.pp, self.pp),
                ("ep", name.ep, self.ep),
                ("world_size", name.world, self.all_gpus),
            ):
                if header is not None and said != header:
                    notes.append(
                        _("the file name says {key} {said} but the header says {header}").format(
                            key=key, said=said, header=header
                        )
                    )
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
        values = self.values
        texts = values.texts
        name_codes, comms, sizes = (values.column(k) for k in ("name", "fwd_comm", "fwd_size"))
        moe = {i for i, text in enumerate(texts) if text in MOE_NAMES}
        dispatch_code = texts.index("ALLTOALL_EP") if "ALLTOALL_EP" in texts else None
        dispatch = max(
            (
                size
                for name, comm, size in zip(name_codes, comms, sizes)
                if comm == dispatch_code and name in moe
            ),
            default=0,
        )
        topk = None
        how = []
        if dispatch and (dispatch * self.tp) % act == 0:
            topk = dispatch * self.tp // act
            how.append(
                _("top-k = EP all-to-all {bytes} B x TP {tp} / activation").format(
                    bytes=f"{dispatch:,}", tp=self.tp
                )
            )
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
                how.append(
                    _("experts = router all-gather {bytes} B / (2 x EP x TP)").format(
                        bytes=f"{gather:,}"
                    )
                )
        return experts, topk, "; ".join(how) or None

    def era(self, compute: str) -> Era | None:
        header = self.header
        if header is None or (self.policy not in TRANSFORMER_DIALECTS and self.policy != "MICRO"):
            return None
        keys = [f.key for f in header.fields]
        if self.policy == "MICRO":
            if self.names <= {"micro_test"}:
                return Era(_("AICB collective micro-benchmark (MICRO)"), None, None, ())
            return None
        reasons: list[str] = []
        if (
            self.dialect == "inference"
            and "mode" in keys
            and "all_gpus" in keys
            and keys.index("all_gpus") < keys.index("mode")
        ):
            return Era(
                _("AICB inference generator, 2025-10 or later"),
                "2025-10",
                None,
                (_("inference key order: all_gpus before mode: 1 and vpp"),),
            )
        has = set(keys)
        if not has & {"ep", "pp", "ga", "all_gpus", "vpp"}:
            if self.names and self.names <= {"micro_test"}:
                return Era(
                    _("AICB v1.0 micro-benchmark (transformer header)"),
                    None,
                    None,
                    (_("micro_test rows under a header with only model_parallel_NPU_group"),),
                )
            who = "AICB v1.0" if self.aicb_rows or _aicb_like(self.names) else "ASTRA-sim 1.0"
            return Era(
                _("{who}-style header").format(who=who),
                None,
                None,
                (_("the header carries only model_parallel_NPU_group"),),
            )
        earliest: str | None = None
        latest: str | None = None
        pp_comm = header.read("pp_comm")
        if "vpp" not in has:
            latest = "2024-11-05"
            reasons.append(_("no vpp, which AICB added on 2024-11-05"))
        elif pp_comm is None:
            earliest, latest = "2024-11-05", "2024-12-02"
            reasons.append(_("vpp, added 2024-11-05, but no pp_comm, added 2024-12-02"))
        else:
            earliest = "2024-12-02"
            text = pp_comm.value.text if pp_comm.value is not None else ""
            value = written_number(text)
            if isinstance(value, float) and not text.isdigit():
                earliest = "2025-01-02"
                reasons.append(
                    _("pp_comm written as a float, {text}, as from 2025-01-02").format(text=text)
                )
            elif self.pp == 1 and value == 0:
                earliest = "2024-12-04"
                reasons.append(_("pp_comm: 0 with PP 1, written from 2024-12-04"))
            elif self.pp == 1 and value:
                latest = "2024-12-04"
                reasons.append(
                    _("pp_comm non-zero with PP 1, written only from 2024-12-02 to 2024-12-04")
                )
            else:
                reasons.append(_("pp_comm present, added 2024-12-02"))
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
                _("pp_comm is the whole activation under SP; divided by TP from 2025-01-02")
            )
        if compute == "measured" and self._none_with_size():
            latest = _min_date(latest, "2025-09-15")
            reasons.append(
                _(
                    "NONE columns with non-zero sizes in a measured AIOB file; zeroed from "
                    "2025-09-15"
                )
            )
        per_layer = _moe_rows_per_layer(
            self.body.reference.names if self.body.reference is not None else ()
        )
        if per_layer == 7:
            latest = _min_date(latest, "2025-09-15")
            reasons.append(_("7 mlp_moelayer rows per MoE layer; 5 from 2025-09"))
        elif per_layer == 5:
            earliest = _max_date(earliest, "2025-09-15")
            reasons.append(_("5 mlp_moelayer rows per MoE layer, as from 2025-09"))
        if earliest and latest:
            label = _("AICB {earliest} to {latest}").format(earliest=earliest, latest=latest)
        elif earliest:
            label = _("AICB {earliest} or later").format(earliest=earliest)
        elif latest:
            label = _("AICB before {latest}").format(latest=latest)
        else:  # pragma: no cover  (every branch above bounds one side)
            label = "AICB"
        return Era(label, earliest, latest, tuple(reasons))

    def _none_with_size(self) -> bool:
        """Whether a NONE column carries bytes: read from the totals' per-key size sums."""
        texts = self.values.texts
        return any(
            texts[comm] == "NONE" and size
            for (_, _, *comms), _, sums in self.combinations
            for comm, (_, size) in zip(comms, sums)
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
            bubble = fraction(self.pp - 1, self.ga * self.vpp)
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
            pp_comm=written_number(self.pp_comm_text),
            pp_comm_text=self.pp_comm_text,
            pp_comm_simai=simai_int(self.pp_comm_text),
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
            activation_bytes=self.activation()[0],
            activation_source=self.activation()[1],
            placeholder_compute=self.placeholder(),
            comm_bytes=comm,
            compute_ns=compute,
            bubble_compute_ns=scaled(non_embedding, bubble),
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


def row_note(e: Explanation, line: int, f: RowFields) -> RowNote:
    """Any row annotated as explain annotates the rows it shows (the editor's hover asks for
    rows explain does not list): the group each collective runs in, its size, bytes per rank."""
    policy = f.policy if e.policy == "HYBRID_CUSTOMIZED" else e.policy
    return _note(line, f, policy, e.group_sizes, route)


def _note(
    line: int,
    f: RowFields,
    policy: str | None,
    sizes: Mapping[str, int | None],
    router: Callable[[str | None, str, str | None], str | None],
) -> RowNote:
    phases = []
    for name in PHASES:
        ph = f.phase(name)
        group = router(policy, name, ph.comm)
        size = sizes.get(group) if group else None
        share = ph.size // size if ph.size is not None and size else None
        why = None
        known = ph.comm is not None and decode_comm(ph.comm, name)[1] is not GroupType.NONE
        if group is None and known:
            # lint has nothing to say here: the policy itself runs the type in no group
            why = _("no group under policy {policy}").format(policy=policy)
        phases.append(PhaseNote(name, ph.compute, ph.comm, group, size, ph.size, share, why))
    return RowNote(line, f.name, tuple(phases), f.update_time, f.policy if f.policy else None)


def _replace(e: Explanation, **changes: object) -> Explanation:
    from dataclasses import replace

    return replace(e, **changes)  # type: ignore[arg-type]


def _diff(a: RowFields, b: RowFields) -> str:
    va, vb = a.values(), b.values()
    parts = []
    for key, value in va.items():
        if value != vb[key]:
            if key.endswith("compute") or key == "update_time":
                here, there = human_ns(_num(value)), human_ns(_num(vb[key]))
            else:
                here, there = str(value), str(vb[key])
            parts.append(
                _("{key} {value} instead of {expected}").format(key=key, value=here, expected=there)
            )
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
