"""`wkparse traffic FILE [--format text|json|csv|html] [-o FILE] -- [VAR=VALUE ...]
[SimAI_simulator options]`: which GPU sends how many bytes to which, as SimAI_simulator's flow
model (the mock NCCL layer) issues them for one run of the file.

The topology is SimAI's: `-n TOPOLOGY` after `--` (a whole pasted command line with its `AS_*`
variables works too), or wkparse's `-g N [--gpus-per-server G] [--gpu-type T]`.

Exit codes: 0 when the run finishes; 1 when it stops before every pass finished (where and why
on standard error); 2 for input that cannot be used (a path, a topology, an option
SimAI_simulator refuses, a layout its mock cannot build).
"""

from __future__ import annotations

from pathlib import Path

from wkparse import terminal
from wkparse.models.simai.traffic import (
    NotModelled,
    Topology,
    TopologyError,
    TrafficError,
    TrafficRun,
    model_traffic,
    read_topology,
    stated,
)
from wkparse.models.simai.traffic.command_line import Refused, parse, unknown_variables
from wkparse.parse import Limits, read_input, shown_path

FORMATS = ("text", "json", "csv", "html")


def run(
    path: Path | None,
    simai_args: list[str] | None,
    gpus: int | None,
    per_server: int | None,
    gpu_type: str | None,
    format: str = "text",
    output: Path | None = None,
) -> int:
    errors = terminal.console(stderr=True)
    if format not in FORMATS:
        terminal.error(errors, f"unknown format {format!r} (text, json, csv or html)")
        return 2
    words = list(simai_args or [])
    if path is not None and "SimAI_simulator" in str(path):
        words, path = [str(path), *words], None
    try:
        command = parse(words)
    except Refused as exc:
        terminal.error(errors, f"SimAI_simulator's options: {exc}")
        return 2
    except ValueError as exc:  # shlex: an unclosed quote
        terminal.error(errors, f"cannot split SimAI_simulator's command line: {exc}")
        return 2
    if path is None and command.workload is not None:
        path = Path(command.workload)
    if path is None:
        terminal.error(errors, "no workload file (give FILE or -w after --)")
        return 2
    try:
        topology = _topology(gpus, per_server, gpu_type, command.topology)
    except TopologyError as exc:
        terminal.error(errors, str(exc))
        return 2
    for name in unknown_variables(command.env):
        terminal.say(
            errors, "note", f"{name}: no SimAI source reads it; it changes nothing", "yellow"
        )
    try:
        data = read_input(path, Limits())
    except OSError as exc:
        terminal.error(errors, f"{path}: {terminal.reason(exc)}")
        return 2
    shown = shown_path(path)  # `-` is <stdin>, as the other commands name it
    try:
        result = model_traffic(data, topology, command.env)
    except (TrafficError, NotModelled) as exc:
        terminal.error(errors, f"{shown}: {exc}")
        return 2
    code = terminal.write_page(_page(result, format, shown), _target(output), errors)
    if code:
        return code
    if result.stop is not None:
        from wkparse.render.traffic.words import stop_line

        terminal.say(errors, "exit 1", f"{shown}: {stop_line(result)}", "yellow")
        return 1
    return 0


def _target(output: Path | None) -> Path | None:
    return None if output is None or str(output) == "-" else output


def _topology(
    gpus: int | None, per_server: int | None, gpu_type: str | None, file: str | None
) -> Topology:
    if gpus is not None:
        if file is not None:
            raise TopologyError(f"-n {file} and -g {gpus}: give the topology one way")
        return stated(
            gpus, 8 if per_server is None else per_server, "H100" if gpu_type is None else gpu_type
        )
    if per_server is not None or gpu_type is not None:
        raise TopologyError("--gpus-per-server and --gpu-type go with -g N")
    if file is None:
        raise TopologyError("no topology: give SimAI_simulator's -n TOPOLOGY after --, or -g N")
    return read_topology(Path(file))


def _page(result: TrafficRun, format: str, path: str) -> str:
    if format == "json":
        from wkparse.render.traffic import json as traffic_json

        return traffic_json.render(result)
    if format == "csv":
        from wkparse.render.traffic import csv as traffic_csv

        return traffic_csv.render(result)
    if format == "html":
        from wkparse.render.traffic import html as traffic_html

        return traffic_html.render(result, path)
    from wkparse.render.traffic import text as traffic_text

    return traffic_text.render(result, path)
