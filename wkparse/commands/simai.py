"""`wkparse simai FILE [-g N] [--backend analytical|ns3]`: what the real SimAI-Analytical (or
SimAI-Simulation, the ns-3 backend) will read and do with a file.

Exit codes: 0 when SimAI would finish and every layer it simulates comes from the file; 1
when it would stop, crash, warn, or simulate layers the file does not hold; 2 when the path
cannot be read.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from wkparse import terminal
from wkparse.parse import Limits, read_stdin
from wkparse.simai import SimaiRun, simulate

FORMATS = ("text", "json")
BACKENDS = ("analytical", "ns3")


def read_input(path: Path, limits: Limits) -> bytes:
    """The file's bytes (stdin for `-`); raises OSError for what cannot be read whole."""
    if str(path) == "-":
        data = read_stdin(limits)
    else:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode) and not stat.S_ISFIFO(info.st_mode):
            raise OSError(0, "not a regular file")
        with path.open("rb") as stream:
            data = stream.read(limits.max_bytes + 1)
    if len(data) > limits.max_bytes:
        raise OSError(0, f"over the {limits.max_bytes:,}-byte limit")
    return data


def verdict_code(run: SimaiRun) -> int:
    clean = run.outcome.exit_code == 0 and run.first_undefined is None and not run.warnings
    return 0 if clean else 1


def run(path: Path, gpus: int | None, format: str, backend: str = "analytical") -> int:

    errors = terminal.console(stderr=True)
    if backend not in BACKENDS:
        terminal.error(errors, f"unknown backend {backend!r}")
        return 2
    if format not in FORMATS:
        terminal.error(errors, f"unknown format {format!r}")
        return 2
    if gpus is not None and gpus < 1:
        terminal.error(errors, "-g must be at least 1")
        return 2
    try:
        data = read_input(path, Limits())
    except OSError as exc:
        terminal.error(errors, f"{path}: {exc.strerror or exc}")
        return 2
    if backend == "ns3":
        return _ns3(data, gpus, format, str(path))
    result = simulate(data, gpus)
    if format == "json":
        from wkparse.render import simai_json

        simai_json.write(result, sys.stdout)
    else:
        from wkparse.render import simai_text

        sys.stdout.write(simai_text.render(result, str(path)))
    return verdict_code(result)


def _ns3(data: bytes, gpus: int | None, format: str, path: str) -> int:
    """SimAI-Simulation's run: 0 when it finishes cleanly and in reasonable time, else 1."""
    from wkparse.render import simai_ns3
    from wkparse.simai.ns3 import simulate_ns3

    result = simulate_ns3(data, gpus)
    if format == "json":
        simai_ns3.write(result, sys.stdout)
    else:
        sys.stdout.write(simai_ns3.render(result, path))
    clean = result.finishes and not result.warnings and not result.outcome.undefined
    return 0 if clean else 1
