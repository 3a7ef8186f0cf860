"""`wkparse simai --format json`: one SimAI run as one JSON object.

Top-level keys (the contract): `simai` (the SimAI described: `commit`, `short`, `date`,
`release`), `outcome` {`exit_code`, `kind`, `message`} (`kind` is `wrong-total` for a run that
exits 0 after summing layers no row of the file gives), `warnings`, `header` {`policy`, `tp`,
`ep`, `pp`, `vpp`, `ga`, `all_gpus`, `pp_comm`, `checkpoints`, `checkpoint_initiates`} as SimAI
holds them (null: never set, SimAI computes with 0), `lines`, `dp`, `unread_rows` (rows after
the last layer line 2 lets SimAI read), `layers` (each: `index`, `name`, `source_line`,
`defined`, `fwd`/`ig`/`wg` {`compute_ns`, `compute_us`, `type`, `group`, `group_size`, `size`,
`scheduled`}, `update_ns`; of the identical layers made after the stream failed, the first
`TAIL_LISTED`), `layers_not_listed` (how many more of those there are: `lines` counts every
layer), `first_undefined` and `totals` {`compute_us`}. A value SimAI holds as garbage is null.
Then the run's options: `options` (the SimAI command line used, `stated` when it is wkparse's
own set) and `option_warnings`; and `result`, the EndToEnd.csv SimAI writes (null when it
writes none): `layers` (each `index`, `name`, `fwd`/`wg`/`ig` {`compute_us`, `exposed_comm_us`,
`total_comm_us`, `algbw`, `busbw`}, as SimAI prints them; a value it prints as NaN or Inf is
null; of the identical rows of made-up layers, the first `TAIL_LISTED`), `layers_not_listed`
(how many more of those) and `totals` {`expose_dp_comm_us`, `expose_dp_ep_comm_us`,
`expose_tp_comm_us`, `expose_ep_comm_us`, `expose_pp_comm_us`, `bubble_time_us`,
`total_comp_us`, `total_exposed_comm_us`, `total_time_us`} (null without a summary; a value
SimAI prints as `NaN or Inf` is null). `outcome` also names the `layer` (and its source `line`)
that makes SimAI hang, stop or give no result; a run that exits 0 with a Total time it prints as
`NaN or Inf` has the `kind` "nan", one an infinite collective makes absurd "infinite", each
with why as its `message`. Layers are written one at a time: a
million-layer file is never one string in memory.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, count, islice, repeat
from operator import mod, truediv
from typing import Any, TextIO

from wkparse.columns import NUMPY_FROM
from wkparse.cpp import scaled, scaled_floats
from wkparse.models.simai.analytical import FORWARD_MINIMUM, PHASES, SMALL_MESSAGE, PhasePlan
from wkparse.models.simai.ieee import WHOLE, whole
from wkparse.models.simai.options import command_line
from wkparse.models.simai.outcome import Outcome
from wkparse.models.simai.reasons import ending
from wkparse.models.simai.report import TOTAL_KEYS, Report
from wkparse.models.simai.rows import LayerRead
from wkparse.models.simai.run import SimaiRun

HEADER_KEYS = ("tp", "ep", "pp", "vpp", "ga", "all_gpus")
#: one item of `layers` and one of `result.layers`: the index (and line), then the body
#: (`_Templates` and `_result_items` write the same as templates of a whole item)
LAYER_ITEM = '{"index": %d, "source_line": %s, %s}'
RESULT_ITEM = '{"index": %d, %s}'
#: the identical layers made after the stream failed that `layers` lists at the most (a count
#: line of 2,147,483,647 makes as many: their JSON would be a terabyte)
TAIL_LISTED = 100_000


def phase(p: PhasePlan) -> dict[str, Any]:
    return {
        "compute_ns": p.compute_ns,
        "compute_us": p.compute_us,
        "type": p.type.value,
        "group": p.group.value,
        "group_size": p.group_size,
        "size": p.size,
        "scheduled": p.scheduled,
    }


def _not_listed(run: SimaiRun) -> int:
    """How many of the identical layers made after the stream failed `layers` leaves out."""
    table = run.rows.layers if run.rows is not None else None
    return 0 if table is None or table.tail is None else max(table.tail_count - TAIL_LISTED, 0)


def outcome(o: Outcome) -> dict[str, Any]:
    """How a run ends, in the one shape both backends' JSON use."""
    return {"exit_code": o.exit_code, "kind": o.kind, "message": o.message}


