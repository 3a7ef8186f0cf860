#!/usr/bin/env python3
"""The speed and memory benchmark: wkparse against a bare `split()` loop, side by side.

One command (`python benchmarks/run.py`) writes AICB-shaped files of 250k, 500k and 1M rows
with `benchmarks/synthesize.py` (PP 1, TP 8, GPT-7B's 36 layers, ga ~14,000), then times, as
subprocesses so that interpreter start-up is paid by every contender:

- the baseline: a plain Python loop that reads the file and `split()`s every line;
- `wkparse parse`, `wkparse lint` (every rule on), `wkparse explain --format json` and
  `wkparse fmt --check` on each file;
- `wkparse lint` over every file of `../shared/corpus` in one call against one small file;
- `wkparse lint` of a hostile header repeating one key 2,000, 4,000 and 8,000 times (each
  repeat gets its own diagnostic and fix), which must grow linearly too;
- `wkparse diff` of the largest file against a copy with one compute time changed in every
  micro-batch group, against `wkparse lint` of both files in one call;
- `wkparse simai --format csv` of the largest repeating file and of the largest distinct
  file, each against `wkparse lint` of the same file;
- start-up: `wkparse lint` of the tiny file against `yamllint` of a tiny YAML file (when
  yamllint is installed) and against the typer floor (`benchmarks/typer_floor.py`: a Typer
  app with `wkparse lint`'s parameters that only reads the file), and `python -c pass`.

Runs are interleaved (round-robin over the commands, after one untimed warm-up each) so that a
noisy neighbour slows all contenders alike; the median of `--repeat` runs is reported. Peak
RSS comes from `/usr/bin/time -v` when it exists, else from `os.wait4`'s rusage of that one
child. Linearity: each doubling of the rows may at most double the time (see `linearity`).
The results, with the machine they ran on, go to a JSON file and a Markdown table.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
TIME = Path("/usr/bin/time")
#: the least a Typer app with `wkparse lint`'s parameters pays to start (see its docstring)
FLOOR = HERE / "typer_floor.py"
SCHEMA = 1

#: The baseline: what any Python tool pays at least to look at every field of the file.
SPLIT_LOOP = (
    "import sys\nwith open(sys.argv[1], encoding='utf-8') as f:\n    for line in f:\n"
    "        line.split()\n"
)

#: name -> (wkparse arguments before the file, arguments after it); lint selects every code.
COMMANDS: dict[str, tuple[list[str], list[str]]] = {
    "parse": (["parse"], []),
    "lint": (["lint", "--select", "WK"], []),
    "explain": (["explain"], ["--format", "json"]),
    "fmt": (["fmt", "--check"], []),
}

#: (name, contender, baseline, limit): contender time <= limit x baseline time, same file.
RATIO_TARGETS: tuple[tuple[str, str, str, float], ...] = (
    ("parse / split loop", "parse", "split", 2.0),
    ("lint / split loop", "lint", "split", 3.0),
    ("explain / split loop", "explain", "split", 4.0),
    ("fmt --check / split loop", "fmt", "split", 3.0),
)
RSS_LIMIT = 2.0  # peak RSS of every command, in multiples of the file size
#: how much the distinct files' compute times vary from group to group
JITTER = 0.05
STARTUP_LIMIT = 2.0  # wkparse lint of a tiny file, in multiples of yamllint of a tiny YAML file
TINY_YAML = "---\nworkload: tiny\nrows: [1, 2, 3]\n"
CORPUS_LIMIT = 1.5  # whole corpus in one call, in multiples of one small file
DIFF_LIMIT = 1.2  # diff of two files, in multiples of linting both in one call
AICB_LIMIT = 2.0  # lint with --aicb-command (WK6xx compare every row), in multiples of lint
#: `wkparse simai --format csv` (SimAI-Analytical's EndToEnd.csv predicted), in multiples of
#: lint of the same file (issue 23)
SIMAI_LIMIT = 3.0
#: the shape of every synthesized input (synthesize.py picks the global batch for the rows)
SHAPE = ("--model", "gpt_7B", "--world", "8", "--tp", "8", "--pp", "1")
#: repeats of one key in the hostile headers (the largest stays under the 64 KiB line cap)
HEADER_REPEATS = (2000, 4000, 8000)
#: Doubling the rows may at most double the time, with this much allowance for the noise of
#: a shared 2-core machine (see `linearity`).
GROWTH_LIMIT = 1.1


# ---------------------------------------------------------------------------- measuring


@dataclass
class Measurement:
    """Every timed run of one command on one input."""

    name: str
    size: str
    argv: list[str]
    times_s: list[float] = field(default_factory=list)
    #: user + system CPU seconds of each run (the command and anything it waited for)
    cpu_s: list[float] = field(default_factory=list)
    peak_rss_kb: list[int] = field(default_factory=list)
    exit_codes: list[int] = field(default_factory=list)
    error: str | None = None

    @property
    def median_s(self) -> float | None:
        return statistics.median(self.times_s) if self.times_s and not self.error else None

    @property
    def fastest_s(self) -> float | None:
        return min(self.times_s) if self.times_s and not self.error else None

    @property
    def median_cpu_s(self) -> float | None:
        return statistics.median(self.cpu_s) if self.cpu_s and not self.error else None

    @property
    def rss_kb(self) -> int | None:
        return max(self.peak_rss_kb) if self.peak_rss_kb and not self.error else None

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["median_s"] = self.median_s
        out["fastest_s"] = self.fastest_s
        out["median_cpu_s"] = self.median_cpu_s
        out["max_peak_rss_kb"] = self.rss_kb
        return out


def child_env(work: Path) -> dict[str, str]:
    """The environment of every timed command: Python's defaults, bytecode cache included.

    Some sandboxes set PYTHONDONTWRITEBYTECODE, which makes every run recompile wkparse
    from source; an installed package has its bytecode, so the benchmark caches it too, in
    the work folder rather than beside the sources.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    return env


