"""`wkparse simai FILE [--format text|json|csv] [--backend analytical|ns3] [-- SIMAI-OPTIONS]`:
what the real SimAI-Analytical (or SimAI-Simulation, the ns-3 backend) will read from a file,
how its run ends, and (analytical) the EndToEnd.csv it writes.

SimAI's options follow `--` as `SimAI_analytical` spells them (before it they are refused,
with where they go); a whole pasted command line (`./bin/SimAI_analytical -w FILE -g 128
...`, quoted or not) works too, its `NAME=value` variables the environment SimAI_analytical
never reads (`options.ENVIRONMENT_READ`). Without them wkparse states its own
set: `-g` = all_gpus (or wkparse's `-g`), `-g_p_s 8 -n_p_s 8`, SimAI's default bandwidths.

Exit codes, wkparse's own as in every command: 0 when SimAI would finish with a usable
result from the file as written; 1 when it would stop, crash, hang, warn, give no or an
infinite result, simulate layers the file does not hold or leave rows unread, when the
options do not fit the file, or when SimAI's option parser refuses them (SimAI's own exit
code, 255, 134 or 136, is in the output and the JSON's `outcome`); 2 when the path cannot be
read. A non-zero exit always says why on standard error, whatever the format.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from wkparse import terminal
from wkparse.cpp import INT_MAX
from wkparse.heap import keep_freed_memory
from wkparse.models.simai import SimaiRun, simulate
from wkparse.models.simai.options import Refusal, is_command, options_for, split_command
from wkparse.models.simai.versions import DEFAULT, SimaiVersion, UnknownVersion, resolve
from wkparse.parse import Limits, read_input, shown_path

if TYPE_CHECKING:
    from rich.console import Console

FORMATS = ("text", "json", "csv")
#: the workload's name in SimAI's options when it comes from standard input
STDIN_WORKLOAD = Path("workload.txt")
BACKENDS = ("analytical", "ns3")


#: the program each switch's backend names, as users run it
_PROGRAMS = {
    "analytical": "SimAI-Analytical",
    "ns3": "SimAI-Simulation (ns-3)",
    "both": "both backends",
}


def list_versions() -> str:
    """`wkparse simai --versions`: the modelled SimAI revisions, oldest first, each with what
    changed at it, in which backend and how that is known, in versions and programs (the
    switches' names and the recorded cases that show them are the tests')."""
    from wkparse.models.simai.versions import RECORDED, VERSIONS, changes_at

    out = []
    for v in VERSIONS:
        default = "  (default)" if v is DEFAULT else ""
        out.append(f"{v.label}  {v.subject}{default}")
        for s in changes_at(v):
            known = (
                f"SimAI built at the commit before and at {s.commit}, run on the same files"
                if s.evidence == RECORDED
                else s.evidence
            )
            out.append(f"  - {_PROGRAMS.get(s.backend, s.backend)} ({known})")
            out.append(f"    before: {s.before}")
            out.append(f"    from {s.commit}: {s.after}")
    return "\n".join(out) + "\n"


def why_not_clean(run: SimaiRun) -> str | None:
    """Why the run is not a clean one (exit 1), in one line; None when it is (exit 0)."""
    from wkparse.models.simai.reasons import ending
    from wkparse.render.simai.text import verdict

    # a NaN or absurd total is the outcome: it comes before the format warning
    o = ending(run)
    if o.exit_code != 0 or o.kind != "ok":
        return verdict(run)
    if run.first_undefined is not None or run.unread_rows:
        return verdict(run)
    if run.warnings:
        return f"SimAI prints: {run.warnings[0]}"
    if run.option_warnings:
        return run.option_warnings[0]
    if run.report is not None and run.report.broken:
        return "SimAI's report holds NaN or Inf (see the text output for where)"
    return None


def verdict_code(run: SimaiRun) -> int:
    return 0 if why_not_clean(run) is None else 1


def _workload(path: Path | None, words: list[str]) -> tuple[Path | None, list[str]]:
    """The file to read and SimAI's option words: a pasted command line may stand in the
    FILE place (its program path first, or all of it as one quoted string), and `-w` then
    names the file."""
    if path is not None:
        first = str(path)
        if " " in first and not words and is_command(first.split()):
            path, words = None, [first]
        elif is_command([first, *words]):
            path, words = None, [first, *words]
    words = split_command(words[0] if len(words) == 1 and " " in words[0] else words)
    if path is None and "-w" in words[:-1]:
        path = Path(words[words.index("-w") + 1])
    return path, words


def version_for(at: str | None, path: Path | None) -> SimaiVersion:
    """The SimAI to describe: `--at`, else the configuration's `simai` (the nearest
    .wkparse.toml or pyproject.toml above the file), else today's. Raises UnknownVersion or
    ConfigError."""
    if at is not None:
        return resolve(at)
    from wkparse.config import Resolver

    stdin = path is None or str(path) == "-"
    configured = Resolver().for_path(None if stdin else path).simai
    return DEFAULT if configured is None else resolve(configured)


def run(
    path: Path | None,
    gpus: int | None,
    format: str,
    simai_args: list[str] | None = None,
    backend: str = "analytical",
    at: str | None = None,
) -> int:
    errors = terminal.console(stderr=True)
    if backend not in BACKENDS:
        terminal.error(errors, f"unknown backend {backend!r}")
        return 2
    if format not in FORMATS or (backend == "ns3" and format == "csv"):
        terminal.error(errors, f"unknown format {format!r}")
        return 2
    if gpus is not None and gpus < 1:
        terminal.error(errors, "-g must be at least 1")
        return 2
    try:
        path, words = _workload(path, list(simai_args or []))
    except ValueError as exc:  # shlex: an unclosed quote in a pasted command line
        terminal.error(errors, f"cannot split SimAI's command line: {exc}")
        return 2
    if path is None:
        terminal.error(errors, "no workload file (give FILE or -w)")
        return 2
    from wkparse.config import ConfigError

    try:
        version = version_for(at, path)
    except (UnknownVersion, ConfigError) as exc:
        terminal.error(errors, f"--at {exc}" if at is not None else str(exc))
        return 2
    if str(path) != "-":
        keep_freed_memory(_size(path))
    try:
        data = read_input(path, Limits())
    except OSError as exc:
        terminal.error(errors, f"{path}: {terminal.reason(exc)}")
        return 2
    # standard input: named as every command names it, and for SimAI's -w and -r as explain
    # names it (`workload.txt`)
    workload = STDIN_WORKLOAD if str(path) == "-" else path
    path = Path(shown_path(path))
    if backend == "ns3":
        if gpus is not None and gpus > INT_MAX:
            terminal.error(errors, f"-g {gpus}: a topology's GPU count is a C int in SimAI")
            return 2
        return _ns3(data, gpus, format, str(path), version)
    options = options_for(workload, data, gpus, words, version)
    result = simulate(data, gpus, options, version)
    if isinstance(options, Refusal):
        # SimAI's own refusal, as it prints it; its exit code is told, not returned; which
        # option, and the SimAI versions that accept it, are in the exit-1 line (once)
        sys.stderr.write(options.stderr + "\n" if options.stderr else "")
        if format == "csv":
            sys.stdout.write(options.stdout)
            return _fails(errors, str(path), result)
    if format == "csv":
        report = result.report
        if report is not None:
            for chunk in report.csv_chunks():
                sys.stdout.write(chunk)
        elif result.outcome.kind not in ("hang", "no-result"):
            terminal.say(
                errors,
                "note",
                f"{path}: SimAI writes no EndToEnd.csv: {result.outcome.message.splitlines()[0]}",
                "yellow",
            )
    elif format == "json":
        from wkparse.render.simai import json as simai_json

        simai_json.write(result, sys.stdout)
    else:
        from wkparse.render.simai import text as simai_text

        sys.stdout.write(simai_text.render(result, str(path)))
    return _fails(errors, str(path), result)


def _size(path: Path) -> int | None:
    """The file's size, None if it cannot be told (the reading says why)."""
    try:
        return path.stat().st_size
    except OSError:
        return None


def _fails(errors: Console, path: str, run: SimaiRun) -> int:
    """wkparse's exit code for the run (0 or 1); a 1 says why on standard error."""
    why = why_not_clean(run)
    if why is None:
        return 0
    terminal.say(errors, "exit 1", f"{path}: {why}", "yellow")
    return 1


def _ns3(data: bytes, gpus: int | None, format: str, path: str, version: SimaiVersion) -> int:
    """SimAI-Simulation's run: 0 when it finishes cleanly and in reasonable time, else 1."""
    from wkparse.models.simai.ns3 import simulate_ns3
    from wkparse.render.simai import ns3 as simai_ns3

    result = simulate_ns3(data, gpus, version)
    if format == "json":
        simai_ns3.write(result, sys.stdout)
    else:
        sys.stdout.write(simai_ns3.render(result, path))
    clean = result.finishes and not result.warnings and not result.outcome.undefined
    if clean:
        return 0
    why = simai_ns3.verdict(result) if not result.finishes else None
    why = why or (result.warnings[0] if result.warnings else simai_ns3.verdict(result))
    terminal.say(terminal.console(stderr=True), "exit 1", f"{path}: {why}", "yellow")
    return 1
