"""`wkparse simai` as text: the verdict first, then the header as SimAI holds it, what SimAI
prints, and the layers around every place where its reading departs from the file."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from wkparse.columns import NUMPY_FROM
from wkparse.encoding import shown
from wkparse.i18n import english_count
from wkparse.models.simai.analytical import FORWARD_MINIMUM, PHASES
from wkparse.models.simai.reasons import ending
from wkparse.models.simai.rows import LayerValues
from wkparse.models.simai.run import SimaiRun
from wkparse.models.simai.tables import KNOWN_COMMS, ComType, GroupType, decode_comm
from wkparse.render.simai.result import result_lines

#: at most this many departures are listed; the rest are counted
MAX_SHOWN = 20


def _ending(run: SimaiRun) -> str:
    o = ending(run)
    if o.kind in ("nan", "infinite"):
        return f"finish (exit 0), but {o.message}"
    if o.kind == "wrong-total":
        return "finish (exit 0)"  # `verdict` says the total is wrong, after the layers read
    if o.layer is not None and run.rows is not None:
        line = run.rows.layers.line(o.layer)
        where = f" (line {line})" if line else ""
        o = replace(o, message=o.message.replace(f"layer {o.layer}", f"layer {o.layer}{where}", 1))
    if o.kind == "hang":
        return f"never finish: {o.message}"
    if o.kind == "no-result" and run.report is None:
        return f"exit 0 at once with no report: {o.message}"
    if o.kind == "no-result":
        return f"finish (exit 0) with no result: {o.message}"
    if o.exit_code == 0:
        return "finish (exit 0)"
    reason = o.message.split(": ", 1)[-1]
    if o.exit_code == 136:
        return f"die of SIGFPE (exit 136): {reason}"
    return f"stop (exit {o.exit_code}): {o.message.splitlines()[0]}"


def verdict(run: SimaiRun) -> str:
    """One sentence: how far SimAI gets and how its run ends."""
    o = run.outcome
    h = run.header
    if o.kind == "refused":
        if run.refusal is not None and run.refusal.stderr:
            printed = " ".join(run.refusal.stderr.split("\n"))
            return (
                f"SimAI will refuse the command line (exit {o.exit_code}): "
                f"{run.refusal.reason}; it prints {printed!r}"
            )
        return f"SimAI will refuse the command line (exit {o.exit_code}): {o.message}"
    if h.stop is not None:
        what = "stop at line 1" if o.kind == "exit" else "crash reading line 1"
        undefined = ", undefined behaviour" if o.undefined else ""
        return f"SimAI will {what} (exit {o.exit_code}{undefined}): {o.message.splitlines()[0]}"
    if run.rows is None and not run.version.has("header_by_name"):
        undefined = ", undefined behaviour" if o.undefined else ""
        return (
            f"SimAI will read line 1 by position and stop before the rows "
            f"(exit {o.exit_code}{undefined}): " + " ".join(o.message.splitlines())
        )
    if run.rows is None:
        line2 = run.count.text.decode("utf-8", "replace") if run.count else ""
        return f"SimAI will crash reading line 2 {shown(line2)} (exit {o.exit_code}): " + " ".join(
            s.strip() for s in o.message.splitlines()
        )
    n, k = run.layer_count, run.first_undefined
    if n == 0 and run.count is not None and not run.version.has("header_by_name"):
        text = run.count.text.decode("utf-8", "replace")
        read = f"SimAI will read line 1 by position and take its layer count, 0, from {shown(text)}"
    elif k is None:
        read = f"SimAI will read {'all ' if n != 1 else ''}{english_count(n, 'layer')} as written"
    else:
        real, undefined = english_count(k, "real layer"), english_count(n - k, "layer")
        read = f"SimAI will read {real}, then {undefined} with undefined values"
    wrong = "; the total it prints is wrong" if k is not None and o.exit_code == 0 else ""
    if run.unread_rows:
        rows = english_count(run.unread_rows, "row")
        read += f" ({rows} after them, never read: line 2 says {n:,})"
    return f"{read}, then {_ending(run)}{wrong}"


def header_line(run: SimaiRun) -> str:
    h = run.header
    if not h.known:
        bom = " (after a UTF-8 byte order mark)" if (h.policy or "").startswith("\ufeff") else ""
        return f"line 1 starts with {shown(h.policy or '')}{bom}: no policy SimAI knows"
    if not h.transformer:
        return f"header as SimAI reads it: {h.policy}; it sets neither TP nor PP (both stay 0)"
    parts = []
    for key, label in (
        ("tp", "TP"),
        ("ep", "EP"),
        ("pp", "PP"),
        ("vpp", "vpp"),
        ("ga", "GA"),
        ("all_gpus", "all_gpus"),
        ("pp_comm", "pp_comm"),
    ):
        value = h.value(key)
        parts.append(f"{label} {value if value is not None else 'unset (0)'}")
    if h.checkpoints or h.checkpoint_initiates:
        marked = ", ".join(map(str, h.checkpoints)) or "none"
        initiating = ", ".join(map(str, h.checkpoint_initiates)) or "none"
        parts.append(f"checkpoints {marked} initiating {initiating}")
    return f"header as SimAI reads it: {h.policy}, " + ", ".join(parts)


def _phase_note(run: SimaiRun, name: str, comm: str, size: int | None) -> str | None:
    """Why SimAI's phase differs from what the file says, or None."""
    plan = run.phase_plan(name, comm, size)
    notes = []
    if comm and comm not in KNOWN_COMMS:
        if plan.type is ComType.NONE:
            notes.append(f"{shown(comm)} is no collective SimAI knows: no traffic")
        else:
            notes.append(f"{shown(comm)} runs as {plan.type.value} in no group: no traffic")
    # the raise of tiny forward sizes to 4096 B is left out: both sizes get the same fixed
    # small-message latency, so nothing SimAI reports changes
    raised = plan.size == FORWARD_MINIMUM and (size or 0) < FORWARD_MINIMUM
    resized = size is not None and plan.size is not None and plan.size != size
    if resized and plan.type is not ComType.NONE and not raised:
        assert size is not None
        how = "a negative size, wrapped" if size >= 2**63 else "through a 32-bit float"
        notes.append(f"size {size} simulated as {plan.size} ({how})")
    if (
        plan.scheduled is False
        and plan.group_size == 1
        and plan.group in (GroupType.DP, GroupType.DP_EP)
        and plan.type is not ComType.NONE
        and size
    ):
        # SimAI simulates a collective only in a group of more than one rank (FORMAT.md 10)
        notes.append(
            f"{plan.type.value} of {size:,} B in a {plan.group.value} group of one GPU: "
            "no traffic, 0 us"
        )
    return f"{name}: " + "; ".join(notes) if notes else None