@dataclass(frozen=True)
class Run:
    wall_s: float
    cpu_s: float
    peak_rss_kb: int
    exit_code: int
    stderr_tail: str


def run_once(argv: Sequence[str], cwd: Path, env: dict[str, str]) -> Run:
    """Run one command and say what it cost.

    A traceback on stderr counts as a failure (exit code -1) whatever the exit code was.
    """
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "time.txt"
        err_path = Path(scratch) / "stderr.txt"
        wrapped = [str(TIME), "-v", "-o", str(report), *argv] if TIME.exists() else list(argv)
        with err_path.open("wb") as err:
            start = time.perf_counter()
            child = subprocess.Popen(
                wrapped, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err
            )
            _, status, usage = os.wait4(child.pid, 0)
            wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        rss = usage.ru_maxrss
        if report.exists():
            rss = _time_rss(report.read_text(errors="replace")) or rss
        stderr = err_path.read_bytes()
        traceback = b"Traceback (most recent call last)" in stderr
        tail = stderr[-2000:].decode("utf-8", "replace")
        code = -1 if traceback and child.returncode >= 0 else child.returncode
        return Run(wall, usage.ru_utime + usage.ru_stime, rss, code, tail)


def _time_rss(report: str) -> int | None:
    for line in report.splitlines():
        if "Maximum resident set size" in line:
            return int(line.rsplit(":", 1)[1])
    return None


def measure(
    batch: list[Measurement], repeat: int, cwd: Path, env: dict[str, str], warm_up: bool = True
) -> None:
    """One untimed warm-up each (page cache, .pyc, Lark's cache), then interleaved runs.

    A command that fails (exit code above 1: 1 only means findings or a file to reformat)
    or prints a traceback is marked with its error and not timed again.
    """
    for rnd in range(0 if warm_up else 1, repeat + 1):
        for m in batch:
            if m.error:
                continue
            done = run_once(m.argv, cwd, env)
            code, tail = done.exit_code, done.stderr_tail
            if code > 1 or code < 0:
                m.error = f"exit code {code}: {tail.strip().splitlines()[-1:] or ['']}"[:500]
                continue
            if rnd == 0:
                continue
            m.times_s.append(round(done.wall_s, 4))
            m.cpu_s.append(round(done.cpu_s, 4))
            m.peak_rss_kb.append(done.peak_rss_kb)
            m.exit_codes.append(code)


# ---------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class Input:
    label: str
    path: Path
    rows: int
    bytes: int


def synthesize(rows: int, work: Path, label: str | None = None, distinct: bool = False) -> Input:
    """Write (or reuse) the AICB-shaped file of about `rows` rows in its own folder.

    `distinct`: every group's compute times jittered (`--jitter`, seeded), so that rows
    almost never repeat, as in profiled or inference files."""
    folder = work / (f"distinct-{rows}" if distinct else f"rows-{rows}")
    existing = sorted(folder.glob("*.txt")) if folder.is_dir() else []
    if not existing:
        folder.mkdir(parents=True, exist_ok=True)
        jitter = ["--jitter", str(JITTER), "--seed", "1"] if distinct else []
        subprocess.run(
            [
                sys.executable,
                str(HERE / "synthesize.py"),
                *SHAPE,
                *("--rows", str(rows), "-o", str(folder), *jitter),
            ],
            check=True,
            stderr=subprocess.DEVNULL,
        )
        existing = sorted(folder.glob("*.txt"))
    path = existing[0]
    with path.open("rb") as f:
        f.readline()
        declared = int(f.readline())
    return Input(label or _label(rows), path, declared, path.stat().st_size)


