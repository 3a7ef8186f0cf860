"""How an answer names what it rests on: the user's line, and the file a model read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wkparse.threads import models, sources
from wkparse.threads.phrases import say

if TYPE_CHECKING:
    from wkparse.models.simai.versions import SimaiVersion


def line_of(line: int | None, lang: str) -> str:
    if line is None:
        return ""
    return say("evidence-title", lang) if line == 0 else say("evidence-line", lang, line=line)


def page(ident: str, lang: str) -> str:
    """A concept page as evidence: its id and its first source (where the page's fact is read)."""
    from wkparse.concepts import find

    found = find(ident)
    source = found.sources[0].cite() if found is not None and found.sources else ""
    return say("evidence-concept", lang, id=ident, source=source)


def basis(src: sources.Source, lang: str) -> str:
    if src.origin == "attachment":
        return say("basis-attachment", lang, name=src.name)
    if src.origin == "aicb":
        line = src.artefact.line if src.artefact else "?"
        made = say("basis-aicb", lang, revision=src.revision, line=line)
        return made + (say("basis-deleted", lang, n=src.deleted) if src.deleted else "")
    notes = []
    if src.cut_rows:
        notes.append(say("excerpt-cut", lang, n=src.cut_rows))
    if src.declared is not None:
        notes.append(say("excerpt-count", lang, declared=src.declared, shown=len(src.lines) - 2))
    excerpt = say("excerpt", lang, notes=say("list-sep", lang).join(notes)) if notes else ""
    line = src.artefact.line if src.artefact else "?"
    return say("basis-pasted", lang, line=line, excerpt=excerpt)


def simai_model(version: SimaiVersion, backend: str, lang: str) -> str:
    """What a prediction of SimAI at `version` rests on: SimAI-Analytical was run at every
    modelled version (what its later commits change only from source touches no analytical
    result: checkpoint ids, chart labels); the ns-3 backend at b83ea3d4, 02532997, 7f06c19c
    and the current one, so what it does at `version` otherwise is from SimAI's source, with
    the commits."""
    from wkparse.models.simai.ns3_endings import RUN_AT

    commits = models.source_only(version, backend)
    if backend != "ns3" or version == models.MODEL or (version.short in RUN_AT and not commits):
        return say("evidence-simai", lang, model=version.short)
    recorded = ", ".join(RUN_AT)
    if not commits:
        return say("evidence-ns3-near", lang, model=version.short, recorded=recorded)
    return say(
        "evidence-ns3-version",
        lang,
        model=version.short,
        recorded=recorded,
        commits=", ".join(commits),
    )
