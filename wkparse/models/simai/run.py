"""One run of `SimAI_analytical -w FILE -g N ...`, predicted from the file: how it ends, what
it warns, what it makes of every layer and, given SimAI's options, the EndToEnd.csv it
writes (`report`)."""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import repeat
from operator import truediv
from typing import TYPE_CHECKING

from wkparse.ast import RowTable
from wkparse.cpp import Stoi, scaled, scaled_floats, stoi
from wkparse.i18n import _
from wkparse.models.simai import outcome
from wkparse.models.simai.analytical import (
    Groups,
    LayerPlan,
    PhasePlan,
    Triple,
    exact_triple,
    plan_layer,
    plan_phase,
    reported,
    total_compute,
)
from wkparse.models.simai.fit import option_warnings
from wkparse.models.simai.header import HeaderReading, first_line, read_header
from wkparse.models.simai.options import Refusal, SimaiOptions, result_name
from wkparse.models.simai.outcome import CALLABLE_REMOVED, FORMAT_MISMATCH, Outcome
from wkparse.models.simai.parallel import data_parallel, stages
from wkparse.models.simai.parsed_rows import read_parsed
from wkparse.models.simai.positional import PositionalReading, read_positional
from wkparse.models.simai.rows import LayerRead, PhaseRead, RowsReading, read_rows
from wkparse.models.simai.tables import CUSTOMIZED, FWD_IN_BCKWD, ComType, GroupType, decode_comm
from wkparse.models.simai.timeline import Cut, first_cut
from wkparse.models.simai.versions import DEFAULT, SimaiVersion

if TYPE_CHECKING:
    from wkparse.models.simai.report import Report


@dataclass(frozen=True)
class CountReading:
    """Line 2 as `std::getline` then `std::stoi` read it."""

    text: bytes
    result: Stoi
    #: where the rows start (just after line 2's newline)
    rows_start: int


def read_count(data: bytes) -> CountReading:
    first = data.find(b"\n")
    if first < 0:
        # getline finds no line 2: the string stays empty
        return CountReading(b"", stoi(b""), len(data))
    end = data.find(b"\n", first + 1)
    end = len(data) if end < 0 else end
    text = data[first + 1 : end]
    return CountReading(text, stoi(text), min(end + 1, len(data)))