class _Notes(dict[tuple[Any, ...], str]):
    """A layer's notes per distinct (comm, size) of its phases (a lookup in C for a known
    one), and each phase's note per distinct comm and size (`SimaiRun.phase_plan`): a file
    whose rows all differ in one size plans that phase once per row, never a whole layer."""

    def __init__(self, run: SimaiRun) -> None:
        super().__init__()
        self.run = run
        self.phases: dict[tuple[str, str, int | None], str | None] = {}

    def __missing__(self, key: tuple[Any, ...]) -> str:
        fm, fs, im, is_, wm, ws = key
        said = []
        for name, comm, size in (("fwd", fm, fs), ("ig", im, is_), ("wg", wm, ws)):
            at = (name, comm, size)
            if at not in self.phases:
                self.phases[at] = _phase_note(self.run, *at)
            said.append(self.phases[at])
        found = self[key] = "; ".join(x for x in said if x is not None)
        return found


def departures(run: SimaiRun, shown: int = MAX_SHOWN) -> tuple[list[tuple[int, str]], int]:
    """(layer index, why) for the first `shown` layers SimAI does not take as written, and
    how many there are."""
    if run.rows is None:
        return [], 0
    k = run.first_undefined
    values = run.rows.layers.values
    refs = values.refs if k is None else values.refs[:k]
    (fm, im, wm), (fs, is_, ws) = values.comms, values.sizes
    notes = _Notes(run)
    noted = _noted(run, values) if len(values) >= NUMPY_FROM else None
    if noted is None:
        said = list(map(notes.__getitem__, zip(fm, fs, im, is_, wm, ws)))
        rows = [i for i, value in enumerate(refs) if said[value]]
        found = [(i, said[refs[i]]) for i in rows[:shown]]
    else:  # the rows with a note found over arrays; only those shown are worded
        import numpy

        rows = numpy.flatnonzero(noted[numpy.asarray(refs)]).tolist()
        columns = (fm, fs, im, is_, wm, ws)
        found = [(i, notes[tuple(c[refs[i]] for c in columns)]) for i in rows[:shown]]
    count = len(rows)
    if k is not None:
        where = run.rows.failed_at
        at = f"line {where[0]}, column {where[1]}" if where else "the end of the file"
        count += 1
        if len(found) < shown:
            why = f"the stream failed at {at}: from here on nothing is read from the file"
            found.append((k, why))
    return found, count


