"""Topologies as threads name them: a SimAI topology file's name (`-n`), the generator
command that wrote it, or the file pasted; with what each says about its GPU count.

A generator command and a name are the same topology when the name is the one the command
writes (same family, same GPU count); a pasted file is the one `-n` names when their GPU
counts do not disagree. SimAI's generator (`gen_Topo_Template.py`) names its files
`<family>_<gpus>g_<gpus per server>gps_..._<bandwidth>_<gpu type>`; older SimAI shipped
`HPN_7_0_<gpus>_gpus_<per server>_in_one_server_...`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import NamedTuple

from wkparse.digits import whole_number
from wkparse.threads.commands import Command

NAME = re.compile(
    r"(?<![\w+-])(?:[\w.~-]*/)?((?:HPN_7_0_\d+_gpus_\d+_in_one_server\w*)"
    r"|(?:(?:Spectrum-X|AlibabaHPN|DCN\+|No_Rail_Opti|Rail_Opti)\w*?_\d+g_\d+gps_[\w.+-]*))"
)
_NEW = re.compile(r"_(\d+)g_(\d+)gps_")
_OLD = re.compile(r"HPN_7_0_(\d+)_gpus_(\d+)_in_one_server")
_FAMILIES = ("Spectrum-X", "AlibabaHPN", "DCN+", "No_Rail_Opti", "Rail_Opti", "HPN_7_0")
#: line 1 of a topology file: nodes, GPUs per server, NVSwitches, switches, links, GPU type
FIRST_LINE = re.compile(r"^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([A-Za-z]\w*)\s*$")
#: a link line of a topology file: source, destination, rate, delay, error rate
LINK_LINE = re.compile(
    r"^\s*\d+\s+\d+\s+\d+(?:\.\d+)?[KMGT]?bps\s+\d+(?:\.\d+)?[mun]?s\s+\d+(?:\.\d+)?(?:e-?\d+)?\s*$"
)


@dataclass
class Topology:
    """What a thread says about one topology; None where it does not say."""

    source: str  # "name", "generator" or "file"
    line: int
    text: str
    name: str | None = None
    family: str | None = None
    gpus: int | None = None
    per_server: int | None = None


def from_name(name: str, line: int) -> Topology:
    base = PurePosixPath(name).name
    family = next((f for f in _FAMILIES if base.startswith(f)), None)
    gpus = per = None
    m = _NEW.search(base) or _OLD.search(base)
    if m:
        gpus, per = whole_number(m.group(1)), whole_number(m.group(2))
    return Topology("name", line, name, base, family, gpus, per)


def from_generator(command: Command) -> Topology:
    topo = command.option("-topo", "--topology")
    family = topo if topo is not None else "Rail_Opti" if command.flag("--ro") else "No_Rail_Opti"
    gpus = whole_number(command.option("-g", "--gpu"))
    per = whole_number(command.option("-gps", "--gpu_per_server"))
    if gpus is None:
        gpus = {"Spectrum-X": 4096, "AlibabaHPN": 15360, "DCN+": 512}.get(family, 32)
    return Topology("generator", command.line, command.text, None, family, gpus, per or 8)


class FirstLine(NamedTuple):
    """A topology file's first line."""

    nodes: int
    per_server: int
    nvswitches: int
    switches: int
    links: int
    gpu: str


def first_line(text: str) -> FirstLine | None:
    """`text` read as a topology file's first line (None: not such a line)."""
    m = FIRST_LINE.match(text)
    if m is None:
        return None
    nodes, per, nvs, switches, links = map(whole_number, m.groups()[:5])
    if nodes is None or per is None or nvs is None or switches is None or links is None:
        return None
    return FirstLine(nodes, per, nvs, switches, links, m.group(6))


def from_file(lines: list[tuple[int, str]]) -> Topology | None:
    """A pasted topology file: its GPU count is nodes - NVSwitches - switches."""
    for number, text in lines[:3]:
        line = first_line(text)
        if line is not None:
            gpus = line.nodes - line.nvswitches - line.switches
            per = line.per_server
            return Topology(
                "file", number, text.strip(), None, None, gpus if gpus > 0 else None, per
            )
    links = [(n, t) for n, t in lines if LINK_LINE.match(t)]
    if links and len(links) * 2 >= len(lines):  # link lines alone: an excerpt, no GPU count
        return Topology("file", links[0][0], links[0][1].strip())
    return None


def same(a: Topology, b: Topology) -> bool:
    """Whether two mentions are one topology."""
    if a.name and b.name:
        return a.name == b.name
    if "file" in (a.source, b.source):
        return a.gpus is None or b.gpus is None or a.gpus == b.gpus
    return (
        a.gpus is not None
        and a.gpus == b.gpus
        and a.family is not None
        and b.family is not None
        and (a.family.startswith(b.family) or b.family.startswith(a.family))
    )


def merge(mentions: list[Topology]) -> list[Topology]:
    """One entry per topology: names first, then generators, then pasted files."""
    order = {"name": 0, "generator": 1, "file": 2}
    kept: list[Topology] = []
    for t in sorted(mentions, key=lambda t: (order[t.source], t.line)):
        match = next((k for k in kept if same(k, t)), None)
        if match is None:
            kept.append(t)
        elif match.gpus is None:
            match.gpus, match.per_server = t.gpus, t.per_server
    return sorted(kept, key=lambda t: t.line)