def aicb_command(rows: int) -> str:
    """The AICB command line that writes the synthesized file of about `rows` rows."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_synthesize", HERE / "synthesize.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look the module up while the class is built
    spec.loader.exec_module(module)
    config, _, _ = module.config_from_args([*SHAPE, "--rows", str(rows)])
    generator = "python -m workload_generator.SimAI_training_workload_generator"
    return " ".join([generator, *config.argv()])


def hostile_header(repeats: int, work: Path) -> Input:
    """A header repeating `ga: 1` `repeats` times, and no rows: every repeat is a finding
    with a fix, so any per-finding scan of the header shows up as quadratic time."""
    path = work / f"header-{repeats}" / "workload.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    header = "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 8 ep: 1 pp: 1 vpp: 36"
    path.write_text(f"{header}{' ga: 1' * repeats} all_gpus: 8 pp_comm: 0\n0\n")
    return Input(f"header-{_label(repeats)}", path, repeats, path.stat().st_size)


def edited_copy(original: Input, work: Path) -> Input:
    """The file with the first attention row's forward compute time changed wherever that
    row stands (every micro-batch group): what `wkparse diff` meets after a regeneration."""
    path = work / f"edited-{original.label}" / original.path.name
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        data = original.path.read_bytes()
        start = data.index(b"\nattention") + 1
        line = data[start : data.index(b"\n", start)]
        fields = line.split(b"\t")
        fields[2] = str(int(fields[2]) + 1000).encode()
        path.write_bytes(data.replace(line, b"\t".join(fields)))
    return Input(f"{original.label}-edited", path, original.rows, path.stat().st_size)


def _label(rows: int) -> str:
    if rows % 1_000_000 == 0:
        return f"{rows // 1_000_000}M"
    return f"{rows // 1000}k" if rows % 1000 == 0 else str(rows)


def corpus_files(corpus: Path) -> list[Path]:
    return sorted(corpus.rglob("*.txt")) if corpus.is_dir() else []


# ---------------------------------------------------------------------------- results


@dataclass
class Target:
    name: str
    measured: float | None
    limit: float
    unit: str
    note: str = ""

    @property
    def met(self) -> bool | None:
        return None if self.measured is None else self.measured <= self.limit

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "met": self.met}


def _ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None or b == 0 else round(a / b, 3)


def linearity(medians: list[float | None], rows: list[int]) -> dict[str, Any]:
    """How time grows with rows: each doubling's time ratio against its rows ratio.

    `growth` is the largest of (t(2N) / t(N)) / (2N / N) over the sizes after the tiny file
    (250k -> 500k -> 1M): at most 1.0 when doubling the rows at most doubles the time, which
    start-up keeps below 1.0 for a linear command. `us_per_row` is the cost per row at each
    size with start-up removed (minus the tiny file's time): informative only, since at 0.2
    to 0.5 us a row, 500k rows are about as long as start-up's run-to-run jitter here.
    """
    out: dict[str, Any] = {
        "rows": rows,
        "median_s": medians,
        "time_ratios": None,
        "us_per_row": None,
        "growth": None,
    }
    if len(rows) < 3 or any(m is None for m in medians):
        return out
    t = [float(m) for m in medians if m is not None]
    steps = range(2, len(rows))
    out["time_ratios"] = [round(t[i] / t[i - 1], 3) for i in steps]
    out["rows_ratios"] = [round(rows[i] / rows[i - 1], 3) for i in steps]
    out["us_per_row"] = [round((t[i] - t[0]) / (rows[i] - rows[0]) * 1e6, 4) for i in steps]
    out["growth"] = round(max(t[i] / t[i - 1] / (rows[i] / rows[i - 1]) for i in steps), 3)
    return out


def _file_targets(
    runs: dict[tuple[str, str], Measurement], big: Input, prefix: str = ""
) -> list[Target]:
    """Each command against the split loop, and each command's peak RSS, on one file."""
    targets: list[Target] = []
    for name, contender, baseline, limit in RATIO_TARGETS:
        targets.append(
            Target(
                prefix + name,
                _ratio(runs[contender, big.label].median_s, runs[baseline, big.label].median_s),
                limit,
                "x",
                runs[contender, big.label].error or "",
            )
        )
    for name in COMMANDS:
        rss = runs[name, big.label].rss_kb
        targets.append(
            Target(
                f"{prefix}{name} peak RSS / file size",
                _ratio(rss * 1024 if rss else None, big.bytes),
                RSS_LIMIT,
                "x",
                runs[name, big.label].error or "",
            )
        )
    return targets


def startup_targets(runs: dict[tuple[str, str], Measurement], tiny: Input) -> list[Target]:
    """lint of the tiny file against yamllint, when yamllint was measured."""
    startup, yaml = runs.get(("lint", tiny.label)), runs.get(("yamllint", "tiny"))
    if startup is None or yaml is None:
        return []
    return [
        Target(
            "start-up: lint of a tiny file / yamllint of a tiny YAML file",
            _ratio(startup.median_s, yaml.median_s),
            STARTUP_LIMIT,
            "x",
            startup.error or yaml.error or "",
        )
    ]


def _growth_target(name: str, lin: dict[str, Any], inputs: Sequence[Input], note: str) -> Target:
    sizes = " -> ".join(i.label.removeprefix("distinct-") for i in inputs)
    return Target(
        f"{name}: time ratio / rows ratio, {sizes}", lin["growth"], GROWTH_LIMIT, "x", note
    )


def simai_targets(runs: dict[tuple[str, str], Measurement], files: Sequence[Input]) -> list[Target]:
    """`wkparse simai --format csv` of each file against `wkparse lint` of it."""
    out = []
    for i in files:
        simai, lint_run = runs.get(("simai", i.label)), runs.get(("lint", i.label))
        if simai is None or lint_run is None:
            continue
        out.append(
            Target(
                f"simai --format csv / lint, {i.label}",
                _ratio(simai.median_s, lint_run.median_s),
                SIMAI_LIMIT,
                "x",
                simai.error or lint_run.error or "",
            )
        )
    return out


def simai_runs(wk: list[str], files: Sequence[Input]) -> dict[tuple[str, str], Measurement]:
    """`wkparse simai FILE --format csv` (the stated options: -g = all_gpus) of each file."""
    return {
        ("simai", i.label): Measurement(
            "simai", i.label, [*wk, "simai", str(i.path), "--format", "csv"]
        )
        for i in files
    }


def evaluate(
    runs: dict[tuple[str, str], Measurement],
    inputs: list[Input],
    has_corpus: bool,
    headers: Sequence[Input] = (),
    distinct: Sequence[Input] = (),
) -> tuple[list[Target], dict[str, Any]]:
    big = inputs[-1]
    targets = _file_targets(runs, big)
    if distinct:
        label = distinct[-1].label.removeprefix("distinct-")
        targets += _file_targets(runs, distinct[-1], f"distinct {label}: ")
    targets += startup_targets(runs, inputs[0])
    if has_corpus:
        whole, one = runs["lint", "corpus"], runs["lint", "small"]
        targets.append(
            Target(
                "lint whole corpus / one small file",
                _ratio(whole.median_s, one.median_s),
                CORPUS_LIMIT,
                "x",
                whole.error or one.error or "",
            )
        )
    diff_run, both = runs.get(("diff", big.label)), runs.get(("lint-both", big.label))
    if diff_run is not None and both is not None:
        targets.append(
            Target(
                f"diff of two {big.label}-row files / lint of both",
                _ratio(diff_run.median_s, both.median_s),
                DIFF_LIMIT,
                "x",
                diff_run.error or both.error or "",
            )
        )
    aicb_run = runs.get(("lint-aicb", big.label))
    if aicb_run is not None:
        lint_run = runs["lint", big.label]
        targets.append(
            Target(
                "lint --aicb-command / lint",
                _ratio(aicb_run.median_s, lint_run.median_s),
                AICB_LIMIT,
                "x",
                aicb_run.error or lint_run.error or "",
            )
        )
    targets += simai_targets(runs, [big, *distinct[-1:]])
    scaling: dict[str, Any] = {}
    rows = [i.rows for i in inputs]
    for name in ("split", *COMMANDS):
        lin = linearity([runs[name, i.label].median_s for i in inputs], rows)
        scaling[name] = lin
        if name == "split":
            continue  # the yardstick: its figures show how noisy the machine was
        targets.append(_growth_target(name, lin, inputs[1:], runs[name, big.label].error or ""))
        if distinct:
            sized = [inputs[0], *distinct]
            lin = linearity([runs[name, i.label].median_s for i in sized], [i.rows for i in sized])
            scaling[f"distinct-{name}"] = lin
            error = runs[name, distinct[-1].label].error or ""
            targets.append(_growth_target(f"distinct: {name}", lin, distinct, error))
    if headers:
        # The tiny file stands first, for start-up, as it does for the rows.
        sized = [inputs[0], *headers]
        lin = linearity([runs["lint", i.label].median_s for i in sized], [i.rows for i in sized])
        scaling["lint-header"] = lin
        sizes = " -> ".join(_label(i.rows) for i in headers)
        targets.append(
            Target(
                f"lint: time ratio / repeats ratio, header repeating a key {sizes} times",
                lin["growth"],
                GROWTH_LIMIT,
                "x",
                runs["lint", headers[-1].label].error or "",
            )
        )
    return targets, scaling


def machine() -> dict[str, Any]:
    model = ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    affinity = getattr(os, "sched_getaffinity", None)
    return {
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "cpu_count": os.cpu_count(),
        "usable_cpus": len(affinity(0)) if affinity else os.cpu_count(),
        "cpu_model": model,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "load_average_before": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "rss_source": "/usr/bin/time -v" if TIME.exists() else "os.wait4 rusage",
        "commit": _commit(),
        # start-up depends on them: typer 0.20 and later import pydantic to coerce parameters
        "typer": _version_of("typer"),
        "pydantic": _version_of("pydantic"),
    }


def _commit() -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return None
    return done.stdout.strip() or None


def _fmt_s(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _fmt_x(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


def _size(n: int) -> str:
    return (
        f"{n / 1e6:.0f} MB"
        if n >= 10e6
        else f"{n / 1e6:.1f} MB"
        if n >= 1e5
        else f"{n / 1e3:.0f} kB"
    )


def _verdict(met: bool | None) -> str:
    return "not measured" if met is None else "yes" if met else "NO"


def _times_table(doc: dict[str, Any], inputs: list[dict[str, Any]], title: str) -> list[str]:
    """Each command's median time per file and its peak RSS on the largest."""
    head = " | ".join(
        f"{i['label'].removeprefix('distinct-')}: {i['rows']:,} rows, {_size(i['bytes'])}"
        for i in inputs
    )
    lines = [f"| {title} | {head} | peak RSS, largest |", "|---" * (len(inputs) + 2) + "|"]
    largest = inputs[-1]
    for name in ("split", *COMMANDS):
        cells = []
        rss = None
        for i in inputs:
            run = doc["runs"].get(f"{name}@{i['label']}")
            cells.append(_fmt_s(run["median_s"]) + " s" if run and run["median_s"] else "-")
            if run and i is largest:
                rss = run["max_peak_rss_kb"]
        rss_text = (
            "-"
            if rss is None
            else f"{rss / 1024:.0f} MiB ({rss * 1024 / largest['bytes']:.2f}x file)"
        )
        label = "split loop" if name == "split" else f"wkparse {name}"
        lines.append(f"| {label} | {' | '.join(cells)} | {rss_text} |")
    return lines


def markdown(doc: dict[str, Any]) -> str:
    """The tables a README shows: targets, then raw times and memory per size, for the
    repeating files and for the distinct ones, then the start-up line."""
    lines = ["| measure | value | target | met |", "| --- | --- | --- | --- |"]
    for t in doc["targets"]:
        note = f" ({t['note']})" if t["note"] else ""
        lines.append(
            f"| {t['name']} | {_fmt_x(t['measured'])} | <= {t['limit']:g}x | "
            f"{_verdict(t['met'])}{note} |"
        )
    inputs = doc["inputs"]
    lines += ["", *_times_table(doc, inputs, "repeating rows (AICB)")]
    big = inputs[-1]["label"]
    for key, label in (
        ("lint@small", "lint one small file"),
        ("lint@corpus", "lint whole corpus"),
        (f"lint-both@{big}", f"lint of the {big} file and its edited copy"),
        (f"diff@{big}", f"diff of the {big} file and its edited copy"),
    ):
        run = doc["runs"].get(key)
        if run:
            value = _fmt_s(run["median_s"]) + " s" if run["median_s"] else run["error"] or "-"
            lines.append(f"| {label} | {value} |" + " |" * len(inputs))
    distinct = [inputs[0], *doc.get("distinct_inputs", [])[:-1]]
    if len(distinct) > 1:
        lines += ["", *_times_table(doc, distinct, "distinct rows (jittered)")]
        dump = doc["distinct_inputs"][-1]
        run, split = (doc["runs"].get(f"{k}@{dump['label']}") for k in ("parse-json", "split"))
        if run and split:
            rows, size = f"{dump['rows']:,}", _size(dump["bytes"])
            rss = run["max_peak_rss_kb"]
            ratio = _fmt_x(_ratio(run["median_s"], split["median_s"]))
            lines.append(
                f"| wkparse parse --format json, {rows} distinct rows ({size}) | "
                f"{_fmt_s(run['median_s'])} s ({ratio} the split loop) | "
                f"peak RSS {rss / 1024 if rss else 0:.0f} MiB |" + " |" * (len(distinct) - 1)
            )
    m = doc["machine"]
    lines += ["", startup_line(doc)] if startup_line(doc) else []
    load = m.get("load_average_before"), m.get("load_average_after")
    loads = " / ".join(f"{a[0]:.1f}" for a in load if a) or "unknown"
    lines += [
        "",
        f"{m['date']}, commit {str(m.get('commit') or 'unknown')[:12]}, {m['usable_cpus']} CPUs "
        f"({m['cpu_model'] or 'unknown'}), Python {m['python']}, load average {loads} "
        f"(before / after); median of {doc['config']['repeat']} interleaved runs each, "
        f"start-up included.",
    ]
    return "\n".join(lines) + "\n"


def startup_line(doc: dict[str, Any]) -> str:
    """The start-up comparison, in one sentence ("" when yamllint was not measured)."""
    runs = doc["runs"]
    tiny = doc["inputs"][0]
    lint, yaml, floor, bare = (
        runs.get(k)
        for k in (f"lint@{tiny['label']}", "yamllint@tiny", "typer-floor@tiny", "python@start-up")
    )
    if not lint or not yaml or not lint["median_s"] or not yaml["median_s"]:
        return ""
    ratio = _ratio(lint["median_s"], yaml["median_s"])
    typer = ""
    if floor and floor["median_s"]:
        over_floor = _ratio(lint["median_s"], floor["median_s"])
        typer = (
            f", the typer floor (`benchmarks/typer_floor.py`, typer "
            f"{doc['machine'].get('typer') or 'unknown'}) {_fmt_s(floor['median_s'])} s "
            f"(wkparse lint {_fmt_x(over_floor)} the floor; the floor "
            f"{_fmt_x(_ratio(floor['median_s'], yaml['median_s']))} yamllint)"
        )
    python = f", bare `python -c pass` {_fmt_s(bare['median_s'])} s" if bare else ""
    return (
        f"Start-up: `wkparse lint` of a {tiny['rows']}-row file {_fmt_s(lint['median_s'])} s, "
        f"`yamllint` of a tiny YAML file {_fmt_s(yaml['median_s'])} s ({_fmt_x(ratio)}, target "
        f"<= {STARTUP_LIMIT:g}x){typer}{python}."
    )


def _version_of(package: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return None


#: the manual's Speed page, whose tables sit between the two markers
SPEED_PAGE = ROOT / "docs" / "speed.md"
README_BEGIN = "<!-- benchmarks/run.py writes from here -->"
README_END = "<!-- to here -->"
#: RESULTS.md's start-up section, written by benchmarks/startup.py and kept when run.py
#: writes its tables above it
STARTUP_BEGIN = "<!-- benchmarks/startup.py writes from here -->"
STARTUP_END = "<!-- benchmarks/startup.py to here -->"


def with_startup_section(markdown: Path, table: str) -> str:
    """`table`, followed by the start-up section `markdown` has now (if it has one)."""
    old = markdown.read_text(encoding="utf-8") if markdown.exists() else ""
    if STARTUP_BEGIN not in old or STARTUP_END not in old:
        return table
    head, rest = old.split(STARTUP_BEGIN, 1)
    title = head.rstrip().rsplit("\n", 1)[-1]
    title = f"{title}\n\n" if title.startswith("#") else ""
    return f"{table}\n{title}{STARTUP_BEGIN}{rest.split(STARTUP_END, 1)[0]}{STARTUP_END}\n"


#: RESULTS.md from this line on is notes by hand (other benchmarks' figures), kept as it is
KEPT = "<!-- notes below are kept by benchmarks/run.py -->"


def kept_notes(markdown: Path) -> str:
    """What a rewrite of `markdown` keeps: its notes from the `KEPT` line on, if any."""
    old = markdown.read_text(encoding="utf-8") if markdown.exists() else ""
    return "\n" + old[old.index(KEPT) :] if KEPT in old else ""


def write_readme(readme: Path, table: str) -> bool:
    """Put the tables between the page's markers (docs/speed.md); False when it has none."""
    text = readme.read_text(encoding="utf-8")
    if README_BEGIN not in text or README_END not in text:
        return False
    head, rest = text.split(README_BEGIN, 1)
    _, tail = rest.split(README_END, 1)
    readme.write_text(f"{head}{README_BEGIN}\n{table}{README_END}{tail}", encoding="utf-8")
    return True


# ---------------------------------------------------------------------------- main


def _options(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="run.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, help="rows of the largest file (default 1,000,000)")
    p.add_argument("--repeat", type=int, help="timed runs per command (default 5)")
    p.add_argument(
        "--quick", action="store_true", help="4,000 rows, 1 run, no warm-up: a smoke test"
    )
    p.add_argument("--out", type=Path, help="JSON file to write")
    p.add_argument("--markdown", type=Path, help="Markdown table to write")
    p.add_argument(
        "--readme",
        type=Path,
        help="page whose speed tables to replace (default: docs/speed.md, the manual's Speed page)",
    )
    p.add_argument("--work", type=Path, help="folder for the generated files")
    p.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="files for the corpus run")
    p.add_argument(
        "--startup",
        action="store_true",
        help="only the start-up line: lint of a tiny file, yamllint, the typer floor (15 runs)",
    )
    ns = p.parse_args(argv)
    ns.rows = ns.rows or (4000 if ns.quick else 1_000_000)
    ns.repeat = ns.repeat or (1 if ns.quick else 15 if ns.startup else 5)
    if ns.out is None:
        ns.out = HERE / (
            "work/quick.json"
            if ns.quick
            else "work/startup.json"
            if ns.startup
            else "results/latest.json"
        )
    ns.work = ns.work or HERE / "work"
    if ns.repeat < 1:
        p.error("--repeat must be at least 1")
    if ns.startup:
        return ns  # no tables: nothing of the Speed page or RESULTS.md changes
    if ns.markdown is None and not ns.quick:
        ns.markdown = HERE / "RESULTS.md"
    if ns.readme is None and not ns.quick:
        ns.readme = SPEED_PAGE
    if ns.rows < 8 or ns.repeat < 1:
        p.error("--rows must be at least 8 and --repeat at least 1")
    return ns


def startup_runs(tiny: Input, work: Path) -> dict[tuple[str, str], Measurement]:
    """`wkparse lint` of the tiny file, yamllint of a tiny YAML file (when installed), the
    typer floor and a bare interpreter."""
    runs = {
        ("lint", tiny.label): Measurement(
            "lint",
            tiny.label,
            [sys.executable, "-m", "wkparse", *COMMANDS["lint"][0], str(tiny.path)],
        ),
        ("typer-floor", "tiny"): Measurement(
            "typer-floor",
            "tiny",
            [sys.executable, str(FLOOR), *COMMANDS["lint"][0], str(tiny.path)],
        ),
        ("python", "start-up"): Measurement("python", "start-up", [sys.executable, "-c", "pass"]),
    }
    if importlib.util.find_spec("yamllint") is not None:
        yaml = work / "tiny.yaml"
        yaml.write_text(TINY_YAML, encoding="utf-8")
        runs["yamllint", "tiny"] = Measurement(
            "yamllint", "tiny", [sys.executable, "-m", "yamllint", str(yaml)]
        )
    return runs


def run_startup(ns: argparse.Namespace) -> dict[str, Any]:
    """Only the start-up contenders (`--startup`): quick enough to repeat often, and to run
    from another venv (another typer) against the same files."""
    ns.work.mkdir(parents=True, exist_ok=True)
    tiny = synthesize(1, ns.work, "tiny")
    runs = startup_runs(tiny, ns.work)
    env = child_env(ns.work)
    about = machine()
    print(f"timing {len(runs)} commands, {ns.repeat} runs each after a warm-up...", file=sys.stderr)
    with tempfile.TemporaryDirectory() as cwd:
        measure(list(runs.values()), ns.repeat, Path(cwd), env)
    about["load_average_after"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    targets = startup_targets(runs, tiny)
    return {
        "schema": SCHEMA,
        "machine": about,
        "config": {"repeat": ns.repeat, "startup": True, "work": str(ns.work)},
        "inputs": [{**asdict(tiny), "path": tiny.path.name}],
        "runs": {f"{k[0]}@{k[1]}": m.to_json() for k, m in runs.items()},
        "targets": [t.to_json() for t in targets],
        "all_met": all(t.met for t in targets),
    }


def run(ns: argparse.Namespace) -> dict[str, Any]:
    ns.work.mkdir(parents=True, exist_ok=True)
    # The tiny file (one micro-batch group) measures each command's own start-up.
    inputs = [synthesize(1, ns.work, "tiny")]
    inputs += [synthesize(n, ns.work) for n in (ns.rows // 4, ns.rows // 2, ns.rows)]
    # The same shapes with rows that almost never repeat, and the JSON dump of a fifth.
    sizes = (ns.rows // 4, ns.rows // 2, ns.rows)
    distinct = [synthesize(n, ns.work, f"distinct-{_label(n)}", distinct=True) for n in sizes]
    dump = synthesize(ns.rows // 5, ns.work, f"distinct-{_label(ns.rows // 5)}", distinct=True)
    wk = [sys.executable, "-m", "wkparse"]
    runs: dict[tuple[str, str], Measurement] = {}
    for i in [*inputs, *distinct]:
        runs["split", i.label] = Measurement(
            "split", i.label, [sys.executable, "-c", SPLIT_LOOP, str(i.path)]
        )
        for name, (before, after) in COMMANDS.items():
            runs[name, i.label] = Measurement(name, i.label, [*wk, *before, str(i.path), *after])
    runs["split", dump.label] = Measurement(
        "split", dump.label, [sys.executable, "-c", SPLIT_LOOP, str(dump.path)]
    )
    runs["parse-json", dump.label] = Measurement(
        "parse-json", dump.label, [*wk, "parse", str(dump.path), "--format", "json"]
    )
    runs.update(startup_runs(inputs[0], ns.work))
    headers = [hostile_header(n, ns.work) for n in HEADER_REPEATS]
    for h in headers:
        runs["lint", h.label] = Measurement(
            "lint", h.label, [*wk, *COMMANDS["lint"][0], str(h.path)]
        )
    corpus = corpus_files(ns.corpus)
    if corpus:
        small = min(corpus, key=lambda p: (p.stat().st_size, str(p)))
        runs["lint", "small"] = Measurement("lint", "small", [*wk, "lint", str(small)])
        runs["lint", "corpus"] = Measurement(
            "lint", "corpus", [*wk, "lint", *(str(p) for p in corpus)]
        )
    big = inputs[-1]
    edited = edited_copy(big, ns.work)
    runs["diff", big.label] = Measurement(
        "diff", big.label, [*wk, "diff", str(big.path), str(edited.path)]
    )
    runs["lint-both", big.label] = Measurement(
        "lint-both", big.label, [*wk, *COMMANDS["lint"][0], str(big.path), str(edited.path)]
    )
    runs["lint-aicb", big.label] = Measurement(
        "lint-aicb",
        big.label,
        [*wk, *COMMANDS["lint"][0], "--aicb-command", aicb_command(ns.rows), str(big.path)],
    )
    runs.update(simai_runs(wk, [big, distinct[-1]]))
    env = child_env(ns.work)
    about = machine()
    warm = "" if ns.quick else " after a warm-up"
    print(f"timing {len(runs)} commands, {ns.repeat} runs each{warm}...", file=sys.stderr)
    # Outside the checkout, so no project configuration changes what lint runs.
    with tempfile.TemporaryDirectory() as cwd:
        measure(list(runs.values()), ns.repeat, Path(cwd), env, warm_up=not ns.quick)
    about["load_average_after"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    targets, scaling = evaluate(runs, inputs, bool(corpus), headers, distinct)
    return {
        "schema": SCHEMA,
        "machine": about,
        "config": {
            "rows": ns.rows,
            "repeat": ns.repeat,
            "quick": ns.quick,
            "corpus": str(ns.corpus) if corpus else None,
            "corpus_files": len(corpus),
            "bytecode_cache": env["PYTHONPYCACHEPREFIX"],
            "work": str(ns.work),
        },
        "inputs": [{**asdict(i), "path": i.path.name} for i in inputs],
        "distinct_inputs": [{**asdict(i), "path": i.path.name} for i in [*distinct, dump]],
        "runs": {f"{k[0]}@{k[1]}": m.to_json() for k, m in runs.items()},
        "targets": [t.to_json() for t in targets],
        "linearity": scaling,
        "all_met": all(t.met for t in targets),
    }


def main(argv: Sequence[str] | None = None) -> int:
    ns = _options(argv)
    if shutil.which(sys.executable) is None:
        print(f"error: cannot run {sys.executable}", file=sys.stderr)
        return 2
    if ns.startup:
        doc = run_startup(ns)
        ns.out.parent.mkdir(parents=True, exist_ok=True)
        ns.out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        print(startup_line(doc) or "yamllint is not installed: no start-up line")
        return 0 if doc["all_met"] else 1
    doc = run(ns)
    table = markdown(doc)
    ns.out.parent.mkdir(parents=True, exist_ok=True)
    ns.out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    if ns.markdown is not None:
        ns.markdown.write_text(
            with_startup_section(ns.markdown, table) + kept_notes(ns.markdown), encoding="utf-8"
        )
    print(table, end="")
    print(f"\nwrote {ns.out}" + (f" and {ns.markdown}" if ns.markdown else ""))
    if ns.readme is not None:
        if write_readme(ns.readme, table):
            print(f"wrote the speed tables of {ns.readme}")
        else:
            print(f"{ns.readme} has no {README_BEGIN} marker: not written", file=sys.stderr)
    return 0 if doc["all_met"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
