#!/usr/bin/env python3
"""The scaling guard: every command on files of distinct rows at two sizes, 4x apart.

`python benchmarks/scaling.py` (about 90 s of CPU; `.ci/run` runs it) writes two AICB-shaped
files with `benchmarks/synthesize.py` whose compute times and collective sizes
are jittered per micro-batch group (`--jitter 0.05 --every-size`): no two rows repeat, and
nearly every row with a collective is its own kind of layer (name, collectives and sizes),
which is what lint's row checks, explain and SimAI's report group by. Then it times, in this
process (so that start-up, which does not grow with the file, cannot hide a quadratic path),
each command on both files: a bare `split()` loop, `parse` (and `--format json`), `lint`,
`explain` (text and JSON), `fmt --check`, `simai` in each format, `diff` against a copy with
one compute time changed in every group, and, on a copy with findings (`with_findings`),
`lint` and the language server's diagnostics. Each command runs once on a tiny file first
(imports, caches), then up to `--repeat` times on each size, round-robin, and its best run (in
CPU seconds) counts.

It fails (exit 1, with its table) when a command's time per row grows by more than
`GROWTH_LIMIT` from the small file to the large one, when lint of the large file costs
more than `LINT_LIMIT` times the split loop over it, or simai's JSON or text more than
`FORMAT_LIMIT` times its CSV. All are ratios within one run, so a
busy machine slows both sides alike and cannot fail it; a path that is quadratic in the rows
(or in the kinds of row) takes 4x the time per row on the large file, and cannot pass. A run
of a large file that takes far longer than the growth limit allows is stopped
(`budget`) and failed, so that a quadratic path fails in minutes rather than hours.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from benchmarks.fuzzing import interrupted_after  # noqa: E402

#: the time per row on the large file may be at most this many times that on the small one
GROWTH_LIMIT = 1.5
#: lint of the large file may cost at most this many split loops over it
LINT_LIMIT = 5.0
#: simai's JSON and text of the large file may cost at most this many times its CSV (the
#: same model, written otherwise: JSON 1.7x, text 1.4x here; 2.6x and 1.7x at 2bdef33, which
#: did each kind's work again)
FORMAT_LIMIT = 2.25
#: a run on the small file may take at most this many split loops over it (CPU time)
SMALL_BUDGET = 2000
#: the large file's rows over the small one's
FACTOR = 4
#: the large file's rows: the small one (60k rows, 4.6 MB) is read through numpy from its
#: first line as the large one is (files of 4 MiB or more), the large one's keys are mostly
#: first seen past row 65,536 (where a search by prefix once stopped)
DEFAULT_ROWS = 240_000
#: the shape of every file (as benchmarks/run.py's): GPT-7B, 36 layers, TP 8, 8 GPUs
SHAPE = ("--model", "gpt_7B", "--world", "8", "--tp", "8", "--pp", "1")
JITTER = ("--jitter", "0.05", "--every-size", "--seed", "1")
SPLIT = "split loop"
LINT = "lint"
CSV = "simai --format csv"
#: the outputs of simai judged against its CSV
FORMATS = ("simai --format json", "simai")


class OverBudget(Exception):
    """A run took far longer than the growth limit allows."""


@dataclass(frozen=True)
class Verdict:
    """One judged ratio: a command's growth of time per row, or lint over the split loop."""

    measure: str
    value: float | None
    limit: float
    note: str = ""

    @property
    def met(self) -> bool:
        return self.value is not None and self.value <= self.limit