def head(run: SimaiRun) -> dict[str, Any]:
    """Everything but the layers."""
    h = run.header
    header: dict[str, Any] = {"policy": h.policy}
    header |= {k: h.value(k) for k in HEADER_KEYS}
    header["pp_comm"] = h.value("pp_comm") if h.stop is not None else h.held("pp_comm")
    header["checkpoints"] = list(h.checkpoints)
    header["checkpoint_initiates"] = list(h.checkpoint_initiates)
    o = ending(run)
    line = None
    if o.layer is not None and run.rows is not None:
        line = run.rows.layers.line(o.layer)
    return {
        "simai": run.version.as_json(),
        "outcome": outcome(o)
        | {"layer": o.layer, "line": line}
        | ({"reason": run.refusal.reason} if run.refusal is not None else {}),
        "warnings": list(run.warnings),
        "header": header,
        "lines": run.lines,
        "dp": run.dp,
        "unread_rows": run.unread_rows,
        "layers": [],
        "layers_not_listed": _not_listed(run),
        "first_undefined": run.first_undefined,
        "totals": {"compute_us": run.total_compute_us},
        "options": None if run.options is None else command_line(run.options),
        "option_warnings": list(run.option_warnings),
        "result": None,
    }


def _layer_body(run: SimaiRun, layer: LayerRead) -> str:
    """The part of a layer's JSON that identical layers share, without its braces."""
    plan = run.plan(layer)
    body = {
        "name": layer.name,
        "defined": layer.defined,
        "fwd": phase(plan.fwd),
        "ig": phase(plan.ig),
        "wg": phase(plan.wg),
        "update_ns": layer.update_time,
    }
    return json.dumps(body)[1:-1]


def _esc(value: object) -> str:
    """A value's JSON, as a literal part of a `%` template."""
    return json.dumps(value).replace("%", "%%")


class _Templates(dict[tuple[Any, ...], str]):
    """Per distinct (name, defined, comm and size of each phase, update time), `_layer_body`
    of every layer with these fields but its compute times: a `%` template taking each
    phase's compute in nanoseconds (an int) and in microseconds (a float, printed as
    `reported` rounds it) (fwd, ig, wg). Made on first sight (a lookup in C for a known one)
    from each phase's part, made once per distinct collective and size; with `item`, as a
    whole item of `layers`, taking its index and source line first."""

    def __init__(self, run: SimaiRun, item: bool) -> None:
        super().__init__()
        self.run, self.item = run, item
        self.parts: dict[tuple[str, str, int | None], str] = {}
        #: a part around its size, by phase, comm and whether the size is a small message
        self.split: dict[tuple[str, str, bool], tuple[str, str]] = {}
        self.literal = _Literals()

    def part(self, name: str, comm: str, size: int | None) -> str:
        key = (name, comm, size)
        found = self.parts.get(key)
        if found is None:
            found = self.parts[key] = self._part(name, comm, size)
        return found

    def _part(self, name: str, comm: str, size: int | None) -> str:
        """A phase's part. A size of 4096 B or more (or 0) is simulated as `scaled` gives
        it, and decides nothing else but whether it is a small message: its part is that of
        the first such size, with its own (a file of distinct sizes plans each collective
        once, not once per size)."""
        simulated = None if size is None else scaled(size)
        if simulated is None or 0 < simulated < FORWARD_MINIMUM:  # (maybe raised)
            return self._planned(name, comm, size)
        small = SMALL_MESSAGE[0] < simulated < SMALL_MESSAGE[1]
        head, tail = self.split.get((name, comm, small)) or self._split(name, comm, size, small)
        return head + str(simulated) + tail

    def _split(self, name: str, comm: str, size: int | None, small: bool) -> tuple[str, str]:
        planned = self._planned(name, comm, size)
        simulated = self.run.phase_plan(name, comm, size).size
        head, tail = planned.split(f'"size": {simulated}, ', 1)
        found = self.split[(name, comm, small)] = (head + '"size": ', ", " + tail)
        return found

    def _planned(self, name: str, comm: str, size: int | None) -> str:
        fields = phase(self.run.phase_plan(name, comm, size))
        del fields["compute_ns"], fields["compute_us"]
        return '{"compute_ns": %d, "compute_us": ' + WHOLE + ", " + _esc(fields)[1:]

    def __missing__(self, key: tuple[Any, ...]) -> str:
        name, defined, fm, fs, im, is_, wm, ws, update = key
        found = (
            f'"name": {self.literal(name)}, "defined": {self.literal(defined)}, '
            f'"fwd": {self.part("fwd", fm, fs)}, "ig": {self.part("ig", im, is_)}, '
            f'"wg": {self.part("wg", wm, ws)}, "update_ns": {self.literal(update)}'
        )
        if self.item:
            found = '{"index": %d, "source_line": %s, ' + found + "}"
        self[key] = found
        return found


