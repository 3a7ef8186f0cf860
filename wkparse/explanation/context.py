"""What every explain section reads: one file's header values, group sizes and routes.

`Context` is built once per file by `facts.explain` and handed to each section function
(`totals`, `structure`, `generation`, `provenance`, `findings`). It holds the inputs and the
few derived values more than one section needs; it computes nothing a single section owns.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from wkparse.ast import PHASE_FIELDS, PHASES, Workload
from wkparse.body import GROUP_START, Body
from wkparse.columns import columns_of
from wkparse.diagnostics import Diagnostic
from wkparse.explanation.routing import TRANSFORMER_DIALECTS, dialect_of, group_sizes, route
from wkparse.models.simai.parallel import data_parallel, left_out
from wkparse.models.simai.tokens import header_value


class Context:
    """One file as the sections read it: header values as SimAI reads them (None when absent
    or not a transformer-style policy), DP and the group sizes, and SimAI's routes."""

    def __init__(
        self,
        workload: Workload,
        path: str | None,
        findings: Sequence[Diagnostic],
        body: Body | None = None,
        aicb_command: str | None = None,
        data: bytes | None = None,
        provenance: bool = True,
    ):
        self.w = workload
        #: the file's bytes, when the caller read them (standard input and pipes cannot be
        #: read again), and whether the AICB command behind them is inferred
        self.data = data
        self.provenance = provenance
        #: the AICB command that made the file, when explain was told (`--aicb-command`)
        self.aicb_command = aicb_command
        self.path = path
        self.diagnostics = findings
        self.body = body if body is not None else Body(workload)
        self.values = workload.rows.values
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
        #: pp_comm as SimAI reads it (32 bits unsigned); `pp_comm_text` as written
        self.pp_comm = self._int("pp_comm") if transformerish else None
        pp_comm = header.read("pp_comm") if header is not None and transformerish else None
        self.pp_comm_text = (
            pp_comm.value.text if pp_comm is not None and pp_comm.value is not None else None
        )
        self.dp: int | None = None
        self.dp_remainder: int | None = None
        if self.all_gpus is not None and self.tp and self.pp:
            self.dp = data_parallel(self.all_gpus, self.tp, self.pp)
            self.dp_remainder = left_out(self.all_gpus, self.tp, self.pp)
        self.sizes = group_sizes(self.tp, self.dp, self.ep, self.pp, self.all_gpus)
        self.dp_ep = self.sizes["DP_EP"]
        self._routes: dict[tuple[str | None, str, str | None], str | None] = {}
        self.aicb_rows = bool(self.names & {GROUP_START, "attention_layer", "attention_column"})

    def _int(self, key: str) -> int | None:
        return header_value(self.header, key)

    def placeholder(self) -> bool:
        """Whether every compute time of the layer rows is a placeholder (<= 1)."""
        return self.body.placeholder_compute

    def route(self, policy: str | None, phase: str, comm: str | None) -> str | None:
        """The group SimAI runs `comm` in (`routing.route`), cached per distinct key."""
        key = (policy, phase, comm)
        if key not in self._routes:
            self._routes[key] = route(policy, phase, comm)
        return self._routes[key]

    def policy_of(self, row_policy: str | None) -> str | None:
        """The policy a row runs under: its own under HYBRID_CUSTOMIZED, else the header's."""
        return row_policy if self.policy == "HYBRID_CUSTOMIZED" else self.policy

    @cached_property
    def combinations(self) -> list[tuple[tuple[int, ...], int, list[tuple[int, int]]]]:
        """Per distinct (name, policy, comm types) of the values: that key, how many rows
        have it, and per phase the sums of compute and size over those rows.

        The values are grouped and the columns summed per group as a whole (numpy on large
        files, `wkparse.columns`), each value weighted by how many rows carry it.
        """
        columns = columns_of(self.w.rows)
        grouping = columns.group((0, 12, 3, 6, 9))
        counts = columns.rows(grouping)
        sums = [
            list(zip(columns.sums(grouping, c), columns.sums(grouping, z)))
            for c, _, z in (PHASE_FIELDS[p] for p in PHASES)
        ]
        return [
            (key, counts[g], [phase[g] for phase in sums]) for g, key in enumerate(grouping.keys)
        ]