def judge(
    times: Mapping[str, tuple[float | None, float | None]],
    rows: tuple[int, int],
    split: str = SPLIT,
    lint: str = LINT,
) -> list[Verdict]:
    """The verdicts on one run: `times[command]` is its best time on the small and on the
    large file (None: stopped over budget, or it failed), `rows` the two files' rows.

    Every command but the split loop is judged on its growth of time per row; lint on its
    cost against the split loop over the large file, simai's JSON and text on theirs
    against its CSV."""
    small_rows, large_rows = rows
    out = []
    for name, (small, large) in times.items():
        if name == split:
            continue
        growth = None
        if small is not None and large is not None and small > 0:
            growth = (large / large_rows) / (small / small_rows)
        note = "over budget or failed" if large is None or small is None else ""
        out.append(Verdict(f"{name}: time per row, large / small", growth, GROWTH_LIMIT, note))
    if lint in times and split in times:
        base, linted = times[split][1], times[lint][1]
        ratio = linted / base if linted is not None and base else None
        out.append(Verdict(f"{lint} / {split}, large file", ratio, LINT_LIMIT))
    for name in FORMATS:
        if name in times and CSV in times:
            base, written = times[CSV][1], times[name][1]
            ratio = written / base if written is not None and base else None
            out.append(Verdict(f"{name} / {CSV}, large file", ratio, FORMAT_LIMIT))
    return out