class _Literals(dict[tuple[type, object], str]):
    """`_esc` of each value met, remembered by type and value (True is 1 to a dict): a file
    has a few dozen names, update times and flags."""

    def __missing__(self, key: tuple[type, object]) -> str:
        found = self[key] = _esc(key[1])
        return found

    def __call__(self, value: object) -> str:
        return self[(type(value), value)]


def _line_cells(lines: Sequence[int]) -> Iterator[int | str]:
    """Each layer's source line, then null for ever: a layer read from nothing (line 0) and
    those made after the stream failed have none."""
    cells = iter(lines) if 0 not in lines else (x if x else "null" for x in lines)
    return chain(cells, repeat("null"))


def _simulated_sizes(run: SimaiRun, values: Any) -> list[tuple[list[int], list[bool]]] | None:
    """Each phase's size as SimAI simulates it (`PhasePlan.size`: scaled, a tiny forward
    one raised) for every value, and whether it is a small message; None where a size column
    is not numbers throughout."""
    import numpy

    from wkparse.models.simai.kind_arrays import scaled_sizes, uint64_at

    out = []
    for phase, comms, sizes in zip(PHASES, values.comms, values.sizes):
        raw = uint64_at(sizes)
        if raw is None:
            return None
        simulated = scaled_sizes(raw).astype(numpy.uint64)
        for v in numpy.flatnonzero((simulated > 0) & (simulated < FORWARD_MINIMUM)).tolist():
            planned = run.phase_plan(phase, comms[v], int(raw[v])).size
            simulated[v] = planned if planned is not None else 0
        small = (simulated > SMALL_MESSAGE[0]) & (simulated < SMALL_MESSAGE[1])
        out.append((simulated.tolist(), small.tolist()))
    return out


class _Shapes(dict[tuple[Any, ...], str]):
    """`_Templates` with each phase's simulated size a `%d` cell after its compute ones: a
    template per (name, defined, each phase's comm and whether its size is a small message,
    update time). What a phase's plan says but its size depends on nothing else of the size
    (`plan_phase`), so a file of distinct sizes has a few dozen templates, not one a row."""

    def __init__(self, templates: _Templates) -> None:
        super().__init__()
        self.templates = templates

    def part(self, name: str, comm: str, small: bool) -> str:
        # a size of the same kind: 4096 B is a small message, 1 MiB is not (neither raised)
        split = self.templates.split.get((name, comm, small))
        if split is None:
            split = self.templates._split(name, comm, 4096 if small else 1048576, small)
        return split[0] + "%d" + split[1]

    def __missing__(self, key: tuple[Any, ...]) -> str:
        name, defined, fm, fs, im, is_, wm, ws, update = key
        literal = self.templates.literal
        found = (
            f'"name": {literal(name)}, "defined": {literal(defined)}, '
            f'"fwd": {self.part("fwd", fm, fs)}, "ig": {self.part("ig", im, is_)}, '
            f'"wg": {self.part("wg", wm, ws)}, "update_ns": {literal(update)}'
        )
        if self.templates.item:
            found = '{"index": %d, "source_line": %s, ' + found + "}"
        self[key] = found
        return found


