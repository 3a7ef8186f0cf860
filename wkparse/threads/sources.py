"""The workload files a thread gives: attached (matched by name), rebuilt from its AICB
command with the AICB in force on the thread's date, or pasted (header and rows).

A pasted excerpt is usually cut: its last row may be incomplete and its count line larger
than the rows shown. It is run as what was shown (complete rows, count = rows shown), and
every statement built on it says so."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from wkparse.digits import whole_number
from wkparse.threads.artefacts import Artefact, Found

#: the fields a complete row has (name, dependency, then three compute/type/size triples, ...)
ROW_FIELDS = 12
_MAX_ATTACHMENT = 64 * 1024 * 1024


@dataclass
class Source:
    """One workload file the models can read."""

    name: str
    data: bytes
    #: "attachment", "aicb" or "pasted"
    origin: str
    #: the artefact it comes from (the file name, the AICB command, the pasted header)
    artefact: Artefact | None
    #: thread line of each line of `data` (pasted) — for tying findings to the user's text
    lines: list[int] = field(default_factory=list)
    #: what the pasted excerpt left out: incomplete rows dropped, and the count line as
    #: written when it is not the number of rows shown
    cut_rows: int = 0
    declared: int | None = None
    #: a paste of the header alone (no count line, no row): no run of it means anything
    header_only: bool = False

    @property
    def excerpt(self) -> bool:
        return bool(self.cut_rows) or self.declared is not None or self.header_only

    #: AICB's revision for a rebuilt file
    revision: str = ""
    #: a rebuilt file whose compute times are AICB's shipped ones, standing in for those the
    #: command measures on a GPU: its layout is the command's, its times (and totals) are not
    stand_in_times: bool = False
    #: the first rows the user says they deleted from a rebuilt file (deleted here too)
    deleted: int = 0

    def thread_line(self, file_line: int) -> int | None:
        if self.lines and 1 <= file_line <= len(self.lines):
            return self.lines[file_line - 1]
        return self.artefact.line if self.artefact else None


@dataclass
class Rebuild:
    """What the AICB model said about one command: a file, or why there is none."""

    artefact: Artefact
    source: Source | None
    #: why AICB's model writes no file for the command; with a `source`, that source is the
    #: layout only (the command's times could not be reproduced: `MeasuredOnGpu`)
    error: str = ""
    notes: tuple[str, ...] = ()
    #: the options the AICB model ran the command with (its `TrainingArgs` / `InferenceArgs`)
    args: object | None = None
    #: the thread shows a file name no modelled AICB writes for this command: the rebuild is
    #: not the user's file, and nothing is said of it
    not_users: bool = False


def attached(directory: Path | None, found: Found) -> list[Source]:
    """The files of `directory` (not below it), those the thread names first: by a file name
    it gives, or by the last part of an attachment link (`.../files/123/test.txt`)."""
    if directory is None or not directory.is_dir():
        return []
    named = {PurePosixPath(a.text.split("?")[0]).name: a for a in found.of("attachment")}
    named.update({PurePosixPath(a.text).name: a for a in found.of("file-name")})
    out: list[Source] = []
    for path in sorted(directory.iterdir(), key=lambda p: (p.name not in named, p.name)):
        try:
            if not path.is_file() or path.stat().st_size > _MAX_ATTACHMENT:
                continue
            data = path.read_bytes()
        except OSError:
            continue
        out.append(Source(path.name, data, "attachment", named.get(path.name)))
    return out


def rebuilt(found: Found, at: str | None) -> list[Rebuild]:
    """Each AICB command's file, as the AICB model at `at` (a commit, or a date YYYY-MM-DD:
    the revision in force then) writes it."""
    out: list[Rebuild] = []
    seen: set[tuple[str, ...]] = set()
    for art in found.of("aicb-command"):
        assert art.command is not None
        if tuple(art.command.words) in seen:
            continue  # the same command quoted again (a reply, a log)
        seen.add(tuple(art.command.words))
        out.append(rebuild(art, at))
    return out


def rebuild(art: Artefact, at: str | None) -> Rebuild:
    """One AICB command's file, as the AICB model at `at` writes it (or why none)."""
    from wkparse.models.aicb import AicbError, generate
    from wkparse.models.aicb.errors import MeasuredOnGpu
    from wkparse.models.aicb.training.aiob import SHIPPED

    assert art.command is not None
    words = list(art.command.words)
    refused = ""
    try:
        # the AICB of the thread's date only: a later one may write another file
        made = generate(words, at=at)
    except MeasuredOnGpu as exc:
        # refused as `wkparse aicb` and lint (WK601) refuse it; the layout (rows, sizes,
        # ga) does not depend on the GPU's times, so it is read with AICB's shipped ones
        refused = str(exc)
        try:
            made = generate([*words, "--comp_filepath", str(SHIPPED)], at=at)
        except AicbError as again:
            return Rebuild(art, None, str(again))
    except AicbError as exc:
        return Rebuild(art, None, str(exc))
    except Exception as exc:
        return Rebuild(art, None, f"{type(exc).__name__}: {exc}")
    revision = getattr(made.revision, "label", str(made.revision))
    source = Source(
        made.filename,
        made.text().encode(),
        "aicb",
        art,
        revision=revision,
        stand_in_times=bool(refused),
    )
    return Rebuild(art, source, refused, notes=tuple(made.notes), args=made.args)


def pasted(found: Found) -> Source | None:
    """The pasted header and rows as a file; None without a header."""
    headers = found.of("workload-header")
    if not headers:
        return None
    header = headers[0]
    rows = [a for a in found.of("workload-rows") if a.line > header.line]
    complete = [r for r in rows if len(r.text.split()) >= ROW_FIELDS]
    declared = next(
        (whole_number(t) for n, t in found.workload_lines if n == header.line + 1), None
    )
    text = "\n".join([header.text, str(len(complete))] + [r.text for r in complete]) + "\n"
    lines = [header.line, header.line + 1] + [r.line for r in complete]
    return Source(
        "pasted",
        text.encode(),
        "pasted",
        header,
        lines,
        cut_rows=len(rows) - len(complete),
        declared=declared if declared is not None and declared != len(complete) else None,
        header_only=not rows and declared is None,
    )


def matching(sources: list[Source], name: str) -> Source | None:
    """The source a SimAI `-w` names: same file name, or one a cut-off name begins."""
    base = PurePosixPath(name).name
    for s in sources:
        if s.name == base:
            return s
    if len(base) >= 12:
        for s in sources:
            if s.name.startswith(base) or base.startswith(s.name.removesuffix(".txt")):
                return s
    return None


def cut_off(src: Source, name: str) -> bool:
    """Whether `-w` names `src` by the start of its name only, or by a name without its
    `.txt`: the command line was cut there, so the options after it are not known."""
    base = PurePosixPath(name).name
    if base == src.name:
        return False
    return src.name.startswith(base) or ("." not in base and src.name.endswith(".txt"))


def _day(date: str | None) -> str | None:
    """A date AICB's history can resolve: YYYY-MM means the month's last day."""
    if not date:
        return None
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        return date
    if re.fullmatch(r"\d{4}-\d{2}", date):
        return f"{date}-31"
    return None
