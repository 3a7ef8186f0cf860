"""Which AICB wrote the file the user ran, where the thread shows its name: AICB's file names
changed across its history (a `{gpu_type}-` prefix from e0dab52 on, ...), so a name the user
quotes, even cut off, rules out the revisions that write another one for the same command.
That evidence beats a guess from a link, the submodule SimAI pinned or the thread's date; a
rebuild whose name still contradicts the thread's is not the user's file."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from wkparse.threads import checks, sources
from wkparse.threads.artefacts import Found

if TYPE_CHECKING:
    from wkparse.models.simai.versions import SimaiVersion
    from wkparse.threads.result import Triage


def _named_line(found: Found, made: sources.Source) -> tuple[int, str] | None:
    """The line and name of the AICB file name the thread gives that `made` writes."""
    for a in found.of("file-name"):
        base = PurePosixPath(a.text).name
        if "-world_size" in base and checks.same_name(base, made):
            return a.line, base
    return None


def _named_against(found: Found, made: sources.Source, others: list[sources.Source]) -> bool:
    """Whether the thread names an AICB file that is not `made`: a name of another of the
    thread's AICB commands' runs (the same `world_size...` part, which no revision changes)
    is that command's, not evidence against this one."""
    names = [PurePosixPath(a.text).name for a in found.of("file-name")]
    names = [n for n in names if "-world_size" in n]
    names = [
        n for n in names if not any(_run_part(o.name).startswith(_run_part(n)) for o in others)
    ]
    return bool(names) and not any(checks.same_name(n, made) for n in names)


def _run_part(name: str) -> str:
    """A file name from its `world_size` on: the run's sizes, written alike by every AICB
    revision after the prefixes (GPU type, model) that changed."""
    return name[name.find("world_size") :]


def _candidates(aicb: dict[str, object], pin: object, date: str | None) -> list[str]:
    """The AICB revisions to try, most likely first: master on the thread's date, the
    submodule SimAI pinned then, then every modelled revision up to that date, newest first
    (all of them without a date)."""
    from wkparse.models.aicb.revisions import REVISIONS, master_on

    day = sources._day(date)
    out: list[str] = []
    head = master_on(day) if day else None
    if head is not None:
        out.append(head[0][:7])
    if isinstance(pin, str) and pin and " " not in pin:
        out.append(pin)
    out += [r.short for r in reversed(REVISIONS) if day is None or r.date <= day]
    tried = {aicb.get("commit"), aicb.get("at")}
    return [c for c in dict.fromkeys(out) if c not in tried]


def choose(
    found: Found,
    rebuilds: list[sources.Rebuild],
    aicb: dict[str, object],
    simai: dict[str, object],
    date: str | None,
) -> list[sources.Rebuild]:
    """`rebuilds`, each whose file name the thread contradicts re-made at the AICB that
    writes the name the thread shows (and `aicb`, the JSON's version, updated to say so);
    one that no AICB up to the date writes is marked `not_users`."""
    out: list[sources.Rebuild] = []
    for rb in rebuilds:
        others = [o.source for o in rebuilds if o is not rb and o.source is not None]
        if rb.source is None or not _named_against(found, rb.source, others):
            out.append(rb)
            continue
        found_at = None
        for at in _candidates(aicb, simai.get("aicb_pin"), date):
            again = sources.rebuild(rb.artefact, at)
            if again.source is not None and not _named_against(found, again.source, others):
                found_at = (at, again)
                break
        if found_at is None:
            rb.not_users = True
            out.append(rb)
            continue
        at, again = found_at
        assert again.source is not None
        named = _named_line(found, again.source)
        _say_chosen(aicb, at, rb.source, named)
        out.append(again)
    return out


def _say_chosen(
    aicb: dict[str, object], at: str, other: sources.Source, named: tuple[int, str] | None
) -> None:
    """`aicb` now names the AICB `at`, chosen by the file name on a line of the thread."""
    from wkparse.models.aicb import AicbError
    from wkparse.models.aicb.revisions import dated, resolve

    line = named[0] if named else None
    instead = aicb.get("commit") or aicb.get("label")
    aicb.update(
        basis="name",
        line=line,
        at=at,
        commit=at[:7],
        commit_date=None,
        instead=instead,
        instead_writes=other.name,
        why=f"the file name on line {line} is what it writes",
    )
    label = dated(at[:7])
    if label != at[:7]:
        aicb["commit_date"] = label.split("(", 1)[1].rstrip(")")
    try:
        r = resolve(at)
        aicb.update(revision=r.label, short=r.short)
    except AicbError:
        pass
    for key in ("period", "within", "label"):
        aicb.pop(key, None)


#: what the models predict of a run that gives no number: a thread that reports a result it
#: got (and doubts) did not run that file on that SimAI
_NO_NUMBER = frozenset({"infinite", "nan"})


def run_contradicts(t: Triage, made: sources.Source, ran: SimaiVersion) -> str | None:
    """The outcome the models predict for the rebuild `made`, where it contradicts the run the
    thread reports (a result the user got, where the model gives none): then the file or the
    SimAI the user ran is not the one modelled, and nothing is said of the rebuild; None
    where they agree or the thread reports no result."""
    from wkparse.threads import models, symptoms
    from wkparse.threads.cause import agrees

    said = symptoms.reported(t.found.prose, [a.text for a in t.found.of("log")], t.thread.title)
    if not any(outcome == "finish" for outcome, _ in said):
        return None
    commands = [a.command for a in t.found.of("simai-command") if a.command is not None]
    backend = "ns3" if commands and all(c.backend == "ns3" for c in commands) else "analytical"
    try:
        p = models.run(made.data, backend, [], None, ran)
    except (ValueError, OSError):
        return None
    if p.outcome not in _NO_NUMBER or any(agrees(o, p.outcome) for o, _ in said):
        return None  # a result; or the thread also reports the NaN or infinity itself
    return p.outcome