def _layer_items(run: SimaiRun) -> Iterator[str]:
    """Each item of `layers`, in order. From the columns: one template per distinct set of
    fields but the compute times (a file whose rows differ only in those has a few dozen),
    filled with each value's compute cells; layer by layer where a compute time is garbage."""
    assert run.rows is not None
    table = run.rows.layers
    values, read = table.values, table.read
    lines = _line_cells(table.lines)
    if any(None in c for c in values.computes if not isinstance(c, array)):
        bodies: dict[int, str] = {}
        listed = read + min(table.tail_count, TAIL_LISTED)
        for i, layer in enumerate(islice(table, listed)):
            body = bodies.get(id(layer))
            if body is None:
                body = bodies[id(layer)] = _layer_body(run, layer)
            yield LAYER_ITEM % (i, next(lines), body)
        return
    made = _Templates(run, values.once_each)
    templates: dict[tuple[Any, ...], str] = made
    (fm, im, wm), (fs, is_, ws) = values.comms, values.sizes
    keys: Iterable[tuple[Any, ...]]
    keys = zip(values.names, values.defined, fm, fs, im, is_, wm, ws, values.update_times)
    simulated = _simulated_sizes(run, values) if len(values) >= NUMPY_FROM else None
    cells: list[Iterable[int | float]] = []
    for k, column in enumerate(values.computes):  # fwd, ig, wg: ns as read, as SimAI scales
        us = map(truediv, scaled_floats(column), repeat(1000.0))  # type: ignore[arg-type]
        cells += [column, us]  # type: ignore[list-item]
        if simulated is not None:
            cells.append(simulated[k][0])
    if simulated is not None:  # a template per collective and kind of size, the size a cell
        templates = _Shapes(made)
        f_small, i_small, w_small = (small for _sizes, small in simulated)
        keys = zip(
            values.names, values.defined, fm, f_small, im, i_small, wm, w_small, values.update_times
        )
    if values.once_each:  # each value one layer: its item made at once, never kept
        yield from map(mod, map(templates.__getitem__, keys), zip(count(), lines, *cells))
    else:
        by_value = list(map(mod, map(templates.__getitem__, keys), zip(*cells)))
        rows = zip(count(), lines, map(by_value.__getitem__, values.refs))
        yield from map(LAYER_ITEM.__mod__, rows)
    if table.tail is not None:
        tail = repeat(_layer_body(run, table.tail), min(table.tail_count, TAIL_LISTED))
        later = chain(islice(_line_cells(table.lines), read, None), repeat("null"))
        yield from map(LAYER_ITEM.__mod__, zip(count(read), later, tail))


def _number(text: str) -> int | float | None:
    """A value as SimAI prints it, as a JSON number (None for NaN or Inf)."""
    if text in ("NaN or Inf", "-nan", "nan", "inf", "-inf"):
        return None
    return float(text) if "." in text else int(text)


def _json_cell(text: str) -> str:
    """A cell of SimAI's EndToEnd.csv as a JSON number (null for NaN or Inf)."""
    number = _number(text)
    return "null" if number is None else repr(number)


def _result_items(report: Report) -> Iterator[str]:
    """Each item of `result.layers`: its kind's template filled with its index and its compute
    cells (SimAI's `format_value` of a finite time, which a compute time always is)."""
    rows = len(report.order)
    columns = report.kinds_as_columns()
    if columns is not None and isinstance(columns[0], range) and len(columns[0]) == rows and rows:
        # a kind per row (rows that rarely repeat a kind): each item one `%`, no template
        _kind_of, names, cell_columns, us = columns
        yield from _items_of_kinds(names, cell_columns, us)
        return
    kind_of, kinds, us = report.by_kind()
    cells = [iter(column) for column in us]
    if len(kind_of) == rows + (report.tail is not None):  # each value one row, in order
        items = _Kinds(kinds, '{"index": %d, %s}')
        yield from map(mod, map(items.__getitem__, kind_of[:rows]), zip(count(), *cells))
        last = next(zip(*cells), None)
    else:
        templates = _Kinds(kinds, "%s")
        by_value = list(map(mod, map(templates.__getitem__, kind_of), zip(*cells)))
        yield from map(RESULT_ITEM.__mod__, enumerate(map(by_value.__getitem__, report.order)))
        last = None if report.tail is None else tuple(c[report.tail] for c in us)
    if report.tail is not None and last is not None:
        body = _Kinds(kinds, "%s")[kind_of[report.tail]] % last
        listed = min(report.tail_count, TAIL_LISTED)
        yield from map(RESULT_ITEM.__mod__, zip(count(rows), repeat(body, listed)))