@dataclass
class SimaiRun:
    """What SimAI does with one file for one `-g`."""

    header: HeaderReading
    gpus: int | None
    outcome: Outcome = outcome.OK
    warnings: tuple[str, ...] = ()
    count: CountReading | None = None
    rows: RowsReading | None = None
    dp: int | None = None
    #: SimAI's options for this run (None: only -g is known, no report is predicted)
    options: SimaiOptions | None = None
    #: the first compute time SimAI's int cuts (a hang or an empty run)
    cut: Cut | None = None
    #: the EndToEnd.csv SimAI writes (None without options, or when it writes none)
    report: Report | None = None
    #: where the options and the file do not fit, each with what SimAI then does
    option_warnings: tuple[str, ...] = ()
    #: rows the file holds after the last layer line 2 lets SimAI read (it never reads them)
    unread_rows: int = 0
    #: the SimAI this run describes
    version: SimaiVersion = DEFAULT
    #: SimAI's option parser's refusal (what it prints, and why in wkparse's words)
    refusal: Refusal | None = None
    _plans: dict[int, LayerPlan] = field(default_factory=dict, repr=False)
    _phase_plans: dict[tuple[str, str, int | None], PhasePlan] = field(
        default_factory=dict, repr=False
    )

    def printed(self) -> tuple[str, ...]:
        """The lines SimAI prints on stderr, as the model knows them: its refusal, its
        format warning, what aborts it (an assertion as `Assertion `...' failed.`: SimAI's own
        line starts with its program and source paths) and a dropped callback; a signal
        prints nothing."""
        o = self.outcome
        lines = list(self.warnings)
        if self.refusal is not None:
            lines = self.refusal.stderr.splitlines()
        elif o.kind == "exception":
            lines += o.message.splitlines()
        elif o.kind == "signal" and o.message.startswith("Assertion"):
            lines.append(o.message.removesuffix(" (SIGABRT)") + ".")
        if self.report is not None and self.report.stop is not None:
            lines.append(CALLABLE_REMOVED)
        return tuple(lines)

    @property
    def lines(self) -> int | None:
        """The layer count SimAI read from line 2."""
        return None if self.count is None else self.count.result.value

    @property
    def layer_count(self) -> int:
        return 0 if self.rows is None else len(self.rows.layers)

    @property
    def first_undefined(self) -> int | None:
        return None if self.rows is None else self.rows.first_undefined

    @property
    def groups(self) -> Groups:
        h = self.header
        return Groups(h.held("tp"), h.held("ep"), self.dp)

    def plan(self, layer: LayerRead) -> LayerPlan:
        """What SimAI-Analytical takes from a layer; layers sharing a reading share a plan."""
        found = self._plans.get(id(layer))
        if found is None:
            found = plan_layer(layer, self.header.policy or "", self.groups, self.version)
            self._plans[id(layer)] = found
        return found

    def phase_plan(self, phase: str, comm: str, size: int | None) -> PhasePlan:
        """`plan`'s phase for this collective and size, with a compute of 0: what a phase's
        collective alone decides (renderers ask once per distinct one, not once per layer)."""
        key = (phase, comm, size)
        found = self._phase_plans.get(key)
        if found is None:
            read = PhaseRead(0, comm, size)
            policy = self.header.policy or ""
            found = plan_phase(phase, read, policy, self.groups, self.version)
            self._phase_plans[key] = found
        return found

    @cached_property
    def total_compute_us(self) -> int | None:
        """SimAI's `total comp`, when it gets to print it."""
        if self.outcome.exit_code != 0 or self.outcome.kind != "ok" or self.rows is None:
            return None
        report = self.report
        if report is not None and report.summary is not None and self.first_undefined is None:
            # the report's `total comp` is this same running sum over the same layers (all
            # read whole: no garbage, no tail)
            return reported(report.totals["total_comp_us"])
        table = self.rows.layers
        tail: Triple | None = None
        if table.tail is not None:
            tail = exact_triple(self.plan(table.tail))
            if tail is None:
                return None
        values = table.values
        f, i, w = values.computes
        if any(None in c for c in (f, w, i) if not isinstance(c, array)):
            return None  # a value never written: garbage
        # each value's microseconds as SimAI scales them (`microseconds`, a column at a time)
        us = [list(map(truediv, scaled_floats(c), repeat(1000.0))) for c in (f, w, i)]  # type: ignore[arg-type]
        refs = values.refs
        per_layer = zip(*us) if values.once_each else zip(*(map(c.__getitem__, refs) for c in us))
        return reported(total_compute(per_layer, tail, table.tail_count))


def unread_rows(data: bytes, rows: RowsReading) -> int:
    """The non-blank lines after the last layer SimAI reads: the rows a count line smaller
    than the body leaves unread. Counted from the end, so a file read whole costs one scan
    for newlines."""
    table = rows.layers
    if rows.first_undefined is not None or table.tail_count or not table.read:
        return 0
    if rows.unread is not None:
        return rows.unread
    last = table.lines[-1] if len(table.lines) else 0
    total = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    if not last or total <= last:
        return 0
    unread, end = 0, len(data) - data.endswith(b"\n")
    for _line in range(total - last):
        start = data.rfind(b"\n", 0, end) + 1
        unread += bool(data[start:end].strip())
        end = start - 1
    return unread