def _noted(run: SimaiRun, values: LayerValues) -> Any:
    """Per value, whether `_Notes` words a note for it (`_phase_note` of some phase: an
    unknown comm token, or a collective whose size of 4096 B or more SimAI's float scale
    changes), over arrays; None where a size column holds no numbers throughout."""
    import numpy

    from wkparse.models.simai.kind_arrays import resized, token_codes, uint64_at

    found = numpy.zeros(len(values), dtype=bool)
    for phase, comm, size in zip(PHASES, values.comms, values.sizes):
        raw = uint64_at(size)
        if raw is None:
            return None
        tokens, codes = token_codes(comm)
        unknown = [bool(t) and t not in KNOWN_COMMS for t in tokens]
        collective = [decode_comm(t, phase)[0] is not ComType.NONE for t in tokens]
        found |= numpy.array(unknown, dtype=bool)[codes]
        changed = (raw >= FORWARD_MINIMUM) & resized(raw)
        found |= numpy.array(collective, dtype=bool)[codes] & changed
    return found


def _layer_row(run: SimaiRun, index: int) -> str:
    assert run.rows is not None
    layer = run.rows.layers[index]
    plan = run.plan(layer)
    line = run.rows.layers.line(index)
    cells = []
    for n in PHASES:
        p = plan.phase(n)
        traffic = f"{p.type.value}/{p.group.value} {p.size}" if p.scheduled else "-"
        cells.append(f"{n} {p.compute_us}us {traffic}")
    return f"  {index:>7} {line if line else '-':>7}  {layer.name or '(empty)':<24} " + "  ".join(
        cells
    )


def render(run: SimaiRun, path: str) -> str:
    out = [f"{path}: {verdict(run)}", f"SimAI: {run.version.label}, SimAI_analytical"]
    if run.header.policy is not None:
        out.append(header_line(run))
    if run.lines is not None:
        if run.dp is not None:
            dp = f"DP {run.dp}"
        elif run.header.held("tp") * run.header.held("pp") == 0:
            dp = "no DP (TP x PP is 0)"
        else:
            dp = "DP not reached (the run stops before SimAI computes it)"
        gpus = f"-g {run.gpus}, {dp}" if run.gpus is not None else "no -g, DP unknown"
        layers = english_count(run.lines, "layer")
        if run.version.has("header_by_name"):
            out.append(f"line 2: {layers}; {gpus}")
        else:
            # before b83ea3d4 one stream reads line 1 by position and goes on to the count
            assert run.count is not None
            text = run.count.text.decode("utf-8", "replace")
            out.append(f"count read by position (`>>`) from {shown(text)}: {layers}; {gpus}")
    out += [f"SimAI prints: {w}" for w in run.warnings]
    if run.total_compute_us is not None:
        out.append(f"total comp SimAI reports: {run.total_compute_us} us")
    out += result_lines(run)
    found, count = departures(run)
    if found:
        out.append("where SimAI's reading departs from the file:")
        out.append(f"  {'layer':>7} {'line':>7}  {'name':<24} per phase: compute, traffic")
        for index, why in found:
            out.append(_layer_row(run, index))
            out.append(f"  {'':>7} {'':>7}  ^ {why}")
        if count > MAX_SHOWN:
            out.append(f"  ... and {count - MAX_SHOWN} more")
    return "\n".join(out) + "\n"