def _items_of_kinds(names: list[str], cells: list[list[str]], us: Sequence[Any]) -> Iterator[str]:
    """`result.layers` where item k is of kind k: the kinds' JSON cells a column at a time."""
    literal = {name: json.dumps(name) for name in set(names)}
    json_cells = _JsonCells()
    e_f, e_w, e_i, *comm = (map(json_cells.__getitem__, column) for column in cells)
    f_us, w_us, i_us = us
    rows = zip(
        count(),
        map(literal.__getitem__, names),
        *(f_us, e_f, *comm[0:3]),
        *(w_us, e_w, *comm[3:6]),
        *(i_us, e_i, *comm[6:9]),
    )
    return map(DIRECT_ITEM.__mod__, rows)


class _Kinds(dict[int, str]):
    """Per kind used, made on first sight: in `form`, the JSON of every reported layer of the
    kind but its index (`name` and each phase's times and bandwidths, from the kind's CSV
    cells after the compute ones), a `%` template taking each phase's compute in microseconds
    (fwd, wg, ig), printed as SimAI's `format_value` prints a finite time (a compute time is).
    """

    def __init__(self, kinds: list[tuple[str, tuple[str, ...]]], form: str) -> None:
        super().__init__()
        self.kinds, self.form = kinds, form
        self.literal = _Literals()
        #: each cell's JSON (cells repeat: a few collectives, sizes and bandwidths)
        self.cells = _JsonCells()

    def template(self, kind: int) -> str:
        name, cells = self.kinds[kind]
        e0, e1, e2, *comm = map(self.cells.__getitem__, cells)
        return KIND_ITEM % (self.literal(name), e0, *comm[:3], e1, *comm[3:6], e2, *comm[6:])

    def __missing__(self, kind: int) -> str:
        found = self[kind] = self.form.replace("%s", self.template(kind))
        return found


#: a kind's item of `result.layers` but its index: its name literal, then per phase (fwd, wg,
#: ig) its exposed comm and its total comm, algbw and busbw; a `%` template of the compute
KIND_ITEM = '"name": %s, ' + ", ".join(
    f'"{phase_name}": '
    + '{"compute_us": '
    + WHOLE.replace("%", "%%")
    + ', "exposed_comm_us": %s, "total_comm_us": %s, "algbw": %s, "busbw": %s}'
    for phase_name in ("fwd", "wg", "ig")
)


#: an item of `result.layers` of its own kind: its index, name (JSON), then per phase (fwd,
#: wg, ig) its compute in microseconds, exposed comm, total comm, algbw and busbw (JSON)
DIRECT_ITEM = '{"index": %d, ' + KIND_ITEM.replace("%%", "%") + "}"


class _JsonCells(dict[str, str]):
    """`_json_cell` of each cell met."""

    def __missing__(self, cell: str) -> str:
        found = self[cell] = _json_cell(cell)
        return found


def _write_items(items: Iterator[str], out: TextIO) -> None:
    """A JSON array's items, comma-separated, 10,000 at a time (a million-layer file is
    never one string in memory)."""
    first = True
    while chunk := list(islice(items, 10_000)):
        out.write(("" if first else ", ") + ", ".join(chunk))
        first = False


def _write_result(report: Report, out: TextIO) -> None:
    out.write('{"layers": [')
    _write_items(_result_items(report), out)
    totals: dict[str, Any] | None = None
    if report.summary is not None:
        keys = (*TOTAL_KEYS, "total_time_us")
        # a key SimAI's summary lacks (b1c1eb66: Expose_PP_comm) is null
        totals = {k: _number(whole(report.totals[k])) if k in report.totals else None for k in keys}
    left_out = max(report.tail_count - TAIL_LISTED, 0) if report.tail is not None else 0
    out.write("], " + json.dumps({"layers_not_listed": left_out, "totals": totals})[1:])


def write(run: SimaiRun, out: TextIO) -> None:
    doc = json.dumps(head(run))
    if run.report is not None:
        lead, tail = doc.rsplit('"result": null', 1)
        doc = lead + '"result": \0' + tail
    before, after = doc.split('"layers": []', 1)
    out.write(before + '"layers": [')
    if run.rows is not None:
        _write_items(_layer_items(run), out)
    if run.report is None:
        out.write("]" + after + "\n")
        return
    middle, end = after.rsplit('"result": \0', 1)
    out.write("]" + middle + '"result": ')
    _write_result(run.report, out)
    out.write(end + "\n")