def _end(run: SimaiRun) -> Outcome:
    """How the simulation of a file that was read whole ends."""
    h = run.header
    assert run.rows is not None
    if run.layer_count == 0:
        return outcome.assertion("index < SIZE")
    if not h.transformer or stages(h.held("tp"), h.held("pp")) == 0:
        unset = [k for k in ("tp", "pp") if h.held(k) == 0]
        reason = _("DP = -g / (TP x PP) with {keys} 0").format(keys=_(" and ").join(unset))
        if not h.transformer:
            reason += _(" (never set for {policy})").format(policy=h.policy)
        return outcome.sigfpe(reason)
    if run.gpus is not None:
        run.dp = data_parallel(run.gpus, h.held("tp"), h.held("pp"))
    if h.held("ep") == 0:
        where = _divides_by_ep(run)
        if where is not None:
            return outcome.sigfpe(where)
    if run.first_undefined is not None and _garbage(run):
        return outcome.Outcome(
            0,
            "ok",
            "layers hold values never written (garbage): the run may finish, hang or crash",
            undefined=True,
        )
    return outcome.OK


def _divides_by_ep(run: SimaiRun) -> str | None:
    """Where SimAI's report first divides by an EP of 0 (SIGFPE), layer by layer: a layer's
    `_DP_EP` weight-gradient group size (DP / EP) before it times any phase, then the
    placement of each `_DP_EP` collective it times, forward then input-gradient (GPUs per
    server / (TP x EP): a collective of more than one rank and no small message). None:
    it never does."""
    from wkparse.models.simai.comm import SMALL

    assert run.rows is not None
    table = run.rows.layers
    values, tp = table.values, run.header.held("tp")
    (fm, im, wm), (fs, is_, _) = values.comms, values.sizes
    layers = [(fm[v], fs[v], im[v], is_[v], wm[v]) for v in range(len(values.names))]
    if table.tail is not None:
        t = table.tail
        layers.append((t.fwd.comm, t.fwd.size, t.ig.comm, t.ig.size, t.wg.comm))
    for fwd, fwd_size, ig, ig_size, wg in layers:  # values in the order of their first row
        if decode_comm(wg, "wg")[1] is GroupType.DP_EP:
            return "DP / EP for a _DP_EP weight-gradient collective, EP 0"
        for phase, comm, size in (("forward", fwd, fwd_size), ("input-gradient", ig, ig_size)):
            com, group = decode_comm(comm, "fwd" if phase == "forward" else "ig")
            if group is not GroupType.DP_EP or com is ComType.NONE or size is None or tp <= 1:
                continue
            if not SMALL[0] < scaled(size) < SMALL[1]:
                return f"GPUs per server / (TP x EP) placing a _DP_EP {phase} collective, EP 0"
    return None


def _garbage(run: SimaiRun) -> bool:
    """Whether some layer holds a number no row ever wrote."""
    assert run.rows is not None
    table = run.rows.layers
    v = table.values
    columns = [v.reserved, v.update_times, *v.computes, *v.sizes]
    # an array holds numbers only
    if any(None in c for c in columns if not isinstance(c, array)):
        return True
    tail = table.tail
    if tail is None:
        return False
    numbers = [tail.reserved, tail.update_time]
    numbers += [x for p in (tail.fwd, tail.ig, tail.wg) for x in (p.compute, p.size)]
    return None in numbers