def table(
    times: Mapping[str, tuple[float | None, float | None]],
    rows: tuple[int, int],
    verdicts: Sequence[Verdict],
) -> str:
    """The run as Markdown: each command's best times, then every verdict."""

    def s(t: float | None) -> str:
        return "stopped" if t is None else f"{t:.3f} s"

    lines = [
        f"| command | {rows[0]:,} rows | {rows[1]:,} rows | us a row, small | us a row, large |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name, (small, large) in times.items():
        per = [
            f"{t / n * 1e6:.2f}" if t is not None else ""
            for t, n in ((small, rows[0]), (large, rows[1]))
        ]
        lines.append(f"| {name} | {s(small)} | {s(large)} | {per[0]} | {per[1]} |")
    lines += ["", "| measure | value | limit | met |", "| --- | --- | --- | --- |"]
    for v in verdicts:
        value = "-" if v.value is None else f"{v.value:.2f}x"
        met = "yes" if v.met else f"NO{' (' + v.note + ')' if v.note else ''}"
        lines.append(f"| {v.measure} | {value} | <= {v.limit:g}x | {met} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class Files:
    """One size's inputs: the distinct file, its edited copy (diff), its copy with findings."""

    rows: int
    distinct: Path
    edited: Path
    findings: Path


def make_files(rows: int, folder: Path) -> Files:
    """Write (or reuse) one size's files in `folder`."""
    import subprocess

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "workload.txt"
    if not path.exists():
        command = [sys.executable, str(HERE / "synthesize.py"), *SHAPE, "--rows", str(rows)]
        subprocess.run(
            [*command, *JITTER, "-o", str(path)],
            check=True,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
    data = path.read_bytes()
    edited = folder / "edited" / "workload.txt"
    if not edited.exists():
        edited.parent.mkdir(exist_ok=True)
        # every attention row's forward compute time changed: a difference in every group
        lines = data.split(b"\n")
        for i, line in enumerate(lines):
            if line.startswith(b"attention"):
                fields = line.split(b"\t")
                fields[2] = str(int(fields[2]) + 1000).encode()
                lines[i] = b"\t".join(fields)
        edited.write_bytes(b"\n".join(lines))
    findings = folder / "findings" / "workload.txt"
    if not findings.exists():
        findings.parent.mkdir(exist_ok=True)
        findings.write_bytes(with_findings(data))
    declared = int(data.split(b"\n", 2)[1])
    return Files(declared, path, edited, findings)


def with_findings(data: bytes) -> bytes:
    """A copy with a finding on every eighth row that holds an ALLREDUCE (misspelt: WK401),
    and the last row's weight-gradient size past SimAI's ratio tables (WK703), so that
    lint groups every row by its sizes, as it once did on every file."""
    lines = data.split(b"\n")
    seen = 0
    for i, line in enumerate(lines):
        if b"ALLREDUCE" in line:
            if seen % 8 == 0:
                lines[i] = line.replace(b"ALLREDUCE", b"ALLREDUSE")
            seen += 1
    last = max(i for i, line in enumerate(lines) if line.count(b"\t") == 11)
    fields = lines[last].split(b"\t")
    fields[9], fields[10] = b"ALLREDUCE", str(1 << 35).encode()
    lines[last] = b"\t".join(fields)
    return b"\n".join(lines)


# ---------------------------------------------------------------------------- commands

Command = Callable[[Files], object]


def _cli(*words: str, file: str = "distinct") -> Command:
    """A `wkparse` command run in this process through the command line's own app, its
    output written to the null device."""

    def run(files: Files) -> object:
        from wkparse.cli import app_for

        args = [w.replace("{edited}", str(files.edited)) for w in words]
        args.append(str(getattr(files, file)))
        with (
            open(os.devnull, "w", encoding="utf-8") as null,
            contextlib.redirect_stdout(null),
            contextlib.redirect_stderr(null),
        ):
            code = app_for(args)(args=args, standalone_mode=False, prog_name="wkparse")
        if code not in (0, 1, None):
            raise RuntimeError(f"wkparse {' '.join(args)}: exit code {code}")
        return code

    return run


def _split(files: Files) -> object:
    with open(files.distinct, encoding="utf-8") as f:
        for line in f:
            line.split()
    return None


def _parse(files: Files) -> object:
    from wkparse.parse import parse_file

    return parse_file(files.distinct)


def _server_diagnostics(files: Files) -> object:
    """What the language server publishes for the file: its analysis (parse and lint) and
    the LSP diagnostics made from lint's."""
    from wkparse.lsp.analysis import Analysis
    from wkparse.lsp.server import WorkloadServer
    from wkparse.lsp.text import Version

    analysis = Analysis(Version.of(files.findings.read_bytes()), files.findings)
    found = WorkloadServer().diagnostics(analysis)
    if not found:
        raise RuntimeError("the server found nothing in the file with findings")
    return found


def commands() -> dict[str, Command]:
    """Every timed command, the split loop first."""
    found: dict[str, Command] = {
        SPLIT: _split,
        "parse": _parse,
        "parse --format json": _cli("parse", "--format", "json"),
        LINT: _cli("lint", "--select", "WK"),
        "lint, findings": _cli("lint", "--select", "WK", file="findings"),
        "explain": _cli("explain"),
        "explain --format json": _cli("explain", "--format", "json"),
        "fmt --check": _cli("fmt", "--check"),
        "simai --format csv": _cli("simai", "--format", "csv"),
        "simai --format json": _cli("simai", "--format", "json"),
        "simai": _cli("simai"),
        "diff": _cli("diff", "{edited}"),
    }
    try:
        import pygls  # noqa: F401
    except ImportError:
        print("note: pygls is not installed; the server's diagnostics are not timed")
    else:
        found["server diagnostics, findings"] = _server_diagnostics
    return found


@contextlib.contextmanager
def budget(seconds: float | None) -> Iterator[None]:
    """Raise OverBudget in the running code after `seconds` of this process's CPU time
    (None: no limit)."""
    if seconds is None or not hasattr(signal, "setitimer"):
        yield
        return
    with interrupted_after(seconds, OverBudget(), cpu=True):
        yield


def timed(command: Command, files: Files, limit: float | None = None) -> float | None:
    """One run's CPU time (this process's, user and system: on a shared machine it varies
    far less than the wall time); None when it ran past `limit` seconds."""
    gc.collect()
    start = time.process_time()
    try:
        with budget(limit):
            command(files)
    except OverBudget:
        return None
    return time.process_time() - start


def measure(
    chosen: Mapping[str, Command], small: Files, large: Files, repeat: int
) -> dict[str, tuple[float | None, float | None]]:
    """Best of up to `repeat` runs of each command on each file, round-robin over the
    commands; a command is run again only while its verdicts are not met (a busy moment
    can only make a run slower, so a later run can only help it).

    A large file's run may take at most `FACTOR` x `GROWTH_LIMIT` x 3 times the small
    file's best, plus a second: past that it cannot pass, and is stopped. A small file's run
    may take at most `SMALL_BUDGET` split loops over it (a quadratic path can be slow on the
    small file already)."""
    best: dict[str, list[float | None]] = {name: [None, None] for name in chosen}
    stopped: set[str] = set()
    pending = list(chosen)
    rows = (small.rows, large.rows)
    for _ in range(repeat):
        for name in pending:
            base = best[SPLIT][0] if SPLIT in best else None
            limit = None if base is None or name == SPLIT else base * SMALL_BUDGET
            t = timed(chosen[name], small, limit)
            if t is None:
                stopped.add(name)
                print(f"  {name}: stopped after {limit:.1f} s on the small file", flush=True)
            elif best[name][0] is None or t < best[name][0]:  # type: ignore[operator]
                best[name][0] = t
        for name in [n for n in pending if n not in stopped]:
            small_best = best[name][0]
            limit = None if small_best is None else small_best * FACTOR * GROWTH_LIMIT * 3 + 1
            t = timed(chosen[name], large, limit)
            if t is None:
                stopped.add(name)
                print(f"  {name}: stopped after {limit:.1f} s on the large file", flush=True)
            elif best[name][1] is None or t < best[name][1]:  # type: ignore[operator]
                best[name][1] = t
        times = _times(best, stopped)
        unmet = {v.measure for v in judge(times, rows) if not v.met}
        pending = [
            name
            for name in chosen
            if name not in stopped
            and any(m.startswith(f"{name}:") or m.startswith(f"{name} /") for m in unmet)
        ]
        if SPLIT in chosen and any(m.startswith(f"{LINT} /") for m in unmet):
            pending.insert(0, SPLIT)
        if not pending:
            break
    return _times(best, stopped)


def _times(
    best: Mapping[str, list[float | None]], stopped: set[str]
) -> dict[str, tuple[float | None, float | None]]:
    return {name: (b[0], None if name in stopped else b[1]) for name, b in best.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=DEFAULT_ROWS, help="the large file's rows")
    parser.add_argument("--repeat", type=int, default=3, help="runs per command and size")
    parser.add_argument("--work", type=Path, help="folder for the files (default: a temporary one)")
    parser.add_argument("--only", action="append", help="time only this command (repeatable)")
    ns = parser.parse_args(argv)
    os.environ["NO_COLOR"] = "1"
    # as `wkparse.cli.main` sets it up: no full collections over a run's long-lived objects
    gc.freeze()
    gc.set_threshold(200_000, 50, 1000)
    chosen = commands()
    if ns.only:
        unknown = set(ns.only) - set(chosen)
        if unknown:
            parser.error(f"unknown command(s): {', '.join(sorted(unknown))}")
        chosen = {k: v for k, v in chosen.items() if k in ns.only or k in (SPLIT, LINT)}
    with tempfile.TemporaryDirectory() as scratch:
        work = ns.work or Path(scratch)
        tiny = make_files(1000, work / "tiny")
        small = make_files(ns.rows // FACTOR, work / f"rows-{ns.rows // FACTOR}")
        large = make_files(ns.rows, work / f"rows-{ns.rows}")
        for name, command in chosen.items():  # imports, caches, Lark's grammar
            if timed(command, tiny) is None:
                raise SystemExit(f"{name} failed on the tiny file")
        start = time.perf_counter()
        times = measure(chosen, small, large, ns.repeat)
        rows = (small.rows, large.rows)
    verdicts = judge(times, rows)
    sys.stdout.write(table(times, rows, verdicts))
    failed = [v for v in verdicts if not v.met]
    spent = time.perf_counter() - start
    print(f"\n{len(verdicts) - len(failed)} of {len(verdicts)} met, timed in {spent:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
