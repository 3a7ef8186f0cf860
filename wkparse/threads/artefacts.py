"""Every artefact of a thread, with the line it is on: the kinds `--format json` names
(`aicb-command`, `simai-command`, `workload-header`, `workload-rows`, `file-name`,
`topology`, `log`, `attachment`).

Counting follows what a maintainer reads: a command split over lines is one command, a file
named twice is one file, a topology named by its generator command and by `-n` is one
topology, each pasted row is a row, each pasted output is one log."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from wkparse.models.simai.tables import KNOWN_COMMS, POLICIES
from wkparse.threads import commands, fences, topology
from wkparse.threads.commands import Command
from wkparse.threads.logs import CRASH
from wkparse.threads.reading import Thread

KINDS = (
    "aicb-command",
    "simai-command",
    "workload-header",
    "workload-rows",
    "file-name",
    "topology",
    "log",
    "attachment",
)

_HEADER = re.compile(
    r"^[\s`>$]*(" + "|".join(sorted(POLICIES, key=len, reverse=True)) + r")(?![\w])"
    r"((?:\s+\w+:\s*-?\d+)+.*)$"
)
_ROW = re.compile(r"(?<![\w-])([A-Za-z_][\w.-]*)\s+(-?\d+)\s+(-?\d+)\s+([A-Z][A-Z_]*)(?![\w])")
_TXT = re.compile(r"(?<![\w.+/~-])((?:[\w.~-]+/)*[\w.+-]*\.txt)(?![\w])")
_AICB_NAME = re.compile(r"(?<![\w.+/~-])((?:[\w.~-]+/)*[\w.+-]*-world_size\d+[\w.+-]*)")
_LOG_LINE = re.compile(
    r"^\s*(?:\*{3,}\s*info:|info:|DEBUG\s+-|INFO\s+-|WARNING\s+-|ERROR\s+-|chunk size is:"
    r"|id:\s.*depen:"
    r"|Layer issue|pass: \d+ finished|sim(?:ulation)? time|assert failed|terminate called"
    r"|Traceback \(most recent call last\)|File \".*\", line \d+|\w+Error:|\w+Exception:"
    r"|Segmentation fault|Aborted|Floating point exception|Killed$|\+ \S|\+\+ \S"
    r"|stat path:|CSV path and filename:|type: HYBRID|num passes|Warning|warning!|\*{5}"
    r"|CMake (?:Error|Warning)|-- (?:Configuring|Generating|Build files)"
    r"|[\w.-]+: (?:fatal )?error:)"
)
_ERRORISH = re.compile(
    r"(?i)error|denied|msg=|terminate called|traceback|exception|fault|no such file|not found"
    r"|assert|abort|core dumped|cannot|failed|undefined reference"
)
_CODE = re.compile(
    r"std::|^\s*def \w+\(|^\s*return\b|#include|;\s*$|\{\s*$|^\s*for\s*\(|^\s*import \w|"
    r"^\s*from \w[\w.]* import|^\s*[\w.\[\]]+\s*=\s*[\w.]+[(\[]|^\s*class \w+[(:]"
    r"|^\s*(?:if|elif|else|for|while|try|except|with)\b.*:\s*$|^\s*(?:break|continue|pass)\s*$"
)
#: a file given to some other program's option (`--merge-file gpt2-merges.txt`)
_OPTION_VALUE = re.compile(r"(?:^|\s)--?[\w-]+(?:=|\s+)$")
_LINK = re.compile(
    r"!\[[^\]]*\]\((\S+?)\)|<img[^>]*\ssrc=\"([^\"]+)\"|\[[^\]]*\]\((https?://\S+?)\)"
    r"|(?<![(\"])(https?://github\.com/user-attachments/\S+)"
)

#: an output or log file by name (`ncclFlowModel_EndToEnd.csv`, `SimAI.log`)
_OUTPUT_NAME = re.compile(r"(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]+\.(?:csv|log))(?![A-Za-z0-9_])")
#: a file the thread attaches under its name: `[SimAI.log](https://...)`
_NAMED_LINK = re.compile(r"(?<!!)\[([\w.+-]+\.(?:csv|log))\]\(https?://")


@dataclass
class Artefact:
    kind: str
    line: int
    text: str
    #: the command behind a command artefact, the topology behind a topology
    command: Command | None = field(default=None, repr=False)
    topology: topology.Topology | None = field(default=None, repr=False)

    def public(self) -> dict[str, object]:
        return {"kind": self.kind, "line": self.line, "text": self.text}


@dataclass
class Found:
    """The artefacts of a thread, and the parts later steps use."""

    artefacts: list[Artefact]
    commands: list[Command]
    topologies: list[topology.Topology]
    #: line number -> text of the pasted workload lines (header, count line, rows)
    workload_lines: list[tuple[int, str]]
    #: the prose with commands and logs taken out (for language and scope)
    prose: list[tuple[int, str]]

    def of(self, kind: str) -> list[Artefact]:
        return [a for a in self.artefacts if a.kind == kind]

    def counts(self) -> dict[str, int]:
        return {k: len(self.of(k)) for k in KINDS}


#: the longest line read as prose (a paragraph typed on one line is far shorter)
PROSE_LONGEST = 20_000


def extract(thread: Thread) -> Found:
    numbered = thread.numbered()
    shape = fences.layout(numbered)
    # blank lines carry nothing (fences and paragraphs are already cut where they stand); a
    # line longer than anyone writes is data, not words, and no question or artefact
    text_lines = [(n, t) for n, t in shape.prose if t.strip() and len(t) <= PROSE_LONGEST]
    prose = ([(0, thread.title)] if thread.title else []) + text_lines
    arts: list[Artefact] = []

    # commands: in the prose (title included) and in every fence; the title repeats the body
    found = commands.find(text_lines)
    for fence in shape.fences:
        found += commands.find(fence.lines)
    in_title = commands.find([(0, thread.title)])
    masking = found + in_title
    found += [c for c in in_title if not _repeated(c, found)]
    found.sort(key=lambda c: c.line)
    command_lines = {n for c in found for n in c.lines}
    for c in found:
        kind = {"aicb": "aicb-command", "simai": "simai-command"}.get(c.kind)
        if kind is not None:
            arts.append(Artefact(kind, c.line, c.text, command=c))

    # fences: workload, topology file, code, a command alone, or pasted output (a log)
    workload: list[tuple[int, str]] = []
    mentions: list[topology.Topology] = []
    logs: list[Artefact] = []
    for fence in shape.fences:
        body = [(n, t) for n, t in fence.lines if t.strip()]
        if not body:
            continue
        if any(_HEADER.match(t) or _row(t) for _, t in body):
            workload += body
            continue
        pasted = topology.from_file(body)
        if pasted is not None:
            mentions.append(pasted)
            continue
        if fence.info in ("python", "py", "cpp", "c++", "c") or sum(
            bool(_CODE.search(t)) for _, t in body
        ) * 3 >= len(body):
            continue
        if all(n in command_lines for n, _ in body):
            continue
        logs.append(Artefact("log", fence.start, _clip(fence.text())))

    # prose: pasted rows and headers, output lines, inline code
    spans = fences.spans(shape.prose)
    in_span = {s.line + i for s in spans for i in range(1, s.text.count("\n") + 1)}
    run: list[tuple[int, str]] = []
    for number, text in [*text_lines, (10**12, "")]:
        if number in in_span:
            continue
        if run and number != run[-1][0] + 1 and not _output_resumes(run[-1][0], number, text):
            # a blank line ends a pasted output, unless the output goes on after it
            logs.append(Artefact("log", run[0][0], _clip(_joined(run))))
            run = []
        if number not in command_lines and (
            _LOG_LINE.match(text) or (run and _inside_output(text, number, text_lines))
        ):
            run.append((number, text))
            continue
        if run:
            logs.append(Artefact("log", run[0][0], _clip(_joined(run))))
            run = []
        if (
            _HEADER.match(text)
            or _row(text)
            or (workload and re.fullmatch(r"\s*\d+\s*", text) and workload[-1][0] == number - 1)
        ):
            workload.append((number, text))
    for span in spans:
        if _row(span.text) and not any(n == span.line for n, _ in workload):
            workload.append((span.line, span.text))
        elif (
            _ERRORISH.search(span.text)
            and len(span.text.split()) >= 3
            and not commands.find([(span.line, span.text)])
        ):
            logs.append(Artefact("log", span.line, _clip(span.text)))
    logged = " ".join(a.text for a in logs)
    crashes: dict[str, int] = {}
    for number, text in prose:
        for m in CRASH.finditer(text):
            key = m.group(0)
            if key not in logged and not any(key in k or k in key for k in crashes):
                crashes[key] = number
    logs += [Artefact("log", n, k) for k, n in crashes.items()]
    workload.sort()
    for number, text in workload:
        if _HEADER.match(text):
            arts.append(Artefact("workload-header", number, text.strip(" `")))
        elif _row(text):
            arts.append(Artefact("workload-rows", number, text.strip(" `")))
    arts += logs

    # topologies: names, -n of SimAI_simulator, generator commands, pasted files
    in_log = {n for a in logs for n in range(a.line, a.line + a.text.count("\n") + 1)}
    pasted_links = [(n, t) for n, t in text_lines if topology.LINK_LINE.match(t)]
    if pasted_links:
        excerpt = topology.from_file(pasted_links)
        if excerpt is not None:
            mentions.append(excerpt)
    for number, text in prose + [x for f in shape.fences for x in f.lines]:
        if number in in_log:
            continue
        for m in topology.NAME.finditer(text):
            mentions.append(topology.from_name(m.group(1), number))
    for c in found:
        if c.kind == "simai" and c.backend == "ns3":
            name = c.option("-n", "--network-topo")
            if name:
                mentions.append(topology.from_name(name, c.line))
        elif c.kind == "topology":
            mentions.append(topology.from_generator(c))
    topologies = topology.merge(mentions)
    for t in topologies:
        arts.append(Artefact("topology", t.line, t.name or t.text, topology=t))

    # file names: -w of SimAI, AICB's names, deliberate .txt names in the prose
    names: dict[str, tuple[int, str]] = {}
    for c in found:
        if c.kind == "simai":
            w = c.option("-w", "--workload")
            if w:
                names.setdefault(PurePosixPath(w).name, (c.line, w))
    masked = _mask(prose, masking)
    for number, text in masked:
        if number in in_log:
            continue
        for pattern in (_AICB_NAME, _TXT):
            for m in pattern.finditer(text):
                path = m.group(1).strip(".")
                base = PurePosixPath(path).name
                if (
                    _file_name(path, base)
                    and not topology.NAME.fullmatch(base)
                    and not _OPTION_VALUE.search(text[: m.start()])
                ):
                    names.setdefault(base, (number, path))
    # the outputs and logs a thread is about (its title names them) or attaches by name
    for number, text in prose:
        outputs = _OUTPUT_NAME.finditer(text) if number == 0 else ()
        attached = (m for m in _NAMED_LINK.finditer(text))
        for m in (*outputs, *attached):
            names.setdefault(PurePosixPath(m.group(1)).name, (number, m.group(1)))
    for _base, (number, path) in sorted(names.items(), key=lambda kv: kv[1][0]):
        arts.append(Artefact("file-name", number, path))

    # attachments: images and files the thread links to
    for number, text in prose:
        for m in _LINK.finditer(text):
            url = next(g for g in m.groups() if g)
            if "user-attachments" in url or re.search(r"\.(txt|csv|log|png|jpe?g|zip|gz)$", url):
                arts.append(Artefact("attachment", number, url))

    arts.sort(key=lambda a: (a.line, KINDS.index(a.kind)))
    return Found(arts, found, topologies, workload, [p for p in masked if p[0] not in in_log])


def _inside_output(text: str, number: int, lines: list[tuple[int, str]]) -> bool:
    """Whether a line that is no log line by itself belongs to the output around it: an
    indented line, or a short or failing line, followed soon by a log line."""
    if text[:1].isspace():
        return True
    if not text.isascii() or (len(text.split()) > 6 and not _ERRORISH.search(text)):
        return False
    after = [t for n, t in lines if number < n <= number + 3]
    return any(_LOG_LINE.match(t) for t in after)


def _output_resumes(last: int, number: int, text: str) -> bool:
    """Whether an output goes on past blank lines: the next line is indented or a log line,
    within two lines of the last."""
    return number - last <= 3 and (text[:1].isspace() or bool(_LOG_LINE.match(text)))


def _row(text: str) -> bool:
    """A workload row: name, dependency, compute time, then a collective type SimAI knows."""
    m = _ROW.search(text)
    return (
        m is not None
        and m.group(4) in KNOWN_COMMS
        and (m.start() == 0 or not text[: m.start()].strip(" `>") or "`" in text[: m.start()])
    )


def _file_name(path: str, base: str) -> bool:
    """A workload's file name: AICB's, or one its user chose (not `flow.txt`-like outputs);
    AIOB's compute-time inputs are not workloads."""
    stem = base[: -len(".txt")] if base.endswith(".txt") else base
    if not stem or "aiob_inputs" in path:
        return False
    if "-world_size" in base or path.startswith(("example/", "./example/")):
        return True
    return bool(re.search(r"[_\-\d]|.[A-Z]", stem))


def _repeated(command: Command, found: list[Command]) -> bool:
    """Whether a command of the title is one of the body's (the title may add a word)."""
    return any(
        c.kind == command.kind
        and (c.text.startswith(command.text) or command.text.startswith(c.text))
        for c in found
    )


def _mask(prose: list[tuple[int, str]], found: list[Command]) -> list[tuple[int, str]]:
    """The prose with its command lines blanked (their words are read from the commands)."""
    lines = {n for c in found for n in c.lines}
    return [(n, "" if n in lines else t) for n, t in prose]


def _joined(run: list[tuple[int, str]]) -> str:
    """The lines of an output as pasted, the blank lines between them kept (so that its
    first line and its line count say which thread lines it covers)."""
    by_number = dict(run)
    return "\n".join(by_number.get(n, "") for n in range(run[0][0], run[-1][0] + 1))


def _clip(text: str, limit: int = 4000) -> str:
    return text if len(text) <= limit else text[:limit] + " ..."