def simulate(
    data: bytes,
    gpus: int | None = None,
    options: SimaiOptions | Refusal | None = None,
    version: SimaiVersion = DEFAULT,
    rows: RowTable | None = None,
) -> SimaiRun:
    """Predict `SimAI_analytical -w FILE -g gpus` (gpus defaults to the header's all_gpus) as
    SimAI at `version` runs it; with `options` (SimAI's own, see `options.parse`), also the
    report it writes. `rows`: the parser's rows of `data` (default limits), if already read."""
    if isinstance(options, Refusal):
        run = SimaiRun(read_header(b""), gpus, version=version)
        run.refusal = options
        # SimAI's own words, or (a signal prints none) why it stops
        run.outcome = outcome.Outcome(
            options.exit_code, "refused", options.stderr or options.reason
        )
        return run
    positional = None if version.has("header_by_name") else read_positional(data, version)
    header = read_header(first_line(data)) if positional is None else positional.header
    if options is not None and options.gpus is not None:
        gpus = options.gpus
    if gpus is None:
        gpus = header.value("all_gpus")
    run = SimaiRun(header, gpus, options=options, version=version)
    if options is not None and header.transformer and gpus is not None:
        h = header
        run.option_warnings = tuple(
            option_warnings(
                options, h.held("tp"), h.held("pp"), h.held("ep"), h.value("all_gpus"), gpus
            )
        )
    if header.stop is not None:
        run.outcome = header.stop
        return run
    if positional is not None:
        text = positional.count_text
        run.count = CountReading(
            text, Stoi(positional.lines, None, len(text), len(text)), positional.rows_start
        )
        if positional.stop is not None:
            run.outcome = positional.stop
            return run
    else:
        if header.mismatch:
            run.warnings = (FORMAT_MISMATCH,)
        run.count = read_count(data)
    lines = run.count.result
    if lines.error is not None:
        run.outcome = outcome.exception(lines.error, "stoi")
        return run
    assert lines.value is not None
    if lines.value < 0:
        run.outcome = outcome.exception("bad_array_new_length", "std::bad_array_new_length")
        return run
    customized = header.policy == CUSTOMIZED
    # the fast path reads rows that start on line 3; the positional reader's may start
    # inside line 2 (`63abc`), which only the stream reader follows
    fast = not customized and (positional is None or _rows_on_line_3(data, positional))
    run.rows = read_parsed(data, lines.value, rows) if fast else None
    if run.rows is None:
        run.rows = read_rows(data, run.count.rows_start, lines.value, customized)
    run.unread_rows = unread_rows(data, run.rows)
    run.outcome = _end(run)
    if run.outcome.kind != "ok" or run.outcome.undefined:
        return run
    run.cut = first_cut(run.rows.layers)
    if run.cut is not None:
        c = run.cut
        make = outcome.hang if c.hangs else outcome.empty
        run.outcome = make(c.index, c.phase, c.ns, c.as_int)
        return run
    if options is not None and run.dp is not None:
        _report(run, options)
    return run


def _rows_on_line_3(data: bytes, positional: PositionalReading) -> bool:
    """Whether the positional reader's stream goes on at line 3 (nothing but whitespace
    left on line 2 after the count), as the reader by name's does."""
    line3 = read_count(data).rows_start
    return positional.rows_start <= line3 and not data[positional.rows_start : line3].strip()


def _report(run: SimaiRun, options: SimaiOptions) -> None:
    from wkparse.models.simai.report import Reporter

    h = run.header
    name = result_name(options)
    if isinstance(name, Refusal):
        run.outcome = outcome.Outcome(name.exit_code, "refused", name.stderr or name.reason)
        return
    assert run.rows is not None and run.dp is not None
    reporter = Reporter(
        options,
        h.held("tp"),
        h.held("ep"),
        h.held("pp"),
        h.held("vpp"),
        h.held("ga"),
        h.held("pp_comm"),
        run.dp,
        h.policy == FWD_IN_BCKWD,
        run.version,
    )
    table = run.rows.layers
    try:
        run.report = reporter.report(table.values, name, table.tail, table.tail_count)
    except ZeroDivisionError:
        if options.g_p_s != 0:
            raise
        # -g_p_s absent (read as 0) without -g, which the option parser only divides by:
        # the first collective's placement divides by it as SimAI's unsigned division does
        # (`placement`); without -g the run is undefined anyway (no GPU count to read)
        run.outcome = replace(
            outcome.sigfpe("Layer::compute_time divides by -g_p_s 0"), undefined=True
        )
        return
    if run.report.stop is not None:
        assert run.report.stopped_at is not None
        run.outcome = outcome.no_result(run.report.stopped_at)
